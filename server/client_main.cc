// waymesh-client: one call to a waymesh-server, answer printed as JSON. The README's example
// call, and a quick probe for operators.
//   waymesh-client --target=127.0.0.1:50051 --map=demo --start=x,y,z --end=x,y,z
//   waymesh-client --target=... --call=list_maps
// Exit codes: 0 OK, 1 the call failed (gRPC code and message on stderr), 2 bad flags.

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "google/protobuf/util/json_util.h"
#include "grpcpp/grpcpp.h"
#include "waymesh/server/flag_environment.h"
#include "waymesh/v1/navigation.grpc.pb.h"

ABSL_FLAG(std::string, target, "127.0.0.1:50051", "Server address, host:port.");
ABSL_FLAG(std::string, call, "find_path", "find_path, nearest_point, map_info or list_maps.");
ABSL_FLAG(std::string, map, "", "Map id (file name without .wmesh).");
ABSL_FLAG(std::string, start, "", "FindPath start / NearestPoint position: x,y,z.");
ABSL_FLAG(std::string, end, "", "FindPath end: x,y,z.");
ABSL_FLAG(std::string, token, "", "Bearer token to send (when the server wants one).");
ABSL_FLAG(std::string, tls_ca, "", "PEM CA bundle that signed the server's certificate: use TLS.");
ABSL_FLAG(std::string, tls_cert, "", "PEM client certificate (mutual TLS).");
ABSL_FLAG(std::string, tls_key, "", "PEM key of --tls-cert.");
ABSL_FLAG(absl::Duration, timeout, absl::Seconds(5), "Deadline of the call.");

namespace {

constexpr char kUsage[] =
    "waymesh-client: one call to a waymesh-server, printed as JSON.\n"
    "  waymesh-client --target=HOST:PORT --map=ID --start=x,y,z --end=x,y,z";

constexpr absl::string_view kFlags[] = {"target", "call",   "map",      "start",   "end",
                                        "token",  "tls_ca", "tls_cert", "tls_key", "timeout"};

bool ParseVec3(const std::string& text, waymesh::v1::Vec3* out) {
  std::vector<std::string> parts = absl::StrSplit(text, ',');
  float v[3];
  if (parts.size() != 3) return false;
  for (int i = 0; i < 3; ++i) {
    if (!absl::SimpleAtof(parts[i], &v[i])) return false;
  }
  out->set_x(v[0]);
  out->set_y(v[1]);
  out->set_z(v[2]);
  return true;
}

bool ReadFile(const std::string& path, std::string* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream text;
  text << in.rdbuf();
  *out = text.str();
  return true;
}

int Fail(const std::string& message) {
  std::fprintf(stderr, "waymesh-client: %s\n", message.c_str());
  return 2;
}

int Print(const grpc::Status& status, const google::protobuf::Message& response) {
  if (!status.ok()) {
    std::fprintf(stderr, "waymesh-client: call failed: code %d: %s\n", int(status.error_code()),
                 status.error_message().c_str());
    return 1;
  }
  std::string json;
  google::protobuf::util::JsonPrintOptions options;
  options.add_whitespace = true;
  options.preserve_proto_field_names = true;
  (void)google::protobuf::util::MessageToJsonString(response, &json, options);
  std::printf("%s", json.c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace waymesh;
  std::vector<absl::string_view> flags(std::begin(kFlags), std::end(kFlags));
  if (server::WantsHelp(argc, argv)) {
    std::printf("%s\n", server::FlagsHelp(kUsage, flags).c_str());
    return 0;
  }
  absl::SetProgramUsageMessage(kUsage);
  std::vector<std::string> args = server::NormalizeFlagArgs(argc, argv);
  std::vector<char*> ptrs;
  for (std::string& a : args) ptrs.push_back(a.data());
  absl::ParseCommandLine(static_cast<int>(ptrs.size()), ptrs.data());

  std::shared_ptr<grpc::ChannelCredentials> credentials = grpc::InsecureChannelCredentials();
  if (!absl::GetFlag(FLAGS_tls_ca).empty()) {
    grpc::SslCredentialsOptions tls;
    if (!ReadFile(absl::GetFlag(FLAGS_tls_ca), &tls.pem_root_certs)) {
      return Fail("--tls-ca: cannot read " + absl::GetFlag(FLAGS_tls_ca));
    }
    if (!absl::GetFlag(FLAGS_tls_cert).empty() &&
        (!ReadFile(absl::GetFlag(FLAGS_tls_cert), &tls.pem_cert_chain) ||
         !ReadFile(absl::GetFlag(FLAGS_tls_key), &tls.pem_private_key))) {
      return Fail("--tls-cert / --tls-key: cannot read the client certificate or key");
    }
    credentials = grpc::SslCredentials(tls);
  }
  auto stub =
      v1::NavigationService::NewStub(grpc::CreateChannel(absl::GetFlag(FLAGS_target), credentials));
  grpc::ClientContext context;
  context.set_deadline(absl::ToChronoTime(absl::Now() + absl::GetFlag(FLAGS_timeout)));
  if (!absl::GetFlag(FLAGS_token).empty()) {
    context.AddMetadata("authorization", "Bearer " + absl::GetFlag(FLAGS_token));
  }

  const std::string call = absl::GetFlag(FLAGS_call);
  if (call == "list_maps") {
    v1::ListMapsResponse response;
    return Print(stub->ListMaps(&context, v1::ListMapsRequest(), &response), response);
  }
  if (absl::GetFlag(FLAGS_map).empty()) return Fail("--map is required");
  if (call == "map_info") {
    v1::GetMapInfoRequest request;
    request.set_map_id(absl::GetFlag(FLAGS_map));
    v1::GetMapInfoResponse response;
    return Print(stub->GetMapInfo(&context, request, &response), response);
  }
  if (call == "nearest_point") {
    v1::NearestPointRequest request;
    request.set_map_id(absl::GetFlag(FLAGS_map));
    if (!ParseVec3(absl::GetFlag(FLAGS_start), request.mutable_position())) {
      return Fail("--start: expected x,y,z");
    }
    v1::NearestPointResponse response;
    return Print(stub->NearestPoint(&context, request, &response), response);
  }
  if (call != "find_path") return Fail("--call: '" + call + "' is not a known call");
  v1::FindPathRequest request;
  request.set_map_id(absl::GetFlag(FLAGS_map));
  if (!ParseVec3(absl::GetFlag(FLAGS_start), request.mutable_start())) {
    return Fail("--start: expected x,y,z");
  }
  if (!ParseVec3(absl::GetFlag(FLAGS_end), request.mutable_end())) {
    return Fail("--end: expected x,y,z");
  }
  v1::FindPathResponse response;
  return Print(stub->FindPath(&context, request, &response), response);
}
