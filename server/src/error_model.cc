#include "waymesh/server/error_model.h"

#include <optional>
#include <string>
#include <utility>

#include "absl/strings/cord.h"
#include "absl/strings/str_cat.h"
#include "google/protobuf/any.pb.h"
#include "google/rpc/error_details.pb.h"

namespace waymesh::server {
namespace {

constexpr absl::string_view kTypeUrlPrefix = "type.googleapis.com/";

template <typename Message>
std::string TypeUrl() {
  return absl::StrCat(kTypeUrlPrefix, Message::descriptor()->full_name());
}

template <typename Message>
std::optional<Message> Payload(const absl::Status& status) {
  const absl::optional<absl::Cord> bytes = status.GetPayload(TypeUrl<Message>());
  if (!bytes) return std::nullopt;
  Message message;
  if (!message.ParseFromString(std::string(*bytes))) return std::nullopt;
  return message;
}

template <typename Message>
void SetPayload(absl::Status& status, const Message& message) {
  status.SetPayload(TypeUrl<Message>(), absl::Cord(message.SerializeAsString()));
}

}  // namespace

absl::Status FieldViolation(absl::string_view field, absl::string_view description) {
  absl::Status status = absl::InvalidArgumentError(absl::StrCat(field, ": ", description));
  google::rpc::BadRequest bad;
  google::rpc::BadRequest::FieldViolation* v = bad.add_field_violations();
  v->set_field(std::string(field));
  v->set_description(std::string(description));
  SetPayload(status, bad);
  return WithReason(std::move(status), reason::kInvalidField, "field", field);
}

absl::Status WithReason(absl::Status status, absl::string_view reason, absl::string_view key,
                        absl::string_view value) {
  if (status.ok()) return status;
  google::rpc::ErrorInfo info;
  info.set_reason(std::string(reason));
  info.set_domain(std::string(kErrorDomain));
  if (!key.empty()) (*info.mutable_metadata())[std::string(key)] = std::string(value);
  SetPayload(status, info);
  return status;
}

absl::Status WithRetryDelay(absl::Status status, std::chrono::milliseconds delay) {
  if (status.ok()) return status;
  google::rpc::RetryInfo retry;
  retry.mutable_retry_delay()->set_seconds(delay.count() / 1000);
  retry.mutable_retry_delay()->set_nanos(int32_t(delay.count() % 1000) * 1000000);
  SetPayload(status, retry);
  return status;
}

std::string ReasonOf(const absl::Status& status) {
  if (std::optional<google::rpc::ErrorInfo> info = Payload<google::rpc::ErrorInfo>(status)) {
    return info->reason();
  }
  return absl::StatusCodeToString(status.code());
}

std::optional<std::chrono::milliseconds> RetryDelayOf(const absl::Status& status) {
  const std::optional<google::rpc::RetryInfo> retry = Payload<google::rpc::RetryInfo>(status);
  if (!retry) return std::nullopt;
  return std::chrono::milliseconds(retry->retry_delay().seconds() * 1000 +
                                   retry->retry_delay().nanos() / 1000000);
}

absl::Status WithFieldPrefix(const absl::Status& status, absl::string_view prefix) {
  std::optional<google::rpc::BadRequest> bad = Payload<google::rpc::BadRequest>(status);
  absl::Status out(status.code(), absl::StrCat(prefix, status.message()));
  status.ForEachPayload([&out](absl::string_view url, const absl::Cord& bytes) {
    out.SetPayload(url, bytes);
  });
  if (bad) {
    for (google::rpc::BadRequest::FieldViolation& v : *bad->mutable_field_violations()) {
      v.set_field(absl::StrCat(prefix, v.field()));
    }
    SetPayload(out, *bad);
    std::optional<google::rpc::ErrorInfo> info = Payload<google::rpc::ErrorInfo>(status);
    if (info && info->metadata().contains("field")) {
      (*info->mutable_metadata())["field"] = absl::StrCat(prefix, info->metadata().at("field"));
      SetPayload(out, *info);
    }
  }
  return out;
}

google::rpc::Status ToRpcStatus(const absl::Status& status) {
  google::rpc::Status out;
  out.set_code(int(status.code()));
  out.set_message(std::string(status.message()));
  if (status.ok()) return out;
  // ErrorInfo first: the detail every error has and most clients look at.
  google::rpc::ErrorInfo info;
  if (std::optional<google::rpc::ErrorInfo> own = Payload<google::rpc::ErrorInfo>(status)) {
    info = *std::move(own);
  } else {
    info.set_reason(ReasonOf(status));
    info.set_domain(std::string(kErrorDomain));
  }
  out.add_details()->PackFrom(info);
  const std::string info_url = TypeUrl<google::rpc::ErrorInfo>();
  status.ForEachPayload([&](absl::string_view url, const absl::Cord& bytes) {
    if (url == info_url) return;
    google::protobuf::Any* any = out.add_details();
    any->set_type_url(std::string(url));
    any->set_value(std::string(bytes));
  });
  return out;
}

grpc::Status ToGrpcStatus(const absl::Status& status) {
  if (status.ok()) return grpc::Status::OK;
  return grpc::Status(static_cast<grpc::StatusCode>(status.code()), std::string(status.message()),
                      ToRpcStatus(status).SerializeAsString());
}

}  // namespace waymesh::server
