// The sight flood (core/src/exact/sight_flood.h) on the 256 m demo town, whose open ground of
// small polygons seen from afar is what it was built for: every corner it lists is in straight
// sight on the surface (an independent check by Raycast) at the distance it gives, and it
// looks through each polygon it enters a few times at most, not once per vertex ray that cut
// the seed's cone on the way (about 30 times a polygon before the pieces were joined).

#include "exact/sight_flood.h"

#include <cmath>
#include <random>
#include <vector>

#include "corner_test_support.h"
#include "exact/turn_corner_index.h"
#include "gtest/gtest.h"
#include "support/demo_town.h"
#include "support/query_points.h"
#include "support/sanitizer.h"
#include "waymesh/core/exact_path.h"
#include "waymesh/core/nav_query.h"

namespace waymesh {
namespace {

using internal::exact::SeenCorner;
using internal::exact::TurnCornerIndex;
using internal::exact::VisibleCorners;

// A ray to a corner may stop on the corner's own walls, a float step short of it.
constexpr double kGrazeTolerance = 1e-3;
// Pieces looked through per polygon entered, at most, on average over the points.
constexpr double kMaxPiecesPerPolygon = 4;

class SightFloodTest : public ::testing::Test {
 protected:
  void SetUp() override {
    map_ = testing::Town(256, 7).map;
    ASSERT_NE(map_, nullptr);
    ctx_ = testing::ContextFor(map_);
    filter_ = ExactReadyFilter(*map_);
    index_ = TurnCornerIndex::Build(*ctx_, filter_);
    ASSERT_GT(index_.size(), 100u);
  }

  std::shared_ptr<const NavMap> map_;
  std::unique_ptr<internal::QueryContext> ctx_;
  QueryFilter filter_;
  TurnCornerIndex index_;
};

TEST_F(SightFloodTest, EveryCornerListedIsInStraightSight) {
  NavQuery q(map_);
  std::mt19937 rng(31);
  std::vector<SeenCorner> seen;
  size_t checked = 0;
  for (int i = 0; i < (testing::kUnderSanitizer ? 4 : 20); ++i) {
    const auto s = testing::RandomOnMap(q, filter_, rng);
    ASSERT_TRUE(s.has_value());
    VisibleCorners(*ctx_, *s, filter_, index_, nullptr, &seen);
    for (size_t k = 1; k < seen.size(); ++k) EXPECT_LT(seen[k - 1].corner, seen[k].corner);
    for (const SeenCorner& c : seen) {
      const Vec3 at = index_.position(c.corner);
      const double straight = std::hypot(double(at.x) - s->pos.x, double(at.z) - s->pos.z);
      EXPECT_NEAR(c.distance, straight, 1e-9);
      RaycastResult ray;
      ASSERT_TRUE(q.Raycast(*s, at, filter_, &ray).ok());
      EXPECT_GE(double(ray.t) * straight, straight - kGrazeTolerance)
          << "point " << i << " (" << s->pos.x << ", " << s->pos.z << ") corner " << c.corner
          << " (" << at.x << ", " << at.z << ")";
      ++checked;
    }
  }
  EXPECT_GT(checked, testing::kUnderSanitizer ? 20u : 50u);
}

TEST_F(SightFloodTest, LooksThroughEachPolygonAFewTimes) {
  NavQuery q(map_);
  std::mt19937 rng(32);
  std::vector<SeenCorner> seen;
  double pieces = 0, polygons = 0;
  for (int i = 0; i < (testing::kUnderSanitizer ? 3 : 10); ++i) {
    const auto s = testing::RandomOnMap(q, filter_, rng);
    ASSERT_TRUE(s.has_value());
    VisibleCorners(*ctx_, *s, filter_, index_, nullptr, &seen);
    pieces += ctx_->exact.sight.pieces_expanded;
    polygons += ctx_->exact.sight.entered;
  }
  ASSERT_GT(polygons, 1000);  // the town's ground is seen from afar
  EXPECT_LT(pieces / polygons, kMaxPiecesPerPolygon);
}

}  // namespace
}  // namespace waymesh
