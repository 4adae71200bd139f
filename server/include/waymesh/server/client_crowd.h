#pragma once
// waymesh-client's RunCrowd (docs/crowd.md): a crowd session from a script. The commands are a
// JSON array of RunCrowdRequest messages, sent in order; every event the server streams back is
// printed as one line of JSON; the client keeps its side open for `hold` after the last command
// (a server-ticked crowd walks meanwhile), then closes it and the session ends.

#include <memory>
#include <ostream>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "grpcpp/grpcpp.h"
#include "waymesh/v1/crowd.pb.h"

namespace waymesh::server {

// The commands of `json` (an array of RunCrowdRequest in protobuf JSON); InvalidArgument
// naming the element that does not parse.
absl::StatusOr<std::vector<v1::RunCrowdRequest>> CrowdCommandsFromJson(absl::string_view json);

// Runs one RunCrowd stream over `channel`: sends `commands`, waits `hold`, closes its side and
// prints every event to `out` as it comes. The stream's status.
grpc::Status RunCrowdSession(const std::shared_ptr<grpc::Channel>& channel,
                             grpc::ClientContext* context,
                             const std::vector<v1::RunCrowdRequest>& commands, absl::Duration hold,
                             std::ostream& out);

}  // namespace waymesh::server
