#include "waymesh/server/server_flags.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/flags/commandlineflag.h"
#include "absl/flags/flag.h"
#include "absl/flags/reflection.h"
#include "absl/strings/match.h"
#include "absl/time/time.h"

ABSL_FLAG(std::string, maps_dir, "",
          "Directory of compiled maps (*.wmesh); a map's id is its file name without .wmesh. "
          "Required.");
ABSL_FLAG(std::string, listen_address, "0.0.0.0", "Interface the gRPC port binds to.");
ABSL_FLAG(int, port, 50051, "gRPC port (0 picks a free one and logs it).");
ABSL_FLAG(bool, reuse_port, false,
          "Let other processes listen on --port too (SO_REUSEPORT; the kernel then splits new "
          "connections between them). Off: a second server on the port fails to start.");
ABSL_FLAG(std::string, metrics_address, "0.0.0.0", "Interface the metrics port binds to.");
ABSL_FLAG(int, metrics_port, 9464,
          "HTTP port of /metrics (Prometheus) and /healthz; 0 picks a free one, -1 disables.");
ABSL_FLAG(
    int, ui_port, 0,
    "HTTP port of the map viewer (a page and its JSON API: docs/viewer.md); 0 = off, -1 picks a "
    "free one (logged). "
    "With --auth-token set, the viewer's API asks for the same token.");
ABSL_FLAG(std::string, ui_address, "127.0.0.1",
          "Interface the viewer port binds to. With --tls-cert the viewer speaks HTTPS only "
          "(the gRPC port's certificate, and with --tls-client-ca it requires a client "
          "certificate too); without, plain HTTP: keep it on loopback then.");
ABSL_FLAG(int, ui_max_streams, 8,
          "Most crowd event streams (server-sent events, one per open viewer tab watching a "
          "crowd) the viewer serves at once, 1..1000; one more is refused with 429.");
ABSL_FLAG(int, health_port, -1,
          "Plaintext port serving only the gRPC health service (grpc.health.v1; no navigation "
          "service, no reflection, no auth) on --listen-address, for probes that cannot speak "
          "TLS such as Kubernetes' native gRPC probes; 0 picks a free one, -1 disables.");
ABSL_FLAG(int, workers, 0,
          "Query worker threads; 0 = one per CPU this process may use (its CPU affinity, capped by "
          "a cgroup CPU quota such as a container's CPU limit).");
ABSL_FLAG(int, queue_capacity, 0,
          "Calls that may wait for a worker; beyond it calls fail at once with "
          "RESOURCE_EXHAUSTED. 0 = 16 per worker.");
ABSL_FLAG(bool, overload_shedding, true,
          "Once the queue overflows, shed load in 500 ms spells (one worker fewer, at most 2 "
          "waiting calls per running worker) until a probe with the normal limits does not "
          "overflow: the excess is refused fast and accepted calls stay quick.");
ABSL_FLAG(uint64_t, tile_cache_bytes, uint64_t{256} << 20,
          "Memory budget (bytes) of navmesh tiles kept loaded, over all maps (LRU).");
ABSL_FLAG(absl::Duration, reload_interval, absl::Seconds(2),
          "How often the maps directory is checked for new, changed or removed maps (hot "
          "reload); 0 disables.");
ABSL_FLAG(absl::Duration, reload_settle, absl::Seconds(1),
          "A new or changed map file is taken only once its size and mtime have stayed the same "
          "this long (a file being written is left alone until it is complete).");
ABSL_FLAG(absl::Duration, map_removal_grace, absl::Seconds(30),
          "A map whose file disappears (or stops being a regular file) is served on for this "
          "long before it is unloaded, so a delete-then-copy deploy drops no calls; 0 unloads "
          "at once.");
ABSL_FLAG(std::string, spool_dir, "/var/tmp",
          "Directory (on disk, writable) for the server's private copies of the maps: each map "
          "is copied there as an unnamed file when it is loaded and served from that copy, so "
          "edits to the maps directory never change a served map. Needs room for every map "
          "once, twice during a reload.");
ABSL_FLAG(uint32_t, max_obstacles_per_layer, 4096,
          "Most obstacles one obstacle layer holds; a change past it is RESOURCE_EXHAUSTED.");
ABSL_FLAG(uint32_t, max_obstacle_layers_per_map, 64,
          "Most obstacle layers one served map holds; a new layer past it is "
          "RESOURCE_EXHAUSTED.");
ABSL_FLAG(uint32_t, max_prism_vertices, 64,
          "Most outline points of one prism obstacle (3..64); more is RESOURCE_EXHAUSTED.");
ABSL_FLAG(uint32_t, obstacle_versions_kept, 8,
          "Recent versions of each obstacle layer that queries may still name.");
ABSL_FLAG(uint32_t, max_crowd_sessions, 64,
          "Most crowd sessions (RunCrowd streams) one replica holds at once; a stream past it "
          "is refused RESOURCE_EXHAUSTED.");
ABSL_FLAG(uint32_t, max_crowd_agents, 10000,
          "Most agents in one crowd session (at most 100000); an add past it is "
          "RESOURCE_EXHAUSTED.");
ABSL_FLAG(uint32_t, max_search_nodes, 65536,
          "Most polygons one path search may visit; requests may ask for fewer.");
ABSL_FLAG(bool, path_hierarchy, true,
          "Search long paths over each map's cluster graph (docs/hierarchy.md) when the request "
          "uses the map's default filter. Off, every FindPath searches plainly: for A/B "
          "comparison and as an escape hatch; waymesh_path_search_total{kind} shows which ran.");
ABSL_FLAG(bool, exact_twin, false,
          "Build the plan twin at load for each map whose file stores none (docs/api.md): exact "
          "FindPath searches its few large polygons instead of the map's (2x faster than "
          "Detour's approximate findPath on the demo town), for tens of bytes per polygon and "
          "well under a second of load per 10 000 polygons. Kept only where it cuts the "
          "polygons to 2/3. A twin stored by `waymesh build --exact-twin` is used either way.");
ABSL_FLAG(bool, exact_landmarks, false,
          "Build each map's exact landmark table at load (docs/api.md): exact FindPath expands "
          "several times fewer nodes on large maps, for about 60 bytes per polygon and seconds "
          "of load per map.");
ABSL_FLAG(int, max_message_bytes, 4 << 20, "Largest request or response message (bytes).");
ABSL_FLAG(std::string, tls_cert, "",
          "PEM certificate chain of the server; with --tls-key enables TLS on the gRPC port and "
          "the viewer's port (HTTPS); /metrics stays plain HTTP.");
ABSL_FLAG(std::string, tls_key, "", "PEM private key of --tls-cert.");
ABSL_FLAG(std::string, tls_client_ca, "",
          "PEM CA bundle; when set, clients must present a certificate it signed (mutual TLS).");
ABSL_FLAG(std::string, auth_token, "",
          "When set, every Navigation call must carry 'authorization: Bearer <token>' "
          "(else UNAUTHENTICATED). Prefer the environment variable to keep it out of ps.");
ABSL_FLAG(std::string, log_format, "text", "Log lines as 'text' or 'json' (one object a line).");
ABSL_FLAG(std::string, log_level, "info",
          "Least severe level logged: trace, debug, info, warn, error, critical, off.");
ABSL_FLAG(absl::Duration, shutdown_grace, absl::Seconds(10),
          "On SIGTERM/SIGINT: how long in-flight calls may finish before they are cancelled.");
ABSL_FLAG(absl::Duration, max_connection_age, absl::ZeroDuration(),
          "Close each client connection (GOAWAY) after this long so clients re-resolve and "
          "rebalance across replicas (Kubernetes headless services); 0 = never.");
ABSL_FLAG(absl::Duration, keepalive_min_ping_interval, absl::Minutes(5),
          "Keepalive enforcement: a client that pings more often than this (without data in "
          "between) is sent GOAWAY too_many_pings. Lower it for clients whose keepalive time is "
          "shorter (e.g. 30s).");
ABSL_FLAG(bool, keepalive_permit_without_calls, false,
          "Keepalive enforcement: accept keepalive pings on connections with no call in flight "
          "(clients that keep idle connections warm); off, such pings count as abuse.");
ABSL_FLAG(bool, reflection, true,
          "Serve gRPC server reflection (grpc.reflection.v1alpha; this gRPC has no v1) on --port.");

namespace waymesh::server {
namespace {

// Where the flags above are defined, as abseil records it (the compiler's __FILE__).
constexpr absl::string_view kServerFlagsFile = "server/src/server_flags.cc";

}  // namespace

std::span<const absl::string_view> ServerFlagNames() {
  // Every flag defined in this file, found in abseil's registry rather than listed by hand, so
  // a new flag can never be missing from --help or the WAYMESH_* overrides.
  static const std::vector<absl::string_view>* const names = [] {
    auto* found = new std::vector<absl::string_view>();
    for (const auto& [name, flag] : absl::GetAllFlags()) {
      if (absl::EndsWith(flag->Filename(), kServerFlagsFile)) found->push_back(flag->Name());
    }
    std::sort(found->begin(), found->end());
    return found;
  }();
  return *names;
}

absl::StatusOr<ServerConfig> ServerConfigFromFlags() {
  ServerConfig c;
  c.maps_dir = absl::GetFlag(FLAGS_maps_dir);
  c.listen_address = absl::GetFlag(FLAGS_listen_address);
  c.port = absl::GetFlag(FLAGS_port);
  c.reuse_port = absl::GetFlag(FLAGS_reuse_port);
  c.metrics_address = absl::GetFlag(FLAGS_metrics_address);
  c.metrics_port = absl::GetFlag(FLAGS_metrics_port);
  c.workers = absl::GetFlag(FLAGS_workers);
  c.queue_capacity = absl::GetFlag(FLAGS_queue_capacity);
  c.overload_shedding = absl::GetFlag(FLAGS_overload_shedding);
  c.tile_cache_bytes = absl::GetFlag(FLAGS_tile_cache_bytes);
  c.reload_interval = absl::GetFlag(FLAGS_reload_interval);
  c.reload_settle = absl::GetFlag(FLAGS_reload_settle);
  c.map_removal_grace = absl::GetFlag(FLAGS_map_removal_grace);
  c.spool_dir = absl::GetFlag(FLAGS_spool_dir);
  c.max_search_nodes = absl::GetFlag(FLAGS_max_search_nodes);
  c.path_hierarchy = absl::GetFlag(FLAGS_path_hierarchy);
  c.exact_landmarks = absl::GetFlag(FLAGS_exact_landmarks);
  c.exact_twin = absl::GetFlag(FLAGS_exact_twin);
  c.max_obstacles_per_layer = absl::GetFlag(FLAGS_max_obstacles_per_layer);
  c.max_obstacle_layers_per_map = absl::GetFlag(FLAGS_max_obstacle_layers_per_map);
  c.max_prism_vertices = absl::GetFlag(FLAGS_max_prism_vertices);
  c.obstacle_versions_kept = absl::GetFlag(FLAGS_obstacle_versions_kept);
  c.max_crowd_sessions = absl::GetFlag(FLAGS_max_crowd_sessions);
  c.max_crowd_agents = absl::GetFlag(FLAGS_max_crowd_agents);
  c.max_message_bytes = absl::GetFlag(FLAGS_max_message_bytes);
  c.tls_cert = absl::GetFlag(FLAGS_tls_cert);
  c.tls_key = absl::GetFlag(FLAGS_tls_key);
  c.tls_client_ca = absl::GetFlag(FLAGS_tls_client_ca);
  c.auth_token = absl::GetFlag(FLAGS_auth_token);
  c.log_format = absl::GetFlag(FLAGS_log_format);
  c.log_level = absl::GetFlag(FLAGS_log_level);
  c.shutdown_grace = absl::GetFlag(FLAGS_shutdown_grace);
  c.max_connection_age = absl::GetFlag(FLAGS_max_connection_age);
  c.health_port = absl::GetFlag(FLAGS_health_port);
  c.ui_port = absl::GetFlag(FLAGS_ui_port);
  c.ui_address = absl::GetFlag(FLAGS_ui_address);
  c.ui_max_streams = absl::GetFlag(FLAGS_ui_max_streams);
  c.keepalive_min_ping_interval = absl::GetFlag(FLAGS_keepalive_min_ping_interval);
  c.keepalive_permit_without_calls = absl::GetFlag(FLAGS_keepalive_permit_without_calls);
  c.reflection = absl::GetFlag(FLAGS_reflection);
  if (absl::Status s = ValidateServerConfig(c); !s.ok()) return s;
  return c;
}

}  // namespace waymesh::server
