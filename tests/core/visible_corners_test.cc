// The turn corners a point sees (VisibleCorners, core/src/exact/sight_flood.h) and their
// numbering (TurnCornerIndex, core/src/exact/turn_corner_index.h): on a hand-built pillar
// whose answers are worked out by hand, and on aurora-merged cut in 64 m tiles, whose seam
// copies of a vertex must be one corner, seen alike from both sides of a seam.

#include <cmath>
#include <map>
#include <random>
#include <tuple>
#include <vector>

#include "corner_test_support.h"
#include "exact/sight_flood.h"
#include "exact/turn_corner_index.h"
#include "gtest/gtest.h"
#include "support/query_points.h"
#include "support/sanitizer.h"
#include "waymesh/core/exact_path.h"
#include "waymesh/core/nav_query.h"

namespace waymesh {
namespace {

using internal::exact::kNone;
using internal::exact::SeenCorner;
using internal::exact::TurnCornerIndex;
using internal::exact::VisibleCorners;

// Distances are sums of a few float coordinates' differences: exact to double rounding.
constexpr double kDistanceTolerance = 1e-12;

// The corners seen from `at` on the pillar map, as vertex index -> distance.
std::map<uint32_t, double> SeenOnPillar(Vec3 at, const SurfacePoint* target = nullptr,
                                        bool* target_seen = nullptr) {
  const auto map = testing::PillarMap();
  auto ctx = testing::ContextFor(map);
  const QueryFilter filter = ExactReadyFilter(*map);
  const TurnCornerIndex index = TurnCornerIndex::Build(*ctx, filter);
  NavQuery q(map);
  const auto from = testing::Nearest(q, at, {0.1f, 1, 0.1f}, filter);
  EXPECT_TRUE(from.has_value());
  std::vector<SeenCorner> seen;
  const bool target_found = VisibleCorners(*ctx, *from, filter, index, target, &seen);
  if (target_seen != nullptr) *target_seen = target_found;
  std::map<uint32_t, double> by_vertex;
  for (const SeenCorner& s : seen) {
    for (uint32_t v = 0; v < map->tile(0).vertices.size(); ++v) {
      if (index.IdAt(0, v) == s.corner) by_vertex[v] = s.distance;
    }
  }
  EXPECT_EQ(by_vertex.size(), seen.size()) << "a corner id that names no vertex";
  return by_vertex;
}

void ExpectSeen(const std::map<uint32_t, double>& got, const std::map<uint32_t, double>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (const auto& [v, d] : want) {
    ASSERT_TRUE(got.contains(v)) << "vertex " << v << " not seen";
    EXPECT_NEAR(got.at(v), d, kDistanceTolerance) << "vertex " << v;
  }
}

TEST(TurnCornerIndexTest, PillarCornersAreTheOnlyCorners) {
  const auto map = testing::PillarMap();
  auto ctx = testing::ContextFor(map);
  const TurnCornerIndex index = TurnCornerIndex::Build(*ctx, ExactReadyFilter(*map));
  ASSERT_EQ(index.size(), 4u);
  std::vector<bool> named(4, false);
  for (const auto& [i, k] : {std::pair{2, 2}, {3, 2}, {3, 3}, {2, 3}}) {
    const uint32_t id = index.IdAt(0, testing::PillarVertex(i, k));
    ASSERT_LT(id, 4u) << i << ", " << k;
    EXPECT_FALSE(named[id]) << "two corners share id " << id;
    named[id] = true;
    EXPECT_EQ(index.position(id), (Vec3{float(i), 0, float(k)}));
    // The corner's surface point lies on a polygon having it as a corner.
    const TileView& t = map->tile(0);
    const uint32_t p = index.point(id).poly.poly();
    bool has = false;
    for (uint32_t c = t.poly_start[p]; c < t.poly_start[p + 1]; ++c) {
      has |= t.poly_verts[c] == testing::PillarVertex(i, k);
    }
    EXPECT_TRUE(has) << i << ", " << k;
  }
  // Convex outline corners, straight outline vertices and inner vertices are not corners.
  for (const auto& [i, k] : {std::pair{0, 0}, {5, 5}, {0, 2}, {1, 1}, {4, 3}}) {
    EXPECT_EQ(index.IdAt(0, testing::PillarVertex(i, k)), kNone) << i << ", " << k;
  }
}

// From the left of the pillar, level with its middle: both near corners, which a path to the
// far side bends round.
TEST(VisibleCornersTest, LeftOfThePillarSeesItsNearCorners) {
  ExpectSeen(SeenOnPillar({0.5f, 0, 2.5f}), {{testing::PillarVertex(2, 2), std::sqrt(2.5)},
                                             {testing::PillarVertex(2, 3), std::sqrt(2.5)}});
}

// From (0.5, 1) the near corner (2, 2) is in sight, but the line of sight through it runs
// into the pillar: nothing hides behind it, so no shortest path turns there. The corners
// (3, 2) (seen under the pillar) and (2, 3) (the line grazes it) hide the far sides.
TEST(VisibleCornersTest, OnlyCornersAPathCanBendRoundAreListed) {
  ExpectSeen(SeenOnPillar({0.5f, 0, 1.0f}),
             {{testing::PillarVertex(3, 2), std::sqrt(7.25)}, {testing::PillarVertex(2, 3), 2.5}});
}

// Seeded on a corner (as the corner graph is built): its two wall neighbours, one metre
// away; the corner opposite is hidden and the seed does not list itself.
TEST(VisibleCornersTest, FromACornerItsWallNeighbours) {
  ExpectSeen(SeenOnPillar({2.0f, 0, 2.0f}),
             {{testing::PillarVertex(3, 2), 1.0}, {testing::PillarVertex(2, 3), 1.0}});
}

TEST(VisibleCornersTest, TellsWhetherTheTargetIsSeen) {
  const auto map = testing::PillarMap();
  NavQuery q(map);
  const QueryFilter filter = ExactReadyFilter(*map);
  const auto target = [&](float x, float z) {
    return *testing::Nearest(q, {x, 0, z}, {0.1f, 1, 0.1f}, filter);
  };
  struct Case {
    Vec3 target;
    bool seen;
  };
  for (const Case c : {Case{{4.5f, 0, 2.5f}, false},    // behind the pillar
                       Case{{4.5f, 0, 0.5f}, true},     // under it
                       Case{{0.7f, 0, 2.6f}, true},     // in the seed's own polygon
                       Case{{3.5f, 0, 3.2f}, false},    // past the corner (2, 3)
                       Case{{1.0f, 0, 4.9f}, true}}) {  // above it
    const SurfacePoint t = target(c.target.x, c.target.z);
    bool seen = !c.seen;
    SeenOnPillar({0.5f, 0, 2.5f}, &t, &seen);
    EXPECT_EQ(seen, c.seen) << c.target.x << ", " << c.target.z;
  }
}

// Per position: the corners of a map's index and of one VisibleCorners answer.
using Position = std::tuple<float, float, float>;
Position PositionOf(Vec3 v) { return {v.x, v.y, v.z}; }

std::map<Position, double> SeenByPosition(internal::QueryContext& ctx, const TurnCornerIndex& index,
                                          const QueryFilter& filter, const SurfacePoint& from) {
  std::vector<SeenCorner> seen;
  VisibleCorners(ctx, from, filter, index, nullptr, &seen);
  std::map<Position, double> out;
  for (const SeenCorner& s : seen) {
    EXPECT_TRUE(out.emplace(PositionOf(index.position(s.corner)), s.distance).second)
        << "one position listed twice";
  }
  return out;
}

// Every copy of a seam vertex that is a corner names one id, which names that position; no
// two ids share a position; and the tiled map has the corners of the map in one tile (cutting
// polygons at seams adds straight vertices only).
TEST(TurnCornerIndexTest, SeamCopiesShareOneId) {
  const auto tiled = testing::AuroraMerged(64);
  const auto whole = testing::AuroraMerged(testing::kOneTile);
  ASSERT_NE(tiled, nullptr);
  ASSERT_NE(whole, nullptr);
  ASSERT_GT(tiled->tile_count(), whole->tile_count());
  auto ctx = testing::ContextFor(tiled);
  const TurnCornerIndex index = TurnCornerIndex::Build(*ctx, ExactReadyFilter(*tiled));
  std::map<Position, uint32_t> id_at;
  size_t seam_copies = 0;
  for (const TileView& t : tiled->tiles()) {
    for (uint32_t v = 0; v < t.vertices.size(); ++v) {
      const uint32_t id = index.IdAt(t.index, v);
      if (id == kNone) continue;
      ASSERT_LT(id, index.size());
      EXPECT_EQ(index.position(id), t.vertices[v]);
      const auto [it, fresh] = id_at.emplace(PositionOf(t.vertices[v]), id);
      if (!fresh) {
        ++seam_copies;
        EXPECT_EQ(it->second, id) << "two ids at one position";
      }
    }
  }
  EXPECT_EQ(id_at.size(), index.size());
  EXPECT_GT(seam_copies, 10u);  // the test looked at seams

  auto whole_ctx = testing::ContextFor(whole);
  const TurnCornerIndex whole_index = TurnCornerIndex::Build(*whole_ctx, ExactReadyFilter(*whole));
  std::map<Position, uint32_t> whole_at;
  for (uint32_t id = 0; id < whole_index.size(); ++id) {
    whole_at.emplace(PositionOf(whole_index.position(id)), id);
  }
  EXPECT_EQ(whole_at.size(), whole_index.size());
  for (const auto& [pos, id] : whole_at) EXPECT_TRUE(id_at.contains(pos)) << id;
  for (const auto& [pos, id] : id_at) EXPECT_TRUE(whole_at.contains(pos)) << id;
}

// From random points, the tiled map lists the corners (by position) and distances the map in
// one tile does: sight crosses seams, and a corner on a seam counts once.
TEST(VisibleCornersTest, SeamsChangeNothingSeen) {
  const auto tiled = testing::AuroraMerged(64);
  const auto whole = testing::AuroraMerged(testing::kOneTile);
  ASSERT_NE(tiled, nullptr);
  ASSERT_NE(whole, nullptr);
  auto tiled_ctx = testing::ContextFor(tiled);
  auto whole_ctx = testing::ContextFor(whole);
  const QueryFilter tiled_filter = ExactReadyFilter(*tiled),
                    whole_filter = ExactReadyFilter(*whole);
  const TurnCornerIndex tiled_index = TurnCornerIndex::Build(*tiled_ctx, tiled_filter);
  const TurnCornerIndex whole_index = TurnCornerIndex::Build(*whole_ctx, whole_filter);
  NavQuery tiled_q(tiled), whole_q(whole);
  std::mt19937 rng(29);
  const int points = testing::kUnderSanitizer ? 10 : 60;
  size_t listed = 0;
  for (int i = 0; i < points; ++i) {
    const auto at = testing::RandomOnMap(whole_q, whole_filter, rng);
    ASSERT_TRUE(at.has_value());
    const auto on_tiled = testing::Nearest(tiled_q, at->pos, {0.01f, 1, 0.01f}, tiled_filter);
    ASSERT_TRUE(on_tiled.has_value());
    const auto got = SeenByPosition(*tiled_ctx, tiled_index, tiled_filter, *on_tiled);
    const auto want = SeenByPosition(*whole_ctx, whole_index, whole_filter, *at);
    listed += want.size();
    ASSERT_EQ(got.size(), want.size()) << "point " << i;
    for (const auto& [pos, d] : want) {
      ASSERT_TRUE(got.contains(pos)) << "point " << i;
      EXPECT_NEAR(got.at(pos), d, 1e-9 * (1 + d)) << "point " << i;
    }
  }
  EXPECT_GT(listed, size_t(points));  // points see corners: the comparison compared something
}

}  // namespace
}  // namespace waymesh
