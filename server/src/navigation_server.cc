#include "waymesh/server/navigation_server.h"

#include <algorithm>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "grpc/grpc.h"
#include "grpcpp/health_check_service_interface.h"
#include "reflection_option.h"
#include "spdlog/spdlog.h"
#include "waymesh/server/http_tls.h"
#include "waymesh/server/server_credentials.h"

namespace waymesh::server {
namespace {

// "host:port" with IPv6 literals bracketed.
std::string HostPort(const std::string& host, int port) {
  if (absl::StrContains(host, ':') && !absl::StartsWith(host, "[")) {
    return absl::StrCat("[", host, "]:", port);
  }
  return absl::StrCat(host, ":", port);
}

// FindPath calls the viewer's heat map remembers (about 32 bytes each).
constexpr size_t kPathHeatCalls = 4096;

// How often clients may ping (--keepalive-min-ping-interval, --keepalive-permit-without-calls);
// gRPC answers pings beyond that with GOAWAY too_many_pings.
void AddKeepaliveEnforcement(const ServerConfig& config, grpc::ServerBuilder* builder) {
  builder->AddChannelArgument(GRPC_ARG_HTTP2_MIN_RECV_PING_INTERVAL_WITHOUT_DATA_MS,
                              int(absl::ToInt64Milliseconds(config.keepalive_min_ping_interval)));
  builder->AddChannelArgument(GRPC_ARG_KEEPALIVE_PERMIT_WITHOUT_CALLS,
                              config.keepalive_permit_without_calls ? 1 : 0);
}

// Options of every query object the server builds (the workers' and the crowds').
NavQueryOptions QueryOptions(const ServerConfig& config) {
  NavQueryOptions options;
  options.max_nodes = config.max_search_nodes;
  options.hierarchy = config.path_hierarchy;
  return options;
}

// Obstacle layer changes waiting for the change thread: a second of changes at a few hundred a
// second, beyond which a caller is sending faster than carving keeps up and is told so
// (RESOURCE_EXHAUSTED) rather than queued without bound.
constexpr int kChangeQueueCapacity = 256;

// The change pool: one thread, so changes run in the order they arrive; no overload shedding
// (a shed change breaks the caller's chain of versions and costs it a whole-layer resync).
WorkerPoolOptions ChangePoolOptions(const ServerConfig& config) {
  WorkerPoolOptions options;
  options.workers = 1;
  options.queue_capacity = kChangeQueueCapacity;
  options.query = QueryOptions(config);
  return options;
}

}  // namespace

absl::StatusOr<std::unique_ptr<NavigationServer>> NavigationServer::Start(
    const ServerConfig& config, ServerHooks hooks) {
  if (absl::Status s = ValidateServerConfig(config); !s.ok()) return s;
  std::unique_ptr<NavigationServer> server(new NavigationServer());
  if (absl::Status s = server->Init(config, std::move(hooks)); !s.ok()) {
    server->Shutdown(absl::ZeroDuration());
    return s;
  }
  return server;
}

absl::Status NavigationServer::Init(const ServerConfig& config, ServerHooks hooks) {
  absl::StatusOr<std::unique_ptr<ServerMetrics>> metrics = ServerMetrics::Create();
  if (!metrics.ok()) return metrics.status();
  metrics_ = *std::move(metrics);

  MapRegistryOptions registry_options;
  registry_options.maps_dir = config.maps_dir;
  registry_options.tile_cache_bytes = config.tile_cache_bytes;
  registry_options.reload_poll_interval = config.reload_interval;
  registry_options.settle = config.reload_settle;
  registry_options.removal_grace = config.map_removal_grace;
  registry_options.spool_dir = config.spool_dir;
  registry_options.tables.exact_landmarks = config.exact_landmarks;
  registry_options.tables.exact_twin = config.exact_twin;
  absl::StatusOr<std::unique_ptr<MapRegistry>> maps = MapRegistry::Open(registry_options);
  if (!maps.ok()) return maps.status();
  maps_ = *std::move(maps);
  metrics_->SetRegistrySource([this, maps = maps_.get()] {
    const TileCacheStats stats = maps->stats();
    RegistrySnapshot s;
    s.tile_cache_hits = stats.hits;
    s.tile_cache_misses = stats.misses;
    s.tile_cache_evictions = stats.evictions;
    s.tile_cache_resident_bytes = stats.resident_bytes;
    s.tile_cache_budget_bytes = stats.budget_bytes;
    s.tile_cache_resident_tiles = stats.resident_tiles;
    const std::vector<std::shared_ptr<const ServedMap>> served = maps->List();
    s.maps_loaded = served.size();
    for (const std::shared_ptr<const ServedMap>& map : served) {
      s.maps.push_back({map->id(), map->version(), map->map()->info().source_hash});
    }
    s.reloads = maps->reloads();
    s.reload_failures = maps->reload_failures();
    s.removals = maps->removals();
    s.files_missing = maps->files_missing();
    // The metrics endpoint starts after the layers exist; the check keeps a future reorder safe.
    if (layers_ != nullptr) {
      for (const MapLayerStats& m : layers_->Stats()) {
        s.obstacle_maps.push_back({m.map, m.layers, m.obstacles, m.carved_tiles});
      }
      s.obstacle_resyncs = layers_->resyncs_requested();
    }
    return s;
  });

  WorkerPoolOptions pool_options;
  pool_options.workers = EffectiveWorkers(config);
  pool_options.queue_capacity = EffectiveQueueCapacity(config, pool_options.workers);
  pool_options.query = QueryOptions(config);
  pool_options.on_queue_depth = [m = metrics_.get()](int64_t depth) { m->SetQueueDepth(depth); };
  pool_options.overload_shedding = config.overload_shedding;
  pool_options.on_overload = [m = metrics_.get()](bool overloaded) {
    m->SetOverloaded(overloaded);
    if (overloaded) {
      spdlog::warn("overload: calls arrive faster than the workers serve them; shedding load");
    } else {
      spdlog::info("overload over: serving with every worker again");
    }
  };
  pool_ = std::make_unique<WorkerPool>(std::move(pool_options));
  metrics_->SetWorkerPool(pool_->workers(), pool_->queue_capacity());
  change_pool_ = std::make_unique<WorkerPool>(ChangePoolOptions(config));

  NavigationServiceOptions service_options;
  service_options.max_search_nodes = config.max_search_nodes;
  service_options.auth_token = config.auth_token;
  service_options.max_response_bytes = uint64_t(config.max_message_bytes);
  service_options.before_query = std::move(hooks.before_query);
  service_options.change_pool = change_pool_.get();
  if (config.ui_port != 0) {
    path_heat_ = std::make_unique<PathHeatRing>(kPathHeatCalls);
    service_options.path_heat = path_heat_.get();
  }
  ObstacleLayerLimits limits;
  limits.max_obstacles_per_layer = config.max_obstacles_per_layer;
  limits.max_layers_per_map = config.max_obstacle_layers_per_map;
  limits.max_prism_vertices = config.max_prism_vertices;
  limits.versions_kept = config.obstacle_versions_kept;
  layers_ = std::make_unique<ObstacleLayers>(limits);
  service_ = std::make_unique<NavigationService>(maps_.get(), layers_.get(), pool_.get(),
                                                 metrics_.get(), std::move(service_options));
  obstacle_service_ =
      std::make_unique<ObstacleService>(service_.get(), layers_.get(), metrics_.get());
  CrowdServiceOptions crowd_options;
  crowd_options.max_sessions = config.max_crowd_sessions;
  crowd_options.max_agents = config.max_crowd_agents;
  crowd_options.query = QueryOptions(config);
  crowd_service_ =
      std::make_unique<CrowdService>(service_.get(), pool_.get(), metrics_.get(), crowd_options);
  // Only now: the workers read the services, the maps and the layers built above.
  pool_->Start();
  change_pool_->Start();

  if (absl::Status s = StartGrpc(config); !s.ok()) return s;
  SetHealth(true);
  if (config.reload_interval > absl::ZeroDuration()) maps_->StartWatching();

  if (config.metrics_port >= 0) {
    MetricsHttpOptions http_options;
    http_options.address = config.metrics_address;
    http_options.port = config.metrics_port;
    absl::StatusOr<std::unique_ptr<MetricsHttpServer>> http = MetricsHttpServer::Start(
        http_options, [m = metrics_.get()] { return m->Render(); },
        [this] { return serving_.load(); });
    if (!http.ok()) return http.status();
    http_ = *std::move(http);
  }
  if (config.ui_port != 0) {
    if (absl::Status s = StartViewer(config); !s.ok()) return s;
    spdlog::info("map viewer on {}://{}/", config.tls_cert.empty() ? "http" : "https",
                 HostPort(config.ui_address, viewer_->port()));
  }
  spdlog::info(
      "waymesh-server serving {} map(s) from {} on {} ({}), metrics on {}, plaintext health "
      "on {}, {} query worker(s), queue of {} calls",
      maps_->List().size(), config.maps_dir, HostPort(config.listen_address, port_),
      config.tls_cert.empty()        ? "plaintext"
      : config.tls_client_ca.empty() ? "TLS"
                                     : "mutual TLS",
      http_ ? HostPort(config.metrics_address, http_->port()) : "(disabled)",
      health_grpc_ ? HostPort(config.listen_address, health_port_) : "(disabled)", pool_->workers(),
      pool_->queue_capacity());
  return absl::OkStatus();
}

absl::Status NavigationServer::StartGrpc(const ServerConfig& config) {
  absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> credentials =
      MakeServerCredentials({config.tls_cert, config.tls_key, config.tls_client_ca});
  if (!credentials.ok()) return credentials.status();
  grpc::EnableDefaultHealthCheckService(true);
  grpc::ServerBuilder builder;
  builder.SetOption(ReflectionOption(config.reflection));
  const std::string address = HostPort(config.listen_address, config.port);
  builder.AddListeningPort(address, *credentials, &port_);
  // gRPC sets SO_REUSEPORT by default, which lets a second server bind the same port and take
  // half the connections: a misconfiguration that should fail loudly instead.
  builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, config.reuse_port ? 1 : 0);
  builder.RegisterService(service_.get());
  builder.RegisterService(obstacle_service_.get());
  builder.RegisterService(crowd_service_.get());
  builder.SetMaxReceiveMessageSize(config.max_message_bytes);
  builder.SetMaxSendMessageSize(config.max_message_bytes);
  if (config.max_connection_age > absl::ZeroDuration()) {
    // Clients reconnect (and re-resolve) after this, so new replicas get their share.
    builder.AddChannelArgument(GRPC_ARG_MAX_CONNECTION_AGE_MS,
                               int(absl::ToInt64Milliseconds(config.max_connection_age)));
    builder.AddChannelArgument(GRPC_ARG_MAX_CONNECTION_AGE_GRACE_MS, 30000);
  }
  AddKeepaliveEnforcement(config, &builder);
  grpc_ = builder.BuildAndStart();
  if (grpc_ == nullptr || port_ == 0) {
    return absl::UnavailableError(absl::StrCat("--port: cannot listen on ", address,
                                               " (in use, or not an address of this host)"));
  }
  listen_address_ = config.listen_address;
  if (config.health_port >= 0) return StartHealthGrpc(config);
  return absl::OkStatus();
}

absl::Status NavigationServer::StartHealthGrpc(const ServerConfig& config) {
  // Plaintext on purpose: probes that cannot speak TLS (Kubernetes' grpc probes) ask here. It
  // serves the default health service and nothing else, so it reveals only SERVING or not.
  grpc::ServerBuilder builder;
  builder.SetOption(ReflectionOption(false));
  // gRPC 1.51 refuses to start a server without a service of its own ("At least one of the
  // completion queues must be frequently polled"); the default generic service answers every
  // other method UNIMPLEMENTED, as an empty server would.
  health_fallback_ = std::make_unique<grpc::CallbackGenericService>();
  builder.RegisterCallbackGenericService(health_fallback_.get());
  const std::string address = HostPort(config.listen_address, config.health_port);
  builder.AddListeningPort(address, grpc::InsecureServerCredentials(), &health_port_);
  builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, config.reuse_port ? 1 : 0);
  AddKeepaliveEnforcement(config, &builder);
  health_grpc_ = builder.BuildAndStart();
  if (health_grpc_ == nullptr || health_port_ == 0) {
    return absl::UnavailableError(absl::StrCat("--health-port: cannot listen on ", address,
                                               " (in use, or not an address of this host)"));
  }
  return absl::OkStatus();
}

absl::Status NavigationServer::StartViewer(const ServerConfig& config) {
  // The viewer's queries run through the Navigation service's own code (RunLocal), so they are
  // answered exactly as a client's.
  ViewerHttpOptions options;
  options.http.address = config.ui_address;
  options.http.port = std::max(config.ui_port, 0);  // -1: any free port
  if (!config.tls_cert.empty()) {  // HTTPS with the gRPC port's certificate and client CA
    absl::StatusOr<std::shared_ptr<const HttpTls>> tls =
        HttpTls::Load({config.tls_cert, config.tls_key, config.tls_client_ca});
    if (!tls.ok()) return tls.status();
    options.http.tls = *std::move(tls);
  }
  options.api.maps = maps_.get();
  options.api.pool = pool_.get();
  options.api.heat = path_heat_.get();
  options.api.layers = layers_.get();
  options.api.service = service_.get();
  options.api.auth_token = config.auth_token;
  options.api.crowds = crowd_service_->registry();
  options.api.max_crowd_streams = config.ui_max_streams;
  // Streams hold their connections: room for them and for the pages' own requests.
  options.http.limits.max_connections =
      std::max(options.http.limits.max_connections, config.ui_max_streams + 32);
  absl::StatusOr<std::unique_ptr<ViewerHttpServer>> viewer =
      ViewerHttpServer::Start(std::move(options));
  if (!viewer.ok()) return viewer.status();
  viewer_ = *std::move(viewer);
  return absl::OkStatus();
}

void NavigationServer::SetHealth(bool serving) {
  serving_ = serving;
  for (grpc::Server* server : {grpc_.get(), health_grpc_.get()}) {
    if (server == nullptr) continue;
    grpc::HealthCheckServiceInterface* health = server->GetHealthCheckService();
    if (health == nullptr) continue;
    health->SetServingStatus(kOverallHealthService, serving);
    health->SetServingStatus(kNavigationHealthService, serving);
    health->SetServingStatus(kObstacleHealthService, serving);
    health->SetServingStatus(kCrowdHealthService, serving);
  }
}

int NavigationServer::metrics_port() const { return http_ ? http_->port() : -1; }

int NavigationServer::ui_port() const { return viewer_ ? viewer_->port() : -1; }

std::string NavigationServer::target() const {
  const bool any = listen_address_ == "0.0.0.0" || listen_address_ == "::" ||
                   listen_address_ == "[::]" || listen_address_.empty();
  return HostPort(any ? "127.0.0.1" : listen_address_, port_);
}

void NavigationServer::BeginDrain() {
  if (service_ != nullptr) service_->StopAdmitting();
  // Crowd streams last as long as their callers keep them: a drain ends them (UNAVAILABLE,
  // DRAINING), and their callers replay their agents on another replica.
  if (crowd_service_ != nullptr) crowd_service_->EndSessions();
  SetHealth(false);
}

void NavigationServer::Shutdown(absl::Duration grace) {
  std::lock_guard<std::mutex> lock(shutdown_mu_);
  if (shut_down_) return;
  shut_down_ = true;
  const absl::Time deadline = absl::Now() + grace;
  // First, while its queries can still be answered: it waits for the ones in flight.
  if (viewer_ != nullptr) viewer_->Stop();
  BeginDrain();
  if (service_ != nullptr && !service_->WaitIdle(deadline)) {
    spdlog::warn("shutdown: {} call(s) still running after the grace period; cancelling them",
                 service_->in_flight());
  }
  if (grpc_ != nullptr) {
    // Once gRPC's own shutdown has begun it drops every call that arrives without an answer
    // (its clients see a bare CANCELLED, which they do not retry), and clients keep sending
    // until they read its GOAWAY. So the connections are dropped first: whatever the clients
    // still have in flight fails with UNAVAILABLE, which they retry elsewhere, and what was
    // about to arrive has no connection to arrive on. Calls still running past the grace end
    // here too. (grpc.h says "only usable after shutdown"; gRPC 1.51 only disconnects the
    // channels it has, which ServerShutdownTest checks under load.)
    grpc_server_cancel_all_calls(grpc_->c_server());
    // The drain above waited for our calls already: an expired deadline makes gRPC cancel what
    // is left at once instead of waiting for idle clients to disconnect (about 5 s). Returns
    // once every callback has finished, which needs the workers: they stop only after.
    grpc_->Shutdown(absl::ToChronoTime(absl::Now()));
    grpc_->Wait();
  }
  if (health_grpc_ != nullptr) {
    // Probes are short; what is left after the drain is cancelled.
    health_grpc_->Shutdown(absl::ToChronoTime(absl::Now()));
    health_grpc_->Wait();
  }
  if (pool_ != nullptr) pool_->Stop();
  if (change_pool_ != nullptr) change_pool_->Stop();
  if (maps_ != nullptr) maps_->StopWatching();
  if (http_ != nullptr) http_->Stop();
  if (grpc_ != nullptr) spdlog::info("waymesh-server stopped");
}

NavigationServer::~NavigationServer() { Shutdown(absl::ZeroDuration()); }

}  // namespace waymesh::server
