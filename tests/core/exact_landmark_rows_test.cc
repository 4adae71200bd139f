// The exact landmark table's rows on the 256 m demo town (the vs_detour map, cut in 16 tiles):
// two corners of one convex polygon see each other, so their landmark distances differ by at
// most the straight line between them. Before LandmarkRowRelaxer (landmark_row_relax.h) a
// float twin of corner (7, -1.4) held a distance about 30 m too long, and the bound it gave made
// the exact search overestimate near the goal below (97 754 nodes, most of them past the optimum).

#include <algorithm>
#include <cmath>

#include "gtest/gtest.h"
#include "support/demo_town.h"
#include "support/plan_length.h"
#include "waymesh/core/exact_landmark_table.h"
#include "waymesh/core/exact_path.h"
#include "waymesh/core/nav_query.h"
#include "waymesh/core/search_tables.h"

namespace waymesh {
namespace {

// Float slack of the floods (m), as the search's LandmarkBound::kMargin.
constexpr double kRowMargin = 1e-4;
// The town's first four landmarks: the farthest-point order puts the faulty one second.
constexpr uint32_t kTownLandmarks = 4;

std::shared_ptr<const NavMap> TownWithRows() {
  static const std::shared_ptr<const NavMap> map = WithSearchTables(
      testing::Town(256, 1).map, {.exact_landmarks = true, .exact_landmark_count = kTownLandmarks});
  return map;
}

TEST(ExactLandmarkRowsTest, CornersOfAPolygonDifferByAtMostTheirDistance) {
  const auto map = TownWithRows();
  const ExactLandmarkTable& table = map->search_tables()->exact_landmarks;
  ASSERT_EQ(table.count(), kTownLandmarks);
  ASSERT_GT(map->tile_count(), 1u);
  uint64_t pairs = 0;
  for (const TileView& t : map->tiles()) {
    for (uint32_t p = 0; p < t.poly_count(); ++p) {
      for (uint32_t i = 0, n = t.corner_count(p); i < n; ++i) {
        for (uint32_t j = 0; j < n; ++j) {
          const uint32_t u = t.poly_verts[t.poly_start[p] + i];
          const uint32_t w = t.poly_verts[t.poly_start[p] + j];
          const double apart =
              std::hypot(t.vertices[u].x - t.vertices[w].x, t.vertices[u].z - t.vertices[w].z);
          for (uint32_t k = 0; k < table.count(); ++k) {
            const uint16_t su = table.Row(t.index, u)[k], sw = table.Row(t.index, w)[k];
            if (su == ExactLandmarkTable::kUnknown || sw == ExactLandmarkTable::kUnknown) continue;
            ++pairs;
            ASSERT_LE(su * table.step(), (sw + 1) * table.step() + apart + kRowMargin)
                << "tile " << t.index << " polygon " << p << " corners " << i << ", " << j
                << " landmark " << k;
          }
        }
      }
    }
  }
  EXPECT_GT(pairs, 100000u);
}

// The goal's polygon brackets each landmark's exact distance to the goal (the search's goal
// bound, LandmarkBound::Begin): no corner's row lies above it.
TEST(ExactLandmarkRowsTest, GoalPolygonBracketsTheExactDistance) {
  const auto map = TownWithRows();
  const ExactLandmarkTable& table = map->search_tables()->exact_landmarks;
  ASSERT_EQ(table.count(), kTownLandmarks);
  const QueryFilter filter = ExactReadyFilter(*map);
  NavQuery q(testing::Town(256, 1).map);  // no table: the reference search
  const auto goal = q.NearestPoint(Vec3{7.225f, 0, 0.025f}, {0.5f, 2, 0.5f}, filter);
  ASSERT_TRUE(goal.ok() && goal->has_value());
  const SurfacePoint at = **goal;
  const TileView& t = map->tile(at.poly.tile());
  PathOptions po;
  po.mode = PathMode::kExact;
  po.half_extents = {0.5f, 1, 0.5f};
  for (uint32_t k = 0; k < table.count(); ++k) {
    PathResult r;
    ASSERT_TRUE(q.FindPath(table.landmark(k), at.pos, filter, po, &r).ok());
    ASSERT_EQ(r.status, QueryStatus::kComplete) << "landmark " << k;
    const double exact = testing::PlanLength(r);
    for (uint32_t i = 0, n = t.corner_count(at.poly.poly()); i < n; ++i) {
      const uint32_t v = t.poly_verts[t.poly_start[at.poly.poly()] + i];
      const uint16_t s = table.Row(t.index, v)[k];
      if (s == ExactLandmarkTable::kUnknown) continue;
      const double reach = std::hypot(t.vertices[v].x - at.pos.x, t.vertices[v].z - at.pos.z);
      EXPECT_LE(s * table.step() - reach, exact + kRowMargin)
          << "landmark " << k << " corner " << i;
      EXPECT_GE((s + 1) * table.step() + reach, exact - kRowMargin)
          << "landmark " << k << " corner " << i;
    }
  }
}

}  // namespace
}  // namespace waymesh
