#include "waymesh/loadtest/loopback_host.h"

#include <arpa/inet.h>

#include <cstring>
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace waymesh::loadtest {
namespace {

struct HostPort {
  std::string host;
  std::string port;
};

absl::Status SplitHostPort(absl::string_view target, HostPort* out) {
  const auto bad = [&](absl::string_view why) {
    return absl::InvalidArgumentError(absl::StrCat("host \"", target, "\": ", why,
                                                   " (expected HOST:PORT, e.g. 127.0.0.1:50051)"));
  };
  absl::string_view rest = target;
  if (absl::StartsWith(rest, "[")) {
    const size_t close = rest.find(']');
    if (close == absl::string_view::npos) return bad("unclosed '['");
    out->host = std::string(rest.substr(1, close - 1));
    rest.remove_prefix(close + 1);
    if (!absl::StartsWith(rest, ":")) return bad("missing port");
    out->port = std::string(rest.substr(1));
  } else {
    const size_t colon = rest.rfind(':');
    if (colon == absl::string_view::npos) return bad("missing port");
    out->host = std::string(rest.substr(0, colon));
    out->port = std::string(rest.substr(colon + 1));
    if (out->host.find(':') != std::string::npos) return bad("an IPv6 address needs [brackets]");
  }
  int port;
  if (out->host.empty()) return bad("missing host name");
  if (!absl::SimpleAtoi(out->port, &port) || port < 1 || port > 65535 ||
      out->port.find_first_not_of("0123456789") != std::string::npos) {
    return bad("port must be a number from 1 to 65535");
  }
  return absl::OkStatus();
}

bool IsLoopbackName(const std::string& host) {
  if (absl::AsciiStrToLower(host) == "localhost") return true;
  in_addr v4;
  if (inet_pton(AF_INET, host.c_str(), &v4) == 1) {
    return (ntohl(v4.s_addr) >> 24) == 127;
  }
  in6_addr v6;
  if (inet_pton(AF_INET6, host.c_str(), &v6) == 1) {
    return std::memcmp(&v6, &in6addr_loopback, sizeof v6) == 0;
  }
  return false;
}

}  // namespace

absl::Status CheckHostSyntax(absl::string_view host) {
  if (absl::StartsWith(host, "unix:")) return absl::OkStatus();
  HostPort parts;
  return SplitHostPort(host, &parts);
}

absl::Status CheckLoopbackHost(absl::string_view host) {
  if (absl::StartsWith(host, "unix:")) return absl::OkStatus();  // never leaves the machine
  HostPort parts;
  if (absl::Status s = SplitHostPort(host, &parts); !s.ok()) return s;
  if (IsLoopbackName(parts.host)) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat("refusing to load \"", host,
                   "\": not a loopback address (127.0.0.0/8, localhost, [::1]); "
                   "pass --allow-remote to load another machine"));
}

}  // namespace waymesh::loadtest
