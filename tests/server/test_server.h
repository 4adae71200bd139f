#pragma once
// In-process waymesh servers for the integration tests: the real NavigationServer on a free
// loopback port, real channels and generated stubs over TCP.

#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "grpc/health/v1/health.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "support/demo_town.h"
#include "waymesh/core/vec3.h"
#include "waymesh/server/navigation_server.h"
#include "waymesh/v1/navigation.grpc.pb.h"

namespace waymesh::testing {

// A config for a test server on 127.0.0.1 (port chosen by the OS), 2 workers, no metrics
// port, no hot-reload polling (tests reload explicitly), quiet logs.
server::ServerConfig TestConfig(const std::string& maps_dir);

// Starts the server; fails the test (and returns null) when it cannot.
std::unique_ptr<server::NavigationServer> StartServer(const server::ServerConfig& config,
                                                      server::ServerHooks hooks = {});

// A plaintext channel to `server`.
std::shared_ptr<grpc::Channel> Dial(const server::NavigationServer& server);

// Sets a deadline `timeout` from now (every test call has one, so nothing can hang).
void SetDeadline(grpc::ClientContext* context, absl::Duration timeout = absl::Seconds(20));

// grpc.health.v1 Check of `service` on `channel`: the serving status, or the call's error.
absl::StatusOr<grpc::health::v1::HealthCheckResponse::ServingStatus> CheckHealth(
    const std::shared_ptr<grpc::Channel>& channel, const std::string& service,
    absl::Duration timeout = absl::Seconds(10));

// Asks `channel`'s server reflection (v1alpha) to list its services: the raw reply bytes (the
// service names appear in them as text), or the call's error (UNIMPLEMENTED: no reflection).
absl::StatusOr<std::string> ReflectionListServices(const std::shared_ptr<grpc::Channel>& channel);

using NavigationStub = v1::NavigationService::Stub;

// One unary call with the test deadline: Unary(stub, &NavigationStub::FindPath, request,
// &response).
template <typename Request, typename Response>
grpc::Status Unary(NavigationStub& stub,
                   grpc::Status (NavigationStub::*method)(grpc::ClientContext*, const Request&,
                                                          Response*),
                   const Request& request, Response* response) {
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  return (stub.*method)(&ctx, request, response);
}

// A test server on `maps_` (default: the demo town as town.wmesh) and a stub to it. SetUp
// writes the maps and serves them with TestConfig, unless the fixture serves them itself.
class ServedMapsTest : public ::testing::Test {
 protected:
  // `serve_in_set_up` false: SetUp only writes the maps, and each test calls Serve().
  explicit ServedMapsTest(bool serve_in_set_up = true) : serve_in_set_up_(serve_in_set_up) {}
  void SetUp() override;
  // The maps the server starts with; the default writes Town() as town.wmesh.
  virtual void WriteMaps();
  // Starts server_ on the maps with `config` and `hooks`, and dials channel_ and stub_.
  void Serve(server::ServerConfig config, server::ServerHooks hooks = {});

  const bool serve_in_set_up_;

  TempDir maps_;
  std::unique_ptr<server::NavigationServer> server_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<v1::NavigationService::Stub> stub_;
};

void SetVec(Vec3 v, v1::Vec3* out);
inline Vec3 GetVec(const v1::Vec3& v) { return {v.x(), v.y(), v.z()}; }

// A FindPath request from `start` to `end` on map "town" (the demo town the server tests
// write as town.wmesh).
v1::FindPathRequest TownPathRequest(Vec3 start, Vec3 end);
// TownPathRequest from the west bank to the east bank of Town(): a route over the river that
// takes the search a while, for tests that need a real query in flight.
v1::FindPathRequest BankToBankRequest();

// Blocks worker threads in a ServerHooks::before_query until opened; counts who entered.
// Every wait is bounded so a broken test fails instead of hanging. The hook shares the gate's
// state, so a worker leaving it may outlive the gate object.
// Waits (bounded, 10 s) until `server` counts `n` unfinished calls.
bool WaitInFlight(server::NavigationServer& server, int64_t n);

class WorkerGate {
 public:
  // The hook to install.
  std::function<void(server::RpcMethod)> Hook();
  // Waits until `n` calls have entered the hook (true) or 20 s passed (false).
  bool WaitEntered(int n);
  void Open();
  int entered() const;

 private:
  struct State {
    std::mutex mu;
    std::condition_variable cv;
    int entered = 0;
    bool open = false;
  };
  std::shared_ptr<State> state_ = std::make_shared<State>();
};

}  // namespace waymesh::testing
