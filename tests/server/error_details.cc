#include "error_details.h"

#include "absl/strings/str_join.h"

namespace waymesh::testing {

google::rpc::Status DetailsOf(const grpc::Status& status) {
  google::rpc::Status out;
  if (!status.error_details().empty()) out.ParseFromString(status.error_details());
  return out;
}

std::string ReasonOf(const google::rpc::Status& status) {
  const std::optional<google::rpc::ErrorInfo> info = DetailOf<google::rpc::ErrorInfo>(status);
  return info ? info->reason() : "";
}

std::string ReasonOf(const grpc::Status& status) { return ReasonOf(DetailsOf(status)); }

std::string ViolatedFields(const google::rpc::Status& status) {
  const std::optional<google::rpc::BadRequest> bad = DetailOf<google::rpc::BadRequest>(status);
  if (!bad) return "";
  return absl::StrJoin(bad->field_violations(), ", ",
                       [](std::string* out, const google::rpc::BadRequest::FieldViolation& v) {
                         out->append(v.field());
                       });
}

}  // namespace waymesh::testing
