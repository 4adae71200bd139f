// Flags, their dashed spellings, WAYMESH_* environment overrides, --help text and the config
// checks: precedence is command line > environment > default, and every error names its source.

#include "waymesh/server/server_flags.h"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/reflection.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "waymesh/server/flag_environment.h"

namespace waymesh::server {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::function<const char*(const char*)> FakeEnv(const std::map<std::string, std::string>& vars) {
  return [vars](const char* name) -> const char* {
    auto it = vars.find(name);
    return it == vars.end() ? nullptr : it->second.c_str();
  };
}

TEST(ServerFlagsTest, EnvironmentOverridesDefaults) {
  absl::FlagSaver restore;
  ASSERT_TRUE(
      ApplyEnvironmentOverrides(ServerFlagNames(), FakeEnv({{"WAYMESH_MAPS_DIR", "/srv/maps"},
                                                            {"WAYMESH_WORKERS", "3"},
                                                            {"WAYMESH_RELOAD_INTERVAL", "250ms"},
                                                            {"WAYMESH_TILE_CACHE_BYTES", "1048576"},
                                                            {"UNRELATED", "x"}}))
          .ok());
  absl::StatusOr<ServerConfig> config = ServerConfigFromFlags();
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->maps_dir, "/srv/maps");
  EXPECT_EQ(config->workers, 3);
  EXPECT_EQ(config->reload_interval, absl::Milliseconds(250));
  EXPECT_EQ(config->tile_cache_bytes, 1048576u);
  EXPECT_EQ(config->port, 50051);  // untouched default
}

TEST(ServerFlagsTest, BadEnvironmentValueNamesTheVariable) {
  absl::FlagSaver restore;
  const absl::Status s =
      ApplyEnvironmentOverrides(ServerFlagNames(), FakeEnv({{"WAYMESH_PORT", "fifty"}}));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(s.message()), HasSubstr("WAYMESH_PORT='fifty'"));
}

TEST(ServerFlagsTest, DashedNamesAreNormalized) {
  const char* argv[] = {
      "waymesh-server", "--maps-dir=/a-b/c-d", "-tile-cache-bytes", "5", "--port=1", "--",
      "--not-a-flag"};
  const std::vector<std::string> out = NormalizeFlagArgs(7, const_cast<char**>(argv));
  EXPECT_THAT(out, ElementsAre("waymesh-server", "--maps_dir=/a-b/c-d", "-tile_cache_bytes", "5",
                               "--port=1", "--", "--not-a-flag"));
}

TEST(ServerFlagsTest, HelpListsEveryFlagWithItsEnvironmentName) {
  const std::string help = FlagsHelp("usage line", ServerFlagNames());
  for (absl::string_view name : ServerFlagNames()) {
    EXPECT_THAT(help, HasSubstr(EnvironmentName(name))) << name;
  }
  EXPECT_THAT(help, HasSubstr("--maps-dir"));
  EXPECT_THAT(help, HasSubstr("--tile-cache-bytes"));
  EXPECT_THAT(help, HasSubstr("WAYMESH_METRICS_PORT"));
  // The names come from abseil's registry: every flag server_flags.cc defines (40), and none
  // of abseil's own or of other binaries.
  const std::vector<absl::string_view> names(ServerFlagNames().begin(), ServerFlagNames().end());
  EXPECT_EQ(names.size(), 40u);
  EXPECT_THAT(names,
              ::testing::IsSupersetOf(
                  {"maps_dir", "health_port", "reflection", "keepalive_min_ping_interval",
                   "keepalive_permit_without_calls", "max_crowd_sessions", "max_crowd_agents",
                   "path_hierarchy", "ui_port", "ui_address", "ui_max_streams"}));
  EXPECT_THAT(names, ::testing::Not(::testing::Contains("flagfile")));
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
  const char* asks[] = {"p", "--port=1", "--help"};
  EXPECT_TRUE(WantsHelp(3, const_cast<char**>(asks)));
  const char* not_asks[] = {"p", "--", "--help"};
  EXPECT_FALSE(WantsHelp(3, const_cast<char**>(not_asks)));
}

TEST(ServerFlagsTest, ConfigChecksNameTheFlag) {
  ServerConfig good;
  good.maps_dir = "/m";
  EXPECT_TRUE(ValidateServerConfig(good).ok());
  struct Case {
    std::function<void(ServerConfig&)> change;
    const char* flag;
  };
  const Case cases[] = {
      {[](ServerConfig& c) { c.maps_dir.clear(); }, "--maps-dir"},
      {[](ServerConfig& c) { c.port = 70000; }, "--port"},
      {[](ServerConfig& c) { c.metrics_port = -2; }, "--metrics-port"},
      {[](ServerConfig& c) { c.workers = -1; }, "--workers"},
      {[](ServerConfig& c) { c.queue_capacity = -5; }, "--queue-capacity"},
      {[](ServerConfig& c) { c.tile_cache_bytes = 0; }, "--tile-cache-bytes"},
      {[](ServerConfig& c) { c.max_search_nodes = 1; }, "--max-search-nodes"},
      {[](ServerConfig& c) { c.max_message_bytes = 10; }, "--max-message-bytes"},
      {[](ServerConfig& c) { c.tls_cert = "cert.pem"; }, "--tls-key"},
      {[](ServerConfig& c) { c.tls_key = "key.pem"; }, "--tls-cert"},
      {[](ServerConfig& c) { c.tls_client_ca = "ca.pem"; }, "--tls-client-ca"},
      {[](ServerConfig& c) { c.log_format = "xml"; }, "--log-format"},
      {[](ServerConfig& c) { c.reload_interval = -absl::Seconds(1); }, "--reload-interval"},
      {[](ServerConfig& c) { c.max_obstacles_per_layer = 0; }, "--max-obstacles-per-layer"},
      {[](ServerConfig& c) { c.max_obstacle_layers_per_map = 0; }, "--max-obstacle-layers-per-map"},
      {[](ServerConfig& c) { c.max_prism_vertices = 65; }, "--max-prism-vertices"},
      {[](ServerConfig& c) { c.obstacle_versions_kept = 0; }, "--obstacle-versions-kept"},
      {[](ServerConfig& c) { c.max_crowd_sessions = 0; }, "--max-crowd-sessions"},
      {[](ServerConfig& c) { c.max_crowd_agents = 0; }, "--max-crowd-agents"},
      {[](ServerConfig& c) { c.max_crowd_agents = 100001; }, "--max-crowd-agents"},
      {[](ServerConfig& c) { c.ui_port = 65536; }, "--ui-port"},
      {[](ServerConfig& c) { c.ui_port = c.port; }, "--ui-port"},
      {[](ServerConfig& c) { c.ui_port = -1, c.ui_address.clear(); }, "--ui-address"},
      {[](ServerConfig& c) { c.ui_port = -1, c.ui_max_streams = 0; }, "--ui-max-streams"},
  };
  for (const Case& c : cases) {
    ServerConfig config = good;
    c.change(config);
    const absl::Status s = ValidateServerConfig(config);
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << c.flag;
    EXPECT_THAT(std::string(s.message()), ::testing::StartsWith(std::string(c.flag) + ":")) << s;
  }
  // TLS on: the viewer speaks HTTPS, so it may bind any interface, loopback or not.
  for (const char* address : {"127.0.0.1", "0.0.0.0", "10.1.2.3"}) {
    ServerConfig tls_viewer = good;
    tls_viewer.ui_port = 8080;
    tls_viewer.ui_address = address;
    tls_viewer.tls_cert = "c.pem";
    tls_viewer.tls_key = "k.pem";
    EXPECT_TRUE(ValidateServerConfig(tls_viewer).ok()) << address;
  }
  EXPECT_GE(EffectiveWorkers(good), 1);
  EXPECT_EQ(EffectiveQueueCapacity(good, EffectiveWorkers(good)), EffectiveWorkers(good) * 16);
}

}  // namespace
}  // namespace waymesh::server
