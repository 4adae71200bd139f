#pragma once
// Everything waymesh-server is configured with, independent of where it came from (flags,
// environment, tests). ValidateServerConfig says what is wrong, naming the flag.

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/time/time.h"

namespace waymesh::server {

struct ServerConfig {
  std::string maps_dir;                     // directory of *.wmesh maps (required)
  std::string listen_address = "0.0.0.0";   // interface of the gRPC port
  int port = 50051;                         // gRPC port; 0 picks a free one
  bool reuse_port = false;                  // let other processes bind --port too (SO_REUSEPORT)
  std::string metrics_address = "0.0.0.0";  // interface of the metrics port
  int metrics_port = 9464;                  // /metrics and /healthz; 0 picks one, -1 disables
  int ui_port = 0;                          // map viewer (page + JSON API); 0 = off, -1 = any free
  std::string ui_address = "127.0.0.1";     // interface of the viewer port (HTTPS with TLS)
  int ui_max_streams = 8;                   // viewer: crowd event streams (SSE) open at once
  int health_port = -1;    // plaintext gRPC health only (for probes when TLS is on); -1 = none
  int workers = 0;         // query threads; 0 = one per usable CPU
  int queue_capacity = 0;  // calls waiting for a worker; 0 = 16 per worker
  bool overload_shedding = true;                      // shrink the pool in overload (worker_pool.h)
  uint64_t tile_cache_bytes = 256ull << 20;           // budget of resident tiles over all maps
  absl::Duration reload_interval = absl::Seconds(2);  // maps dir poll; 0 = no hot reload
  absl::Duration reload_settle = absl::Seconds(1);    // a changed file must be still this long
  absl::Duration map_removal_grace = absl::Seconds(30);  // a gone file's map serves this long
  std::string spool_dir = "/var/tmp";  // private copies of the maps (unnamed files, on disk)
  uint32_t max_search_nodes = 65536;   // A* node pool per query object (request cap)
  int max_message_bytes = 4 << 20;     // largest request / response message
  std::string tls_cert;                // PEM certificate chain; empty = plaintext
  std::string tls_key;                 // PEM private key of tls_cert
  std::string tls_client_ca;           // PEM CA bundle; set = clients must present a cert
  std::string auth_token;              // bearer token callers must send; empty = none
  std::string log_format = "text";     // "text" or "json"
  std::string log_level = "info";      // trace, debug, info, warn, error, critical, off
  absl::Duration shutdown_grace = absl::Seconds(10);         // drain time on SIGTERM/SIGINT
  absl::Duration max_connection_age = absl::ZeroDuration();  // GOAWAY after this; 0 = never
  // Keepalive enforcement: clients pinging more often than this without data get GOAWAY
  // too_many_pings (gRPC's default is 5 minutes).
  absl::Duration keepalive_min_ping_interval = absl::Minutes(5);
  bool keepalive_permit_without_calls = false;  // accept keepalive pings on idle connections
  bool reflection = true;                       // serve gRPC server reflection (v1alpha)
  // Long FindPaths over the map's cluster graph (docs/hierarchy.md); false = always plain A*.
  bool path_hierarchy = true;
  // Each map's search tables also hold the exact landmark table (docs/api.md): fewer nodes
  // for exact FindPath, ~60 bytes per polygon and seconds of load per map.
  bool exact_landmarks = false;
  // Build the plan twin (docs/api.md), which exact FindPath searches, at load for maps whose
  // file stores none: several times faster on fine meshes, tens of bytes per polygon. A twin
  // the file stores is used either way.
  bool exact_twin = false;
  // Obstacle layers (docs/obstacles.md): limits past which a change is RESOURCE_EXHAUSTED, and
  // how many recent versions of a layer queries may name.
  uint32_t max_obstacles_per_layer = 4096;
  uint32_t max_obstacle_layers_per_map = 64;
  uint32_t max_prism_vertices = 64;  // at most 64 (kMaxPrismVertices)
  uint32_t obstacle_versions_kept = 8;
  // Crowd sessions (docs/crowd.md): RunCrowd streams one replica holds at once, and agents in
  // one session; past them is RESOURCE_EXHAUSTED naming the flag.
  uint32_t max_crowd_sessions = 64;
  uint32_t max_crowd_agents = 10000;
};

// Worker threads after applying the 0 = one-per-CPU default (AvailableCpus: the affinity mask
// capped by the cgroup CPU quota).
int EffectiveWorkers(const ServerConfig& config);
// Queue capacity after applying the 0 = 16-per-worker default, for a pool of `workers`
// (EffectiveWorkers, computed once: it reads the cgroup files).
int EffectiveQueueCapacity(const ServerConfig& config, int workers);

// OK, or InvalidArgument naming the flag (as on the command line, e.g. "--tls-key") and the
// problem. Does not touch the file system.
absl::Status ValidateServerConfig(const ServerConfig& config);

}  // namespace waymesh::server
