#include "raw_http.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"

namespace waymesh::testing {

absl::StatusOr<RawConnection> RawConnection::Open(int port, int receive_buffer) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return absl::InternalError(absl::StrCat("socket: ", std::strerror(errno)));
  RawConnection c(fd);
  if (receive_buffer > 0) {
    ::setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &receive_buffer, sizeof receive_buffer);
  }
  timeval tv{5, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<uint16_t>(port));
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    return absl::UnavailableError(absl::StrCat("connect: ", std::strerror(errno)));
  }
  return c;
}

absl::StatusOr<RawConnection> RawConnection::OpenTls(int port, const TlsClientOptions& options) {
  absl::StatusOr<RawConnection> c = Open(port);
  if (!c.ok()) return c.status();
  absl::StatusOr<std::unique_ptr<TlsSession>> tls =
      TlsSession::Connect(c->fd_, options, absl::Now() + absl::Seconds(5));
  if (!tls.ok()) return tls.status();
  c->tls_ = *std::move(tls);
  return c;
}

RawConnection& RawConnection::operator=(RawConnection&& other) noexcept {
  if (this != &other) {
    tls_ = std::move(other.tls_);  // freed before its socket closes
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.fd_;
    other.fd_ = -1;
    pending_ = std::move(other.pending_);
    clean_close_ = other.clean_close_;
  }
  return *this;
}

RawConnection::~RawConnection() {
  tls_.reset();
  if (fd_ >= 0) ::close(fd_);
}

bool RawConnection::Send(const std::string& data) {
  if (tls_) return tls_->Write(data, absl::Now() + absl::Seconds(5));
  size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::send(fd_, data.data() + done, data.size() - done, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += size_t(n);
  }
  return true;
}

bool RawConnection::SendTogether(const std::vector<std::string>& pieces) {
  int cork = 1;  // held back until uncorked, then sent at once
  ::setsockopt(fd_, IPPROTO_TCP, TCP_CORK, &cork, sizeof cork);
  bool sent = true;
  for (const std::string& piece : pieces) sent = sent && Send(piece);
  cork = 0;
  ::setsockopt(fd_, IPPROTO_TCP, TCP_CORK, &cork, sizeof cork);
  return sent;
}

absl::StatusOr<int> RawConnection::ReadStatus(absl::Duration timeout, std::string* body,
                                              bool head_request) {
  const absl::Time give_up = absl::Now() + timeout;
  for (;;) {
    const size_t end = pending_.find("\r\n\r\n");
    if (end != std::string::npos) {
      const std::string head = absl::AsciiStrToLower(pending_.substr(0, end));
      int status = 0;
      if (head.size() < 12 || !absl::SimpleAtoi(head.substr(9, 3), &status)) {
        return absl::DataLossError("bad status line: " + head.substr(0, 40));
      }
      size_t length = 0;
      if (size_t at = head.find("content-length:"); at != std::string::npos && !head_request) {
        const size_t eol = head.find("\r\n", at);
        (void)absl::SimpleAtoi(absl::StripAsciiWhitespace(head.substr(at + 15, eol - at - 15)),
                               &length);
      }
      if (pending_.size() >= end + 4 + length) {
        if (body != nullptr) *body = pending_.substr(end + 4, length);
        pending_.erase(0, end + 4 + length);
        return status;
      }
    }
    if (absl::Status s = ReceiveMore(give_up); absl::IsUnavailable(s)) {
      return absl::UnavailableError("connection closed before a whole response");
    } else if (!s.ok()) {
      return absl::DeadlineExceededError("no response in time");
    }
  }
}

absl::StatusOr<std::string> RawConnection::ReadUntil(const std::string& delimiter,
                                                     absl::Duration timeout) {
  const absl::Time give_up = absl::Now() + timeout;
  for (;;) {
    if (const size_t at = pending_.find(delimiter); at != std::string::npos) {
      std::string piece = pending_.substr(0, at);
      pending_.erase(0, at + delimiter.size());
      return piece;
    }
    if (absl::Status s = ReceiveMore(give_up); !s.ok()) return s;
  }
}

absl::Status RawConnection::ReceiveMore(absl::Time give_up) {
  if (tls_) return tls_->Read(&pending_, give_up, &clean_close_);
  for (;;) {
    const absl::Duration left = give_up - absl::Now();
    if (left <= absl::ZeroDuration()) return absl::DeadlineExceededError("nothing in time");
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, int(absl::ToInt64Milliseconds(left)) + 1) <= 0) continue;
    char buffer[16384];
    const ssize_t n = ::recv(fd_, buffer, sizeof buffer, 0);
    if (n <= 0) return absl::UnavailableError("connection closed");
    pending_.append(buffer, size_t(n));
    return absl::OkStatus();
  }
}

bool RawConnection::ClosedWithin(absl::Duration timeout) {
  const absl::Time give_up = absl::Now() + timeout;
  for (;;) {
    const absl::Status s = ReceiveMore(give_up);
    pending_.clear();  // dropped
    if (!s.ok()) return absl::IsUnavailable(s);
  }
}

std::string GetRequest(const std::string& path) {
  return absl::StrCat("GET ", path, " HTTP/1.1\r\nHost: test\r\n\r\n");
}

}  // namespace waymesh::testing
