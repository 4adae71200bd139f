// NavQuery::WallsAround: the wall edges near a point, found through adjacency from the point's
// polygon, against brute force over every boundary edge; and never the walls of another floor.

#include <algorithm>
#include <vector>

#include "crowd_test_support.h"
#include "gtest/gtest.h"
#include "support/demo_town.h"
#include "waymesh/core/nav_query.h"
#include "waymesh/crowd_scenario/crowd_scenes.h"

namespace waymesh {
namespace {

// A step (metres) off a wall's middle to either side.
constexpr float kSide = 0.01f;

bool SameEdge(const WallSegment& a, const WallSegment& b) { return a.a == b.a && a.b == b.b; }

// Whether segments ab and cd cross at a point inside both (plan view).
bool Cross(Vec3 a, Vec3 b, Vec3 c, Vec3 d) {
  const float d1 = TriArea2XZ(a, b, c), d2 = TriArea2XZ(a, b, d);
  const float d3 = TriArea2XZ(c, d, a), d4 = TriArea2XZ(c, d, b);
  return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0));
}

// Whether the straight line from p to the point of `w` nearest p crosses no other wall.
bool InSight(const std::vector<WallSegment>& all, Vec3 p, const WallSegment& w) {
  const float dx = w.b.x - w.a.x, dz = w.b.z - w.a.z;
  const float t =
      std::clamp(((p.x - w.a.x) * dx + (p.z - w.a.z) * dz) / (dx * dx + dz * dz), 0.0f, 1.0f);
  const Vec3 q = Lerp(p, Lerp(w.a, w.b, t), 0.999f);
  return std::none_of(all.begin(), all.end(),
                      [&](const WallSegment& o) { return Cross(p, q, o.a, o.b); });
}

// Whether `p` lies on the surface (plan view) of a single-floor map.
bool OnSurface(NavQuery& q, Vec3 p) {
  absl::StatusOr<std::optional<SurfacePoint>> at = q.NearestPoint(p, {0.1f, 1, 0.1f}, {});
  return at.ok() && at->has_value() && DistanceXZ((*at)->pos, p) < kSide / 10;
}

TEST(WallsAroundTest, FindsTheWallsInSightWithinTheRadiusAndNothingElse) {
  const std::shared_ptr<const NavMap> map = testing::ArenaMap(DoorArena(10, 2, 0.5f));
  ASSERT_NE(map, nullptr);
  const std::vector<WallSegment> all = testing::AllWalls(*map);
  NavQuery q(map);
  std::vector<WallSegment> walls;
  for (Vec3 p : {Vec3{0, 0, 0}, Vec3{-1, 0, 0.5f}, Vec3{3, 0, -4.5f}, Vec3{-9, 0, 4}}) {
    for (float radius : {0.5f, 1.5f, 4.0f}) {
      absl::StatusOr<std::optional<SurfacePoint>> at =
          q.NearestPoint(p, {0.1f, 1, 0.1f}, QueryFilter());
      ASSERT_TRUE(at.ok() && at->has_value());
      ASSERT_TRUE(q.WallsAround(**at, radius, QueryFilter(), &walls).ok());
      // Every wall in sight within the radius is found (walls hidden behind others may or may
      // not be reachable inside the disc), and every wall found is a wall within the radius.
      for (const WallSegment& w : all) {
        if (testing::SegmentDistance(w.a, w.b, p) > radius || !InSight(all, p, w)) continue;
        EXPECT_TRUE(std::any_of(walls.begin(), walls.end(),
                                [&](const WallSegment& f) { return SameEdge(f, w); }))
            << "missed a wall near (" << p.x << ", " << p.z << ") within " << radius;
      }
      for (const WallSegment& f : walls) {
        EXPECT_LE(testing::SegmentDistance(f.a, f.b, p), radius + 1e-4f);
        EXPECT_TRUE(std::any_of(all.begin(), all.end(),
                                [&](const WallSegment& w) { return SameEdge(f, w); }));
      }
      for (const WallSegment& w : walls) {
        // Oriented with the walkable side on the left, as the header says: just left of the
        // middle is surface, just right of it is not.
        const Vec3 mid = Lerp(w.a, w.b, 0.5f);
        const float len = DistanceXZ(w.a, w.b);
        const Vec3 left{-(w.b.z - w.a.z) / len * kSide, 0, (w.b.x - w.a.x) / len * kSide};
        EXPECT_GT(TriArea2XZ(w.a, w.b, mid + left), 0.0f);
        EXPECT_TRUE(OnSurface(q, mid + left));
        EXPECT_FALSE(OnSurface(q, mid - left));
      }
    }
  }
}

TEST(WallsAroundTest, TheBridgeDeckDoesNotSeeTheWalkwayBelow) {
  const testing::DemoTown& town = testing::Town();
  NavQuery q(town.map);
  const Vec3 deck = testing::ProbeAt(town, kProbeDeckOverWalkway);
  absl::StatusOr<std::optional<SurfacePoint>> at = q.NearestPoint(deck, {0.5f, 1, 0.5f}, {});
  ASSERT_TRUE(at.ok() && at->has_value());
  std::vector<WallSegment> walls;
  ASSERT_TRUE(q.WallsAround(**at, 6.0f, QueryFilter(), &walls).ok());
  ASSERT_FALSE(walls.empty());  // the deck's railings
  for (const WallSegment& w : walls) {
    EXPECT_NEAR(w.a.y, deck.y, 1.5f) << "a wall of another floor";
  }
}

TEST(WallsAroundTest, BadArgumentsAreErrors) {
  const std::shared_ptr<const NavMap> map = testing::ArenaMap(OpenSquareArena(10));
  NavQuery q(map);
  std::vector<WallSegment> walls;
  const SurfacePoint at{map->Ref({0, 0}), {0, 0, 0}};
  EXPECT_EQ(q.WallsAround(at, -1, QueryFilter(), &walls).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(q.WallsAround(SurfacePoint{PolyRef(), {}}, 1, QueryFilter(), &walls).code(),
            absl::StatusCode::kInvalidArgument);
  const SurfacePoint stale{PolyRef(0, 0, NextGeneration(kFirstGeneration)), {0, 0, 0}};
  EXPECT_EQ(q.WallsAround(stale, 1, QueryFilter(), &walls).code(),
            absl::StatusCode::kFailedPrecondition);
}

}  // namespace
}  // namespace waymesh
