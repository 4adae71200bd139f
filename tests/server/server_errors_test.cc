// Every error code the service promises, over real TCP: INVALID_ARGUMENT naming the field,
// NOT_FOUND, UNAUTHENTICATED, RESOURCE_EXHAUSTED from a full queue (at once, with RetryInfo and
// the pushback trailer, then as overload shedding) and from the message size limit,
// DEADLINE_EXCEEDED and CANCELLED for calls that expired or were cancelled while queued (their
// query never runs).

#include <atomic>
#include <limits>
#include <thread>

#include "error_details.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "support/demo_town.h"
#include "test_server.h"
#include "waymesh/server/call_interrupt.h"
#include "waymesh/server/error_model.h"

namespace waymesh::testing {
namespace {

using ::testing::HasSubstr;

class ServerErrorsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(Town().bytes.empty());
    maps_.Write("town.wmesh", Town().bytes);
  }

  void Start(server::ServerConfig config, server::ServerHooks hooks = {}) {
    server_ = StartServer(config, std::move(hooks));
    ASSERT_NE(server_, nullptr);
    stub_ = v1::NavigationService::NewStub(Dial(*server_));
  }

  // A FindPath call; the trailing metadata it got lands in *trailers when given.
  grpc::Status Call(const v1::FindPathRequest& request, absl::Duration deadline = absl::Seconds(20),
                    const std::string& token = "",
                    std::multimap<std::string, std::string>* trailers = nullptr) {
    grpc::ClientContext ctx;
    SetDeadline(&ctx, deadline);
    if (!token.empty()) ctx.AddMetadata("authorization", "Bearer " + token);
    v1::FindPathResponse response;
    const grpc::Status status = stub_->FindPath(&ctx, request, &response);
    if (trailers != nullptr) {
      for (const auto& [key, value] : ctx.GetServerTrailingMetadata()) {
        trailers->emplace(std::string(key.data(), key.size()),
                          std::string(value.data(), value.size()));
      }
    }
    return status;
  }

  bool WaitInFlight(int64_t n) { return testing::WaitInFlight(*server_, n); }

  TempDir maps_;
  std::unique_ptr<server::NavigationServer> server_;
  std::unique_ptr<v1::NavigationService::Stub> stub_;
};

TEST_F(ServerErrorsTest, InvalidArgumentNamesTheField) {
  Start(TestConfig(maps_.path()));
  v1::FindPathRequest nan = BankToBankRequest();
  nan.mutable_start()->set_x(std::numeric_limits<float>::quiet_NaN());
  grpc::Status s = Call(nan);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(s.error_message(), HasSubstr("start.x"));

  v1::FindPathRequest far = BankToBankRequest();
  far.mutable_end()->set_z(1e9f);
  s = Call(far);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(s.error_message(), HasSubstr("end.z"));

  v1::FindPathRequest extents = BankToBankRequest();
  SetVec({2, -1, 2}, extents.mutable_options()->mutable_extents());
  s = Call(extents);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(s.error_message(), HasSubstr("options.extents.y"));

  v1::FindPathRequest path_id = BankToBankRequest();
  path_id.set_map_id("../town");
  s = Call(path_id);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(s.error_message(), HasSubstr("map_id"));

  v1::ValidateMoveRequest move;
  move.set_map_id("town");
  SetVec({0, 0, 0}, move.mutable_start());
  SetVec({1, 0, 0}, move.mutable_end());
  move.set_tolerance(-3);
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  v1::ValidateMoveResponse response;
  s = stub_->ValidateMove(&ctx, move, &response);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(s.error_message(), HasSubstr("tolerance"));
  EXPECT_EQ(server_->service().queries_run(), 0u);
}

TEST_F(ServerErrorsTest, UnknownMapIsNotFound) {
  Start(TestConfig(maps_.path()));
  v1::FindPathRequest r = BankToBankRequest();
  r.set_map_id("atlantis");
  const grpc::Status s = Call(r);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_THAT(s.error_message(), HasSubstr("atlantis"));
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  v1::GetMapInfoRequest info;
  info.set_map_id("atlantis");
  v1::GetMapInfoResponse out;
  EXPECT_EQ(stub_->GetMapInfo(&ctx, info, &out).error_code(), grpc::StatusCode::NOT_FOUND);
}

TEST_F(ServerErrorsTest, BearerTokenIsRequiredWhenConfigured) {
  server::ServerConfig config = TestConfig(maps_.path());
  config.auth_token = "let-me-in";
  Start(config);
  EXPECT_EQ(Call(BankToBankRequest()).error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(Call(BankToBankRequest(), absl::Seconds(20), "let-me-out").error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_TRUE(Call(BankToBankRequest(), absl::Seconds(20), "let-me-in").ok());
  EXPECT_EQ(server_->service().queries_run(), 1u);
}

TEST_F(ServerErrorsTest, FullQueueIsResourceExhaustedAtOnce) {
  server::ServerConfig config = TestConfig(maps_.path());
  config.workers = 1;
  config.queue_capacity = 1;
  WorkerGate gate;
  Start(config, {.before_query = gate.Hook()});
  grpc::Status first, second;
  std::thread a([&] { first = Call(BankToBankRequest()); });
  ASSERT_TRUE(gate.WaitEntered(1));  // the only worker is busy
  std::thread b([&] { second = Call(BankToBankRequest()); });
  ASSERT_TRUE(WaitInFlight(2));  // the second waits in the queue
  const absl::Time before = absl::Now();
  std::multimap<std::string, std::string> trailers;
  const grpc::Status third = Call(BankToBankRequest(), absl::Seconds(20), "", &trailers);
  EXPECT_EQ(third.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_LT(absl::Now() - before, absl::Seconds(5));  // answered without waiting for a worker
  // Reason OVERLOADED, and how long to wait twice: a RetryInfo for clients that read details,
  // the pushback trailer for gRPC's retry policy (the same delay).
  const google::rpc::Status details = DetailsOf(third);
  EXPECT_EQ(ReasonOf(details), server::reason::kOverloaded);
  const std::optional<google::rpc::RetryInfo> retry = DetailOf<google::rpc::RetryInfo>(details);
  ASSERT_TRUE(retry.has_value());
  const int64_t delay_ms =
      retry->retry_delay().seconds() * 1000 + retry->retry_delay().nanos() / 1000000;
  EXPECT_EQ(delay_ms, server::kOverloadRetryDelay.count());
  ASSERT_EQ(trailers.count("grpc-retry-pushback-ms"), 1u);
  EXPECT_EQ(trailers.find("grpc-retry-pushback-ms")->second, std::to_string(delay_ms));
  // The overflow starts an overload episode (shedding is on by default): refusals say so.
  EXPECT_THAT(server_->metrics().Render(), HasSubstr("\nwaymesh_overloaded 1\n"));
  const grpc::Status fourth = Call(BankToBankRequest());
  EXPECT_EQ(fourth.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_THAT(fourth.error_message(), HasSubstr("overloaded"));
  gate.Open();
  a.join();
  b.join();
  EXPECT_TRUE(first.ok()) << first.error_message();
  EXPECT_TRUE(second.ok()) << second.error_message();
  EXPECT_EQ(server_->service().queries_run(), 2u);
}

TEST_F(ServerErrorsTest, CallsThatExpireOrAreCancelledInTheQueueNeverRun) {
  server::ServerConfig config = TestConfig(maps_.path());
  config.workers = 1;
  WorkerGate gate;
  Start(config, {.before_query = gate.Hook()});
  grpc::Status blocker, expired, cancelled;
  std::thread a([&] { blocker = Call(BankToBankRequest()); });
  ASSERT_TRUE(gate.WaitEntered(1));
  std::thread b([&] { expired = Call(BankToBankRequest(), absl::Milliseconds(300)); });
  grpc::ClientContext cancel_ctx;
  SetDeadline(&cancel_ctx);
  std::thread c([&] {
    v1::FindPathResponse response;
    cancelled = stub_->FindPath(&cancel_ctx, BankToBankRequest(), &response);
  });
  ASSERT_TRUE(WaitInFlight(3));
  cancel_ctx.TryCancel();
  b.join();  // the client gives up at its deadline while the call still waits
  c.join();
  EXPECT_EQ(expired.error_code(), grpc::StatusCode::DEADLINE_EXCEEDED);
  EXPECT_EQ(cancelled.error_code(), grpc::StatusCode::CANCELLED);
  gate.Open();
  a.join();
  EXPECT_TRUE(blocker.ok());
  ASSERT_TRUE(WaitInFlight(0));
  // The worker dropped both when it picked them up: only the first query ever ran.
  EXPECT_EQ(server_->service().queries_run(), 1u);
  EXPECT_EQ(gate.entered(), 1);
}

TEST_F(ServerErrorsTest, OversizedMessagesAreRefused) {
  server::ServerConfig config = TestConfig(maps_.path());
  config.max_message_bytes = 16 << 10;
  Start(config);
  v1::FindPathBatchRequest batch;
  for (int i = 0; i < 1000; ++i) *batch.add_requests() = BankToBankRequest();
  ASSERT_GT(batch.ByteSizeLong(), 16u << 10);
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  v1::FindPathBatchResponse response;
  EXPECT_EQ(stub_->FindPathBatch(&ctx, batch, &response).error_code(),
            grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_TRUE(Call(BankToBankRequest()).ok());  // a normal call still passes
}

TEST(CallLivenessTest, CancelledBeatsDeadlineAndBothStopWork) {
  const auto now = std::chrono::system_clock::now();
  const auto later = now + std::chrono::seconds(1);
  EXPECT_TRUE(server::CallLiveness(false, later, now).ok());
  EXPECT_EQ(server::CallLiveness(false, now, now).code(), absl::StatusCode::kDeadlineExceeded);
  EXPECT_EQ(server::CallLiveness(true, later, now).code(), absl::StatusCode::kCancelled);
  EXPECT_EQ(server::ToGrpcStatus(server::CallLiveness(false, now, now)).error_code(),
            grpc::StatusCode::DEADLINE_EXCEEDED);
  EXPECT_EQ(server::ReasonOf(server::CallLiveness(true, later, now)), "CANCELLED");
  EXPECT_TRUE(server::ToGrpcStatus(absl::OkStatus()).ok());
}

}  // namespace
}  // namespace waymesh::testing
