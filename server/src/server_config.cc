#include "waymesh/server/server_config.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "waymesh/core/obstacles/obstacle.h"
#include "waymesh/server/cpu_budget.h"

namespace waymesh::server {
namespace {

// More workers than this is a typo, not a machine.
constexpr int kMaxWorkers = 1024;
constexpr int kMaxQueueCapacity = 1 << 20;
constexpr int kMinMessageBytes = 1 << 10;
constexpr int kMaxMessageBytes = 1 << 30;
constexpr uint32_t kMinSearchNodes = 16;
constexpr uint32_t kMaxSearchNodes = 1u << 24;
// Shallow on purpose: a call that waits behind more than ~16 others per worker would blow its
// latency budget anyway; failing it at once lets the client retry on another replica (see
// docs/PERFORMANCE.md, overload).
constexpr int kQueuePerWorker = 16;

absl::Status Bad(absl::string_view flag, absl::string_view problem) {
  return absl::InvalidArgumentError(absl::StrCat("--", flag, ": ", problem));
}

absl::Status CheckPort(absl::string_view flag, int port, int lowest) {
  if (port >= lowest && port <= 65535) return absl::OkStatus();
  return Bad(flag, absl::StrCat(port, " is not a port (", lowest, "..65535)"));
}

// The viewer's port and address (any address: with --tls-cert it speaks HTTPS).
absl::Status ValidateViewer(const ServerConfig& c) {
  if (c.ui_port == 0) return absl::OkStatus();
  if (absl::Status s = CheckPort("ui-port", c.ui_port, -1); !s.ok()) return s;
  if (c.ui_port > 0 &&
      (c.ui_port == c.port || c.ui_port == c.metrics_port || c.ui_port == c.health_port)) {
    return Bad("ui-port",
               absl::StrCat(c.ui_port, " is already --port, --metrics-port or --health-port"));
  }
  if (c.ui_address.empty()) return Bad("ui-address", "is empty");
  if (c.ui_max_streams < 1 || c.ui_max_streams > 1000) {
    return Bad("ui-max-streams", absl::StrCat(c.ui_max_streams, " is outside 1..1000"));
  }
  return absl::OkStatus();
}

}  // namespace

int EffectiveWorkers(const ServerConfig& config) {
  if (config.workers > 0) return config.workers;
  return AvailableCpus();
}

int EffectiveQueueCapacity(const ServerConfig& config, int workers) {
  if (config.queue_capacity > 0) return config.queue_capacity;
  return workers * kQueuePerWorker;
}

absl::Status ValidateServerConfig(const ServerConfig& c) {
  if (c.maps_dir.empty()) return Bad("maps-dir", "is required");
  if (absl::Status s = CheckPort("port", c.port, 0); !s.ok()) return s;
  if (absl::Status s = CheckPort("metrics-port", c.metrics_port, -1); !s.ok()) return s;
  if (absl::Status s = CheckPort("health-port", c.health_port, -1); !s.ok()) return s;
  if (c.health_port > 0 && (c.health_port == c.port || c.health_port == c.metrics_port)) {
    return Bad("health-port", absl::StrCat(c.health_port, " is already --port or --metrics-port"));
  }
  if (absl::Status s = ValidateViewer(c); !s.ok()) return s;
  if (c.listen_address.empty()) return Bad("listen-address", "is empty");
  if (c.metrics_address.empty()) return Bad("metrics-address", "is empty");
  if (c.workers < 0 || c.workers > kMaxWorkers) {
    return Bad("workers", absl::StrCat(c.workers, " is not in 0..", kMaxWorkers));
  }
  if (c.queue_capacity < 0 || c.queue_capacity > kMaxQueueCapacity) {
    return Bad("queue-capacity",
               absl::StrCat(c.queue_capacity, " is not in 0..", kMaxQueueCapacity));
  }
  if (c.tile_cache_bytes == 0) return Bad("tile-cache-bytes", "must be positive");
  if (c.reload_interval < absl::ZeroDuration()) return Bad("reload-interval", "is negative");
  if (c.reload_settle < absl::ZeroDuration()) return Bad("reload-settle", "is negative");
  if (c.map_removal_grace < absl::ZeroDuration()) return Bad("map-removal-grace", "is negative");
  if (c.spool_dir.empty()) return Bad("spool-dir", "is empty");
  if (c.max_obstacles_per_layer == 0) return Bad("max-obstacles-per-layer", "must be > 0");
  if (c.max_obstacle_layers_per_map == 0) {
    return Bad("max-obstacle-layers-per-map", "must be > 0");
  }
  if (c.max_prism_vertices < 3 || c.max_prism_vertices > uint32_t(kMaxPrismVertices)) {
    return Bad("max-prism-vertices",
               absl::StrCat(c.max_prism_vertices, " is not in 3..", kMaxPrismVertices));
  }
  if (c.obstacle_versions_kept == 0) return Bad("obstacle-versions-kept", "must be > 0");
  if (c.max_crowd_sessions == 0) return Bad("max-crowd-sessions", "must be > 0");
  if (c.max_crowd_agents == 0 || c.max_crowd_agents > 100000) {
    return Bad("max-crowd-agents", absl::StrCat(c.max_crowd_agents, " is not in 1..100000"));
  }
  if (c.max_search_nodes < kMinSearchNodes || c.max_search_nodes > kMaxSearchNodes) {
    return Bad("max-search-nodes", absl::StrCat(c.max_search_nodes, " is not in ", kMinSearchNodes,
                                                "..", kMaxSearchNodes));
  }
  if (c.max_message_bytes < kMinMessageBytes || c.max_message_bytes > kMaxMessageBytes) {
    return Bad("max-message-bytes", absl::StrCat(c.max_message_bytes, " is not in ",
                                                 kMinMessageBytes, "..", kMaxMessageBytes));
  }
  if (c.tls_cert.empty() != c.tls_key.empty()) {
    return Bad(c.tls_cert.empty() ? "tls-cert" : "tls-key",
               "--tls-cert and --tls-key must be given together");
  }
  if (!c.tls_client_ca.empty() && c.tls_cert.empty()) {
    return Bad("tls-client-ca", "mutual TLS needs --tls-cert and --tls-key too");
  }
  if (c.log_format != "text" && c.log_format != "json") {
    return Bad("log-format", absl::StrCat("'", c.log_format, "' is not text or json"));
  }
  if (c.shutdown_grace < absl::ZeroDuration()) return Bad("shutdown-grace", "is negative");
  if (c.max_connection_age < absl::ZeroDuration()) return Bad("max-connection-age", "is negative");
  if (c.max_connection_age > absl::Hours(24 * 24)) {
    return Bad("max-connection-age", "is over 24 days (gRPC takes milliseconds as an int)");
  }
  if (c.keepalive_min_ping_interval < absl::ZeroDuration()) {
    return Bad("keepalive-min-ping-interval", "is negative");
  }
  if (c.keepalive_min_ping_interval > absl::Hours(24 * 24)) {
    return Bad("keepalive-min-ping-interval",
               "is over 24 days (gRPC takes milliseconds as an int)");
  }
  return absl::OkStatus();
}

}  // namespace waymesh::server
