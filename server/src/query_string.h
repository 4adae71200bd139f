#pragma once
// The query part of a URL ("map=demo&tile=3") as names and values, percent-decoded ('+' is a
// space). Private to the server library.

#include <map>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace waymesh::server {

// InvalidArgument naming the parameter when an escape is malformed or a name repeats.
absl::StatusOr<std::map<std::string, std::string>> ParseQueryString(absl::string_view query);

}  // namespace waymesh::server
