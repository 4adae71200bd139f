#pragma once
// The request messages of a run, built once from JSON (protobuf's JSON mapping) against the
// method's input type and serialized up front, so sending costs no encoding.

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "google/protobuf/descriptor.h"
#include "nlohmann/json.hpp"

namespace waymesh::loadtest {

// One serialized message per element of `data` (an array), or one for an object; null gives a
// single empty message. An element that is not a valid `type` is an InvalidArgument naming its
// index ("data[2]") and the parser's reason.
absl::StatusOr<std::vector<std::string>> BuildRequests(const google::protobuf::Descriptor& type,
                                                       const nlohmann::json& data);

}  // namespace waymesh::loadtest
