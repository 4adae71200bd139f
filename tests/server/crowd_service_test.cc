// CrowdService over the wire: a crowd session bound to one RunCrowd stream. The ticks a
// caller-stepped session streams are bit for bit those of the core crowd run in process on the
// same commands; failed commands are answered by seq and the session goes on; a stream must open
// first on a served map; limits name their flags; the server ticks at the rate asked; a drain
// ends sessions UNAVAILABLE so their callers replay elsewhere; the metrics count it all.

#include <atomic>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "crowd_stream.h"
#include "error_details.h"
#include "exposition_parser.h"
#include "gtest/gtest.h"
#include "support/demo_town.h"
#include "test_server.h"
#include "waymesh/core/crowd/chunk_runner.h"
#include "waymesh/core/crowd/crowd.h"
#include "waymesh/core/nav_query.h"
#include "waymesh/v1/crowd.grpc.pb.h"

namespace waymesh::testing {
namespace {

constexpr int kAgents = 6;

double Metric(const server::NavigationServer& server, const std::string& name,
              const std::vector<std::pair<std::string, std::string>>& labels = {}) {
  absl::StatusOr<Exposition> parsed =
      ParseExposition(const_cast<server::NavigationServer&>(server).metrics().Render());
  EXPECT_TRUE(parsed.ok()) << parsed.status();
  if (!parsed.ok()) return -1;
  return FindSample(*parsed, name, labels).value_or(-1);
}

// Opens a caller-stepped session and checks the `opened` answer.
void OpenStepped(CrowdStream& stream) {
  ASSERT_TRUE(stream.Send(Open()));
  std::optional<v1::RunCrowdResponse> opened = stream.Read();
  ASSERT_TRUE(opened.has_value());
  ASSERT_TRUE(opened->has_opened()) << opened->DebugString();
  EXPECT_EQ(opened->opened().map_version(), 1u);
  EXPECT_EQ(opened->opened().tick_hz(), 0.0f);
}

class CrowdServiceTest : public ServedMapsTest {
 protected:
  void SetUp() override {
    ServedMapsTest::SetUp();
    crowd_ = v1::CrowdService::NewStub(channel_);
  }

  std::unique_ptr<v1::CrowdService::Stub> crowd_;
};

constexpr int kSceneTicks = 160;

// Opens a caller-stepped session on `crowd`, sends `scene` and steps it kSceneTicks times;
// returns the latest state of each agent as a caller keeps them.
std::map<uint32_t, v1::CrowdAgent> StreamScene(v1::CrowdService::Stub& crowd, const Scene& scene) {
  std::map<uint32_t, v1::CrowdAgent> last;
  CrowdStream stream(crowd);
  OpenStepped(stream);
  if (::testing::Test::HasFatalFailure()) return last;
  uint64_t seq = 10;
  for (int i = 0; i < kAgents; ++i) EXPECT_TRUE(stream.Send(Add(++seq, i + 1, scene.spawns[i])));
  for (int i = 0; i < kAgents; ++i) EXPECT_TRUE(stream.Send(Target(++seq, i + 1, scene.goal)));
  for (int t = 1; t <= kSceneTicks; ++t) {
    EXPECT_TRUE(stream.Send(Step(++seq)));
    std::optional<v1::RunCrowdResponse> e = stream.Read();
    if (!e.has_value() || !e->has_tick()) {
      ADD_FAILURE() << "tick " << t << ": " << (e ? e->DebugString() : "stream ended");
      return last;
    }
    EXPECT_EQ(e->tick().tick(), uint64_t(t));
    EXPECT_EQ(e->tick().seq(), seq);
    EXPECT_EQ(e->tick().agent_count(), uint32_t(kAgents));
    for (const v1::CrowdAgent& a : e->tick().agents()) last[a.id()] = a;
  }
  EXPECT_TRUE(stream.Close().ok());
  return last;
}

// The same commands on the core crowd, in process, on the map the server was given.
std::vector<crowd::AgentUpdate> RunSceneInProcess(const Scene& scene,
                                                  const crowd::CrowdOptions& options = {}) {
  absl::StatusOr<crowd::Crowd> core = crowd::Crowd::Create(Town().map, options);
  EXPECT_TRUE(core.ok()) << core.status();
  if (!core.ok()) return {};
  crowd::AgentParams params;
  params.filter = QueryFilter(Town().map->info());
  for (int i = 0; i < kAgents; ++i)
    EXPECT_TRUE(core->AddAgent(i + 1, scene.spawns[i], params).ok());
  for (int i = 0; i < kAgents; ++i) EXPECT_TRUE(core->SetTarget(i + 1, scene.goal).ok());
  crowd::SerialChunkRunner runner;
  for (int t = 0; t < kSceneTicks; ++t) EXPECT_TRUE(core->Step(kDt, runner).ok());
  std::vector<crowd::AgentUpdate> agents;
  core->Snapshot(&agents);
  return agents;
}

bool SameBits(const v1::CrowdAgent& got, const crowd::AgentUpdate& want) {
  return got.position().x() == want.pos.x && got.position().y() == want.pos.y &&
         got.position().z() == want.pos.z && got.velocity().x() == want.vel.x &&
         got.velocity().z() == want.vel.z && got.poly() == want.poly.bits() &&
         (crowd::AgentStateName(want.state) == "arrived") ==
             (got.state() == v1::CROWD_AGENT_STATE_ARRIVED);
}

// Agents of `expected` whose streamed state is not bit for bit theirs.
int Mismatches(const std::map<uint32_t, v1::CrowdAgent>& streamed,
               const std::vector<crowd::AgentUpdate>& expected) {
  EXPECT_EQ(streamed.size(), expected.size());
  int mismatches = 0;
  for (const crowd::AgentUpdate& want : expected) {
    auto got = streamed.find(want.id);
    mismatches += got == streamed.end() || !SameBits(got->second, want);
  }
  return mismatches;
}

TEST_F(CrowdServiceTest, StreamsTheTicksOfTheCoreCrowdBitForBit) {
  const Scene scene = WestBankScene(kAgents);
  const std::map<uint32_t, v1::CrowdAgent> last = StreamScene(*crowd_, scene);
  EXPECT_EQ(Mismatches(last, RunSceneInProcess(scene)), 0);
  // Surround: they share one goal, so they spread on a ring round it, and all get there.
  int arrived = 0;
  for (const auto& [id, agent] : last) arrived += agent.state() == v1::CROWD_AGENT_STATE_ARRIVED;
  EXPECT_EQ(arrived, kAgents);
}

// The server's search flags (--max-search-nodes, --path-hierarchy) reach its crowds: with the
// node pool at its least the streamed ticks are the core crowd's with that pool, not the
// default's.
class CrowdSearchFlagsTest : public ServedMapsTest {
 protected:
  CrowdSearchFlagsTest() : ServedMapsTest(/*serve_in_set_up=*/false) {}
};

TEST_F(CrowdSearchFlagsTest, TheServersNodePoolIsTheCrowdsToo) {
  server::ServerConfig config = TestConfig(maps_.path());
  config.max_search_nodes = 16;
  Serve(config);
  std::unique_ptr<v1::CrowdService::Stub> crowd = v1::CrowdService::NewStub(channel_);
  Scene scene = WestBankScene(kAgents);
  scene.goal = ProbeAt(Town(), kProbeEastBank);  // across the river: paths of many polygons
  const std::map<uint32_t, v1::CrowdAgent> last = StreamScene(*crowd, scene);
  crowd::CrowdOptions small_pool;
  small_pool.query.max_nodes = config.max_search_nodes;
  EXPECT_EQ(Mismatches(last, RunSceneInProcess(scene, small_pool)), 0);
  EXPECT_GT(Mismatches(last, RunSceneInProcess(scene)), 0);  // the scene needs more than 16
}

TEST_F(CrowdServiceTest, FailedCommandsAreAnsweredBySeqAndTheSessionGoesOn) {
  const Scene scene = WestBankScene(kAgents);
  CrowdStream stream(*crowd_);
  OpenStepped(stream);
  ASSERT_TRUE(stream.Send(Add(2, 1, scene.spawns[0])));

  v1::RunCrowdRequest remove_unknown;
  remove_unknown.set_seq(3);
  remove_unknown.mutable_remove_agent()->set_id(99);
  v1::RunCrowdRequest bad_radius = Add(4, 2, scene.spawns[1]);
  bad_radius.mutable_add_agent()->mutable_params()->set_radius(-1);
  v1::RunCrowdRequest off_mesh = Add(5, 3, {1e5f, 0, 1e5f});
  v1::RunCrowdRequest taken_id = Add(6, 1, scene.spawns[2]);
  v1::RunCrowdRequest open_again = Open();
  open_again.set_seq(7);
  v1::RunCrowdRequest empty;
  empty.set_seq(8);
  v1::RunCrowdRequest bad_area = Add(9, 4, scene.spawns[3]);
  (*bad_area.mutable_add_agent()->mutable_params()->mutable_filter()->mutable_area_costs())[70] = 1;
  const std::map<uint64_t, grpc::StatusCode> want = {
      {3, grpc::NOT_FOUND},        {4, grpc::INVALID_ARGUMENT},    {5, grpc::FAILED_PRECONDITION},
      {6, grpc::INVALID_ARGUMENT}, {7, grpc::FAILED_PRECONDITION}, {8, grpc::INVALID_ARGUMENT},
      {9, grpc::INVALID_ARGUMENT}, {10, grpc::INVALID_ARGUMENT},
  };
  for (const auto* c :
       {&remove_unknown, &bad_radius, &off_mesh, &taken_id, &open_again, &empty, &bad_area}) {
    ASSERT_TRUE(stream.Send(*c));
  }
  ASSERT_TRUE(stream.Send(Step(10, 0)));  // dt 0
  ASSERT_TRUE(stream.Send(Step(11)));

  std::map<uint64_t, google::rpc::Status> failed;
  std::optional<v1::RunCrowdResponse> e;
  while ((e = stream.Read()) && e->has_command_failed()) {
    failed[e->command_failed().seq()] = e->command_failed().status();
  }
  ASSERT_TRUE(e.has_value());
  ASSERT_TRUE(e->has_tick()) << e->DebugString();  // the session went on
  EXPECT_EQ(e->tick().seq(), 11u);
  EXPECT_EQ(e->tick().agent_count(), 1u);
  ASSERT_EQ(failed.size(), want.size());
  for (const auto& [seq, code] : want) {
    EXPECT_EQ(failed[seq].code(), code) << seq << ": " << failed[seq].message();
  }
  EXPECT_NE(failed[10].message().find("step.dt_seconds"), std::string::npos);
  EXPECT_NE(failed[9].message().find("area_costs[70]"), std::string::npos);
  EXPECT_TRUE(stream.Close().ok());
}

TEST_F(CrowdServiceTest, AStreamMustFirstOpenAServedMap) {
  {
    CrowdStream stream(*crowd_);
    ASSERT_TRUE(stream.Send(Step(1)));
    const grpc::Status s = stream.Finish();
    EXPECT_EQ(s.error_code(), grpc::FAILED_PRECONDITION) << s.error_message();
    EXPECT_NE(s.error_message().find("open"), std::string::npos);
  }
  {
    CrowdStream stream(*crowd_);
    v1::RunCrowdRequest open = Open();
    open.mutable_open()->set_map_id("atlantis");
    ASSERT_TRUE(stream.Send(open));
    const grpc::Status s = stream.Finish();
    EXPECT_EQ(s.error_code(), grpc::NOT_FOUND);
    EXPECT_EQ(ReasonOf(s), "MAP_NOT_FOUND");
  }
  {
    CrowdStream stream(*crowd_);
    v1::RunCrowdRequest open = Open();
    open.mutable_open()->mutable_obstacles()->set_layer("zone-1");
    open.mutable_open()->mutable_obstacles()->set_version(3);
    ASSERT_TRUE(stream.Send(open));
    const grpc::Status s = stream.Finish();
    EXPECT_EQ(s.error_code(), grpc::FAILED_PRECONDITION);
    EXPECT_EQ(ReasonOf(s), "OBSTACLE_LAYER_VERSION_UNKNOWN");
  }
  for (const float hz : {1000.0f, 0.5f, -1.0f}) {
    CrowdStream stream(*crowd_);
    ASSERT_TRUE(stream.Send(Open(hz)));
    const grpc::Status s = stream.Finish();
    EXPECT_EQ(s.error_code(), grpc::INVALID_ARGUMENT) << hz;
    EXPECT_NE(s.error_message().find("open.tick_hz"), std::string::npos) << hz;
  }
}

TEST_F(CrowdServiceTest, LimitsAreResourceExhaustedNamingTheirFlags) {
  server::ServerConfig config = TestConfig(maps_.path());
  config.max_crowd_sessions = 1;
  config.max_crowd_agents = 2;
  std::unique_ptr<server::NavigationServer> small = StartServer(config);
  ASSERT_NE(small, nullptr);
  auto stub = v1::CrowdService::NewStub(Dial(*small));
  const Scene scene = WestBankScene(kAgents);

  CrowdStream first(*stub);
  ASSERT_TRUE(first.Send(Open()));
  ASSERT_TRUE(first.Read().has_value());
  for (uint32_t id = 1; id <= 3; ++id) ASSERT_TRUE(first.Send(Add(id + 1, id, scene.spawns[id])));
  std::optional<v1::RunCrowdResponse> e = first.Read();
  ASSERT_TRUE(e.has_value() && e->has_command_failed()) << (e ? e->DebugString() : "none");
  EXPECT_EQ(e->command_failed().seq(), 4u);
  EXPECT_EQ(e->command_failed().status().code(), grpc::RESOURCE_EXHAUSTED);
  EXPECT_NE(e->command_failed().status().message().find("--max-crowd-agents"), std::string::npos);
  EXPECT_EQ(ReasonOf(e->command_failed().status()), "CROWD_AGENT_LIMIT_EXCEEDED");

  CrowdStream second(*stub);
  ASSERT_TRUE(second.Send(Open()));
  const grpc::Status refused = second.Finish();
  EXPECT_EQ(refused.error_code(), grpc::RESOURCE_EXHAUSTED);
  EXPECT_NE(refused.error_message().find("--max-crowd-sessions"), std::string::npos);
  EXPECT_EQ(Metric(*small, "waymesh_crowd_sessions_refused_total"), 1.0);

  EXPECT_TRUE(first.Close().ok());
  // The first session's end frees its place (the server forgets it just after the caller has
  // its status: a few tries).
  bool reopened = false;
  for (int attempt = 0; attempt < 50 && !reopened; ++attempt) {
    CrowdStream third(*stub);
    ASSERT_TRUE(third.Send(Open()));
    std::optional<v1::RunCrowdResponse> opened = third.Read();
    reopened = opened.has_value() && opened->has_opened();
    if (reopened) {
      EXPECT_TRUE(third.Close().ok());
    } else {
      EXPECT_EQ(third.Finish().error_code(), grpc::RESOURCE_EXHAUSTED);
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
  EXPECT_TRUE(reopened);
}

TEST_F(CrowdServiceTest, TheServerTicksAtTheRateAskedUntilTheCallerCloses) {
  const Scene scene = WestBankScene(kAgents);
  CrowdStream stream(*crowd_);
  ASSERT_TRUE(stream.Send(Open(20)));
  std::optional<v1::RunCrowdResponse> opened = stream.Read();
  ASSERT_TRUE(opened.has_value() && opened->has_opened());
  EXPECT_EQ(opened->opened().tick_hz(), 20.0f);
  ASSERT_TRUE(stream.Send(Add(2, 1, scene.spawns[0])));
  ASSERT_TRUE(stream.Send(Target(3, 1, scene.goal)));
  ASSERT_TRUE(stream.Send(Step(4)));  // refused: the server ticks this one

  const absl::Time start = absl::Now();
  uint64_t ticks = 0;
  bool step_refused = false;
  while (ticks < 10) {
    std::optional<v1::RunCrowdResponse> e = stream.Read();
    ASSERT_TRUE(e.has_value());
    if (e->has_command_failed()) {
      EXPECT_EQ(e->command_failed().seq(), 4u);
      EXPECT_EQ(e->command_failed().status().code(), grpc::FAILED_PRECONDITION);
      step_refused = true;
      continue;
    }
    ASSERT_TRUE(e->has_tick());
    EXPECT_EQ(e->tick().seq(), 0u);
    EXPECT_EQ(e->tick().dt_seconds(), 0.05f);
    ticks = e->tick().tick() + e->tick().overrun_ticks();
  }
  // Ten ticks at 20 Hz take half a second (sanitizers may skip some, which count as overruns).
  EXPECT_GE(absl::Now() - start, absl::Milliseconds(350));
  EXPECT_TRUE(step_refused);
  EXPECT_GE(Metric(*server_, "waymesh_crowd_tick_seconds_count"), 1.0);
  EXPECT_TRUE(stream.Close().ok());
}

TEST_F(CrowdServiceTest, ADrainEndsSessionsUnavailableSoCallersReplayElsewhere) {
  const Scene scene = WestBankScene(kAgents);
  CrowdStream stream(*crowd_);
  OpenStepped(stream);
  ASSERT_TRUE(stream.Send(Add(2, 1, scene.spawns[0])));
  ASSERT_TRUE(stream.Send(Step(3)));
  std::optional<v1::RunCrowdResponse> tick = stream.Read();
  ASSERT_TRUE(tick.has_value() && tick->has_tick());
  EXPECT_EQ(Metric(*server_, "waymesh_crowd_sessions"), 1.0);
  EXPECT_EQ(Metric(*server_, "waymesh_crowd_agents"), 1.0);

  server_->BeginDrain();
  const grpc::Status s = stream.Finish();
  EXPECT_EQ(s.error_code(), grpc::UNAVAILABLE);
  EXPECT_EQ(ReasonOf(s), "DRAINING");
  // Metrics: the session and its agent are gone; the stream counted with its messages.
  for (int i = 0; i < 100 && Metric(*server_, "waymesh_crowd_sessions") != 0.0; ++i) {
    absl::SleepFor(absl::Milliseconds(20));
  }
  EXPECT_EQ(Metric(*server_, "waymesh_crowd_sessions"), 0.0);
  EXPECT_EQ(Metric(*server_, "waymesh_crowd_agents"), 0.0);
  const std::vector<std::pair<std::string, std::string>> run_crowd = {{"grpc_method", "RunCrowd"},
                                                                      {"grpc_type", "bidi_stream"}};
  EXPECT_EQ(Metric(*server_, "grpc_server_started_total", run_crowd), 1.0);
  EXPECT_EQ(Metric(*server_, "grpc_server_msg_received_total", run_crowd), 3.0);
  EXPECT_EQ(Metric(*server_, "grpc_server_msg_sent_total", run_crowd), 2.0);
  auto handled = run_crowd;
  handled.emplace_back("grpc_code", "Unavailable");
  EXPECT_EQ(Metric(*server_, "grpc_server_handled_total", handled), 1.0);
}

// One worker, and a caller stepping a crowd as fast as it can: each step is one task in the
// same queue as queries, so FindPath calls keep being answered in between.
TEST_F(CrowdServiceTest, ABusySessionDoesNotStarveQueries) {
  server::ServerConfig config = TestConfig(maps_.path());
  config.workers = 1;
  std::unique_ptr<server::NavigationServer> one = StartServer(config);
  ASSERT_NE(one, nullptr);
  auto channel = Dial(*one);
  auto crowd_stub = v1::CrowdService::NewStub(channel);
  auto nav = v1::NavigationService::NewStub(channel);
  NavQuery q(Town().map);
  const QueryFilter filter(Town().map->info());
  std::mt19937 rng(5);

  CrowdStream stream(*crowd_stub);
  ASSERT_TRUE(stream.Send(Open()));
  ASSERT_TRUE(stream.Read().has_value());
  for (uint32_t id = 1; id <= 200; ++id) {
    auto p = q.RandomPoint(filter, rng);
    ASSERT_TRUE(p.ok() && p->has_value());
    auto goal = q.RandomPoint(filter, rng);
    ASSERT_TRUE(goal.ok() && goal->has_value());
    ASSERT_TRUE(stream.Send(Add(id, id, (*p)->pos)));
    ASSERT_TRUE(stream.Send(Target(1000 + id, id, (*goal)->pos)));
  }
  std::atomic<bool> stop{false};
  std::atomic<int> ticks{0};
  std::thread stepper([&] {
    for (uint64_t seq = 5000; !stop; ++seq) {
      if (!stream.Send(Step(seq))) return;
      std::optional<v1::RunCrowdResponse> e;
      while ((e = stream.Read()) && !e->has_tick()) {
      }
      if (!e) return;
      ++ticks;
    }
  });
  while (ticks < 3) absl::SleepFor(absl::Milliseconds(5));
  for (int i = 0; i < 10; ++i) {
    v1::FindPathResponse response;
    const grpc::Status s = Unary(*nav, &NavigationStub::FindPath, BankToBankRequest(), &response);
    EXPECT_TRUE(s.ok()) << s.error_message();
    EXPECT_EQ(response.status(), v1::PATH_STATUS_COMPLETE);
  }
  const int ticks_during_queries = ticks;
  stop = true;
  stepper.join();
  EXPECT_TRUE(stream.Close().ok());
  EXPECT_GE(ticks_during_queries, 3);
}

TEST_F(CrowdServiceTest, ACancelledStreamFreesItsSession) {
  const Scene scene = WestBankScene(kAgents);
  {
    CrowdStream stream(*crowd_);
    OpenStepped(stream);
    for (uint32_t id = 1; id <= 3; ++id)
      ASSERT_TRUE(stream.Send(Add(id + 1, id, scene.spawns[id])));
    ASSERT_TRUE(stream.Send(Step(9)));
    ASSERT_TRUE(stream.Read().has_value());
    stream.Cancel();
    EXPECT_EQ(stream.Finish().error_code(), grpc::CANCELLED);
  }
  for (int i = 0; i < 100 && Metric(*server_, "waymesh_crowd_sessions") != 0.0; ++i) {
    absl::SleepFor(absl::Milliseconds(20));
  }
  EXPECT_EQ(Metric(*server_, "waymesh_crowd_sessions"), 0.0);
  EXPECT_EQ(Metric(*server_, "waymesh_crowd_agents"), 0.0);
  // Counted as cancelled, whichever of its reads' end and the cancellation the server saw first.
  EXPECT_EQ(Metric(*server_, "grpc_server_handled_total",
                   {{"grpc_method", "RunCrowd"}, {"grpc_code", "Canceled"}}),
            1.0);
  EXPECT_EQ(Metric(*server_, "grpc_server_handled_total",
                   {{"grpc_method", "RunCrowd"}, {"grpc_code", "OK"}}),
            0.0);
}

}  // namespace
}  // namespace waymesh::testing
