// Obstacle validation and footprints (waymesh/core/obstacles/): errors name the obstacle and the
// field; block footprints contain the shape grown by the agent radius, area ones do not grow.

#include <cmath>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "waymesh/core/obstacles/footprint.h"
#include "waymesh/core/obstacles/obstacle.h"

namespace waymesh {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

Obstacle Prism(std::vector<std::array<float, 2>> pts) {
  return {"wall-9", PrismShape{std::move(pts), 0.0f, 3.0f}, ObstacleEffect::kBlock, 0};
}

TEST(ValidateObstacleTest, NamesIdAndField) {
  EXPECT_TRUE(ValidateObstacle(Prism({{0, 0}, {4, 0}, {4, 4}, {0, 4}})).ok());
  EXPECT_TRUE(ValidateObstacle(Prism({{0, 0}, {0, 4}, {4, 4}, {4, 0}})).ok());  // either winding

  const absl::Status concave = ValidateObstacle(Prism({{0, 0}, {4, 0}, {1, 1}, {0, 4}}));
  EXPECT_EQ(concave.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(concave.message(),
              AllOf(HasSubstr("wall-9"), HasSubstr("points"), HasSubstr("not convex")));
  // A pentagram turns the same way at every corner but winds twice.
  std::vector<std::array<float, 2>> star;
  for (int i = 0; i < 5; ++i) {
    const double a = 4 * M_PI * i / 5;
    star.push_back({float(std::cos(a)), float(std::sin(a))});
  }
  EXPECT_THAT(ValidateObstacle(Prism(star)).message(), HasSubstr("self-intersecting"));
  EXPECT_THAT(ValidateObstacle(Prism({{0, 0}, {1, 0}})).message(), HasSubstr("points"));
  std::vector<std::array<float, 2>> many;
  for (int i = 0; i <= kMaxPrismVertices; ++i) {
    const double a = 2 * M_PI * i / (kMaxPrismVertices + 1);
    many.push_back({float(10 * std::cos(a)), float(10 * std::sin(a))});
  }
  EXPECT_THAT(ValidateObstacle(Prism(many)).message(), HasSubstr("allowed"));

  Obstacle upside = Prism({{0, 0}, {4, 0}, {4, 4}});
  std::get<PrismShape>(upside.shape).y_min = 5;
  EXPECT_THAT(ValidateObstacle(upside).message(), HasSubstr("y_min"));

  Obstacle nan_centre{"gate-1", BoxShape{{NAN, 0, 0}, {1, 1, 1}, 30}, ObstacleEffect::kBlock, 0};
  EXPECT_THAT(ValidateObstacle(nan_centre).message(),
              AllOf(HasSubstr("gate-1"), HasSubstr("center")));
  Obstacle flat_box{"gate-2", BoxShape{{0, 0, 0}, {1, 1, 0}, 0}, ObstacleEffect::kBlock, 0};
  EXPECT_THAT(ValidateObstacle(flat_box).message(), HasSubstr("half_extents"));
  Obstacle no_radius{"fire-3", CylinderShape{{0, 0, 0}, 0, 2}, ObstacleEffect::kArea, 5};
  EXPECT_THAT(ValidateObstacle(no_radius).message(),
              AllOf(HasSubstr("fire-3"), HasSubstr("radius")));
  Obstacle bad_area{"fire-4", CylinderShape{{0, 0, 0}, 1, 2}, ObstacleEffect::kArea, 64};
  EXPECT_THAT(ValidateObstacle(bad_area).message(), HasSubstr("area"));
  Obstacle far{"far", CylinderShape{{2e6f, 0, 0}, 1, 2}, ObstacleEffect::kBlock, 0};
  EXPECT_FALSE(ValidateObstacle(far).ok());
}

TEST(ObstacleFootprintTest, BlockContainsShapeGrownByAgentRadius) {
  AgentSettings agent;
  agent.radius = 0.6f;
  agent.height = 2.0f;
  const Obstacle cyl{"c", CylinderShape{{10, 1, -5}, 1.5f, 2}, ObstacleEffect::kBlock, 0};
  const Footprint fc = ObstacleFootprint(cyl, agent);
  EXPECT_GT(SignedArea2(fc.outline), 0);
  EXPECT_EQ(fc.outline.size(), size_t(kCircleSegments));
  for (int i = 0; i < 360; ++i) {
    const double a = i * M_PI / 180, r = 1.5 + 0.6;
    EXPECT_GE(InsideDepth(fc, 10 + r * std::cos(a), -5 + r * std::sin(a)), -1e-9) << i;
  }
  EXPECT_DOUBLE_EQ(fc.y_max, 2.0);
  EXPECT_DOUBLE_EQ(fc.y_min, 0.0 - 2.0);  // grown down by the agent height

  const Obstacle box{"b", BoxShape{{0, 0, 0}, {2, 1, 0.5f}, 30}, ObstacleEffect::kBlock, 0};
  const Footprint fb = ObstacleFootprint(box, agent);
  EXPECT_GT(SignedArea2(fb.outline), 0);
  // Each box corner (yawed 30°: +X turns towards -Z) with the agent's disc around it.
  const double yaw = 30 * M_PI / 180;
  for (const auto& [lx, lz] : {std::pair{-2.0, -0.5}, {2.0, -0.5}, {2.0, 0.5}, {-2.0, 0.5}}) {
    const double cx = lx * std::cos(yaw) + lz * std::sin(yaw);
    const double cz = -lx * std::sin(yaw) + lz * std::cos(yaw);
    for (int i = 0; i < 72; ++i) {
      const double a = i * 5 * M_PI / 180;
      EXPECT_GE(InsideDepth(fb, cx + 0.6 * std::cos(a), cz + 0.6 * std::sin(a)), -1e-9);
    }
  }
  // Conservative, not absurd: the grown box is within one circle-polygon overshoot of exact.
  const double exact = 4 * 1 + 2 * (4 + 1) * 0.6 + M_PI * 0.36;
  EXPECT_GT(SignedArea2(fb.outline) / 2, exact);
  EXPECT_LT(SignedArea2(fb.outline) / 2, exact * 1.05);
}

TEST(ObstacleFootprintTest, AreaDoesNotGrow) {
  AgentSettings agent;
  agent.radius = 0.5f;
  const Obstacle prism{"p", PrismShape{{{0, 0}, {0, 4}, {4, 4}, {4, 0}}, 1, 2},
                       ObstacleEffect::kArea, 7};
  const Footprint f = ObstacleFootprint(prism, agent);
  EXPECT_EQ(f.effect, ObstacleEffect::kArea);
  EXPECT_EQ(f.area, 7);
  EXPECT_NEAR(SignedArea2(f.outline), 32.0, 1e-9);  // clockwise input, map winding out
  EXPECT_DOUBLE_EQ(f.y_min, 1.0);
  EXPECT_DOUBLE_EQ(f.y_max, 2.0);
}

}  // namespace
}  // namespace waymesh
