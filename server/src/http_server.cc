#include "waymesh/server/http_server.h"

#include <atomic>
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <deque>
#include <optional>
#include <sstream>
#include <thread>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "http_transport.h"
#include "spdlog/spdlog.h"
#include "waymesh/server/http_tls.h"

namespace waymesh::server {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;

// After an error answer the connection is closed; reading on (and discarding) for this long
// first lets the client see the answer instead of a reset from unread bytes.
constexpr auto kLingerTime = std::chrono::seconds(1);
constexpr size_t kLingerReadBytes = 16 << 10;
// ... but not forever: a client still sending a large body after its refusal is cut off.
constexpr uint64_t kLingerMaxBytes = 1 << 20;
// A refusal (503) must not hold its socket long: the server is busy already.
constexpr auto kRefusalWriteTime = std::chrono::seconds(1);
// Back-off after a failed accept (e.g. EMFILE), so the loop does not spin.
constexpr auto kAcceptRetryDelay = std::chrono::milliseconds(50);

std::chrono::nanoseconds ToChrono(absl::Duration d) { return absl::ToChronoNanoseconds(d); }

}  // namespace

class HttpConnection;

namespace {

// A connection reference for a handler that may answer, and drop its responder, on another
// thread (a worker): the reference is always released on the loop thread, because the last
// one runs the connection's destructor, which unregisters it from the loop's connection set.
class LoopBoundRef {
 public:
  LoopBoundRef(std::shared_ptr<HttpConnection> ref, asio::any_io_executor loop)
      : ref_(std::move(ref)), loop_(std::move(loop)) {}
  LoopBoundRef(const LoopBoundRef&) = default;
  LoopBoundRef(LoopBoundRef&&) = default;
  LoopBoundRef& operator=(const LoopBoundRef&) = delete;
  LoopBoundRef& operator=(LoopBoundRef&&) = delete;
  ~LoopBoundRef() {
    if (ref_) asio::post(loop_, [ref = std::move(ref_)] {});
  }
  // A plain reference, for a handler that runs (or is destroyed) on the loop thread.
  std::shared_ptr<HttpConnection> get() const { return ref_; }

 private:
  std::shared_ptr<HttpConnection> ref_;
  asio::any_io_executor loop_;
};

}  // namespace

struct HttpServer::Impl {
  HttpServerOptions options;
  std::map<std::string, HttpRoute> routes;
  // Connections register here (loop thread only); declared before the io_context so they can
  // unregister while it destroys their pending handlers.
  absl::flat_hash_set<HttpConnection*> connections;
  asio::io_context io{1};
  tcp::acceptor acceptor{io};
  asio::steady_timer accept_retry{io};
  std::thread thread;
  int port = 0;
  std::mutex stop_mu;
  bool stopped = false;
  bool closing = false;  // loop thread only

  std::atomic<uint64_t> requests{0}, refused_too_large{0}, refused_timeout{0}, refused_busy{0},
      evicted_idle{0}, bad_requests{0}, failed_handshakes{0};
  std::atomic<int64_t> open_connections{0}, open_streams{0};

  void Accept();
  // The route answering `path`: its exact one, else the longest prefix route above it.
  const HttpRoute* FindRoute(const std::string& path) const;
  void Admit(tcp::socket socket);
  // The connection that has waited longest for its request (or handshake), or null when all
  // are busy.
  HttpConnection* OldestWaiting() const;
  void CloseAll();
};

// One TCP connection: (with TLS, shakes hands first,) waits for a request, reads it within the
// limits, answers, repeats.
class HttpConnection : public std::enable_shared_from_this<HttpConnection> {
 public:
  enum class State {
    kHandshaking,
    kIdle,
    kReading,
    kAnswering,
    kWriting,
    kStreaming,
    kRefusing,
    kClosed
  };

  HttpConnection(HttpServer::Impl* server, tcp::socket socket)
      : server_(server),
        transport_(std::move(socket), server->options.tls.get()),
        timer_(transport_.get_executor()),
        heartbeat_(transport_.get_executor()) {
    server_->connections.insert(this);
    server_->open_connections.fetch_add(1, std::memory_order_relaxed);
  }
  ~HttpConnection() {
    DetachStream();
    server_->connections.erase(this);
    server_->open_connections.fetch_sub(1, std::memory_order_relaxed);
  }

  void Start() {
    if (transport_.tls()) return Handshake();
    WaitForRequest();
  }
  // Answers 503 at once and closes: the server has no room for this connection. (A TLS
  // connection is closed unanswered: a handshake would cost the busy server more.)
  void Refuse() {
    server_->refused_busy.fetch_add(1, std::memory_order_relaxed);
    if (transport_.tls()) return Close();
    SendError(http::status::service_unavailable, "too many connections; retry\n", 11,
              kRefusalWriteTime);
  }

  State state() const { return state_; }
  Clock::time_point waiting_since() const { return waiting_since_; }
  void Close() {
    state_ = State::kClosed;
    transport_.Close();
    timer_.cancel();
    heartbeat_.cancel();
    DetachStream();
  }

 private:
  // Arms the connection's one timer; `on_expiry` runs unless the state moved on meanwhile.
  template <typename OnExpiry>
  void Arm(std::chrono::nanoseconds after, OnExpiry on_expiry) {
    const uint64_t generation = ++generation_;
    timer_.expires_after(after);
    timer_.async_wait([self = shared_from_this(), generation, on_expiry](beast::error_code ec) {
      if (ec || generation != self->generation_ || self->state_ == State::kClosed) return;
      on_expiry(*self);
    });
  }

  // A client has request_timeout to complete its TLS handshake: one that connects and says
  // nothing (or speaks plain HTTP, which fails the handshake) is cut like a trickled request.
  void Handshake() {
    state_ = State::kHandshaking;
    waiting_since_ = Clock::now();
    Arm(ToChrono(server_->options.limits.request_timeout), [](HttpConnection& c) {
      c.server_->refused_timeout.fetch_add(1, std::memory_order_relaxed);
      c.Close();
    });
    transport_.AsyncHandshake([self = shared_from_this()](beast::error_code ec) {
      if (self->state_ != State::kHandshaking) return;  // timed out or evicted meanwhile
      if (ec) {
        self->server_->failed_handshakes.fetch_add(1, std::memory_order_relaxed);
        spdlog::debug("{}: TLS handshake failed: {}", self->server_->options.name, ec.message());
        return self->Close();
      }
      self->WaitForRequest();
    });
  }

  void WaitForRequest() {
    state_ = State::kIdle;
    waiting_since_ = Clock::now();
    if (buffer_.size() > 0) {  // a pipelined request is read already
      ReadRequest();
      return;
    }
    Arm(ToChrono(server_->options.limits.idle_timeout), [](HttpConnection& c) { c.Close(); });
    transport_.AsyncWaitForData(buffer_, [self = shared_from_this()](beast::error_code ec) {
      if (self->state_ != State::kIdle) return;
      if (ec) return self->Close();  // the client left (or broke its TLS session)
      self->ReadRequest();
    });
  }

  void ReadRequest() {
    state_ = State::kReading;
    const HttpLimits& limits = server_->options.limits;
    parser_.emplace();
    parser_->header_limit(limits.max_header_bytes);
    parser_->body_limit(limits.max_body_bytes);
    timed_out_ = false;
    Arm(ToChrono(limits.request_timeout), [](HttpConnection& c) {
      c.timed_out_ = true;
      c.transport_.Cancel();  // the read ends with operation_aborted
    });
    http::async_read(
        transport_, buffer_, *parser_,
        [self = shared_from_this()](beast::error_code ec, size_t) { self->OnRead(ec); });
  }

  void OnRead(beast::error_code ec) {
    if (state_ != State::kReading) return;  // closed or evicted meanwhile
    if (!ec) {
      Answer();
      return;
    }
    HttpServer::Impl& s = *server_;
    if (timed_out_) {
      s.refused_timeout.fetch_add(1, std::memory_order_relaxed);
      SendError(http::status::request_timeout, "request not received in time\n", 11,
                ToChrono(s.options.limits.write_timeout));
    } else if (ec == http::error::body_limit) {
      s.refused_too_large.fetch_add(1, std::memory_order_relaxed);
      SendError(http::status::payload_too_large,
                absl::StrCat("request body over ", s.options.limits.max_body_bytes, " bytes\n"),
                parser_->get().version(), ToChrono(s.options.limits.write_timeout));
    } else if (ec == http::error::header_limit || ec == http::error::buffer_overflow) {
      s.refused_too_large.fetch_add(1, std::memory_order_relaxed);
      SendError(http::status::request_header_fields_too_large,
                absl::StrCat("request line and headers over ", s.options.limits.max_header_bytes,
                             " bytes\n"),
                11, ToChrono(s.options.limits.write_timeout));
    } else if (ec == http::error::end_of_stream || ec == asio::error::eof ||
               ec == asio::error::connection_reset || ec == http::error::partial_message ||
               IsTlsFailure(ec)) {
      Close();  // the client went away
    } else {
      s.bad_requests.fetch_add(1, std::memory_order_relaxed);
      SendError(http::status::bad_request, absl::StrCat("bad request: ", ec.message(), "\n"), 11,
                ToChrono(s.options.limits.write_timeout));
    }
  }

  void Answer() {
    http::request<http::string_body> request = parser_->release();
    parser_.reset();
    HttpServer::Impl& s = *server_;
    HttpRequest req;
    req.method = std::string(request.method_string());
    const beast::string_view target = request.target();
    const size_t q = target.find('?');
    req.path = std::string(target.substr(0, q));
    if (q != beast::string_view::npos) req.query = std::string(target.substr(q + 1));
    req.authorization = std::string(request[http::field::authorization]);
    req.body = std::move(request.body());
    version_ = request.version();
    keep_alive_ = request.keep_alive();
    head_ = request.method() == http::verb::head;

    const HttpRoute* route = s.FindRoute(req.path);
    if (route == nullptr) {
      Respond({404, "text/plain; charset=utf-8", "not found\n"});
      return;
    }
    const std::string& method = route->method;
    if (req.method != method && !(head_ && method == "GET")) {
      s.bad_requests.fetch_add(1, std::memory_order_relaxed);
      const std::string allow = method == "GET" ? "GET, HEAD" : method;
      Respond({405,
               "text/plain; charset=utf-8",
               absl::StrCat("only ", allow, "\n"),
               {{"Allow", allow}}});
      return;
    }
    // Busy until the handler answers: not a waiting connection, so never evicted meanwhile.
    state_ = State::kAnswering;
    const uint64_t answer = ++answers_;
    auto executor = transport_.get_executor();
    HttpResponder respond = [held = LoopBoundRef(shared_from_this(), executor), answer,
                             executor](HttpResponse r) {
      asio::post(executor, [self = held.get(), answer, r = std::move(r)]() mutable {
        if (self->state_ != State::kAnswering || self->answers_ != answer) {
          if (r.stream) r.stream->Detach();  // never written: its owner learns it is closed
          return;
        }
        self->Respond(std::move(r));
      });
    };
    try {
      route->handler(std::move(req), std::move(respond));
    } catch (const std::exception& e) {
      spdlog::error("{}: handler of {} failed: {}", s.options.name, req.path, e.what());
      Respond({500, "text/plain; charset=utf-8", "internal error\n"});
    }
  }

  // Writes the answer to the request read last.
  void Respond(HttpResponse answer) {
    HttpServer::Impl& s = *server_;
    if (answer.stream != nullptr) {
      if (!head_ && !s.closing) return StartStream(std::move(answer));
      answer.stream->Detach();
      answer.stream = nullptr;
    }
    s.requests.fetch_add(1, std::memory_order_relaxed);
    response_.emplace(static_cast<http::status>(answer.status), version_);
    response_->set(http::field::content_type, answer.content_type);
    for (const auto& [name, value] : answer.headers) response_->set(name, value);
    response_->keep_alive(keep_alive_ && !s.closing);
    response_->content_length(answer.body.size());
    if (!head_) response_->body() = std::move(answer.body);
    Write(State::kWriting, ToChrono(s.options.limits.write_timeout));
  }

  // Writes response_; then waits for the next request, or closes.
  void Write(State state, std::chrono::nanoseconds timeout) {
    state_ = state;
    Arm(timeout, [](HttpConnection& c) { c.Close(); });
    http::async_write(
        transport_, *response_,
        [self = shared_from_this()](beast::error_code ec, size_t) { self->OnWritten(ec); });
  }

  void OnWritten(beast::error_code ec) {
    if (state_ == State::kClosed) return;
    const bool again = !ec && state_ == State::kWriting && response_->keep_alive();
    response_.reset();
    if (again) {
      WaitForRequest();
    } else if (ec) {
      Close();
    } else {
      Linger();
    }
  }

  // Writes the answer's header and body, then the stream's pieces as they come.
  void StartStream(HttpResponse answer) {
    HttpServer::Impl& s = *server_;
    s.requests.fetch_add(1, std::memory_order_relaxed);
    s.open_streams.fetch_add(1, std::memory_order_relaxed);
    http::response<http::empty_body> header(static_cast<http::status>(answer.status), version_);
    header.set(http::field::content_type, answer.content_type);
    for (const auto& [name, value] : answer.headers) header.set(name, value);
    header.keep_alive(false);  // the body ends when the connection does
    std::ostringstream text;
    text << header.base();
    state_ = State::kStreaming;
    stream_ = std::move(answer.stream);
    last_piece_at_ = Clock::now();
    QueuePiece(text.str() + answer.body, false);
    // Pieces arrive from any thread; they are written here, on the loop thread. The stream
    // holds the connection weakly: a closed connection is not kept alive by its stream.
    std::weak_ptr<HttpConnection> weak = weak_from_this();
    auto loop = transport_.get_executor();
    stream_->Attach(
        [weak, loop](std::string piece) {
          asio::post(loop, [weak, piece = std::move(piece)]() mutable {
            if (auto self = weak.lock()) self->QueuePiece(std::move(piece), true);
          });
        },
        [weak, loop] {
          asio::post(loop, [weak] {
            if (auto self = weak.lock()) self->FinishStream();
          });
        });
    ArmHeartbeat();
    DiscardInput();  // what the client sends is dropped; its end of input closes
  }

  void QueuePiece(std::string piece, bool counted) {
    if (state_ != State::kStreaming) return;
    pieces_.push_back({std::move(piece), counted});
    if (!piece_writing_) WritePiece();
  }

  void WritePiece() {
    piece_writing_ = true;
    Arm(ToChrono(server_->options.limits.write_timeout), [](HttpConnection& c) { c.Close(); });
    asio::async_write(
        transport_, asio::buffer(pieces_.front().text),
        [self = shared_from_this()](beast::error_code ec, size_t) { self->OnPieceWritten(ec); });
  }

  void OnPieceWritten(beast::error_code ec) {
    piece_writing_ = false;
    if (state_ != State::kStreaming) return;
    if (ec) return Close();
    ++generation_;  // disarms the write timer
    if (pieces_.front().counted && stream_) stream_->Taken(pieces_.front().text.size());
    last_piece_at_ = Clock::now();
    pieces_.pop_front();
    if (!pieces_.empty()) return WritePiece();
    if (stream_finishing_) EndStream();
  }

  // The stream closed on the server's side: end the response once it is all written.
  void FinishStream() {
    if (state_ != State::kStreaming || stream_finishing_) return;
    stream_finishing_ = true;
    if (!piece_writing_ && pieces_.empty()) EndStream();
  }

  void EndStream() {
    heartbeat_.cancel();
    transport_.ShutdownSend(shared_from_this());
    // The pending read (DiscardInput) sees the client close; if it never does, this closes.
    Arm(kLingerTime, [](HttpConnection& c) { c.Close(); });
  }

  // A heartbeat goes when nothing was written for the stream's heartbeat interval.
  void ArmHeartbeat() {
    const auto interval = ToChrono(stream_->options().heartbeat);
    const Clock::time_point now = Clock::now();
    // While a write is pending the next check waits a whole interval (no spinning).
    heartbeat_.expires_at(pieces_.empty() ? std::max(now, last_piece_at_ + interval)
                                          : now + interval);
    heartbeat_.async_wait([self = shared_from_this(), interval](beast::error_code ec) {
      if (ec || self->state_ != State::kStreaming || self->stream_finishing_) return;
      if (self->pieces_.empty() && Clock::now() >= self->last_piece_at_ + interval) {
        self->QueuePiece(self->stream_->options().heartbeat_text, false);
      }
      self->ArmHeartbeat();
    });
  }

  void DetachStream() {
    if (stream_ == nullptr) return;
    server_->open_streams.fetch_sub(1, std::memory_order_relaxed);
    std::shared_ptr<HttpStream> stream = std::move(stream_);
    stream->Detach();
  }

  void SendError(http::status status, std::string text, unsigned version,
                 std::chrono::nanoseconds timeout) {
    parser_.reset();
    response_.emplace(status, version);
    response_->set(http::field::content_type, "text/plain; charset=utf-8");
    response_->keep_alive(false);
    response_->body() = std::move(text);
    response_->prepare_payload();
    Write(State::kRefusing, timeout);
  }

  // Half-closes, then discards what the client still sends for a moment before closing.
  void Linger() {
    state_ = State::kRefusing;
    transport_.ShutdownSend(shared_from_this());
    Arm(kLingerTime, [](HttpConnection& c) { c.Close(); });
    DiscardInput();
  }

  void DiscardInput() {
    if (!discard_) discard_ = std::make_unique<char[]>(kLingerReadBytes);
    transport_.async_read_some(asio::buffer(discard_.get(), kLingerReadBytes),
                               [self = shared_from_this()](beast::error_code ec, size_t n) {
                                 if (self->state_ == State::kClosed) return;
                                 self->discarded_ += n;
                                 if (ec || self->discarded_ > kLingerMaxBytes) {
                                   self->Close();
                                 } else {
                                   self->DiscardInput();
                                 }
                               });
  }

  HttpServer::Impl* server_;
  HttpTransport transport_;
  asio::steady_timer timer_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  std::optional<http::response<http::string_body>> response_;
  std::unique_ptr<char[]> discard_;
  // A streamed answer: its pieces in order (counted: against the stream's backlog).
  struct Piece {
    std::string text;
    bool counted;
  };
  asio::steady_timer heartbeat_;
  std::shared_ptr<HttpStream> stream_;
  std::deque<Piece> pieces_;
  bool piece_writing_ = false;
  Clock::time_point last_piece_at_;  // the last piece written
  bool stream_finishing_ = false;
  uint64_t discarded_ = 0;  // bytes read and dropped while lingering
  State state_ = State::kIdle;
  Clock::time_point waiting_since_;
  uint64_t generation_ = 0;
  bool timed_out_ = false;
  // Of the request being answered.
  unsigned version_ = 11;
  bool keep_alive_ = false;
  bool head_ = false;
  uint64_t answers_ = 0;  // requests handed to handlers; a late answer must match the latest
};

void HttpServer::Impl::Accept() {
  acceptor.async_accept(io, [this](beast::error_code ec, tcp::socket socket) {
    if (closing) return;
    if (ec) {
      // Out of descriptors or a transient network error: try again shortly.
      accept_retry.expires_after(kAcceptRetryDelay);
      accept_retry.async_wait([this](beast::error_code wait_ec) {
        if (!wait_ec && !closing) Accept();
      });
      return;
    }
    Admit(std::move(socket));
    Accept();
  });
}

const HttpRoute* HttpServer::Impl::FindRoute(const std::string& path) const {
  if (auto exact = routes.find(path); exact != routes.end()) return &exact->second;
  const HttpRoute* best = nullptr;
  size_t best_length = 0;
  for (const auto& [prefix, route] : routes) {
    if (route.prefix && prefix.size() > best_length && path.starts_with(prefix)) {
      best = &route;
      best_length = prefix.size();
    }
  }
  return best;
}

HttpConnection* HttpServer::Impl::OldestWaiting() const {
  HttpConnection* oldest = nullptr;
  for (HttpConnection* c : connections) {
    const auto state = c->state();
    if (state != HttpConnection::State::kHandshaking && state != HttpConnection::State::kIdle &&
        state != HttpConnection::State::kReading) {
      continue;
    }
    if (oldest == nullptr || c->waiting_since() < oldest->waiting_since()) oldest = c;
  }
  return oldest;
}

void HttpServer::Impl::Admit(tcp::socket socket) {
  const int cap = options.limits.max_connections;
  if (static_cast<int>(connections.size()) >= cap) {
    if (HttpConnection* oldest = OldestWaiting()) {
      evicted_idle.fetch_add(1, std::memory_order_relaxed);
      oldest->Close();
    }
  }
  auto connection = std::make_shared<HttpConnection>(this, std::move(socket));
  // Counted with the newcomer: a closed connection leaves the set when its handlers have run.
  int live = 0;
  for (HttpConnection* c : connections) live += c->state() != HttpConnection::State::kClosed;
  if (live <= cap) {
    connection->Start();
  } else if (live <= 2 * cap) {
    connection->Refuse();  // every other connection is being answered
  } else {
    refused_busy.fetch_add(1, std::memory_order_relaxed);
    connection->Close();  // refusals pile up too: no answer at all
  }
}

void HttpServer::Impl::CloseAll() {
  closing = true;
  beast::error_code ignored;
  acceptor.close(ignored);
  accept_retry.cancel();
  std::vector<HttpConnection*> all(connections.begin(), connections.end());
  for (HttpConnection* c : all) c->Close();
}

HttpRoute SyncRoute(std::string method, HttpHandler handler) {
  return {std::move(method),
          [handler = std::move(handler)](HttpRequest request, HttpResponder respond) {
            respond(handler(request));
          }};
}

HttpServer::HttpServer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

HttpServer::~HttpServer() { Stop(); }

absl::StatusOr<std::unique_ptr<HttpServer>> HttpServer::Start(
    const HttpServerOptions& options, std::map<std::string, HttpHandler> routes) {
  std::map<std::string, HttpRoute> get_routes;
  for (auto& [path, handler] : routes) get_routes[path] = SyncRoute("GET", std::move(handler));
  return Start(options, std::move(get_routes));
}

absl::StatusOr<std::unique_ptr<HttpServer>> HttpServer::Start(
    const HttpServerOptions& options, std::map<std::string, HttpRoute> routes) {
  if (options.port < 0 || options.port > 65535) {
    return absl::InvalidArgumentError(
        absl::StrCat(options.name, " port ", options.port, " is outside 0..65535"));
  }
  const HttpLimits& l = options.limits;
  if (l.max_connections < 1 || l.max_header_bytes < 256 || l.idle_timeout <= absl::ZeroDuration() ||
      l.request_timeout <= absl::ZeroDuration() || l.write_timeout <= absl::ZeroDuration()) {
    return absl::InvalidArgumentError(
        absl::StrCat(options.name,
                     ": HTTP limits must allow one connection, 256 header bytes "
                     "and positive timeouts"));
  }
  auto impl = std::make_unique<Impl>();
  impl->options = options;
  impl->routes = std::move(routes);
  beast::error_code ec;
  tcp::resolver resolver(impl->io);
  const auto endpoints =
      resolver.resolve(options.address, std::to_string(options.port),
                       tcp::resolver::passive | tcp::resolver::numeric_service, ec);
  if (ec || endpoints.empty()) {
    return absl::UnavailableError(
        absl::StrCat(options.name, " cannot resolve ", options.address, ": ", ec.message()));
  }
  const tcp::endpoint endpoint = endpoints.begin()->endpoint();
  tcp::acceptor& acceptor = impl->acceptor;
  acceptor.open(endpoint.protocol(), ec);
  if (!ec) acceptor.set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec) acceptor.bind(endpoint, ec);
  if (!ec) acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) {
    return absl::UnavailableError(absl::StrCat(options.name, " cannot listen on ", options.address,
                                               ":", options.port, ": ", ec.message()));
  }
  impl->port = acceptor.local_endpoint().port();
  impl->Accept();
  impl->thread = std::thread([io = &impl->io] {
    // Handlers catch their own errors; anything else escaping is a bug, logged, not fatal.
    for (;;) {
      try {
        io->run();
        return;
      } catch (const std::exception& e) {
        spdlog::error("http loop: {}", e.what());
      }
    }
  });
  return std::unique_ptr<HttpServer>(new HttpServer(std::move(impl)));
}

int HttpServer::port() const { return impl_->port; }

HttpServerStats HttpServer::stats() const {
  const Impl& s = *impl_;
  HttpServerStats out;
  out.requests = s.requests.load(std::memory_order_relaxed);
  out.refused_too_large = s.refused_too_large.load(std::memory_order_relaxed);
  out.refused_timeout = s.refused_timeout.load(std::memory_order_relaxed);
  out.refused_busy = s.refused_busy.load(std::memory_order_relaxed);
  out.evicted_idle = s.evicted_idle.load(std::memory_order_relaxed);
  out.bad_requests = s.bad_requests.load(std::memory_order_relaxed);
  out.failed_handshakes = s.failed_handshakes.load(std::memory_order_relaxed);
  out.open_connections = s.open_connections.load(std::memory_order_relaxed);
  out.open_streams = s.open_streams.load(std::memory_order_relaxed);
  return out;
}

void HttpServer::Stop() {
  std::lock_guard<std::mutex> lock(impl_->stop_mu);
  if (impl_->stopped) return;
  impl_->stopped = true;
  // Everything closes on the loop thread; run() returns once the last handler has run.
  asio::post(impl_->io, [impl = impl_.get()] { impl->CloseAll(); });
  if (impl_->thread.joinable()) impl_->thread.join();
}

}  // namespace waymesh::server
