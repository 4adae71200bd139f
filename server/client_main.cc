// waymesh-client: any call of waymesh.v1.NavigationService (or the health check) made from
// JSON, the answer printed as JSON. The way to poke the service without generated stubs or
// grpcurl (which Debian does not ship):
//   waymesh-client [--target=H:P] [--tls-ca=F] RPC ['{"map_id": "demo", ...}' | @FILE | -]
//   waymesh-client --target=127.0.0.1:50051 ListMaps
//   waymesh-client FindPath '{"map_id": "demo", "start": {...}, "end": {...}}'
// The request comes from the argument, from FILE (@FILE), or from standard input ("-", or no
// argument when standard input is not a terminal). Shorthands kept for scripts:
//   waymesh-client --map=demo --start=x,y,z --end=x,y,z        (FindPath)
//   waymesh-client --call=list_maps | map_info | nearest_point  (with --map, --start)
// and a crowd session, its commands a JSON array, each event printed as a line of JSON:
//   waymesh-client --hold=10s RunCrowd '[{"open": {"map_id": "demo", "tick_hz": 10}}, ...]'
// Exit codes: 0 OK, 1 the call failed (status name, message and details on stderr), 2 bad
// flags or a bad request.

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/flags/commandlineflag.h"
#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/reflection.h"
#include "absl/flags/usage.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "grpcpp/grpcpp.h"
#include "waymesh/server/client_call.h"
#include "waymesh/server/client_crowd.h"
#include "waymesh/server/flag_environment.h"
#include "waymesh/v1/navigation.pb.h"

ABSL_FLAG(std::string, target, "127.0.0.1:50051", "Server address, host:port.");
ABSL_FLAG(std::string, auth_token, "",
          "Bearer token to send (the server's --auth-token); default: $WAYMESH_AUTH_TOKEN.");
ABSL_FLAG(std::string, tls_ca, "",
          "PEM CA bundle that signed the server's certificate: call over TLS.");
ABSL_FLAG(std::string, tls_cert, "", "PEM client certificate chain (mutual TLS; needs --tls-ca).");
ABSL_FLAG(std::string, tls_key, "", "PEM private key of --tls-cert.");
ABSL_FLAG(std::string, tls_server_name, "",
          "Name to check the server's certificate against instead of the target's host.");
ABSL_FLAG(absl::Duration, timeout, absl::Seconds(5), "Deadline of the call.");
ABSL_FLAG(bool, wait_for_ready, false,
          "Wait (within --timeout) for a server that is not up yet instead of failing at once "
          "with UNAVAILABLE: for scripts that have just started one.");
ABSL_FLAG(std::string, call, "",
          "Shorthand instead of RPC: find_path, nearest_point, map_info or list_maps.");
ABSL_FLAG(std::string, map, "", "Shorthand: map id (file name without .wmesh).");
ABSL_FLAG(std::string, start, "", "Shorthand: FindPath start / NearestPoint position, x,y,z.");
ABSL_FLAG(std::string, end, "", "Shorthand: FindPath end, x,y,z.");
ABSL_FLAG(absl::Duration, hold, absl::ZeroDuration(),
          "RunCrowd: keep the stream open this long after the last command (a server-ticked "
          "crowd walks meanwhile); the deadline is --timeout after it.");

namespace {

using waymesh::server::ClientMethodNames;

constexpr int kExitOk = 0;
constexpr int kExitCallFailed = 1;
constexpr int kExitUsage = 2;

// Flags in the order --help lists them.
constexpr absl::string_view kFlags[] = {
    "target",  "auth_token",     "tls_ca", "tls_cert", "tls_key", "tls_server_name",
    "timeout", "wait_for_ready", "call",   "map",      "start",   "end",
    "hold"};

std::string Dashed(absl::string_view flag) {
  std::string out(flag);
  for (char& c : out) c = c == '_' ? '-' : c;
  return out;
}

std::string UsageText() {
  std::string out =
      "waymesh-client: one call to a waymesh-server, request and answer in protobuf JSON.\n"
      "\n"
      "  waymesh-client [flags] RPC [REQUEST]\n"
      "\n"
      "REQUEST is JSON text, @FILE, or - (standard input; also when it is left out and\n"
      "standard input is not a terminal); none = the empty request. RPC is a method name\n"
      "(FindPath, NavigationService.FindPath, waymesh.v1.NavigationService/FindPath),\n"
      "or RunCrowd with a JSON array of commands (events printed one JSON line each):\n";
  for (const std::string& name : ClientMethodNames()) absl::StrAppend(&out, "  ", name, "\n");
  absl::StrAppend(&out,
                  "\nExit code 0 OK; 1 the call failed (status name, message and the "
                  "error's details on stderr); 2 bad flags or request.\n\nFlags:\n");
  for (absl::string_view name : kFlags) {
    const absl::CommandLineFlag* flag = absl::FindCommandLineFlag(name);
    if (flag == nullptr) continue;
    absl::StrAppend(&out, "  --", Dashed(name), "  (default ",
                    flag->DefaultValue().empty() ? "\"\"" : flag->DefaultValue(), ")\n      ",
                    flag->Help(), "\n");
  }
  absl::StrAppend(&out,
                  "\nEnvironment: WAYMESH_AUTH_TOKEN (the bearer token, as the server reads "
                  "it).\n");
  return out;
}

int Fail(int code, absl::string_view message) {
  std::cerr << "waymesh-client: " << message << "\n";
  return code;
}

bool ReadFile(const std::string& path, std::string* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream text;
  text << in.rdbuf();
  *out = text.str();
  return in.good() || in.eof();
}

absl::StatusOr<waymesh::v1::Vec3> ParseVec3(const std::string& flag, const std::string& text) {
  std::vector<std::string> parts = absl::StrSplit(text, ',');
  float v[3];
  bool ok = parts.size() == 3;
  for (int i = 0; ok && i < 3; ++i) ok = absl::SimpleAtof(parts[i], &v[i]);
  if (!ok) {
    return absl::InvalidArgumentError(
        absl::StrCat("--", flag, ": expected x,y,z, got '", text, "'"));
  }
  waymesh::v1::Vec3 out;
  out.set_x(v[0]);
  out.set_y(v[1]);
  out.set_z(v[2]);
  return out;
}

// The method and request the shorthand flags (--call, --map, --start, --end) describe.
struct Request {
  std::string rpc;
  std::string json;
};

absl::StatusOr<Request> ShorthandRequest() {
  namespace v1 = waymesh::v1;
  const std::string call =
      absl::GetFlag(FLAGS_call).empty() ? "find_path" : absl::GetFlag(FLAGS_call);
  if (call == "list_maps") return Request{"ListMaps", "{}"};
  const std::string map = absl::GetFlag(FLAGS_map);
  if (map.empty()) {
    return absl::InvalidArgumentError("--map is required (or name an RPC: see --help)");
  }
  if (call == "map_info") {
    v1::GetMapInfoRequest request;
    request.set_map_id(map);
    return Request{"GetMapInfo", waymesh::server::MessageToJson(request)};
  }
  absl::StatusOr<v1::Vec3> start = ParseVec3("start", absl::GetFlag(FLAGS_start));
  if (!start.ok()) return start.status();
  if (call == "nearest_point") {
    v1::NearestPointRequest request;
    request.set_map_id(map);
    *request.mutable_position() = *start;
    return Request{"NearestPoint", waymesh::server::MessageToJson(request)};
  }
  if (call != "find_path") {
    return absl::InvalidArgumentError(absl::StrCat(
        "--call: '", call, "' is not find_path, nearest_point, map_info or list_maps"));
  }
  absl::StatusOr<v1::Vec3> end = ParseVec3("end", absl::GetFlag(FLAGS_end));
  if (!end.ok()) return end.status();
  v1::FindPathRequest request;
  request.set_map_id(map);
  *request.mutable_start() = *start;
  *request.mutable_end() = *end;
  return Request{"FindPath", waymesh::server::MessageToJson(request)};
}

// The method and request of the positional arguments: RPC [JSON | @FILE | -].
absl::StatusOr<Request> PositionalRequest(const std::vector<char*>& positional) {
  if (positional.size() > 3) {
    return absl::InvalidArgumentError(
        absl::StrCat("unexpected argument '", positional[3],
                     "': give the request as one argument (quote the JSON), @FILE or -"));
  }
  Request request{positional[1], ""};
  const std::string source = positional.size() == 3 ? positional[2] : "";
  if (source == "-" || (source.empty() && !isatty(STDIN_FILENO))) {
    std::ostringstream text;
    text << std::cin.rdbuf();
    request.json = text.str();
  } else if (!source.empty() && source[0] == '@') {
    if (!ReadFile(source.substr(1), &request.json)) {
      return absl::InvalidArgumentError(
          absl::StrCat("cannot read the request file ", source.substr(1)));
    }
  } else {
    request.json = source;
  }
  return request;
}

absl::StatusOr<std::shared_ptr<grpc::ChannelCredentials>> Credentials() {
  const std::string ca = absl::GetFlag(FLAGS_tls_ca);
  const std::string cert = absl::GetFlag(FLAGS_tls_cert);
  const std::string key = absl::GetFlag(FLAGS_tls_key);
  if (cert.empty() != key.empty()) {
    return absl::InvalidArgumentError("--tls-cert and --tls-key go together");
  }
  if (ca.empty()) {
    if (!cert.empty()) return absl::InvalidArgumentError("--tls-cert needs --tls-ca");
    return grpc::InsecureChannelCredentials();
  }
  grpc::SslCredentialsOptions tls;
  if (!ReadFile(ca, &tls.pem_root_certs)) {
    return absl::InvalidArgumentError("--tls-ca: cannot read " + ca);
  }
  if (!cert.empty() &&
      (!ReadFile(cert, &tls.pem_cert_chain) || !ReadFile(key, &tls.pem_private_key))) {
    return absl::InvalidArgumentError("--tls-cert / --tls-key: cannot read " + cert + " or " + key);
  }
  return grpc::SslCredentials(tls);
}

bool IsRunCrowd(absl::string_view rpc) {
  return rpc == "RunCrowd" || rpc == "CrowdService.RunCrowd" ||
         rpc == "waymesh.v1.CrowdService.RunCrowd" || rpc == "waymesh.v1.CrowdService/RunCrowd";
}

int Run(const Request& input) {
  using namespace waymesh::server;
  const bool crowd = IsRunCrowd(input.rpc);
  absl::StatusOr<const google::protobuf::MethodDescriptor*> method =
      crowd ? nullptr : FindClientMethod(input.rpc);
  if (!method.ok()) return Fail(kExitUsage, method.status().message());
  absl::StatusOr<std::unique_ptr<google::protobuf::Message>> request =
      crowd ? nullptr : RequestFromJson(**method, input.json);
  if (!request.ok()) return Fail(kExitUsage, request.status().message());
  absl::StatusOr<std::vector<waymesh::v1::RunCrowdRequest>> commands =
      crowd ? CrowdCommandsFromJson(input.json) : std::vector<waymesh::v1::RunCrowdRequest>{};
  if (!commands.ok()) return Fail(kExitUsage, commands.status().message());
  absl::StatusOr<std::shared_ptr<grpc::ChannelCredentials>> credentials = Credentials();
  if (!credentials.ok()) return Fail(kExitUsage, credentials.status().message());

  grpc::ChannelArguments args;
  if (!absl::GetFlag(FLAGS_tls_server_name).empty()) {
    args.SetSslTargetNameOverride(absl::GetFlag(FLAGS_tls_server_name));
  }
  std::shared_ptr<grpc::Channel> channel =
      grpc::CreateCustomChannel(absl::GetFlag(FLAGS_target), *credentials, args);
  grpc::ClientContext context;
  const absl::Duration hold = absl::GetFlag(FLAGS_hold);
  context.set_deadline(absl::ToChronoTime(absl::Now() + hold + absl::GetFlag(FLAGS_timeout)));
  context.set_wait_for_ready(absl::GetFlag(FLAGS_wait_for_ready));
  const std::string token = absl::GetFlag(FLAGS_auth_token);
  if (!token.empty()) context.AddMetadata("authorization", "Bearer " + token);

  if (crowd) {
    const grpc::Status status = RunCrowdSession(channel, &context, *commands, hold, std::cout);
    if (status.ok()) return kExitOk;
    std::cerr << "waymesh-client: RunCrowd failed: " << DescribeStatus(status);
    return kExitCallFailed;
  }
  std::unique_ptr<google::protobuf::Message> response(
      google::protobuf::MessageFactory::generated_factory()
          ->GetPrototype((*method)->output_type())
          ->New());
  const grpc::Status status = CallUnary(channel, &context, **method, **request, response.get());
  if (!status.ok()) {
    std::cerr << "waymesh-client: " << (*method)->name() << " failed: " << DescribeStatus(status);
    return kExitCallFailed;
  }
  std::cout << MessageToJson(*response);
  return kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace waymesh;
  if (server::WantsHelp(argc, argv)) {
    std::cout << UsageText();
    return kExitOk;
  }
  absl::SetProgramUsageMessage("waymesh-client [flags] RPC [REQUEST]; see --help");
  std::vector<std::string> args = server::NormalizeFlagArgs(argc, argv);
  if (absl::Status s = server::CheckFlagArgs(args); !s.ok()) return Fail(kExitUsage, s.message());
  // Only the token comes from the environment: WAYMESH_TLS_CERT and the like name the
  // server's own files in a shell that runs both.
  constexpr absl::string_view kEnvironmentFlags[] = {"auth_token"};
  if (absl::Status s = server::ApplyEnvironmentOverrides(kEnvironmentFlags); !s.ok()) {
    return Fail(kExitUsage, s.message());
  }
  std::vector<char*> ptrs;
  for (std::string& a : args) ptrs.push_back(a.data());
  const std::vector<char*> positional =
      absl::ParseCommandLine(static_cast<int>(ptrs.size()), ptrs.data());

  const bool shorthand = positional.size() < 2;
  if (!shorthand && (!absl::GetFlag(FLAGS_call).empty() || !absl::GetFlag(FLAGS_map).empty())) {
    return Fail(kExitUsage, "give either an RPC with its JSON request or --call/--map, not both");
  }
  absl::StatusOr<Request> request = shorthand ? ShorthandRequest() : PositionalRequest(positional);
  if (!request.ok()) return Fail(kExitUsage, request.status().message());
  return Run(*request);
}
