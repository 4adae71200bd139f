// Where ExactLandmarkTable::Build puts its landmarks (core/src/exact/landmark_placement.h):
// farthest-point and "avoid" candidates, of which those bounding sampled pairs best. Checked
// through the built table on aurora-merged cut in 64 m tiles (vertices repeat at seams).

#include <algorithm>
#include <cmath>
#include <random>

#include "gtest/gtest.h"
#include "support/map_builder.h"
#include "support/plan_length.h"
#include "support/sanitizer.h"
#include "support/test_data.h"
#include "waymesh/core/exact_landmark_table.h"
#include "waymesh/core/exact_path.h"
#include "waymesh/core/nav_query.h"
#include "waymesh/core/search_tables.h"

namespace waymesh {
namespace {

// Landmarks closer than this would waste a slot on a near-copy of another's row (m).
constexpr double kMinLandmarkSpacing = 1.0;
// The least share of random pairs' summed exact distance the rows must bound. Placed landmarks
// bound about 0.96 here; a ring squeezed to one side of the map, or landmarks bunched on one
// spot, leave whole regions bounded by little more than row differences near zero.
constexpr double kMinBoundShare = 0.9;

std::shared_ptr<const NavMap> PlacementAurora() {
  static const std::shared_ptr<const NavMap> map = [] {
    RepairOptions options{.merge = false};
    options.tile_size = 64;
    auto m = testing::CachedMapFromFile(testing::SharedData("polyanya/meshes/aurora-merged.mesh"),
                                        options);
    EXPECT_TRUE(m.ok()) << m.status();
    return m.ok() ? WithSearchTables(*m, {.exact_landmarks = true}) : nullptr;
  }();
  return map;
}

// The landmark bound on d(u, v) from the stored rows (each row floors: one step of slack).
double RowBound(const ExactLandmarkTable& table, const uint16_t* u, const uint16_t* v) {
  double bound = 0;
  for (uint32_t k = 0; k < table.count(); ++k) {
    if (u[k] == ExactLandmarkTable::kUnknown || v[k] == ExactLandmarkTable::kUnknown) continue;
    bound = std::max(bound, (std::abs(int(u[k]) - int(v[k])) - 1) * table.step());
  }
  return bound;
}

// Every landmark reaches every other (one island: roots on islets would pull landmarks there,
// where no query of the main island gains from them), and no two sit on one spot.
TEST(LandmarkPlacementTest, LandmarksShareOneIslandAndStandApart) {
  const auto map = PlacementAurora();
  ASSERT_NE(map, nullptr);
  const ExactLandmarkTable& table = map->search_tables()->exact_landmarks;
  ASSERT_EQ(table.count(), ExactLandmarkTable::kDefaultCount);
  NavQuery q(map);
  for (uint32_t k = 0; k < table.count(); ++k) {
    const auto at = q.NearestPoint(table.landmark(k), {0.5f, 2, 0.5f}, QueryFilter());
    ASSERT_TRUE(at.ok() && at->has_value()) << "landmark " << k;
    const TileView& t = map->tile((*at)->poly.tile());
    const uint32_t p = (*at)->poly.poly();
    for (uint32_t c = t.poly_start[p]; c < t.poly_start[p + 1]; ++c) {
      const uint16_t* row = table.Row(t.index, t.poly_verts[c]);
      for (uint32_t j = 0; j < table.count(); ++j) {
        ASSERT_NE(row[j], ExactLandmarkTable::kUnknown) << "landmark " << j << " at " << k;
      }
    }
    for (uint32_t j = 0; j < k; ++j) {
      const Vec3 a = table.landmark(j), b = table.landmark(k);
      EXPECT_GE(std::hypot(a.x - b.x, a.z - b.z), kMinLandmarkSpacing) << j << ", " << k;
    }
  }
}

// The placement's purpose: over random vertex pairs the landmarks bound most of the exact
// distance (long pairs weigh most, as they cost a search most nodes).
TEST(LandmarkPlacementTest, RowsBoundMostOfRandomPairDistances) {
  const auto map = PlacementAurora();
  ASSERT_NE(map, nullptr);
  const ExactLandmarkTable& table = map->search_tables()->exact_landmarks;
  ASSERT_FALSE(table.empty());
  NavQuery q(map);
  PathOptions po;
  po.mode = PathMode::kExact;
  po.half_extents = {0.5f, 1, 0.5f};
  std::mt19937 rng(28);
  double bound_sum = 0, length_sum = 0;
  int pairs = 0;
  const int samples = testing::kUnderSanitizer ? 30 : 100;
  for (int i = 0; i < samples; ++i) {
    const TileView& a = map->tile(uint32_t(rng() % map->tile_count()));
    const TileView& b = map->tile(uint32_t(rng() % map->tile_count()));
    if (a.vertices.empty() || b.vertices.empty()) continue;
    const uint32_t u = uint32_t(rng() % a.vertices.size());
    const uint32_t v = uint32_t(rng() % b.vertices.size());
    PathResult r;
    ASSERT_TRUE(q.FindPath(a.vertices[u], b.vertices[v], QueryFilter(), po, &r).ok());
    if (r.status != QueryStatus::kComplete) continue;  // other islands
    const double length = testing::PlanLength(r);
    const double bound = RowBound(table, table.Row(a.index, u), table.Row(b.index, v));
    EXPECT_LE(bound, length + 1e-4) << "pair " << i;  // admissible whatever the placement
    bound_sum += bound;
    length_sum += length;
    ++pairs;
  }
  ASSERT_GT(pairs, samples / 2);
  EXPECT_GE(bound_sum / length_sum, kMinBoundShare);
}

}  // namespace
}  // namespace waymesh
