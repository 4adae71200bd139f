// End to end: waymesh-load against a real waymesh-server on loopback serving the demo town,
// for Health.Check and FindPath (OK and NotFound), reading its JSON report; every checked-in
// config with requests from `waymesh loaddata`; a step schedule, the CSV report, --cpus, and
// --skipTLS against a TLS server; and the binary's exit code 2 for configs it must refuse.
// Short bounded runs: this also runs under ASan.

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "child_process.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "proto_files.h"
#include "scratch_dir.h"

namespace waymesh::loadtest {
namespace {

using ::testing::HasSubstr;
using ::waymesh::loadtest::testing::kHealthProto;
using ::waymesh::loadtest::testing::kNavigationProto;
using ::waymesh::loadtest::testing::kProtoRoot;
using ::waymesh::loadtest::testing::ScratchDir;
using ::waymesh::testing::ChildProcess;
using ::waymesh::testing::RunProgram;

int RunTool(const std::vector<std::string>& argv, std::string* output) {
  absl::StatusOr<int> code = RunProgram(argv, "", output, absl::Seconds(60));
  EXPECT_TRUE(code.ok()) << code.status();
  return code.ok() ? *code : -1;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The first `n` reachable queries ("... : path") of `waymesh demo-world --queries-out` as
// FindPath requests on map `map_id`.
nlohmann::json PathRequests(const std::string& queries, const std::string& map_id, size_t n) {
  nlohmann::json out = nlohmann::json::array();
  const std::vector<std::string> lines = absl::StrSplit(queries, '\n');
  for (size_t i = 0; i + 1 < lines.size() && out.size() < n; ++i) {
    if (lines[i].empty() || lines[i][0] != '#' || !absl::EndsWith(lines[i], ": path")) continue;
    std::istringstream in(lines[i + 1]);
    double v[6];
    if (!(in >> v[0] >> v[1] >> v[2] >> v[3] >> v[4] >> v[5])) continue;
    out.push_back({{"map_id", map_id},
                   {"start", {{"x", v[0]}, {"y", v[1]}, {"z", v[2]}}},
                   {"end", {{"x", v[3]}, {"y", v[4]}, {"z", v[5]}}}});
  }
  return out;
}

class LoadSmokeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string out;
    const std::string town = dir_.path() + "/town.json";
    const std::string queries = dir_.path() + "/queries.txt";
    ASSERT_EQ(RunTool({WAYMESH_CLI, "demo-world", "--size", "200", "--seed", "7", "-o", town,
                       "--queries-out", queries},
                      &out),
              0)
        << out;
    dir_.Write("maps/.keep", "");
    ASSERT_EQ(RunTool({WAYMESH_CLI, "build", town, "-o", dir_.path() + "/maps/demo.wmesh"}, &out),
              0)
        << out;
    requests_ = PathRequests(ReadFile(queries), "demo", 4);
    ASSERT_EQ(requests_.size(), 4u);

    absl::StatusOr<int> port = waymesh::testing::PickFreeLoopbackPort();
    ASSERT_TRUE(port.ok()) << port.status();
    host_ = absl::StrCat("127.0.0.1:", *port);
    auto server = ChildProcess::Start(
        {WAYMESH_SERVER_BIN, "--maps-dir=" + dir_.path() + "/maps", "--listen-address=127.0.0.1",
         absl::StrCat("--port=", *port), "--metrics-port=-1", "--workers=2"},
        dir_.path() + "/server.log");
    ASSERT_TRUE(server.ok()) << server.status();
    server_ = *std::move(server);
    // Ready when a one-call health run succeeds (bounded: 30 s).
    int code = -1;
    for (int i = 0; i < 300 && code != 0 && server_->Running(); ++i) {
      code = RunTool(
          {WAYMESH_LOAD_BIN, "--proto", kHealthProto, "--call", "grpc.health.v1.Health.Check",
           "--insecure", "-n", "1", "-c", "1", "-t", "1s", "--connect-timeout", "1s", host_},
          &out);
      if (code != 0) absl::SleepFor(absl::Milliseconds(100));
    }
    ASSERT_EQ(code, 0) << out << "\n" << server_->Log();
  }

  void TearDown() override {
    if (server_) {
      EXPECT_EQ(server_->Stop(), 0) << server_->Log();
    }
  }

  // Runs waymesh-load with `args` and -O json; returns the parsed report.
  nlohmann::json LoadJson(std::vector<std::string> args) {
    const std::string report = dir_.path() + "/report.json";
    std::remove(report.c_str());
    args.insert(args.begin(), WAYMESH_LOAD_BIN);
    for (const char* a : {"-O", "json", "-o"}) args.push_back(a);
    args.push_back(report);
    std::string out;
    EXPECT_EQ(RunTool(args, &out), 0) << out;
    nlohmann::json parsed = nlohmann::json::parse(ReadFile(report), nullptr, false);
    EXPECT_FALSE(parsed.is_discarded()) << ReadFile(report) << out;
    return parsed;
  }

  static void ExpectAllOk(const nlohmann::json& r, int total) {
    ASSERT_TRUE(r.is_object()) << r;
    EXPECT_EQ(r["count"], total) << r.dump(2);
    EXPECT_EQ(r["statusCodeDistribution"]["OK"], total) << r.dump(2);
    EXPECT_EQ(r["statusCodeDistribution"].size(), 1u) << r.dump(2);
    EXPECT_TRUE(r["errorDistribution"].empty()) << r.dump(2);
    const nlohmann::json& lat = r["latencyDistribution"];
    ASSERT_EQ(lat.size(), 7u);
    EXPECT_EQ(lat[2]["percentage"], 50);
    EXPECT_EQ(lat[6]["percentage"], 99);
    const int64_t fastest = r["fastest"], slowest = r["slowest"], average = r["average"];
    const int64_t p50 = lat[2]["latency"], p99 = lat[6]["latency"];
    EXPECT_GT(fastest, 0);
    EXPECT_LE(fastest, p50);
    EXPECT_LE(p50, p99);
    EXPECT_LE(p99, slowest);
    EXPECT_LE(fastest, average);
    EXPECT_LE(average, slowest);
    EXPECT_GT(r["rps"].get<double>(), 0);
    uint64_t in_histogram = 0;
    for (const auto& bucket : r["histogram"]) in_histogram += bucket["count"].get<uint64_t>();
    EXPECT_EQ(in_histogram, static_cast<uint64_t>(total));
  }

  ScratchDir dir_;
  std::string host_;
  nlohmann::json requests_;
  std::unique_ptr<ChildProcess> server_;
};

TEST_F(LoadSmokeTest, HealthCheckFindPathAndNotFound) {
  // Health.Check: the .proto parsed at run time, everything from flags.
  nlohmann::json health = LoadJson(
      {"--proto", kHealthProto, "--call", "grpc.health.v1.Health.Check", "--insecure", "--total",
       "300", "--concurrency", "8", "--connections", "2", "--timeout", "10s", host_});
  ExpectAllOk(health, 300);
  EXPECT_EQ(health["options"]["call"], "grpc.health.v1.Health.Check");

  // FindPath: a ghz config file with a data file beside it (relative path), round-robin data.
  dir_.Write("load/requests.json", requests_.dump());
  const std::string config = dir_.Write(
      "load/findpath.json", nlohmann::json({{"proto", kNavigationProto},
                                            {"import-paths", {kProtoRoot}},
                                            {"call", "waymesh.v1.NavigationService.FindPath"},
                                            {"host", host_},
                                            {"insecure", true},
                                            {"total", 1000},
                                            {"concurrency", 2},
                                            {"timeout", "10s"},
                                            {"data-file", "requests.json"}})
                                .dump());
  nlohmann::json find_path = LoadJson({"--config", config, "--total", "300", "-c", "8"});
  ExpectAllOk(find_path, 300);
  EXPECT_EQ(find_path["options"]["concurrency"], 8);  // the flag won over the file

  // An unknown map: every call NotFound, with the server's message.
  nlohmann::json missing = requests_[0];
  missing["map_id"] = "atlantis";
  nlohmann::json not_found =
      LoadJson({"--config", config, "--total", "40", "-c", "4", "-d", missing.dump()});
  EXPECT_EQ(not_found["count"], 40) << not_found.dump(2);
  EXPECT_EQ(not_found["statusCodeDistribution"]["NotFound"], 40) << not_found.dump(2);
  EXPECT_FALSE(not_found["statusCodeDistribution"].contains("OK"));
  ASSERT_EQ(not_found["errorDistribution"].size(), 1u) << not_found.dump(2);
  const std::string error = not_found["errorDistribution"].begin().key();
  EXPECT_THAT(error, HasSubstr("rpc error: code = NotFound desc = "));
  EXPECT_THAT(error, HasSubstr("atlantis"));
  EXPECT_EQ(not_found["errorDistribution"].begin().value(), 40);

  // Paced: call k is due at k / rps, so 40 calls at 400/s cannot finish before 39 * 2.5 ms.
  nlohmann::json paced = LoadJson({"--config", config, "-n", "40", "--rps", "400"});
  ExpectAllOk(paced, 40);
  EXPECT_GE(paced["total"].get<int64_t>(), 97'500'000) << paced.dump(2);
  EXPECT_EQ(paced["endReason"], "normal");

  // A duration ends the run before a total it cannot reach.
  nlohmann::json timed =
      LoadJson({"--config", config, "-n", "100000000", "-z", "300ms", "-c", "4"});
  EXPECT_EQ(timed["endReason"], "timeout") << timed.dump(2);
  EXPECT_GT(timed["count"].get<int64_t>(), 0);
  EXPECT_LT(timed["count"].get<int64_t>(), 100000000);
  EXPECT_EQ(timed["statusCodeDistribution"]["OK"], timed["count"]);
  EXPECT_GE(timed["total"].get<int64_t>(), 300'000'000);

  // The default summary report.
  std::string out;
  ASSERT_EQ(RunTool({WAYMESH_LOAD_BIN, "--config", config, "-n", "40"}, &out), 0) << out;
  EXPECT_THAT(out, HasSubstr("Summary:\n  Count:\t40\n"));
  EXPECT_THAT(out, HasSubstr("Response time histogram:"));
  EXPECT_THAT(out, HasSubstr("Latency distribution:\n  10 % in "));
  EXPECT_THAT(out, HasSubstr("Status code distribution:\n  [OK]   40 responses"));
}

// Every checked-in config, loaded with requests `waymesh loaddata` draws for its RPC from this
// map: all OK. Fails when a config's call or the generated data no longer fit the API.
TEST_F(LoadSmokeTest, CheckedInConfigsRunWithLoaddataRequests) {
  const std::string map = dir_.path() + "/maps/demo.wmesh";
  for (const char* name : {"findpath", "findpathbatch", "validatemove", "raycast", "randompoint",
                           "nearestpoint", "health"}) {
    SCOPED_TRACE(name);
    const std::string config = absl::StrCat(WAYMESH_LOADTEST_DIR, "/", name, ".json");
    const nlohmann::json parsed = nlohmann::json::parse(ReadFile(config), nullptr, false);
    ASSERT_TRUE(parsed.is_object()) << config;
    std::vector<std::string> args = {"--config", config, "-n", "40", "-c", "4", host_};
    const std::string call = parsed["call"];
    if (call.rfind("waymesh.v1.NavigationService.", 0) == 0) {
      const std::string rpc = call.substr(call.rfind('.') + 1);
      const std::string data = dir_.path() + "/data/" + name + ".json";
      std::string out;
      std::filesystem::create_directories(dir_.path() + "/data");
      ASSERT_EQ(RunTool({WAYMESH_CLI, "loaddata", map, "--rpc", rpc, "--count", "10",
                         "--batch-size", "4", "--max-path-distance", "40", "-o", data},
                        &out),
                0)
          << out;
      args.insert(args.end(), {"-D", data});
    }
    ExpectAllOk(LoadJson(args), 40);
  }
}

TEST_F(LoadSmokeTest, StepScheduleCsvReportAndCpus) {
  // 100 calls/s for half a second, then 300/s: 50 + 150 calls are due within the second.
  nlohmann::json step = LoadJson({"--proto",    kHealthProto,
                                  "--call",     "grpc.health.v1.Health.Check",
                                  "--insecure", "--load-schedule",
                                  "step",       "--load-start",
                                  "100",        "--load-step",
                                  "200",        "--load-step-duration",
                                  "500ms",      "--load-end",
                                  "300",        "-z",
                                  "1s",         "-c",
                                  "8",          "--cpus",
                                  "1",          host_});
  EXPECT_GE(step["count"].get<int>(), 190) << step.dump(2);
  EXPECT_LE(step["count"].get<int>(), 200) << step.dump(2);
  EXPECT_GE(step["total"].get<int64_t>(), 990'000'000) << step.dump(2);
  EXPECT_EQ(step["statusCodeDistribution"]["OK"], step["count"]);
  EXPECT_EQ(step["options"]["load-schedule"], "step");
  EXPECT_EQ(step["options"]["cpus"], 1);

  const std::string csv = dir_.path() + "/calls.csv";
  std::string out;
  ASSERT_EQ(
      RunTool({WAYMESH_LOAD_BIN, "--proto", kHealthProto, "--call", "grpc.health.v1.Health.Check",
               "--insecure", "-n", "30", "-c", "3", "-O", "csv", "-o", csv, host_},
              &out),
      0)
      << out;
  const std::vector<std::string> lines = absl::StrSplit(ReadFile(csv), '\n', absl::SkipEmpty());
  ASSERT_EQ(lines.size(), 31u);
  EXPECT_EQ(lines[0], "duration (ms),status,error");
  for (size_t i = 1; i < lines.size(); ++i) {
    const std::vector<std::string> cells = absl::StrSplit(lines[i], ',');
    ASSERT_EQ(cells.size(), 3u) << lines[i];
    double ms = -1;
    EXPECT_TRUE(absl::SimpleAtod(cells[0], &ms) && ms >= 0) << lines[i];
    EXPECT_EQ(cells[1], "OK");
    EXPECT_EQ(cells[2], "");
  }
}

// --skipTLS talks TLS to a server whose self-signed certificate nothing vouches for; without it
// the same run cannot connect.
TEST(LoadTlsTest, SkipTlsAcceptsAnUnverifiedServerCertificate) {
  ScratchDir dir;
  dir.Write("maps/.keep", "");
  absl::StatusOr<std::string> openssl = waymesh::testing::FindProgram("openssl");
  ASSERT_TRUE(openssl.ok()) << openssl.status();
  std::string out;
  ASSERT_EQ(RunTool({*openssl, "req", "-x509", "-newkey", "ec", "-pkeyopt",
                     "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", dir.path() + "/key.pem",
                     "-out", dir.path() + "/cert.pem", "-days", "2", "-subj", "/CN=localhost",
                     "-addext", "subjectAltName=IP:127.0.0.1"},
                    &out),
            0)
      << out;
  absl::StatusOr<int> port = waymesh::testing::PickFreeLoopbackPort();
  ASSERT_TRUE(port.ok()) << port.status();
  const std::string host = absl::StrCat("127.0.0.1:", *port);
  auto server = ChildProcess::Start(
      {WAYMESH_SERVER_BIN, "--maps-dir=" + dir.path() + "/maps", "--listen-address=127.0.0.1",
       absl::StrCat("--port=", *port), "--metrics-port=-1", "--workers=1",
       "--tls-cert=" + dir.path() + "/cert.pem", "--tls-key=" + dir.path() + "/key.pem"},
      dir.path() + "/server.log");
  ASSERT_TRUE(server.ok()) << server.status();
  const std::vector<std::string> health = {WAYMESH_LOAD_BIN,
                                           "--proto",
                                           kHealthProto,
                                           "--call",
                                           "grpc.health.v1.Health.Check",
                                           "-n",
                                           "20",
                                           "-c",
                                           "2",
                                           "--connect-timeout",
                                           "1s",
                                           "-O",
                                           "json"};
  int code = -1;
  for (int i = 0; i < 100 && code != 0 && (*server)->Running(); ++i) {
    std::vector<std::string> argv = health;
    argv.insert(argv.end(), {"--skipTLS", host});
    code = RunTool(argv, &out);
  }
  ASSERT_EQ(code, 0) << out << "\n" << (*server)->Log();
  const nlohmann::json report = nlohmann::json::parse(out, nullptr, false);
  ASSERT_TRUE(report.is_object()) << out;
  EXPECT_EQ(report["statusCodeDistribution"]["OK"], 20) << out;
  EXPECT_EQ(report["options"]["skipTLS"], true);

  std::vector<std::string> verified = health;
  verified.push_back(host);
  EXPECT_EQ(RunTool(verified, &out), 1) << out;  // the system roots do not know this server
  EXPECT_THAT(out, HasSubstr("cannot connect"));
  EXPECT_EQ((*server)->Stop(), 0) << (*server)->Log();
}

TEST(LoadBinaryTest, RefusesBadConfigsWithExitCodeTwo) {
  ScratchDir dir;
  std::string out;
  const std::vector<std::string> base = {WAYMESH_LOAD_BIN,
                                         "--proto",
                                         kNavigationProto,
                                         "-i",
                                         kProtoRoot,
                                         "--call",
                                         "waymesh.v1.NavigationService.FindPath",
                                         "--insecure"};
  const auto run = [&](std::vector<std::string> extra) {
    std::vector<std::string> argv = base;
    argv.insert(argv.end(), extra.begin(), extra.end());
    return RunTool(argv, &out);
  };
  // Nothing listens on port 1, but none of these gets as far as connecting.
  EXPECT_EQ(run({"10.1.2.3:50051"}), 2);
  EXPECT_THAT(out, HasSubstr("--allow-remote"));
  EXPECT_EQ(run({"-d", R"([{"map_id": "a"}, {"map_id": 5}])", "127.0.0.1:1"}), 2);
  EXPECT_THAT(out, AllOf(HasSubstr("data[1]"), HasSubstr("map_id")));
  EXPECT_EQ(run({"--call", "waymesh.v1.NavigationService.Teleport", "127.0.0.1:1"}), 2);
  EXPECT_THAT(out, HasSubstr("Teleport"));
  EXPECT_EQ(run({"--duration", "10", "127.0.0.1:1"}), 2);
  EXPECT_THAT(out, HasSubstr("duration"));
  EXPECT_EQ(run({"--bogus", "1", "127.0.0.1:1"}), 2);
  EXPECT_EQ(RunTool({WAYMESH_LOAD_BIN, "--config", dir.path() + "/none.json"}, &out), 2);
  EXPECT_THAT(out, HasSubstr("none.json"));
  EXPECT_EQ(RunTool({WAYMESH_LOAD_BIN, "--help"}, &out), 0);
  EXPECT_THAT(out, HasSubstr("--config"));
  // A valid config but no server: exit 1 after the connect timeout, not a hang.
  EXPECT_EQ(run({"--connect-timeout", "300ms", "-n", "5", "127.0.0.1:1"}), 1);
  EXPECT_THAT(out, HasSubstr("cannot connect"));
}

}  // namespace
}  // namespace waymesh::loadtest
