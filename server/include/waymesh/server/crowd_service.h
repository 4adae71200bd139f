#pragma once
// waymesh.v1.CrowdService (proto/waymesh/v1/crowd.proto, docs/crowd.md): crowd sessions, each
// bound to one RunCrowd stream. Sessions run on the navigation service's machinery (admission,
// drain, bearer token, maps and obstacle layers) and step their crowds on its worker pool.
// Registered raw (bytes in, bytes out) like the other services: a command that does not parse
// ends the stream INVALID_ARGUMENT, counted like any other.

#include <cstdint>
#include <memory>

#include "grpcpp/grpcpp.h"
#include "waymesh/server/crowd_metrics.h"
#include "waymesh/server/metrics.h"
#include "waymesh/server/navigation_service.h"
#include "waymesh/server/worker_pool.h"
#include "waymesh/v1/crowd.grpc.pb.h"

namespace waymesh::server {

class CrowdSessions;

using RawCrowdService = v1::CrowdService::WithRawCallbackMethod_RunCrowd<v1::CrowdService::Service>;

struct CrowdServiceOptions {
  uint32_t max_sessions = 64;   // --max-crowd-sessions
  uint32_t max_agents = 10000;  // --max-crowd-agents
  NavQueryOptions query;        // the workers' own (--max-search-nodes, --path-hierarchy)
};

class CrowdService final : public RawCrowdService {
 public:
  // Every pointer must outlive the service and every stream it served; the server stops the
  // pool (which runs the sessions' last tasks) before it destroys the service.
  CrowdService(NavigationService* navigation, WorkerPool* pool, ServerMetrics* metrics,
               CrowdServiceOptions options);
  ~CrowdService() override;

  grpc::ServerBidiReactor<grpc::ByteBuffer, grpc::ByteBuffer>* RunCrowd(
      grpc::CallbackServerContext* ctx) override;

  // Ends every session UNAVAILABLE (reason DRAINING): their callers replay on another replica.
  void EndSessions();
  // Sessions open now.
  size_t sessions() const;
  // The live sessions, for the viewer's read-only crowd layer (server/src/crowd_sessions.h).
  CrowdSessions* registry() const { return sessions_.get(); }

 private:
  NavigationService* navigation_;
  WorkerPool* pool_;
  ServerMetrics* metrics_;
  const CrowdServiceOptions options_;
  CrowdMetrics crowd_metrics_;
  std::unique_ptr<CrowdSessions> sessions_;
};

}  // namespace waymesh::server
