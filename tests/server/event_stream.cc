#include "event_stream.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace waymesh::testing {

int EventStream::Open(int port, const std::string& path, const std::string& token,
                      const TlsClientOptions* tls) {
  absl::StatusOr<RawConnection> c =
      tls != nullptr ? RawConnection::OpenTls(port, *tls) : RawConnection::Open(port);
  if (!c.ok()) return 0;
  connection_.emplace(*std::move(c));
  std::string request = absl::StrCat("GET ", path, " HTTP/1.1\r\nHost: test\r\n");
  if (!token.empty()) absl::StrAppend(&request, "Authorization: Bearer ", token, "\r\n");
  if (!connection_->Send(request + "\r\n")) return 0;
  absl::StatusOr<int> status = connection_->ReadStatus();
  return status.ok() ? *status : 0;
}

nlohmann::json EventStream::Next(std::string* name, int* comments) {
  for (;;) {
    absl::StatusOr<std::string> event = connection_->ReadUntil("\n\n", absl::Seconds(10));
    if (!event.ok()) return nullptr;
    if (absl::StartsWith(*event, ":")) {
      if (comments != nullptr) ++*comments;
      continue;
    }
    std::string event_name;
    for (absl::string_view line : absl::StrSplit(*event, '\n')) {
      if (absl::ConsumePrefix(&line, "event: ")) event_name = std::string(line);
      if (absl::ConsumePrefix(&line, "data: ")) {
        if (name != nullptr) *name = event_name;
        return nlohmann::json::parse(line, nullptr, false);
      }
    }
  }
}

}  // namespace waymesh::testing
