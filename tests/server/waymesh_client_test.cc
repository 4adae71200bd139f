// waymesh-client against a real waymesh-server over TCP: every unary RPC of the API from JSON
// (the table below must name each one the client knows, so a new RPC without a case fails
// here), the answer as JSON, failed calls with their status name and decoded details, the
// bearer token from WAYMESH_AUTH_TOKEN, requests from a file and from standard input, and
// exit code 2 for requests that are not the method's message.

#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "child_process.h"
#include "gmock/gmock.h"
#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "server_process.h"
#include "support/demo_town.h"
#include "waymesh/server/client_call.h"

namespace waymesh::testing {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;
using Json = nlohmann::json;

constexpr char kToken[] = "client-test-token";

Json Point(Vec3 v) { return Json{{"x", v.x}, {"y", v.y}, {"z", v.z}}; }

struct ClientRun {
  int code = -1;
  std::string output;  // stdout + stderr
};

class WaymeshClientTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    maps_ = new TempDir();
    work_ = new TempDir();
    maps_->Write("town.wmesh", Town().bytes);
    auto server =
        ServerProcess::Start(maps_->path(), work_->path(), {absl::StrCat("--auth-token=", kToken)});
    ASSERT_TRUE(server.ok()) << server.status();
    server_ = server->release();
  }
  static void TearDownTestSuite() {
    if (server_ != nullptr) EXPECT_EQ(server_->process().Stop(), 0);
    delete server_;
    delete work_;
    delete maps_;
  }
  void SetUp() override { ASSERT_NE(server_, nullptr); }

  // waymesh-client with the token in the environment, `args`, and `stdin_data`.
  static ClientRun Client(const std::vector<std::string>& args, const std::string& stdin_data = "",
                          bool with_token = true) {
    std::vector<std::string> argv = {"/usr/bin/env"};
    if (with_token) argv.push_back(absl::StrCat("WAYMESH_AUTH_TOKEN=", kToken));
    argv.push_back(WAYMESH_CLIENT_BIN);
    argv.push_back("--target=" + server_->target());
    argv.insert(argv.end(), args.begin(), args.end());
    ClientRun run;
    absl::StatusOr<int> code = RunProgram(argv, stdin_data, &run.output);
    EXPECT_TRUE(code.ok()) << code.status();
    run.code = code.ok() ? *code : -1;
    return run;
  }

  // Calls `rpc` with `request`; the parsed JSON answer (fails the test unless the call is OK).
  static Json Call(const std::string& rpc, const Json& request) {
    const ClientRun run = Client({rpc, request.dump()});
    EXPECT_EQ(run.code, 0) << rpc << ": " << run.output;
    Json answer = Json::parse(run.output, nullptr, /*allow_exceptions=*/false);
    EXPECT_FALSE(answer.is_discarded()) << rpc << " printed no JSON: " << run.output;
    return answer;
  }

  static Vec3 West() { return ProbeAt(Town(), kProbeWestBank); }
  static Vec3 East() { return ProbeAt(Town(), kProbeEastBank); }
  static Json Path() {
    return {{"map_id", "town"}, {"start", Point(West())}, {"end", Point(East())}};
  }
  static Json Move() {
    const Vec3 w = West();
    return {{"map_id", "town"}, {"start", Point(w)}, {"end", Point({w.x + 0.5f, w.y, w.z})}};
  }
  static Json AtWest(const char* field) { return {{"map_id", "town"}, {field, Point(West())}}; }
  static Json WithMap(Json request, const char* map_id) {
    request["map_id"] = map_id;
    return request;
  }
  static Json WithField(Json request, const char* field, double value) {
    request[field] = value;
    return request;
  }

  static TempDir* maps_;
  static TempDir* work_;
  static ServerProcess* server_;
};

TempDir* WaymeshClientTest::maps_ = nullptr;
TempDir* WaymeshClientTest::work_ = nullptr;
ServerProcess* WaymeshClientTest::server_ = nullptr;

TEST_F(WaymeshClientTest, CallsEveryRpcFromJson) {
  // RPC -> what its answer must show. Each check reads fields only a real answer has.
  const std::map<std::string, std::function<void(const Json&)>> cases = {
      {"FindPath",
       [](const Json& r) {
         EXPECT_EQ(r["status"], "PATH_STATUS_COMPLETE") << r;
         EXPECT_GE(r["waypoints"].size(), 2u) << r;
         EXPECT_GT(r["length"].get<double>(), 0) << r;
       }},
      {"FindPathBatch",
       [](const Json& r) {
         ASSERT_EQ(r["results"].size(), 2u) << r;
         EXPECT_EQ(r["results"][0]["response"]["status"], "PATH_STATUS_COMPLETE") << r;
         EXPECT_EQ(r["results"][1]["error"]["code"], 5) << r;  // NOT_FOUND, this item only
       }},
      {"ValidateMove",
       [](const Json& r) {
         EXPECT_EQ(r["verdict"], "VERDICT_VALID") << r;
         EXPECT_NE(r["map_version"], "0") << r;
       }},
      {"ValidateMoveBatch",
       [](const Json& r) {
         ASSERT_EQ(r["results"].size(), 1u) << r;
         EXPECT_EQ(r["results"][0]["response"]["verdict"], "VERDICT_VALID") << r;
       }},
      {"RandomPoint", [](const Json& r) { EXPECT_TRUE(r["found"].get<bool>()) << r; }},
      {"Raycast", [](const Json& r) { EXPECT_TRUE(r["start_on_mesh"].get<bool>()) << r; }},
      {"RaycastBatch",
       [](const Json& r) {
         ASSERT_EQ(r["results"].size(), 1u) << r;
         EXPECT_TRUE(r["results"][0]["response"]["start_on_mesh"].get<bool>()) << r;
       }},
      {"NearestPoint", [](const Json& r) { EXPECT_TRUE(r["found"].get<bool>()) << r; }},
      {"FindDistanceToWall",
       [](const Json& r) {
         EXPECT_TRUE(r["start_on_mesh"].get<bool>()) << r;
         EXPECT_LE(r["distance"].get<double>(), 50.0) << r;
       }},
      {"FindPolygonsInCircle",
       [](const Json& r) {
         EXPECT_TRUE(r["center_on_mesh"].get<bool>()) << r;
         EXPECT_GE(r["polygons"].size(), 1u) << r;
       }},
      {"GetMapInfo", [](const Json& r) { EXPECT_EQ(r["map"]["map_id"], "town") << r; }},
      {"ListMaps",
       [](const Json& r) {
         ASSERT_EQ(r["maps"].size(), 1u) << r;
         EXPECT_EQ(r["maps"][0]["map_id"], "town") << r;
       }},
      {"PutObstacleLayer", [](const Json& r) { EXPECT_EQ(r["change"]["version"], "1") << r; }},
      {"UpdateObstacleLayer", [](const Json& r) { EXPECT_EQ(r["change"]["version"], "2") << r; }},
      {"DeleteObstacleLayer", [](const Json& r) { EXPECT_TRUE(r["deleted"].get<bool>()) << r; }},
      {"GetObstacleLayer", [](const Json& r) { EXPECT_EQ(r["version"], "0") << r; }},
      {"Check", [](const Json& r) { EXPECT_EQ(r["status"], "SERVING") << r; }},
  };
  const Json layer = {{"map_id", "town"}, {"layer", "zone-1"}};
  Json put = layer;
  put["version"] = 1;
  put["obstacles"] = {{{"id", "post"},
                       {"cylinder", {{"center", Point(West())}, {"radius", 1}, {"height", 2}}},
                       {"effect", "OBSTACLE_EFFECT_BLOCK"}}};
  Json update = layer;
  update["base_version"] = 1;
  update["version"] = 2;
  update["remove"] = {"post"};
  const std::map<std::string, Json> requests = {
      {"FindPath", Path()},
      {"FindPathBatch", {{"requests", {Path(), WithMap(Path(), "atlantis")}}}},
      {"ValidateMove", Move()},
      {"ValidateMoveBatch", {{"requests", {Move()}}}},
      {"RandomPoint", {{"map_id", "town"}, {"seed", 3}}},
      {"Raycast", Path()},
      {"RaycastBatch", {{"requests", {Path()}}}},
      {"NearestPoint", AtWest("position")},
      {"FindDistanceToWall", WithField(AtWest("position"), "max_radius", 50)},
      {"FindPolygonsInCircle", WithField(AtWest("center"), "radius", 5)},
      {"GetMapInfo", {{"map_id", "town"}}},
      {"ListMaps", Json::object()},
      {"PutObstacleLayer", put},
      {"UpdateObstacleLayer", update},
      {"DeleteObstacleLayer", layer},
      {"GetObstacleLayer", layer},  // after the delete: no layer held
      {"Check", Json::object()},
  };
  std::set<std::string> known;
  for (const std::string& name : server::ClientMethodNames()) {
    const std::string method = name.substr(name.rfind('.') + 1);
    known.insert(method);
    ASSERT_TRUE(cases.count(method)) << name << " has no case in this test";
    ASSERT_TRUE(requests.count(method)) << name << " has no request in this test";
    SCOPED_TRACE(name);
    cases.at(method)(Call(name, requests.at(method)));
  }
  EXPECT_EQ(known.size(), cases.size()) << "a case for an RPC the client does not know";
}

TEST_F(WaymeshClientTest, MethodNamesMayBeShortOrSlashed) {
  for (const char* name :
       {"GetMapInfo", "NavigationService.GetMapInfo", "waymesh.v1.NavigationService/GetMapInfo",
        "/waymesh.v1.NavigationService/GetMapInfo"}) {
    EXPECT_EQ(Call(name, {{"map_id", "town"}})["map"]["map_id"], "town") << name;
  }
  EXPECT_EQ(Call("grpc.health.v1.Health.Check", Json::object())["status"], "SERVING");
}

TEST_F(WaymeshClientTest, ShorthandFlagsStillWork) {
  const Vec3 a = West(), b = East();
  ClientRun path = Client({"--map=town", absl::StrCat("--start=", a.x, ",", a.y, ",", a.z),
                           absl::StrCat("--end=", b.x, ",", b.y, ",", b.z)});
  EXPECT_EQ(path.code, 0) << path.output;
  EXPECT_THAT(path.output, HasSubstr("\"PATH_STATUS_COMPLETE\""));
  ClientRun maps = Client({"--call=list_maps"});
  EXPECT_EQ(maps.code, 0) << maps.output;
  EXPECT_THAT(maps.output, HasSubstr("\"town\""));
  ClientRun info = Client({"--call=map_info", "--map=town"});
  EXPECT_EQ(info.code, 0) << info.output;
  EXPECT_THAT(info.output, HasSubstr("\"agent_types\""));
}

TEST_F(WaymeshClientTest, RequestFromFileAndStandardInput) {
  const std::string file = work_->path() + "/request.json";
  work_->Write("request.json", Json{{"map_id", "town"}}.dump());
  ClientRun from_file = Client({"GetMapInfo", "@" + file});
  EXPECT_EQ(from_file.code, 0) << from_file.output;
  EXPECT_THAT(from_file.output, HasSubstr("\"town\""));
  ClientRun from_stdin = Client({"GetMapInfo", "-"}, R"({"mapId": "town"})");
  EXPECT_EQ(from_stdin.code, 0) << from_stdin.output;
  EXPECT_THAT(from_stdin.output, HasSubstr("\"town\""));
  ClientRun implicit = Client({"GetMapInfo"}, R"({"map_id": "town"})");
  EXPECT_EQ(implicit.code, 0) << implicit.output;
  ClientRun missing = Client({"GetMapInfo", "@" + work_->path() + "/nope.json"});
  EXPECT_EQ(missing.code, 2) << missing.output;
  EXPECT_THAT(missing.output, HasSubstr("nope.json"));
}

TEST_F(WaymeshClientTest, FailedCallsShowTheStatusNameAndDetails) {
  ClientRun not_found = Client({"GetMapInfo", R"({"map_id": "atlantis"})"});
  EXPECT_EQ(not_found.code, 1) << not_found.output;
  EXPECT_THAT(not_found.output,
              AllOf(HasSubstr("GetMapInfo failed: NOT_FOUND: "), HasSubstr("atlantis"),
                    HasSubstr("reason: MAP_NOT_FOUND (domain waymesh.dev)")));

  Json bad = Path();
  bad["options"] = {{"max_waypoints", 20000}};
  ClientRun invalid = Client({"FindPath", bad.dump()});
  EXPECT_EQ(invalid.code, 1) << invalid.output;
  EXPECT_THAT(invalid.output,
              AllOf(HasSubstr("INVALID_ARGUMENT: "), HasSubstr("reason: INVALID_FIELD"),
                    HasSubstr("field violation: options.max_waypoints: ")));

  ClientRun no_token = Client({"ListMaps"}, "", /*with_token=*/false);
  EXPECT_EQ(no_token.code, 1) << no_token.output;
  EXPECT_THAT(no_token.output, HasSubstr("UNAUTHENTICATED: "));
  ClientRun flag_token = Client({absl::StrCat("--auth-token=", kToken), "ListMaps"}, "",
                                /*with_token=*/false);
  EXPECT_EQ(flag_token.code, 0) << flag_token.output;
}

TEST_F(WaymeshClientTest, BadRequestsExitTwoNamingTheProblem) {
  ClientRun unknown_rpc = Client({"Teleport", "{}"});
  EXPECT_EQ(unknown_rpc.code, 2);
  EXPECT_THAT(unknown_rpc.output, AllOf(HasSubstr("no method named 'Teleport'"),
                                        HasSubstr("waymesh.v1.NavigationService.FindPath")));
  ClientRun unknown_field = Client({"FindPath", R"({"map_id": "town", "from": {}})"});
  EXPECT_EQ(unknown_field.code, 2);
  EXPECT_THAT(unknown_field.output,
              AllOf(HasSubstr("waymesh.v1.FindPathRequest"), HasSubstr("from")));
  ClientRun not_json = Client({"FindPath", "{map_id: town"});
  EXPECT_EQ(not_json.code, 2) << not_json.output;
  ClientRun streaming = Client({"Watch", "{}"});
  EXPECT_EQ(streaming.code, 2);
  EXPECT_THAT(streaming.output, HasSubstr("streaming"));
  ClientRun half_tls = Client({"--tls-cert=/x.pem", "ListMaps"});
  EXPECT_EQ(half_tls.code, 2);
  EXPECT_THAT(half_tls.output, HasSubstr("--tls-key"));
  ClientRun help = Client({"--help"});
  EXPECT_EQ(help.code, 0);
  EXPECT_THAT(help.output, AllOf(HasSubstr("waymesh.v1.NavigationService.FindDistanceToWall"),
                                 HasSubstr("WAYMESH_AUTH_TOKEN"), HasSubstr("--tls-ca"),
                                 Not(HasSubstr("grpc.health.v1.Health.Watch"))));
}

// RunCrowd: commands as a JSON array, each event printed as a line of JSON; the session ends
// when the client closes its side.
TEST_F(WaymeshClientTest, RunsACrowdSessionFromACommandList) {
  const Vec3 w = West();
  const Json commands =
      Json::array({{{"seq", 1}, {"open", {{"map_id", "town"}}}},
                   {{"seq", 2}, {"add_agent", {{"id", 7}, {"position", Point(w)}}}},
                   {{"seq", 3}, {"set_target", {{"id", 7}, {"point", Point({w.x + 3, w.y, w.z})}}}},
                   {{"seq", 4}, {"step", {{"dt_seconds", 0.1}}}},
                   {{"seq", 5}, {"step", {{"dt_seconds", 0.1}}}},
                   {{"seq", 6}, {"remove_agent", {{"id", 99}}}}});
  const ClientRun run = Client({"--hold=100ms", "RunCrowd", commands.dump()});
  ASSERT_EQ(run.code, 0) << run.output;
  std::vector<Json> events;
  for (absl::string_view line : absl::StrSplit(run.output, '\n', absl::SkipEmpty())) {
    events.push_back(Json::parse(line, nullptr, false));
    ASSERT_TRUE(events.back().is_object()) << line;
  }
  ASSERT_EQ(events.size(), 4u) << run.output;
  EXPECT_TRUE(events[0].contains("opened"));
  EXPECT_EQ(events[1]["tick"]["seq"], "4");
  EXPECT_EQ(events[2]["tick"]["seq"], "5");
  EXPECT_EQ(events[2]["tick"]["agents"][0]["id"], 7);
  EXPECT_GT(events[2]["tick"]["agents"][0]["position"]["x"].get<double>(), w.x);
  EXPECT_EQ(events[3]["command_failed"]["seq"], "6");

  ClientRun not_a_list = Client({"RunCrowd", R"({"open": {}})"});
  EXPECT_EQ(not_a_list.code, 2);
  EXPECT_THAT(not_a_list.output, HasSubstr("JSON array"));
  ClientRun bad_command = Client({"RunCrowd", R"([{"open": {}}, {"jump": 1}])"});
  EXPECT_EQ(bad_command.code, 2);
  EXPECT_THAT(bad_command.output, HasSubstr("command 1"));
  ClientRun unknown_map = Client({"RunCrowd", R"([{"open": {"map_id": "nowhere"}}])"});
  EXPECT_EQ(unknown_map.code, 1);
  EXPECT_THAT(unknown_map.output, HasSubstr("NOT_FOUND"));
}

// --tls-ca: the client verifies a TLS server against the CA it is given; plaintext to the same
// server fails with UNAVAILABLE (exit 1).
TEST(WaymeshClientTlsTest, CallsATlsServerWithItsCa) {
  TempDir maps, dir;
  maps.Write("town.wmesh", Town().bytes);
  absl::StatusOr<std::string> openssl = FindProgram("openssl");
  ASSERT_TRUE(openssl.ok()) << openssl.status();
  std::string out;
  absl::StatusOr<int> made = RunProgram(
      {*openssl, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
       "-nodes", "-keyout", dir.path() + "/key.pem", "-out", dir.path() + "/cert.pem", "-days", "2",
       "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1"},
      "", &out);
  ASSERT_TRUE(made.ok() && *made == 0) << out;
  auto server = ServerProcess::Start(
      maps.path(), dir.path(),
      {"--tls-cert=" + dir.path() + "/cert.pem", "--tls-key=" + dir.path() + "/key.pem"});
  ASSERT_TRUE(server.ok()) << server.status();
  const std::string target = "--target=" + (*server)->target();
  absl::StatusOr<int> code =
      RunProgram({WAYMESH_CLIENT_BIN, target, "--tls-ca=" + dir.path() + "/cert.pem", "GetMapInfo",
                  R"({"map_id": "town"})"},
                 "", &out);
  ASSERT_TRUE(code.ok()) << code.status();
  EXPECT_EQ(*code, 0) << out;
  EXPECT_THAT(out, HasSubstr("\"town\""));
  code = RunProgram({WAYMESH_CLIENT_BIN, target, "ListMaps"}, "", &out);
  ASSERT_TRUE(code.ok()) << code.status();
  EXPECT_EQ(*code, 1) << out;
  EXPECT_THAT(out, HasSubstr("ListMaps failed: UNAVAILABLE: "));
  EXPECT_EQ((*server)->process().Stop(), 0);
}

TEST(ClientCallTest, DescribesEveryDetailKind) {
  google::rpc::Status rpc;
  rpc.set_code(8);
  rpc.set_message("queue full");
  google::rpc::ErrorInfo info;
  info.set_reason("OVERLOADED");
  info.set_domain("waymesh.dev");
  (*info.mutable_metadata())["queue"] = "16";
  rpc.add_details()->PackFrom(info);
  google::rpc::RetryInfo retry;
  retry.mutable_retry_delay()->set_nanos(100'000'000);
  rpc.add_details()->PackFrom(retry);
  google::rpc::BadRequest bad;
  auto* v = bad.add_field_violations();
  v->set_field("requests[3].start.x");
  v->set_description("must be finite");
  rpc.add_details()->PackFrom(bad);
  const std::string text = server::DescribeStatus(
      grpc::Status(grpc::StatusCode::RESOURCE_EXHAUSTED, "queue full", rpc.SerializeAsString()));
  EXPECT_EQ(text,
            "RESOURCE_EXHAUSTED: queue full\n"
            "  reason: OVERLOADED (domain waymesh.dev) queue=16\n"
            "  retry after: 0.1s\n"
            "  field violation: requests[3].start.x: must be finite\n");
  EXPECT_EQ(server::DescribeStatus(grpc::Status(grpc::StatusCode::CANCELLED, "gone")),
            "CANCELLED: gone\n");
  EXPECT_THAT(server::DescribeStatus(grpc::Status(grpc::StatusCode::INTERNAL, "x", "\xff\xff")),
              HasSubstr("not a google.rpc.Status"));
}

}  // namespace
}  // namespace waymesh::testing
