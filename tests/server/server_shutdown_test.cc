// Graceful shutdown: draining flips health to NOT_SERVING and refuses new calls with
// UNAVAILABLE while admitted calls finish normally; calls still running at the deadline are
// cancelled and shutdown still returns.

#include <atomic>
#include <thread>
#include <vector>

#include "support/demo_town.h"
#include "gmock/gmock.h"
#include "grpc/health/v1/health.grpc.pb.h"
#include "gtest/gtest.h"
#include "test_server.h"

namespace waymesh::testing {
namespace {

using Health = grpc::health::v1::HealthCheckResponse;

class ServerShutdownTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(Town().bytes.empty());
    maps_.Write("town.wmesh", Town().bytes);
  }

  void Start(server::ServerHooks hooks = {}) {
    server::ServerConfig config = TestConfig(maps_.path());
    config.workers = 2;
    server_ = StartServer(config, std::move(hooks));
    ASSERT_NE(server_, nullptr);
    channel_ = Dial(*server_);
    stub_ = v1::Navigation::NewStub(channel_);
  }

  Health::ServingStatus HealthOf(const std::string& service) {
    auto health = grpc::health::v1::Health::NewStub(channel_);
    grpc::ClientContext ctx;
    SetDeadline(&ctx, absl::Seconds(5));
    grpc::health::v1::HealthCheckRequest request;
    request.set_service(service);
    grpc::health::v1::HealthCheckResponse response;
    const grpc::Status s = health->Check(&ctx, request, &response);
    return s.ok() ? response.status() : Health::UNKNOWN;
  }

  grpc::Status Call() {
    grpc::ClientContext ctx;
    SetDeadline(&ctx, absl::Seconds(30));
    v1::FindPathResponse response;
    return stub_->FindPath(&ctx, BankToBankRequest(), &response);
  }

  TempDir maps_;
  std::unique_ptr<server::NavigationServer> server_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<v1::Navigation::Stub> stub_;
};

TEST_F(ServerShutdownTest, DrainingFlipsHealthAndRefusesNewCalls) {
  Start();
  EXPECT_EQ(HealthOf(""), Health::SERVING);
  EXPECT_EQ(HealthOf("waymesh.v1.Navigation"), Health::SERVING);
  ASSERT_TRUE(Call().ok());
  server_->BeginDrain();
  EXPECT_EQ(HealthOf(""), Health::NOT_SERVING);
  EXPECT_EQ(HealthOf("waymesh.v1.Navigation"), Health::NOT_SERVING);
  EXPECT_EQ(Call().error_code(), grpc::StatusCode::UNAVAILABLE);
  server_->Shutdown(absl::Seconds(1));
}

TEST_F(ServerShutdownTest, ShutdownDrainsCallsInFlight) {
  WorkerGate gate;
  Start({.before_query = gate.Hook()});
  constexpr int kCalls = 4;  // two running (held by the gate), two queued behind them
  std::vector<grpc::Status> results(kCalls);
  std::vector<std::thread> clients;
  for (int i = 0; i < kCalls; ++i) clients.emplace_back([&, i] { results[i] = Call(); });
  ASSERT_TRUE(gate.WaitEntered(2));
  for (int i = 0; i < 2000 && server_->service().in_flight() < kCalls; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ASSERT_EQ(server_->service().in_flight(), kCalls);

  std::atomic<bool> stopped{false};
  std::thread stopper([&] {
    server_->Shutdown(absl::Seconds(30));
    stopped = true;
  });
  // While it drains: not serving, new work refused, old work still pending.
  Health::ServingStatus seen = Health::SERVING;
  for (int i = 0; i < 400 && seen != Health::NOT_SERVING; ++i) {
    seen = HealthOf("waymesh.v1.Navigation");
    if (seen != Health::NOT_SERVING) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_EQ(seen, Health::NOT_SERVING);
  EXPECT_EQ(Call().error_code(), grpc::StatusCode::UNAVAILABLE);
  EXPECT_FALSE(stopped);

  gate.Open();
  for (std::thread& t : clients) t.join();
  stopper.join();
  EXPECT_TRUE(stopped);
  for (int i = 0; i < kCalls; ++i)
    EXPECT_TRUE(results[i].ok()) << i << ": " << results[i].error_message();
  EXPECT_EQ(server_->service().queries_run(), size_t(kCalls));
  EXPECT_EQ(server_->service().in_flight(), 0);
}

TEST_F(ServerShutdownTest, CallsStillRunningAtTheDeadlineAreCancelled) {
  WorkerGate gate;
  Start({.before_query = gate.Hook()});
  grpc::Status held;
  std::thread client([&] { held = Call(); });
  ASSERT_TRUE(gate.WaitEntered(1));
  std::atomic<bool> stopped{false};
  std::thread stopper([&] {
    server_->Shutdown(absl::Milliseconds(200));
    stopped = true;
  });
  client.join();  // cancelled by the server at the deadline, while its worker is still held
  // The server gave up on it: cancelled, or the connection closed under it.
  EXPECT_THAT(held.error_code(),
              ::testing::AnyOf(grpc::StatusCode::CANCELLED, grpc::StatusCode::UNAVAILABLE))
      << held.error_message();
  gate.Open();  // the worker sees the cancellation and finishes at once
  stopper.join();
  EXPECT_TRUE(stopped);
  EXPECT_EQ(server_->service().in_flight(), 0);
}

}  // namespace
}  // namespace waymesh::testing
