#pragma once
// The whole waymesh-server: map registry, worker pool, Navigation service, gRPC health and
// reflection, transport security, the metrics endpoint and the map viewer, started from a
// ServerConfig and stopped gracefully. main() and the integration tests use exactly this.

#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "grpcpp/generic/async_generic_service.h"
#include "grpcpp/grpcpp.h"
#include "waymesh/server/crowd_service.h"
#include "waymesh/server/map_registry.h"
#include "waymesh/server/metrics.h"
#include "waymesh/server/metrics_http_server.h"
#include "waymesh/server/navigation_service.h"
#include "waymesh/server/obstacle_layers.h"
#include "waymesh/server/obstacle_service.h"
#include "waymesh/server/path_heat_ring.h"
#include "waymesh/server/server_config.h"
#include "waymesh/server/viewer_http_server.h"
#include "waymesh/server/worker_pool.h"

namespace waymesh::server {

// Health-check service names the server reports: "" (the whole server) and the API.
inline constexpr char kOverallHealthService[] = "";
inline constexpr char kNavigationHealthService[] = "waymesh.v1.NavigationService";
inline constexpr char kObstacleHealthService[] = "waymesh.v1.ObstacleService";
inline constexpr char kCrowdHealthService[] = "waymesh.v1.CrowdService";

// Seams for tests; production leaves them empty.
struct ServerHooks {
  // See NavigationServiceOptions::before_query.
  std::function<void(RpcMethod)> before_query;
};

class NavigationServer {
 public:
  // Loads the startup maps, binds the ports and serves; health is SERVING when this returns.
  // Errors: the config's (InvalidArgument naming the flag), unreadable TLS files, a maps dir
  // that cannot be opened, Unavailable when a port cannot be bound.
  static absl::StatusOr<std::unique_ptr<NavigationServer>> Start(const ServerConfig& config,
                                                                 ServerHooks hooks = {});
  // Shutdown(no grace) unless already shut down.
  ~NavigationServer();
  NavigationServer(const NavigationServer&) = delete;
  NavigationServer& operator=(const NavigationServer&) = delete;

  // The bound gRPC port (the chosen one when the config said 0).
  int port() const { return port_; }
  // The bound metrics port, -1 when disabled.
  int metrics_port() const;
  // The bound viewer port (--ui-port), -1 when off.
  int ui_port() const;
  // The bound plaintext health-only port, -1 when disabled.
  int health_port() const { return health_grpc_ ? health_port_ : -1; }
  // "host:port" a client on this machine can dial.
  std::string target() const;

  // Stops admitting: health turns NOT_SERVING and new calls fail with UNAVAILABLE, while
  // admitted calls run on. Idempotent.
  void BeginDrain();
  // BeginDrain(), waits up to `grace` for admitted calls to finish, then stops gRPC (calls
  // still running are cancelled), the workers, the map watcher and the metrics endpoint.
  // Idempotent and thread-safe; returns when everything has stopped.
  void Shutdown(absl::Duration grace);

  MapRegistry& maps() { return *maps_; }
  ServerMetrics& metrics() { return *metrics_; }
  NavigationService& service() { return *service_; }
  ObstacleLayers& obstacle_layers() { return *layers_; }

 private:
  NavigationServer() = default;
  absl::Status Init(const ServerConfig& config, ServerHooks hooks);
  absl::Status StartGrpc(const ServerConfig& config);
  absl::Status StartHealthGrpc(const ServerConfig& config);
  absl::Status StartViewer(const ServerConfig& config);
  void SetHealth(bool serving);

  std::unique_ptr<ServerMetrics> metrics_;
  std::unique_ptr<MapRegistry> maps_;
  std::unique_ptr<WorkerPool> pool_;
  // Obstacle layer changes: one thread, in arrival order, apart from the queries (and their
  // overload shedding), so that a zone server's stream of changes is not cut by query load.
  std::unique_ptr<WorkerPool> change_pool_;
  std::unique_ptr<ObstacleLayers> layers_;
  std::unique_ptr<NavigationService> service_;
  std::unique_ptr<ObstacleService> obstacle_service_;
  std::unique_ptr<CrowdService> crowd_service_;
  std::unique_ptr<grpc::Server> grpc_;
  std::unique_ptr<grpc::Server> health_grpc_;  // --health-port: grpc.health.v1 only, plaintext
  std::unique_ptr<grpc::CallbackGenericService> health_fallback_;  // UNIMPLEMENTED for the rest
  std::unique_ptr<MetricsHttpServer> http_;
  std::unique_ptr<PathHeatRing> path_heat_;  // with the viewer only: its heat map
  std::unique_ptr<ViewerHttpServer> viewer_;
  int port_ = 0;
  int health_port_ = 0;
  std::string listen_address_;

  std::mutex shutdown_mu_;  // serializes Shutdown calls
  bool shut_down_ = false;
  std::atomic<bool> serving_{false};
};

}  // namespace waymesh::server
