#pragma once
// The byte stream under one HTTP connection of the bounded server (http_server.cc): the TCP
// socket itself, or TLS over it (Asio's OpenSSL stream, which drives the non-blocking
// handshake, reads and writes from the loop's readiness events and retries an operation when
// OpenSSL wants the other direction). It is an Asio stream, so Beast reads and writes HTTP
// messages through it either way.
//
// TLS differs in what waiting for a request means: readiness of the socket says nothing about
// bytes already decrypted and held inside the TLS layer (a pipelined request that came with
// the handshake), so a TLS connection waits by reading.

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <memory>
#include <utility>

#include "http_tls_context.h"

namespace waymesh::server {

class HttpTransport {
 public:
  using executor_type = boost::asio::ip::tcp::socket::executor_type;

  // Plain TCP when `tls` is null; else TLS with that context (which must outlive this).
  HttpTransport(boost::asio::ip::tcp::socket socket, const HttpTls* tls)
      : socket_(std::move(socket)) {
    if (tls != nullptr) {
      tls_ = std::make_unique<TlsStream>(std::move(socket_), tls->context().ssl);
    }
  }

  bool tls() const { return tls_ != nullptr; }
  executor_type get_executor() { return Socket().get_executor(); }

  // The server's side of the TLS handshake; `handler(error_code)`. Plain: none to do.
  template <typename Handler>
  void AsyncHandshake(Handler&& handler) {
    tls_->async_handshake(boost::asio::ssl::stream_base::server, std::forward<Handler>(handler));
  }

  // Completes (`handler(error_code)`) once a request's first bytes can be parsed. Plain waits
  // for readability and holds no buffer while idle; TLS reads what comes into `buffer`.
  template <typename Handler>
  void AsyncWaitForData(boost::beast::flat_buffer& buffer, Handler&& handler) {
    if (!tls_) {
      Socket().async_wait(boost::asio::ip::tcp::socket::wait_read, std::forward<Handler>(handler));
      return;
    }
    tls_->async_read_some(buffer.prepare(kWaitReadBytes),
                          [&buffer, handler = std::forward<Handler>(handler)](
                              boost::system::error_code ec, size_t n) mutable {
                            buffer.commit(n);
                            handler(ec);
                          });
  }

  // The AsyncReadStream and AsyncWriteStream operations Beast and Asio use.
  template <typename Buffers, typename Handler>
  void async_read_some(const Buffers& buffers, Handler&& handler) {
    if (tls_) {
      tls_->async_read_some(buffers, std::forward<Handler>(handler));
    } else {
      socket_.async_read_some(buffers, std::forward<Handler>(handler));
    }
  }
  template <typename Buffers, typename Handler>
  void async_write_some(const Buffers& buffers, Handler&& handler) {
    if (tls_) {
      tls_->async_write_some(buffers, std::forward<Handler>(handler));
    } else {
      socket_.async_write_some(buffers, std::forward<Handler>(handler));
    }
  }

  // Ends the sending side, reads stay open. TLS first sends its close_notify, so a client
  // can tell a complete streamed body from a cut one (OpenSSL's shutdown then waits for the
  // client's own; the caller's linger timer bounds that by closing). `owner` (what keeps this
  // transport alive) is held until then.
  template <typename Owner>
  void ShutdownSend(Owner owner) {
    if (!tls_) return ShutdownSocketSend();
    tls_->async_shutdown(
        [this, owner = std::move(owner)](boost::system::error_code) { ShutdownSocketSend(); });
  }
  // Aborts pending operations (they complete with operation_aborted).
  void Cancel() {
    boost::system::error_code ignored;
    Socket().cancel(ignored);
  }
  void Close() {
    boost::system::error_code ignored;
    Socket().shutdown(boost::asio::ip::tcp::socket::shutdown_both, ignored);
    Socket().close(ignored);
  }

 private:
  using TlsStream = boost::asio::ssl::stream<boost::asio::ip::tcp::socket>;
  // Read while waiting for a TLS request: one TLS record's worth at most is decrypted per read.
  static constexpr size_t kWaitReadBytes = 4096;

  boost::asio::ip::tcp::socket& Socket() { return tls_ ? tls_->next_layer() : socket_; }
  void ShutdownSocketSend() {
    boost::system::error_code ignored;
    Socket().shutdown(boost::asio::ip::tcp::socket::shutdown_send, ignored);
  }

  boost::asio::ip::tcp::socket socket_;  // moved into tls_ when TLS
  std::unique_ptr<TlsStream> tls_;
};

// Whether `ec` from reading a TLS connection means the client went or broke the TLS session
// (no HTTP answer can reach it any more).
inline bool IsTlsFailure(const boost::system::error_code& ec) {
  return ec == boost::asio::ssl::error::stream_truncated ||
         ec.category() == boost::asio::error::get_ssl_category();
}

}  // namespace waymesh::server
