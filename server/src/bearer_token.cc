#include "waymesh/server/bearer_token.h"

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"

namespace waymesh::server {
namespace {

constexpr absl::string_view kScheme = "bearer ";

// Equal strings, in time that depends only on the lengths.
bool ConstantTimeEquals(absl::string_view a, absl::string_view b) {
  if (a.size() != b.size()) return false;
  unsigned char diff = 0;
  for (size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  return diff == 0;
}

}  // namespace

bool BearerToken::Matches(absl::string_view authorization) const {
  if (authorization.size() < kScheme.size() ||
      !absl::EqualsIgnoreCase(authorization.substr(0, kScheme.size()), kScheme)) {
    return false;
  }
  return ConstantTimeEquals(absl::StripAsciiWhitespace(authorization.substr(kScheme.size())),
                            token_);
}

bool BearerToken::Allows(const std::multimap<grpc::string_ref, grpc::string_ref>& metadata) const {
  if (!enabled()) return true;
  const auto [begin, end] = metadata.equal_range("authorization");
  for (auto it = begin; it != end; ++it) {
    if (Matches(absl::string_view(it->second.data(), it->second.size()))) return true;
  }
  return false;
}

}  // namespace waymesh::server
