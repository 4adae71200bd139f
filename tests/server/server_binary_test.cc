// The shipped binaries: waymesh-server's --help, flag and environment errors, serving the demo
// town configured from the environment with JSON logs, waymesh-client's example call, and a
// clean exit 0 on SIGTERM.

#include <filesystem>
#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "child_process.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "server_process.h"
#include "support/demo_town.h"

namespace waymesh::testing {
namespace {

using ::testing::HasSubstr;

int RunTool(const std::vector<std::string>& argv, std::string* output) {
  absl::StatusOr<int> code = RunProgram(argv, "", output);
  EXPECT_TRUE(code.ok()) << code.status();
  return code.ok() ? *code : -1;
}

TEST(ServerBinaryTest, HelpListsFlagsWithTheirEnvironmentNames) {
  std::string out;
  EXPECT_EQ(RunTool({WAYMESH_SERVER_BIN, "--help"}, &out), 0);
  for (const char* want : {"--maps-dir", "WAYMESH_MAPS_DIR", "--tile-cache-bytes", "--metrics-port",
                           "--workers", "--port", "--tls-client-ca", "--auth-token"}) {
    EXPECT_THAT(out, HasSubstr(want));
  }
  EXPECT_EQ(RunTool({WAYMESH_CLIENT_BIN, "--help"}, &out), 0);
  EXPECT_THAT(out, HasSubstr("--target"));
}

TEST(ServerBinaryTest, BadConfigurationExitsTwoNamingTheSetting) {
  std::string out;
  EXPECT_EQ(RunTool({WAYMESH_SERVER_BIN}, &out), 2);
  EXPECT_THAT(out, HasSubstr("--maps-dir"));
  EXPECT_EQ(RunTool({WAYMESH_SERVER_BIN, "--maps-dir=/tmp", "--workers=-3"}, &out), 2);
  EXPECT_THAT(out, HasSubstr("--workers"));
  EXPECT_EQ(
      RunTool({"/usr/bin/env", "WAYMESH_PORT=many", WAYMESH_SERVER_BIN, "--maps-dir=/tmp"}, &out),
      2);
  EXPECT_THAT(out, HasSubstr("WAYMESH_PORT"));
  // Values abseil itself cannot parse, and flags it does not know, are bad flags too (its
  // parser would exit 1).
  for (const std::vector<std::string>& bad : std::vector<std::vector<std::string>>{
           {"--port=many"},
           {"--port", "many"},
           {"--reload-interval=soon"},
           {"--overload-shedding=maybe"},
           {"--no-such-flag=1"},
           {"--tile-cache-bytes"}}) {
    std::vector<std::string> argv = {WAYMESH_SERVER_BIN, "--maps-dir=/tmp"};
    argv.insert(argv.end(), bad.begin(), bad.end());
    EXPECT_EQ(RunTool(argv, &out), 2) << bad[0] << ": " << out;
    EXPECT_THAT(out, HasSubstr(bad[0].substr(0, bad[0].find('=')))) << out;
  }
  TempDir empty;
  EXPECT_EQ(RunTool({WAYMESH_SERVER_BIN, "--maps-dir=" + empty.path() + "/missing", "--port=0",
                     "--metrics-port=-1"},
                    &out),
            1);
  EXPECT_THAT(out, HasSubstr("missing"));
}

TEST(ServerBinaryTest, ServesFromTheEnvironmentAndStopsCleanlyOnSigterm) {
  TempDir dir;
  dir.Write("town.wmesh", Town().bytes);
  absl::StatusOr<int> port = PickFreeLoopbackPort();
  ASSERT_TRUE(port.ok()) << port.status();
  const std::string target = absl::StrCat("127.0.0.1:", *port);
  const std::string log = dir.path() + "/server.log";
  // Maps dir and log format from the environment, the port from the command line.
  auto server = ChildProcess::Start(
      {"/usr/bin/env", "WAYMESH_MAPS_DIR=" + dir.path(), "WAYMESH_LOG_FORMAT=json",
       WAYMESH_SERVER_BIN, "--listen-address=127.0.0.1", absl::StrCat("--port=", *port),
       "--metrics-port=-1", "--workers=2"},
      log);
  ASSERT_TRUE(server.ok()) << server.status();

  std::string out;
  int code = -1;
  for (int i = 0; i < 300 && code != 0 && (*server)->Running(); ++i) {
    code = RunTool({WAYMESH_CLIENT_BIN, "--target=" + target, "--call=list_maps", "--timeout=1s"},
                   &out);
    if (code != 0) absl::SleepFor(absl::Milliseconds(100));
  }
  ASSERT_EQ(code, 0) << out << "\n" << (*server)->Log();
  EXPECT_THAT(out, HasSubstr("\"town\""));

  const Vec3 a = ProbeAt(Town(), kProbeWestBank);
  const Vec3 b = ProbeAt(Town(), kProbeEastBank);
  EXPECT_EQ(RunTool({WAYMESH_CLIENT_BIN, "--target=" + target, "--map=town",
                     absl::StrCat("--start=", a.x, ",", a.y, ",", a.z),
                     absl::StrCat("--end=", b.x, ",", b.y, ",", b.z)},
                    &out),
            0)
      << out;
  EXPECT_THAT(out, HasSubstr("\"PATH_STATUS_COMPLETE\""));
  EXPECT_THAT(out, HasSubstr("\"waypoints\""));
  EXPECT_EQ(RunTool({WAYMESH_CLIENT_BIN, "--target=" + target, "--map=atlantis", "--start=0,0,0",
                     "--end=1,0,1"},
                    &out),
            1);
  EXPECT_THAT(out, HasSubstr("atlantis"));

  EXPECT_EQ((*server)->Stop(), 0) << (*server)->Log();
  const std::string text = (*server)->Log();
  int lines = 0;
  for (absl::string_view line : absl::StrSplit(text, '\n', absl::SkipEmpty())) {
    const auto parsed = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
    EXPECT_FALSE(parsed.is_discarded()) << "not a JSON log line: " << line;
    ++lines;
  }
  EXPECT_GE(lines, 2);  // "serving ..." and "stopped"
  EXPECT_THAT(text, HasSubstr("SIGTERM"));
}

// The gRPC port of a ServerProcess target "127.0.0.1:<port>".
std::string PortOf(const std::string& target) { return target.substr(target.rfind(':') + 1); }

TEST(ServerBinaryTest, ASecondServerOnTheSamePortRefusesToStartUnlessBothShare) {
  TempDir dir;
  std::filesystem::create_directories(dir.path() + "/maps");
  dir.Write("maps/town.wmesh", Town().bytes);
  std::filesystem::create_directories(dir.path() + "/a");
  auto first = ServerProcess::Start(dir.path() + "/maps", dir.path() + "/a", {"--reuse-port"});
  ASSERT_TRUE(first.ok()) << first.status();
  const std::vector<std::string> second = {WAYMESH_SERVER_BIN,
                                           "--maps-dir=" + dir.path() + "/maps",
                                           "--spool-dir=" + dir.path() + "/a/spool",
                                           "--listen-address=127.0.0.1",
                                           "--port=" + PortOf((*first)->target()),
                                           "--metrics-port=-1"};
  std::string out;
  // The first asked to share but the second did not: it must not split the traffic.
  EXPECT_EQ(RunTool(second, &out), 1) << out;
  EXPECT_THAT(out, HasSubstr("--port"));

  std::vector<std::string> sharing = second;
  sharing.push_back("--reuse-port");
  auto shared = ChildProcess::Start(sharing, dir.path() + "/shared.log");
  ASSERT_TRUE(shared.ok()) << shared.status();
  absl::SleepFor(absl::Seconds(1));
  EXPECT_TRUE((*shared)->Running()) << (*shared)->Log();
  EXPECT_EQ((*shared)->Stop(), 0) << (*shared)->Log();
  EXPECT_EQ((*first)->process().Stop(), 0);
}

}  // namespace
}  // namespace waymesh::testing
