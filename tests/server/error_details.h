#pragma once
// Reads the machine-readable details of a failed call (grpc-status-details-bin: a
// google.rpc.Status) the way a client of the service does.

#include <optional>
#include <string>

#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "grpcpp/grpcpp.h"

namespace waymesh::testing {

// The first detail of type T in `details`, if any.
template <typename T>
std::optional<T> DetailOf(const google::rpc::Status& details) {
  for (const google::protobuf::Any& any : details.details()) {
    T out;
    if (any.UnpackTo(&out)) return out;
  }
  return std::nullopt;
}

// The google.rpc.Status a failed call carried (empty when it carried none).
google::rpc::Status DetailsOf(const grpc::Status& status);

// The ErrorInfo reason of a failed call ("" when it has none) and of a batch item's error.
std::string ReasonOf(const grpc::Status& status);
std::string ReasonOf(const google::rpc::Status& status);

// The field paths of a call's BadRequest violations, joined by ", " ("" when none).
std::string ViolatedFields(const google::rpc::Status& status);

}  // namespace waymesh::testing
