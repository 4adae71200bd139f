// Server options that shape the gRPC port itself: the reflection toggle and keepalive
// enforcement (how often clients may ping), seen from real clients over loopback.

#include <memory>
#include <string>

#include "absl/time/clock.h"
#include "grpc/reflection/v1/reflection.grpc.pb.h"
#include "gtest/gtest.h"
#include "support/demo_town.h"
#include "test_server.h"

namespace waymesh::testing {
namespace {

class ServerOptionsTest : public ::testing::Test {
 protected:
  void SetUp() override { maps_.Write("town.wmesh", Town().bytes); }

  // ListMaps on `channel`; the status only.
  static grpc::Status ListMaps(const std::shared_ptr<grpc::Channel>& channel) {
    auto stub = v1::NavigationService::NewStub(channel);
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    v1::ListMapsResponse response;
    return stub->ListMaps(&ctx, v1::ListMapsRequest(), &response);
  }

  TempDir maps_;
};

TEST_F(ServerOptionsTest, ReflectionOffAnswersUnimplementedAndTheApiStillServes) {
  server::ServerConfig config = TestConfig(maps_.path());
  config.reflection = false;
  std::unique_ptr<server::NavigationServer> server = StartServer(config);
  ASSERT_NE(server, nullptr);
  EXPECT_EQ(ReflectionListServices(Dial(*server)).status().code(),
            absl::StatusCode::kUnimplemented);
  {  // v1 too
    auto v1_reflection = grpc::reflection::v1::ServerReflection::NewStub(Dial(*server));
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    auto stream = v1_reflection->ServerReflectionInfo(&ctx);
    grpc::reflection::v1::ServerReflectionRequest request;
    request.set_list_services("");
    grpc::reflection::v1::ServerReflectionResponse response;
    stream->Write(request);
    EXPECT_FALSE(stream->Read(&response));
    EXPECT_EQ(stream->Finish().error_code(), grpc::StatusCode::UNIMPLEMENTED);
  }
  EXPECT_TRUE(ListMaps(Dial(*server)).ok());
  // A server started later in the same process with the default has it again (per server,
  // not process-wide).
  std::unique_ptr<server::NavigationServer> other = StartServer(TestConfig(maps_.path()));
  ASSERT_NE(other, nullptr);
  EXPECT_TRUE(ReflectionListServices(Dial(*other)).ok());
}

// A client that keeps its idle connection warm with a ping every 100 ms (as an aggressive Go or
// Java client configured with a short keepalive would).
std::shared_ptr<grpc::Channel> EagerPinger(const server::NavigationServer& server) {
  grpc::ChannelArguments args;
  args.SetInt(GRPC_ARG_KEEPALIVE_TIME_MS, 100);
  args.SetInt(GRPC_ARG_KEEPALIVE_TIMEOUT_MS, 5000);
  args.SetInt(GRPC_ARG_KEEPALIVE_PERMIT_WITHOUT_CALLS, 1);
  args.SetInt(GRPC_ARG_HTTP2_MAX_PINGS_WITHOUT_DATA, 0);  // no client-side cap
  args.SetInt(GRPC_ARG_HTTP2_MIN_SENT_PING_INTERVAL_WITHOUT_DATA_MS, 100);
  return grpc::CreateCustomChannel(server.target(), grpc::InsecureChannelCredentials(), args);
}

// True when the channel's connection stayed READY for `duration` of idle pinging.
bool StaysConnected(const std::shared_ptr<grpc::Channel>& channel, absl::Duration duration) {
  const absl::Time end = absl::Now() + duration;
  while (absl::Now() < end) {
    const grpc_connectivity_state state = channel->GetState(false);
    if (state != GRPC_CHANNEL_READY) return false;
    channel->WaitForStateChange(state, absl::ToChronoTime(end));
  }
  return channel->GetState(false) == GRPC_CHANNEL_READY;
}

TEST_F(ServerOptionsTest, KeepaliveEnforcementFollowsTheFlags) {
  constexpr absl::Duration kIdle = absl::Seconds(3);  // ~30 pings
  // Bound on the wait for the GOAWAY (it comes after 3 pings; a loaded machine delays them).
  constexpr absl::Duration kGoawayWait = absl::Seconds(20);
  // Default enforcement (5 min, not without calls): the pinger is sent GOAWAY too_many_pings.
  std::unique_ptr<server::NavigationServer> strict = StartServer(TestConfig(maps_.path()));
  ASSERT_NE(strict, nullptr);
  std::shared_ptr<grpc::Channel> dropped = EagerPinger(*strict);
  ASSERT_TRUE(ListMaps(dropped).ok());
  EXPECT_FALSE(StaysConnected(dropped, kGoawayWait));

  // Permitted: pings every 50 ms even on idle connections.
  server::ServerConfig config = TestConfig(maps_.path());
  config.keepalive_min_ping_interval = absl::Milliseconds(50);
  config.keepalive_permit_without_calls = true;
  std::unique_ptr<server::NavigationServer> lenient = StartServer(config);
  ASSERT_NE(lenient, nullptr);
  std::shared_ptr<grpc::Channel> kept = EagerPinger(*lenient);
  ASSERT_TRUE(ListMaps(kept).ok());
  EXPECT_TRUE(StaysConnected(kept, kIdle));
}

}  // namespace
}  // namespace waymesh::testing
