// N client threads x M calls against one server (run under ThreadSanitizer in CI): every answer
// equals the one the same call got when it ran alone, whatever worker and query object served
// it, and nothing races.

#include <string>
#include <thread>
#include <vector>

#include "support/demo_town.h"
#include "gtest/gtest.h"
#include "test_server.h"

namespace waymesh::testing {
namespace {

constexpr int kThreads = 4;
constexpr int kCallsPerThread = 24;

// The calls of the mix, by index: paths between landmark probes, moves, rays, nearest and
// seeded random points. Returns the serialized answer ("error:<code>" for a failed call).
class CallMix {
 public:
  explicit CallMix(std::shared_ptr<grpc::Channel> channel)
      : stub_(v1::NavigationService::NewStub(std::move(channel))) {
    for (const DemoProbe& p : Town().truth.probes) probes_.push_back(p.position);
  }

  size_t size() const { return probes_.size() * 5; }

  std::string Run(size_t i) {
    const Vec3 a = probes_[(i / 5) % probes_.size()];
    const Vec3 b = probes_[(i / 5 + 3) % probes_.size()];
    grpc::ClientContext ctx;
    SetDeadline(&ctx, absl::Seconds(60));
    std::string out;
    grpc::Status status;
    switch (i % 5) {
      case 0: {
        v1::FindPathResponse response;
        status = stub_->FindPath(&ctx, TownPathRequest(a, b), &response);
        out = response.SerializeAsString();
        break;
      }
      case 1: {
        v1::ValidateMoveRequest r;
        r.set_map_id("town");
        SetVec(a, r.mutable_start());
        SetVec(a + Vec3{2, 0, 1}, r.mutable_end());
        v1::ValidateMoveResponse response;
        status = stub_->ValidateMove(&ctx, r, &response);
        out = response.SerializeAsString();
        break;
      }
      case 2: {
        v1::RaycastRequest r;
        r.set_map_id("town");
        SetVec(a, r.mutable_start());
        SetVec(b, r.mutable_end());
        v1::RaycastResponse response;
        status = stub_->Raycast(&ctx, r, &response);
        out = response.SerializeAsString();
        break;
      }
      case 3: {
        v1::NearestPointRequest r;
        r.set_map_id("town");
        SetVec(a + Vec3{0.3f, 1, 0.3f}, r.mutable_position());
        v1::NearestPointResponse response;
        status = stub_->NearestPoint(&ctx, r, &response);
        out = response.SerializeAsString();
        break;
      }
      default: {
        v1::RandomPointRequest r;
        r.set_map_id("town");
        r.set_seed(i);
        SetVec(a, r.mutable_center());
        r.set_radius(15);
        v1::RandomPointResponse response;
        status = stub_->RandomPoint(&ctx, r, &response);
        out = response.SerializeAsString();
        break;
      }
    }
    return status.ok() ? out : "error:" + std::to_string(status.error_code());
  }

 private:
  std::unique_ptr<v1::NavigationService::Stub> stub_;
  std::vector<Vec3> probes_;
};

TEST(ConcurrentCallsTest, ManyClientsGetTheAnswersOfSingleCalls) {
  TempDir maps;
  maps.Write("town.wmesh", Town().bytes);
  server::ServerConfig config = TestConfig(maps.path());
  config.workers = 3;
  std::unique_ptr<server::NavigationServer> server = StartServer(config);
  ASSERT_NE(server, nullptr);

  CallMix reference_client(Dial(*server));
  std::vector<std::string> reference(reference_client.size());
  for (size_t i = 0; i < reference.size(); ++i) {
    reference[i] = reference_client.Run(i);
    ASSERT_NE(reference[i].rfind("error:", 0), 0u) << "call " << i << " failed: " << reference[i];
  }

  std::vector<std::vector<std::string>> answers(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      CallMix client(Dial(*server));  // a channel (connection) per client thread
      for (int k = 0; k < kCallsPerThread; ++k) {
        answers[t].push_back(client.Run((t * 7 + k) % reference.size()));
      }
    });
  }
  for (std::thread& t : threads) t.join();
  for (int t = 0; t < kThreads; ++t) {
    ASSERT_EQ(answers[t].size(), size_t(kCallsPerThread));
    for (int k = 0; k < kCallsPerThread; ++k) {
      const size_t i = (t * 7 + k) % reference.size();
      EXPECT_EQ(answers[t][k], reference[i]) << "thread " << t << " call " << i;
    }
  }
  EXPECT_EQ(server->service().queries_run(), reference.size() + kThreads * kCallsPerThread);
}

}  // namespace
}  // namespace waymesh::testing
