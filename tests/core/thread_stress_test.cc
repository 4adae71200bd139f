// Many threads share one map, each with its own NavQuery: every answer equals the
// single-threaded one (determinism), and nothing races (run under -DWAYMESH_SANITIZE=thread).

#include <random>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "polyanya_data.h"
#include "support/map_builder.h"
#include "support/query_points.h"
#include "support/test_data.h"
#include "waymesh/core/landmark_table.h"
#include "waymesh/core/nav_query.h"

namespace waymesh {
namespace {

// What one worker computes for query i; compared field by field.
struct Answer {
  QueryStatus status;
  double length;
  size_t waypoints;
  bool ray_hit;
  float ray_t;
  Vec3 moved;
  Vec3 random;

  bool operator==(const Answer& o) const {
    return status == o.status && length == o.length && waypoints == o.waypoints &&
           ray_hit == o.ray_hit && ray_t == o.ray_t && moved == o.moved && random == o.random;
  }
};

std::vector<Answer> Work(const std::shared_ptr<const NavMap>& map,
                         const std::vector<testing::ExpectedQuery>& queries, size_t first,
                         size_t count) {
  NavQuery q(map);
  PathOptions po;
  po.half_extents = {0.5f, 1, 0.5f};
  PathResult path;
  RaycastResult ray;
  MoveResult move;
  std::vector<Answer> out;
  for (size_t k = 0; k < count; ++k) {
    const size_t i = (first + k) % queries.size();
    const auto& e = queries[i];
    Answer a{};
    EXPECT_TRUE(q.FindPath(e.start, e.goal, QueryFilter(), po, &path).ok());
    a.status = path.status;
    a.length = path.length;
    a.waypoints = path.waypoints.size();
    EXPECT_TRUE(q.Raycast(e.start, e.goal, QueryFilter(), po.half_extents, &ray).ok());
    a.ray_hit = ray.hit;
    a.ray_t = ray.t;
    const Vec3 near_goal = Lerp(e.start, e.goal, 0.1f);
    EXPECT_TRUE(q.MoveAlongSurface(e.start, near_goal, QueryFilter(), po.half_extents, &move).ok());
    a.moved = move.pos;
    std::mt19937_64 rng(i);  // per query, so the draw does not depend on the thread
    a.random = testing::RandomOnMap(q, QueryFilter(), rng)->pos;
    out.push_back(a);
  }
  return out;
}

TEST(ThreadStressTest, SharedMapGivesSingleThreadedAnswers) {
  const testing::Aurora aurora = testing::LoadAurora();
  ASSERT_NE(aurora.map, nullptr);
  // Short queries keep the test quick; threads start at different offsets so they interleave
  // different work on the same map.
  std::vector<testing::ExpectedQuery> queries;
  for (const auto& e : aurora.queries) {
    if (e.length < 150) queries.push_back(e);
  }
  ASSERT_GT(queries.size(), 300u);
  constexpr size_t kPerThread = 150;
  constexpr int kThreads = 6;
  const std::vector<Answer> reference = Work(aurora.map, queries, 0, queries.size());
  std::vector<std::vector<Answer>> results(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] { results[t] = Work(aurora.map, queries, t * 37, kPerThread); });
  }
  for (auto& th : threads) th.join();
  for (int t = 0; t < kThreads; ++t) {
    ASSERT_EQ(results[t].size(), kPerThread);
    for (size_t k = 0; k < kPerThread; ++k) {
      const size_t i = (t * 37 + k) % queries.size();
      EXPECT_TRUE(results[t][k] == reference[i]) << "thread " << t << " query " << i;
    }
  }
}

}  // namespace
}  // namespace waymesh
