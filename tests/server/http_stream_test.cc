// Streamed answers of the bounded HTTP server (server-sent events) over real loopback sockets:
// pieces arrive in order after the header, heartbeats fill the silences, closing the stream
// ends the response, a client that goes away closes the stream, a reader that never reads
// makes pieces drop instead of piling up, and prefix routes answer the paths below them.

#include "waymesh/server/http_stream.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "raw_http.h"
#include "waymesh/server/http_server.h"

namespace waymesh::server {
namespace {

using testing::GetRequest;
using testing::RawConnection;

// A server whose /stream answers with a stream the test then feeds.
class StreamServer {
 public:
  explicit StreamServer(HttpStreamOptions stream_options) {
    HttpServerOptions options;
    options.address = "127.0.0.1";
    options.limits.write_timeout = absl::Milliseconds(500);
    std::map<std::string, HttpRoute> routes;
    stream_options.on_close = [this] { closed_.fetch_add(1); };
    routes["/stream"] = {"GET", [this, stream_options](HttpRequest, HttpResponder respond) {
                           auto stream = std::make_shared<HttpStream>(stream_options);
                           {
                             std::lock_guard<std::mutex> lock(mu_);
                             stream_ = stream;
                           }
                           respond({200, "text/event-stream", ": hello\n\n", {}, stream});
                         }};
    routes["/below/"] = SyncRoute("GET", [](const HttpRequest& r) {
      return HttpResponse{200, "text/plain", "below " + r.path};
    });
    routes["/below/exact"] = SyncRoute("GET", [](const HttpRequest&) {
      return HttpResponse{200, "text/plain", "exact"};
    });
    routes["/below/"].prefix = true;
    auto server = HttpServer::Start(options, std::move(routes));
    EXPECT_TRUE(server.ok()) << server.status();
    if (server.ok()) server_ = *std::move(server);
  }

  // The stream of the last /stream request, waiting up to 5 s for it.
  std::shared_ptr<HttpStream> stream() {
    for (int i = 0; i < 500; ++i) {
      {
        std::lock_guard<std::mutex> lock(mu_);
        if (stream_) return stream_;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return nullptr;
  }
  // Waits up to 5 s for on_close to have run `n` times.
  bool ClosedTimes(int n) {
    for (int i = 0; i < 500 && closed_.load() < n; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return closed_.load() == n;
  }
  HttpServer& http() { return *server_; }

 private:
  std::unique_ptr<HttpServer> server_;
  std::mutex mu_;
  std::shared_ptr<HttpStream> stream_;
  std::atomic<int> closed_{0};
};

RawConnection OpenStream(HttpServer& server, int receive_buffer = 0) {
  absl::StatusOr<RawConnection> c = RawConnection::Open(server.port(), receive_buffer);
  EXPECT_TRUE(c.ok()) << c.status();
  EXPECT_TRUE(c->Send(GetRequest("/stream")));
  return *std::move(c);
}

TEST(HttpStreamTest, PiecesComeInOrderWithHeartbeatsUntilTheStreamCloses) {
  HttpStreamOptions options;
  options.heartbeat = absl::Milliseconds(100);
  options.heartbeat_text = ": beat\n\n";
  StreamServer server(options);
  RawConnection c = OpenStream(server.http());
  ASSERT_EQ(c.ReadStatus().value_or(0), 200);
  std::shared_ptr<HttpStream> stream = server.stream();
  ASSERT_NE(stream, nullptr);
  EXPECT_EQ(c.ReadUntil("\n\n").value_or(""), ": hello");
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(stream->Send(absl::StrCat("data: ", i, "\n\n")), HttpStream::Sent::kQueued);
  }
  for (int i = 0; i < 5; ++i)
    EXPECT_EQ(c.ReadUntil("\n\n").value_or(""), absl::StrCat("data: ", i));
  // Nothing to send for a while: heartbeats.
  EXPECT_EQ(c.ReadUntil("\n\n", absl::Seconds(2)).value_or(""), ": beat");
  EXPECT_EQ(c.ReadUntil("\n\n", absl::Seconds(2)).value_or(""), ": beat");
  EXPECT_EQ(server.http().stats().open_streams, 1);
  stream->Send("data: last\n\n");
  stream->Close();
  EXPECT_EQ(stream->Send("data: late\n\n"), HttpStream::Sent::kClosed);
  // What was sent before Close still arrives, then the end of the response.
  absl::StatusOr<std::string> rest = c.ReadUntil("data: last\n\n");
  EXPECT_TRUE(rest.ok()) << rest.status();
  EXPECT_TRUE(c.ClosedWithin(absl::Seconds(3)));
  EXPECT_TRUE(server.ClosedTimes(1));
  EXPECT_EQ(server.http().stats().open_streams, 0);
}

TEST(HttpStreamTest, AClientThatGoesAwayClosesTheStream) {
  StreamServer server(HttpStreamOptions{});
  {
    RawConnection c = OpenStream(server.http());
    ASSERT_EQ(c.ReadStatus().value_or(0), 200);
  }
  std::shared_ptr<HttpStream> stream = server.stream();
  ASSERT_NE(stream, nullptr);
  EXPECT_TRUE(server.ClosedTimes(1));
  EXPECT_TRUE(stream->closed());
  EXPECT_EQ(stream->Send("data: nobody\n\n"), HttpStream::Sent::kClosed);
  EXPECT_EQ(server.http().stats().open_streams, 0);
}

TEST(HttpStreamTest, AReaderThatNeverReadsMissesPiecesAndIsCutOff) {
  HttpStreamOptions options;
  options.max_backlog_bytes = 256 << 10;
  StreamServer server(options);
  RawConnection c = OpenStream(server.http(), /*receive_buffer=*/4096);
  std::shared_ptr<HttpStream> stream = server.stream();
  ASSERT_NE(stream, nullptr);
  const std::string piece(64 << 10, 'x');
  // A frame every 2 ms, as a busy session would send them, until the server gives up.
  int queued = 0, sent = 0;
  for (; sent < 5000 && !stream->closed(); ++sent) {
    if (stream->Send(piece) == HttpStream::Sent::kQueued) ++queued;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  // The socket buffers filled, the backlog then, and pieces were dropped, not piled up.
  EXPECT_GT(stream->dropped(), 0u);
  EXPECT_LT(queued, sent);
  // A write that never completes: write_timeout closed the connection and the stream.
  EXPECT_TRUE(stream->closed());
  EXPECT_TRUE(server.ClosedTimes(1));
  EXPECT_EQ(stream->Send(piece), HttpStream::Sent::kClosed);
}

TEST(HttpStreamTest, PrefixRoutesAnswerThePathsBelowThem) {
  StreamServer server(HttpStreamOptions{});
  auto get = [&](const std::string& path) {
    absl::StatusOr<RawConnection> c = RawConnection::Open(server.http().port());
    EXPECT_TRUE(c.ok());
    EXPECT_TRUE(c->Send(GetRequest(path)));
    std::string body;
    const int status = c->ReadStatus(absl::Seconds(5), &body).value_or(0);
    return absl::StrCat(status, " ", body);
  };
  EXPECT_EQ(get("/below/1/events"), "200 below /below/1/events");
  EXPECT_EQ(get("/below/exact"), "200 exact");
  EXPECT_EQ(get("/below"), "404 not found\n");
  EXPECT_EQ(get("/belowx"), "404 not found\n");
}

}  // namespace
}  // namespace waymesh::server
