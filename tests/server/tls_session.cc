#include "tls_session.h"

#include <fcntl.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <poll.h>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"

namespace waymesh::testing {
namespace {

struct SslCtxFree {
  void operator()(SSL_CTX* ctx) const { SSL_CTX_free(ctx); }
};
struct SslFree {
  void operator()(SSL* ssl) const { SSL_free(ssl); }
};

std::string OpenSslErrors() {
  std::string text;
  while (const unsigned long e = ERR_get_error()) {
    char buffer[256];
    ERR_error_string_n(e, buffer, sizeof buffer);
    absl::StrAppend(&text, text.empty() ? "" : "; ", buffer);
  }
  return text.empty() ? "no OpenSSL reason" : text;
}

absl::StatusOr<std::unique_ptr<SSL_CTX, SslCtxFree>> TlsClientContext(
    const TlsClientOptions& options) {
  std::unique_ptr<SSL_CTX, SslCtxFree> ctx(SSL_CTX_new(TLS_client_method()));
  if (!ctx) return absl::InternalError("SSL_CTX_new: " + OpenSslErrors());
  SSL_CTX_set_verify(ctx.get(), SSL_VERIFY_PEER, nullptr);
  if (SSL_CTX_load_verify_locations(ctx.get(), options.ca_file.c_str(), nullptr) != 1) {
    return absl::InvalidArgumentError(absl::StrCat(options.ca_file, ": ", OpenSslErrors()));
  }
  if (!options.cert_file.empty() &&
      (SSL_CTX_use_certificate_chain_file(ctx.get(), options.cert_file.c_str()) != 1 ||
       SSL_CTX_use_PrivateKey_file(ctx.get(), options.key_file.c_str(), SSL_FILETYPE_PEM) != 1)) {
    return absl::InvalidArgumentError(absl::StrCat(options.cert_file, ": ", OpenSslErrors()));
  }
  return ctx;
}

}  // namespace

struct TlsSession::Handles {
  std::unique_ptr<SSL_CTX, SslCtxFree> ctx;
  std::unique_ptr<SSL, SslFree> ssl;
  int fd = -1;
};

TlsSession::TlsSession(std::unique_ptr<Handles> handles) : handles_(std::move(handles)) {}

TlsSession::~TlsSession() = default;

absl::StatusOr<std::unique_ptr<TlsSession>> TlsSession::Connect(int fd,
                                                                const TlsClientOptions& options,
                                                                absl::Time give_up) {
  ERR_clear_error();
  auto handles = std::make_unique<Handles>();
  absl::StatusOr<std::unique_ptr<SSL_CTX, SslCtxFree>> ctx = TlsClientContext(options);
  if (!ctx.ok()) return ctx.status();
  handles->ctx = *std::move(ctx);
  handles->ssl.reset(SSL_new(handles->ctx.get()));
  handles->fd = fd;
  SSL* ssl = handles->ssl.get();
  // The test certificates name 127.0.0.1, where every test server listens.
  X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), "127.0.0.1");
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
  SSL_set_fd(ssl, fd);
  std::unique_ptr<TlsSession> session(new TlsSession(std::move(handles)));
  for (;;) {
    const int result = SSL_connect(ssl);
    if (result == 1) return session;
    if (!session->WaitFor(result, give_up)) {
      const std::string reason = OpenSslErrors();
      if (absl::Now() >= give_up) return absl::DeadlineExceededError("TLS handshake: no end");
      return absl::UnavailableError("TLS handshake failed: " + reason);
    }
  }
}

bool TlsSession::WaitFor(int result, absl::Time give_up) {
  const int error = SSL_get_error(handles_->ssl.get(), result);
  short events = 0;
  if (error == SSL_ERROR_WANT_READ) events = POLLIN;
  if (error == SSL_ERROR_WANT_WRITE) events = POLLOUT;
  if (events == 0) return false;
  for (;;) {
    const absl::Duration left = give_up - absl::Now();
    if (left <= absl::ZeroDuration()) return false;
    pollfd p{handles_->fd, events, 0};
    if (::poll(&p, 1, int(absl::ToInt64Milliseconds(left)) + 1) > 0) return true;
  }
}

bool TlsSession::Write(const std::string& data, absl::Time give_up) {
  size_t done = 0;
  while (done < data.size()) {
    const int n = SSL_write(handles_->ssl.get(), data.data() + done, int(data.size() - done));
    if (n > 0) {
      done += size_t(n);
    } else if (!WaitFor(n, give_up)) {
      ERR_clear_error();
      return false;
    }
  }
  return true;
}

absl::Status TlsSession::Read(std::string* out, absl::Time give_up, bool* clean) {
  SSL* ssl = handles_->ssl.get();
  for (;;) {
    // SSL_read first: OpenSSL may hold decrypted bytes that poll() cannot see.
    char buffer[16384];
    const int n = SSL_read(ssl, buffer, sizeof buffer);
    if (n > 0) {
      out->append(buffer, size_t(n));
      return absl::OkStatus();
    }
    const int error = SSL_get_error(ssl, n);
    if (error != SSL_ERROR_WANT_READ && error != SSL_ERROR_WANT_WRITE) {
      if (clean != nullptr) *clean = error == SSL_ERROR_ZERO_RETURN;
      ERR_clear_error();
      return absl::UnavailableError("TLS connection closed");
    }
    if (!WaitFor(n, give_up)) return absl::DeadlineExceededError("nothing in time");
  }
}

}  // namespace waymesh::testing
