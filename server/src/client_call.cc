#include "waymesh/server/client_call.h"

#include <algorithm>
#include <future>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "google/protobuf/any.pb.h"
#include "google/protobuf/util/json_util.h"
#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "grpc/health/v1/health.pb.h"
#include "grpcpp/generic/generic_stub.h"
#include "grpcpp/impl/codegen/proto_utils.h"
#include "waymesh/v1/navigation.pb.h"
#include "waymesh/v1/obstacles.pb.h"

namespace waymesh::server {
namespace {

using google::protobuf::MethodDescriptor;
using google::protobuf::ServiceDescriptor;

// The services the client calls. Naming a generated type of each file makes the linker keep
// the file's descriptors, which register in the generated pool only when linked in.
std::vector<const ServiceDescriptor*> ClientServices() {
  const ServiceDescriptor* navigation =
      v1::FindPathRequest::descriptor()->file()->FindServiceByName("NavigationService");
  const ServiceDescriptor* obstacles =
      v1::PutObstacleLayerRequest::descriptor()->file()->FindServiceByName("ObstacleService");
  const ServiceDescriptor* health =
      grpc::health::v1::HealthCheckRequest::descriptor()->file()->FindServiceByName("Health");
  return {navigation, obstacles, health};
}

// "pkg.Service.Method", "pkg.Service/Method", "/pkg.Service/Method", "Service.Method" or
// "Method" all name `method`.
bool NamesMethod(absl::string_view name, const MethodDescriptor& method) {
  absl::ConsumePrefix(&name, "/");
  const std::string service = method.service()->full_name();
  const std::string& short_service = method.service()->name();
  for (const std::string& candidate :
       {method.full_name(), absl::StrCat(service, "/", method.name()), method.name(),
        absl::StrCat(short_service, ".", method.name())}) {
    if (name == candidate) return true;
  }
  return false;
}

// The text of a google.protobuf.Duration-like (seconds, nanos) pair: "0.100s".
std::string SecondsText(int64_t seconds, int32_t nanos) {
  const double s = static_cast<double>(seconds) + static_cast<double>(nanos) * 1e-9;
  return absl::StrCat(s, "s");
}

void AppendDetail(const google::protobuf::Any& detail, std::string* out) {
  google::rpc::ErrorInfo info;
  google::rpc::BadRequest bad;
  google::rpc::RetryInfo retry;
  if (detail.UnpackTo(&info)) {
    absl::StrAppend(out, "  reason: ", info.reason(), " (domain ", info.domain(), ")");
    std::vector<std::pair<std::string, std::string>> metadata(info.metadata().begin(),
                                                              info.metadata().end());
    std::sort(metadata.begin(), metadata.end());  // map order is unspecified
    for (const auto& [key, value] : metadata) absl::StrAppend(out, " ", key, "=", value);
    absl::StrAppend(out, "\n");
  } else if (detail.UnpackTo(&bad)) {
    for (const auto& v : bad.field_violations()) {
      absl::StrAppend(out, "  field violation: ", v.field(), ": ", v.description(), "\n");
    }
  } else if (detail.UnpackTo(&retry)) {
    absl::StrAppend(out, "  retry after: ",
                    SecondsText(retry.retry_delay().seconds(), retry.retry_delay().nanos()), "\n");
  } else {
    absl::StrAppend(out, "  detail: ", detail.type_url(), " (", detail.value().size(), " bytes)\n");
  }
}

}  // namespace

absl::StatusOr<const MethodDescriptor*> FindClientMethod(absl::string_view name) {
  for (const ServiceDescriptor* service : ClientServices()) {
    for (int i = 0; i < service->method_count(); ++i) {
      const MethodDescriptor* method = service->method(i);
      if (!NamesMethod(name, *method)) continue;
      if (method->client_streaming() || method->server_streaming()) {
        return absl::InvalidArgumentError(
            absl::StrCat(method->full_name(), " is a streaming method; only unary calls are made"));
      }
      return method;
    }
  }
  return absl::NotFoundError(absl::StrCat("no method named '", name,
                                          "'; known: ", absl::StrJoin(ClientMethodNames(), ", ")));
}

std::vector<std::string> ClientMethodNames() {
  std::vector<std::string> names;
  for (const ServiceDescriptor* service : ClientServices()) {
    for (int i = 0; i < service->method_count(); ++i) {
      const MethodDescriptor* method = service->method(i);
      if (!method->client_streaming() && !method->server_streaming()) {
        names.push_back(method->full_name());
      }
    }
  }
  return names;
}

absl::StatusOr<std::unique_ptr<google::protobuf::Message>> RequestFromJson(
    const MethodDescriptor& method, absl::string_view json) {
  const google::protobuf::Message* prototype =
      google::protobuf::MessageFactory::generated_factory()->GetPrototype(method.input_type());
  std::unique_ptr<google::protobuf::Message> request(prototype->New());
  if (absl::StripAsciiWhitespace(json).empty()) return request;
  google::protobuf::util::JsonParseOptions options;
  options.ignore_unknown_fields = false;  // a misspelt field must not be silently dropped
  const auto parsed = google::protobuf::util::JsonStringToMessage(
      google::protobuf::StringPiece(json.data(), json.size()), request.get(), options);
  if (!parsed.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("the request is not a valid ",
                                                   method.input_type()->full_name(),
                                                   " in JSON: ", parsed.message().as_string()));
  }
  return request;
}

std::string MessageToJson(const google::protobuf::Message& message) {
  google::protobuf::util::JsonPrintOptions options;
  options.add_whitespace = true;
  options.preserve_proto_field_names = true;
  options.always_print_primitive_fields = true;
  std::string json;
  // Printing a message of a generated type cannot fail (its Any details resolve in the
  // generated pool); an empty string would at worst show that it did.
  (void)google::protobuf::util::MessageToJsonString(message, &json, options);
  if (!absl::EndsWith(json, "\n")) json += "\n";
  return json;
}

grpc::Status CallUnary(const std::shared_ptr<grpc::Channel>& channel, grpc::ClientContext* context,
                       const MethodDescriptor& method, const google::protobuf::Message& request,
                       google::protobuf::Message* response) {
  grpc::TemplatedGenericStub<google::protobuf::Message, google::protobuf::Message> stub(channel);
  std::promise<grpc::Status> done;
  stub.UnaryCall(context, absl::StrCat("/", method.service()->full_name(), "/", method.name()),
                 grpc::StubOptions(), &request, response,
                 [&done](grpc::Status status) { done.set_value(std::move(status)); });
  return done.get_future().get();
}

std::string StatusCodeName(grpc::StatusCode code) {
  // gRPC's codes are absl's, number for number.
  return absl::StatusCodeToString(static_cast<absl::StatusCode>(code));
}

std::string DescribeStatus(const grpc::Status& status) {
  std::string out =
      absl::StrCat(StatusCodeName(status.error_code()), ": ", status.error_message(), "\n");
  if (status.error_details().empty()) return out;
  google::rpc::Status details;
  if (!details.ParseFromString(status.error_details())) {
    absl::StrAppend(&out, "  details: ", status.error_details().size(),
                    " bytes that are not a google.rpc.Status\n");
    return out;
  }
  for (const google::protobuf::Any& detail : details.details()) AppendDetail(detail, &out);
  return out;
}

}  // namespace waymesh::server
