#pragma once
// The optional bearer-token check of every Navigation call: the caller must send the metadata
// "authorization: Bearer <token>". Compared in constant time so the answer time does not leak
// how much of a guess was right.

#include <map>
#include <string>

#include "absl/strings/string_view.h"
#include "grpcpp/support/string_ref.h"

namespace waymesh::server {

class BearerToken {
 public:
  // An empty token disables the check (every call passes).
  explicit BearerToken(std::string token) : token_(std::move(token)) {}

  bool enabled() const { return !token_.empty(); }
  // Whether a call with this client metadata may proceed.
  bool Allows(const std::multimap<grpc::string_ref, grpc::string_ref>& metadata) const;
  // Whether one "authorization" header value carries the token.
  bool Matches(absl::string_view authorization) const;

 private:
  std::string token_;
};

}  // namespace waymesh::server
