// A query object rebound to another map (another version of it, an obstacle layer's version)
// answers as a new object on that map would, and can go back.

#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "support/demo_town.h"
#include "waymesh/core/nav_query.h"
#include "waymesh/core/obstacles/carve_map.h"
#include "waymesh/core/search_tables.h"

namespace waymesh {
namespace {

// FindPath and RandomPoint answers of `q` on `pairs` of points, as (status, length) and points.
std::vector<float> Answers(NavQuery& q, const std::vector<std::pair<Vec3, Vec3>>& pairs) {
  std::vector<float> out;
  const QueryFilter all(q.map().info());
  PathResult path;
  for (const auto& [a, b] : pairs) {
    EXPECT_TRUE(q.FindPath(a, b, all, {}, &path).ok());
    out.push_back(float(path.status));
    out.push_back(path.length);
  }
  std::mt19937 rng(3);
  for (int i = 0; i < 20; ++i) {
    const auto p = q.RandomPoint(all, rng);
    EXPECT_TRUE(p.ok() && *p);
    out.push_back((*p)->pos.x);
    out.push_back((*p)->pos.z);
  }
  return out;
}

TEST(NavQueryRebindTest, AReboundQueryAnswersAsANewOne) {
  const auto base = WithSearchTables(testing::Town().map);
  NavQuery placer(base);
  std::mt19937 rng(17);
  std::vector<std::pair<Vec3, Vec3>> pairs;
  std::vector<Obstacle> walls;
  const QueryFilter all(base->info());
  for (int i = 0; i < 40; ++i) {
    const auto a = placer.RandomPoint(all, rng), b = placer.RandomPoint(all, rng);
    ASSERT_TRUE(a.ok() && b.ok() && *a && *b);
    pairs.push_back({(*a)->pos, (*b)->pos});
    walls.push_back({"w" + std::to_string(i), BoxShape{(*a)->pos + Vec3{3, 0, 0}, {2, 1, 0.5f}, 30},
                     ObstacleEffect::kBlock, 0});
  }
  auto carved = CarveMap(base, walls);
  ASSERT_TRUE(carved.ok()) << carved.status();
  const auto carved_shared = std::make_shared<const NavMap>(**carved, base->shared_search_tables());
  ASSERT_GT(carved_shared->info().polygon_count, base->info().polygon_count);

  NavQuery fresh_base(base), fresh_carved(carved_shared);
  const std::vector<float> on_base = Answers(fresh_base, pairs);
  const std::vector<float> on_carved = Answers(fresh_carved, pairs);
  ASSERT_NE(on_base, on_carved);  // the walls change answers

  NavQuery q(base);
  Answers(q, pairs);  // used on the base first: its pool and pins must not leak into the next
  q.Rebind(carved_shared);  // more polygons than the pool was made for
  EXPECT_EQ(Answers(q, pairs), on_carved);
  q.Rebind(base);
  EXPECT_EQ(Answers(q, pairs), on_base);
  q.Rebind(*carved);  // the carved map without tables
  NavQuery fresh_untabled(*carved);
  EXPECT_EQ(Answers(q, pairs), Answers(fresh_untabled, pairs));
}

}  // namespace
}  // namespace waymesh
