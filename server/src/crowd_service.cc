#include "waymesh/server/crowd_service.h"

#include "crowd_session.h"
#include "crowd_sessions.h"
#include "navigation_call.h"

namespace waymesh::server {

CrowdService::CrowdService(NavigationService* navigation, WorkerPool* pool, ServerMetrics* metrics,
                           CrowdServiceOptions options)
    : navigation_(navigation),
      pool_(pool),
      metrics_(metrics),
      options_(options),
      crowd_metrics_(metrics->registry()),
      sessions_(std::make_unique<CrowdSessions>(options.max_sessions, &crowd_metrics_)) {}

CrowdService::~CrowdService() = default;

grpc::ServerBidiReactor<grpc::ByteBuffer, grpc::ByteBuffer>* CrowdService::RunCrowd(
    grpc::CallbackServerContext* ctx) {
  CrowdSessionEnv env;
  env.navigation = navigation_;
  env.pool = pool_;
  env.metrics = metrics_;
  env.crowd_metrics = &crowd_metrics_;
  env.sessions = sessions_.get();
  env.max_agents = options_.max_agents;
  env.query = options_.query;
  return new CrowdSession(env, ctx);  // deletes itself when gRPC is done with the stream
}

void CrowdService::EndSessions() { sessions_->EndAll(Draining()); }

size_t CrowdService::sessions() const { return sessions_->size(); }

}  // namespace waymesh::server
