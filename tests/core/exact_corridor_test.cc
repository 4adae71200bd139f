// The corridor of an exact path (the polygons it passes, from the start's to the goal's) on
// the 256 m demo town, whose open ground makes the interval search join abutting intervals of
// one root (exact_search.cc): each joined part keeps its own parent, and the corridor must
// follow the part the path really crosses. Checked against the waypoints: consecutive
// polygons are neighbours (or joined by an off-mesh link), and the middle of every leg lies on a
// polygon of the corridor.

#include <random>
#include <set>
#include <vector>

#include "gtest/gtest.h"
#include "poly_geometry.h"
#include "support/demo_town.h"
#include "support/query_points.h"
#include "support/sanitizer.h"
#include "waymesh/core/exact_path.h"
#include "waymesh/core/nav_query.h"
#include "waymesh/core/search_tables.h"

namespace waymesh {
namespace {

// Whether b lies across one of a's edges, or an off-mesh link leads from a to b.
bool Neighbours(const NavMap& map, PolyRef a, PolyRef b) {
  const TileView& t = map.tile(a.tile());
  for (uint32_t c = t.poly_start[a.poly()]; c < t.poly_start[a.poly() + 1]; ++c) {
    const std::optional<PolyIndex> nb = t.across(c);
    if (nb && *nb == b.index()) return true;
  }
  for (const OffMeshLink& link : t.off_mesh_links) {
    if (link.start_poly == a.poly() && PolyIndex{link.end_tile, link.end_poly} == b.index()) {
      return true;
    }
  }
  return false;
}

// Whether plan-view point p lies on one of the corridor's polygons.
bool OnCorridor(const NavMap& map, const std::vector<PolyRef>& corridor, Vec3 p) {
  for (const PolyRef r : corridor) {
    if (internal::PointInPolyXZ(map.tile(r.tile()), r.poly(), p, 1e-4f)) return true;
  }
  return false;
}

// Searched on the map itself, and through its plan twin (plan_twin.h), whose answer is carried
// back to the map's polygons leg by leg.
class ExactCorridorTest : public ::testing::TestWithParam<bool> {};

TEST_P(ExactCorridorTest, LegsLieInTheCorridorOnTheDemoTown) {
  const auto town = testing::Town(256, 7).map;
  ASSERT_NE(town, nullptr);
  const auto map = GetParam() ? WithSearchTables(town, {.exact_twin = true}) : town;
  ASSERT_EQ(GetParam(), map->search_tables() != nullptr &&
                            map->search_tables()->exact_twin != nullptr);
  NavQuery q(map);
  const QueryFilter filter = ExactReadyFilter(*map);
  PathOptions po;
  po.mode = PathMode::kExact;
  std::mt19937 rng(3);
  int checked = 0, legs = 0;
  for (int i = 0; i < (testing::kUnderSanitizer ? 30 : 300); ++i) {
    const auto s = testing::RandomOnMap(q, filter, rng), t = testing::RandomOnMap(q, filter, rng);
    ASSERT_TRUE(s.has_value() && t.has_value());
    PathResult r;
    ASSERT_TRUE(q.FindPath(*s, *t, filter, po, &r).ok());
    if (r.status != QueryStatus::kComplete) continue;
    ASSERT_FALSE(r.corridor.empty());
    EXPECT_EQ(r.corridor.front(), r.waypoints.front().poly) << i;
    EXPECT_EQ(r.corridor.back(), r.waypoints.back().poly) << i;
    for (size_t k = 1; k < r.corridor.size(); ++k) {
      ASSERT_TRUE(Neighbours(*map, r.corridor[k - 1], r.corridor[k]))
          << "pair " << i << " at " << k;
    }
    for (size_t k = 0; k + 1 < r.waypoints.size(); ++k) {
      const Vec3 a = r.waypoints[k].pos, b = r.waypoints[k + 1].pos;
      const Vec3 mid{(a.x + b.x) / 2, (a.y + b.y) / 2, (a.z + b.z) / 2};
      EXPECT_TRUE(OnCorridor(*map, r.corridor, mid))
          << "pair " << i << " leg " << k << " (" << a.x << ", " << a.z << ") -> (" << b.x << ", "
          << b.z << ")";
      ++legs;
    }
    ++checked;
  }
  EXPECT_GT(checked, testing::kUnderSanitizer ? 20 : 250);
  EXPECT_GT(legs, checked);  // paths bend round the town's buildings
}

INSTANTIATE_TEST_SUITE_P(MapAndTwin, ExactCorridorTest, ::testing::Bool(),
                         [](const auto& info) { return info.param ? "Twin" : "Map"; });

}  // namespace
}  // namespace waymesh
