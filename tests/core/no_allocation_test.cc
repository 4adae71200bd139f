// Warm queries allocate nothing: every buffer lives in the query object or the reused result.
// Counts global operator new calls while queries run (this binary's replacement below).

#include <atomic>
#include <cstdlib>
#include <new>
#include <random>

#include "gtest/gtest.h"
#include "polyanya_data.h"
#include "support/map_builder.h"
#include "support/query_points.h"
#include "support/test_data.h"
#include "waymesh/core/crowd/crowd.h"
#include "waymesh/core/nav_query.h"
#include "waymesh/crowd_scenario/crowd_scenes.h"

namespace {
thread_local bool counting = false;
std::atomic<int> allocations{0};
}  // namespace

void* operator new(std::size_t n) {
  if (counting) allocations++;
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) { return operator new(n); }
// Every form that a replaced delete may free must be replaced too: std::stable_sort's
// temporary buffer comes from the nothrow form (AddressSanitizer flags a mix as a mismatch).
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  if (counting) allocations++;
  return std::malloc(n ? n : 1);
}
void* operator new[](std::size_t n, const std::nothrow_t& t) noexcept { return operator new(n, t); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

namespace waymesh {
namespace {

TEST(NoAllocationTest, WarmQueriesDoNotAllocate) {
  const testing::Aurora aurora = testing::LoadAurora();
  ASSERT_NE(aurora.map, nullptr);
  std::vector<testing::ExpectedQuery> queries(aurora.queries.begin(), aurora.queries.begin() + 200);
  NavQuery q(aurora.map);
  PathOptions po;
  po.half_extents = {0.5f, 1, 0.5f};
  po.area_crossings = true;
  PathResult path;
  RaycastResult ray;
  MoveResult move;
  WallDistance wall;
  PolygonsInCircle circle;
  std::mt19937_64 rng(1);
  auto run = [&] {
    for (const auto& e : queries) {
      ASSERT_TRUE(q.FindPath(e.start, e.goal, QueryFilter(), po, &path).ok());
      ASSERT_TRUE(q.Raycast(e.start, e.goal, QueryFilter(), po.half_extents, &ray).ok());
      ASSERT_TRUE(
          q.MoveAlongSurface(e.start, Lerp(e.start, e.goal, 0.05f), QueryFilter(), {1, 1, 1}, &move)
              .ok());
      ASSERT_TRUE(testing::Nearest(q, e.goal, {1, 1, 1}, QueryFilter()).has_value());
      ASSERT_TRUE(testing::RandomOnMap(q, QueryFilter(), rng).has_value());
      ASSERT_TRUE(testing::RandomOnIsland(q, 0, QueryFilter(), rng).has_value());
      ASSERT_TRUE(testing::HeightAt(q, e.goal.x, e.goal.z, 0).has_value());
      ASSERT_TRUE(q.FindDistanceToWall(e.start, 20, QueryFilter(), {1, 1, 1}, &wall).ok());
      ASSERT_TRUE(
          q.FindPolygonsInCircle(e.start, 20, QueryFilter(), 1000, {1, 1, 1}, &circle).ok());
    }
  };
  // Warm-up: buffers grow to their working size (which also shows the counter works).
  counting = true;
  run();
  counting = false;
  EXPECT_GT(allocations.load(), 0);
  allocations = 0;
  counting = true;
  run();
  counting = false;
  EXPECT_EQ(allocations.load(), 0);
}

// A crowd walking in steady state (paths planned, walls read) ticks without allocating:
// buffers live in the crowd and its workers and keep their capacity.
TEST(NoAllocationTest, WarmCrowdTicksDoNotAllocate) {
  auto map = testing::BuildMapFromSource(OpenSquareArena(40));
  ASSERT_TRUE(map.ok()) << map.status();
  absl::StatusOr<crowd::Crowd> crowd = crowd::Crowd::Create(*map);
  ASSERT_TRUE(crowd.ok());
  const CrowdScenario scene = CircleSwapScenario(24, 15, SceneAgents());
  for (const ScenarioAgent& a : scene.agents) {
    ASSERT_TRUE(crowd->AddAgent(a.id, a.position, crowd::AgentParams()).ok());
    ASSERT_TRUE(crowd->SetTarget(a.id, a.route[0]).ok());
  }
  crowd::SerialChunkRunner runner;
  auto ticks = [&](int n) {
    for (int i = 0; i < n; ++i) ASSERT_TRUE(crowd->Step(0.05f, runner).ok());
  };
  // Warm-up: first plans, wall reads and buffers (which also shows the counter works).
  counting = true;
  ticks(5);
  counting = false;
  EXPECT_GT(allocations.load(), 0);
  allocations = 0;
  counting = true;
  ticks(30);  // 1.5 s of walking towards the middle, avoiding each other
  counting = false;
  EXPECT_EQ(allocations.load(), 0);
  EXPECT_GT(crowd->changed().size(), 0u);
}

}  // namespace
}  // namespace waymesh
