// The crowd on the classic scenes at small sizes, under ORCA: every tick, every agent is on the
// surface, keeps its radius from the walls and overlaps nobody by more than 10 % of the smaller
// radius, and everyone arrives. Judged by brute force (crowd_test_support.h), not by the
// crowd's own measures.

#include <memory>
#include <vector>

#include "crowd_test_support.h"
#include "gtest/gtest.h"
#include "waymesh/crowd_scenario/crowd_run.h"
#include "waymesh/crowd_scenario/crowd_scenes.h"

namespace waymesh {
namespace {

struct Scene {
  const char* name;
  SourceMesh arena;
  CrowdScenario scenario;
  bool near_walls;  // its agents must pass close to walls
};

std::vector<Scene> SmallScenes() {
  SceneAgents agents;
  agents.duration_s = 30;
  std::vector<Scene> scenes;
  scenes.push_back({"circle", OpenSquareArena(26), CircleSwapScenario(16, 10, agents), false});
  scenes.push_back(
      {"corridor", CorridorArena(30, 6), CorridorCrossingScenario(8, 2, 30, agents), true});
  agents.duration_s = 45;  // 20 agents through one door, single file
  scenes.push_back({"door", DoorArena(12, 2.0f, 0.5f), DoorScenario(20, 12, 0.5f, agents), true});
  return scenes;
}

class CrowdSceneTest : public ::testing::TestWithParam<int> {};

TEST_P(CrowdSceneTest, OrcaKeepsAgentsOnTheSurfaceApartAndOffWallsAndEveryoneArrives) {
  Scene scene = std::move(SmallScenes()[GetParam()]);
  SCOPED_TRACE(scene.name);
  const std::shared_ptr<const NavMap> map = testing::ArenaMap(scene.arena);
  ASSERT_NE(map, nullptr);
  absl::StatusOr<std::unique_ptr<CrowdRun>> run =
      CrowdRun::Start(map, scene.scenario, CrowdRunOptions{});
  ASSERT_TRUE(run.ok()) << run.status();
  std::vector<float> radius;
  for (const ScenarioAgent& a : scene.scenario.agents) radius.push_back(a.radius);
  testing::CrowdJudge judge(map);
  crowd::SerialChunkRunner runner;
  while (!(*run)->done()) {
    ASSERT_TRUE((*run)->Tick(runner).ok());
    judge.Check((*run)->agents(), radius, int((*run)->tick()));
    if (::testing::Test::HasFailure()) return;  // one tick's report is enough
  }
  const CrowdRunSummary summary = (*run)->Summary();
  EXPECT_EQ(summary.arrived, scene.scenario.agents.size());
  // The judge saw agents come close to each other (and to walls where the scene has them in
  // the way): the test tested something.
  if (scene.near_walls) {
    EXPECT_LT(judge.worst_wall, 0.1f);
  }
  EXPECT_GT(judge.worst_overlap, -0.5f);
}

INSTANTIATE_TEST_SUITE_P(Scenes, CrowdSceneTest, ::testing::Values(0, 1, 2),
                         [](const ::testing::TestParamInfo<int>& info) {
                           return std::string(SmallScenes()[info.param].name);
                         });

// Trajectories of the door scene (the densest) with `workers` threads and chunks of
// `chunk_agents` agents.
std::vector<crowd::AgentUpdate> DoorTrajectories(uint32_t workers, uint32_t chunk_agents) {
  Scene scene = std::move(SmallScenes()[2]);
  scene.scenario.duration_s = 12;
  CrowdRunOptions options;
  options.crowd.chunk_agents = chunk_agents;
  options.quality_every = 0;
  absl::StatusOr<std::unique_ptr<CrowdRun>> run =
      CrowdRun::Start(testing::ArenaMap(scene.arena), scene.scenario, options);
  EXPECT_TRUE(run.ok()) << run.status();
  std::vector<crowd::AgentUpdate> out;
  if (!run.ok()) return out;
  testing::ThreadChunkRunner threads(workers);
  crowd::SerialChunkRunner serial;
  crowd::ChunkRunner& runner = workers == 1 ? static_cast<crowd::ChunkRunner&>(serial) : threads;
  while (!(*run)->done()) {
    EXPECT_TRUE((*run)->Tick(runner).ok());
    out.insert(out.end(), (*run)->agents().begin(), (*run)->agents().end());
  }
  return out;
}

TEST(CrowdDeterminismTest, BitIdenticalOnAnyWorkerAndChunkCount) {
  const std::vector<crowd::AgentUpdate> one = DoorTrajectories(1, 256);
  ASSERT_FALSE(one.empty());
  for (const auto& [workers, chunk] : {std::pair{1u, 3u}, {2u, 5u}, {3u, 7u}, {3u, 1u}}) {
    SCOPED_TRACE(::testing::Message() << workers << " workers, chunks of " << chunk);
    const std::vector<crowd::AgentUpdate> other = DoorTrajectories(workers, chunk);
    ASSERT_EQ(other.size(), one.size());
    for (size_t i = 0; i < one.size(); ++i) {
      // Bitwise: == on floats, and the same state.
      ASSERT_TRUE(one[i].pos == other[i].pos && one[i].vel == other[i].vel &&
                  one[i].state == other[i].state && one[i].id == other[i].id)
          << "row " << i << " (agent " << one[i].id << ")";
    }
  }
  // The agents moved (trajectories of standing agents would be trivially equal).
  EXPECT_NE(one.front().pos, one.back().pos);
}

}  // namespace
}  // namespace waymesh
