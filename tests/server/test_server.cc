#include "test_server.h"

#include <chrono>
#include <thread>

#include "grpcpp/generic/generic_stub.h"
#include "gtest/gtest.h"
#include "support/demo_town.h"
#include "waymesh/server/logging.h"

namespace waymesh::testing {
namespace {

constexpr auto kGateTimeout = std::chrono::seconds(20);

}  // namespace

server::ServerConfig TestConfig(const std::string& maps_dir) {
  server::ServerConfig config;
  config.maps_dir = maps_dir;
  config.listen_address = "127.0.0.1";
  config.port = 0;
  config.metrics_port = -1;
  config.workers = 2;
  config.reload_interval = absl::ZeroDuration();
  // Tests write files atomically and reload explicitly: take changes and removals at once.
  config.reload_settle = absl::ZeroDuration();
  config.map_removal_grace = absl::ZeroDuration();
  config.shutdown_grace = absl::Seconds(5);
  config.log_level = "warn";
  return config;
}

std::unique_ptr<server::NavigationServer> StartServer(const server::ServerConfig& config,
                                                      server::ServerHooks hooks) {
  (void)server::ConfigureLogging("text", config.log_level);
  absl::StatusOr<std::unique_ptr<server::NavigationServer>> server =
      server::NavigationServer::Start(config, std::move(hooks));
  EXPECT_TRUE(server.ok()) << server.status();
  return server.ok() ? *std::move(server) : nullptr;
}

std::shared_ptr<grpc::Channel> Dial(const server::NavigationServer& server) {
  return grpc::CreateChannel(server.target(), grpc::InsecureChannelCredentials());
}

void ServedMapsTest::SetUp() {
  WriteMaps();
  if (serve_in_set_up_) Serve(TestConfig(maps_.path()));
}

void ServedMapsTest::Serve(server::ServerConfig config, server::ServerHooks hooks) {
  server_ = StartServer(config, std::move(hooks));
  ASSERT_NE(server_, nullptr);
  channel_ = Dial(*server_);
  stub_ = v1::NavigationService::NewStub(channel_);
}

void ServedMapsTest::WriteMaps() { maps_.Write("town.wmesh", Town().bytes); }

absl::StatusOr<grpc::health::v1::HealthCheckResponse::ServingStatus> CheckHealth(
    const std::shared_ptr<grpc::Channel>& channel, const std::string& service,
    absl::Duration timeout) {
  auto health = grpc::health::v1::Health::NewStub(channel);
  grpc::ClientContext ctx;
  SetDeadline(&ctx, timeout);
  grpc::health::v1::HealthCheckRequest request;
  request.set_service(service);
  grpc::health::v1::HealthCheckResponse response;
  const grpc::Status status = health->Check(&ctx, request, &response);
  if (!status.ok()) {
    return absl::Status(static_cast<absl::StatusCode>(status.error_code()), status.error_message());
  }
  return response.status();
}

absl::StatusOr<std::string> ReflectionListServices(const std::shared_ptr<grpc::Channel>& channel) {
  grpc::GenericStub generic(channel);
  grpc::CompletionQueue cq;
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  auto next = [&cq](void* want) {
    void* tag = nullptr;
    bool ok = false;
    return cq.Next(&tag, &ok) && ok && tag == want;
  };
  auto stream = generic.PrepareCall(
      &ctx, "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo", &cq);
  int tags[5];
  stream->StartCall(&tags[0]);
  std::string bytes;
  if (next(&tags[0])) {
    const char list_services[] = {0x3A, 0x00};  // field 7 (list_services), length 0
    grpc::Slice slice(list_services, sizeof(list_services));
    grpc::ByteBuffer request(&slice, 1);
    stream->Write(request, &tags[1]);
    grpc::ByteBuffer reply;
    if (next(&tags[1])) {
      stream->Read(&reply, &tags[2]);
      std::vector<grpc::Slice> slices;
      if (next(&tags[2]) && reply.Dump(&slices).ok()) {
        for (const grpc::Slice& s : slices) {
          bytes.append(reinterpret_cast<const char*>(s.begin()), s.size());
        }
        stream->WritesDone(&tags[3]);
        next(&tags[3]);
      }
    }
  }
  grpc::Status status;
  stream->Finish(&status, &tags[4]);
  if (!next(&tags[4])) return absl::InternalError("reflection call did not finish");
  if (!status.ok()) {
    return absl::Status(static_cast<absl::StatusCode>(status.error_code()), status.error_message());
  }
  return bytes;
}

void SetDeadline(grpc::ClientContext* context, absl::Duration timeout) {
  context->set_deadline(absl::ToChronoTime(absl::Now() + timeout));
}

void SetVec(Vec3 v, v1::Vec3* out) {
  out->set_x(v.x);
  out->set_y(v.y);
  out->set_z(v.z);
}

v1::FindPathRequest TownPathRequest(Vec3 start, Vec3 end) {
  v1::FindPathRequest r;
  r.set_map_id("town");
  SetVec(start, r.mutable_start());
  SetVec(end, r.mutable_end());
  return r;
}

v1::FindPathRequest BankToBankRequest() {
  return TownPathRequest(ProbeAt(Town(), kProbeWestBank), ProbeAt(Town(), kProbeEastBank));
}

std::function<void(server::RpcMethod)> WorkerGate::Hook() {
  return [state = state_](server::RpcMethod) {
    std::unique_lock<std::mutex> lock(state->mu);
    ++state->entered;
    state->cv.notify_all();
    state->cv.wait_for(lock, kGateTimeout, [&] { return state->open; });
  };
}

bool WorkerGate::WaitEntered(int n) {
  std::unique_lock<std::mutex> lock(state_->mu);
  return state_->cv.wait_for(lock, kGateTimeout, [&] { return state_->entered >= n; });
}

void WorkerGate::Open() {
  std::lock_guard<std::mutex> lock(state_->mu);
  state_->open = true;
  state_->cv.notify_all();
}

bool WaitInFlight(server::NavigationServer& server, int64_t n) {
  for (int i = 0; i < 2000; ++i) {
    if (server.service().in_flight() == n) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return false;
}

int WorkerGate::entered() const {
  std::lock_guard<std::mutex> lock(state_->mu);
  return state_->entered;
}

}  // namespace waymesh::testing
