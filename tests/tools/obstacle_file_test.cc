// Obstacle files (docs/obstacles.md): every shape and effect read, the writer read back to the
// same obstacles, and bad files refused with a message naming the obstacle and the field.

#include "waymesh/obstacle_file/obstacle_file.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace waymesh {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

constexpr char kAllShapes[] = R"({"obstacles": [
  {"id": "gate-1", "shape": "box", "center": [1, 2, 3], "half_extents": [2, 1.5, 0.25],
   "yaw_deg": 30, "effect": "block"},
  {"id": "fire-3", "shape": "cylinder", "center": [4, 0, 5], "radius": 3, "height": 2,
   "effect": "area", "area": 5},
  {"id": "wall-9", "shape": "prism", "points": [[0, 0], [4, 0], [4, 1], [0, 1]],
   "y_min": -1, "y_max": 3, "effect": "block"}
]})";

TEST(ObstacleFileTest, ReadsEveryShapeAndEffect) {
  absl::StatusOr<std::vector<Obstacle>> obstacles = ParseObstacleFile(kAllShapes, "o.json");
  ASSERT_TRUE(obstacles.ok()) << obstacles.status();
  ASSERT_EQ(obstacles->size(), 3u);

  const Obstacle& gate = (*obstacles)[0];
  EXPECT_EQ(gate.id, "gate-1");
  EXPECT_EQ(gate.effect, ObstacleEffect::kBlock);
  const BoxShape& box = std::get<BoxShape>(gate.shape);
  EXPECT_EQ(box.center, Vec3(1, 2, 3));
  EXPECT_EQ(box.half_extents, Vec3(2, 1.5f, 0.25f));
  EXPECT_FLOAT_EQ(box.yaw_deg, 30);

  const Obstacle& fire = (*obstacles)[1];
  EXPECT_EQ(fire.effect, ObstacleEffect::kArea);
  EXPECT_EQ(fire.area, 5);
  const CylinderShape& cylinder = std::get<CylinderShape>(fire.shape);
  EXPECT_EQ(cylinder.center, Vec3(4, 0, 5));
  EXPECT_FLOAT_EQ(cylinder.radius, 3);
  EXPECT_FLOAT_EQ(cylinder.height, 2);

  const PrismShape& prism = std::get<PrismShape>((*obstacles)[2].shape);
  ASSERT_EQ(prism.points.size(), 4u);
  EXPECT_FLOAT_EQ(prism.points[2][0], 4);
  EXPECT_FLOAT_EQ(prism.points[2][1], 1);
  EXPECT_FLOAT_EQ(prism.y_min, -1);
  EXPECT_FLOAT_EQ(prism.y_max, 3);
}

TEST(ObstacleFileTest, AMissingYawIsNoTurnAndAnEmptyListIsNoObstacle) {
  absl::StatusOr<std::vector<Obstacle>> one = ParseObstacleFile(
      R"({"obstacles": [{"id": "b", "shape": "box", "center": [0, 0, 0],
          "half_extents": [1, 1, 1], "effect": "block"}]})",
      "o.json");
  ASSERT_TRUE(one.ok()) << one.status();
  EXPECT_EQ(std::get<BoxShape>((*one)[0].shape).yaw_deg, 0);
  absl::StatusOr<std::vector<Obstacle>> none = ParseObstacleFile(R"({"obstacles": []})", "o.json");
  ASSERT_TRUE(none.ok()) << none.status();
  EXPECT_TRUE(none->empty());
}

TEST(ObstacleFileTest, TheWriterReadsBackToTheSameObstacles) {
  absl::StatusOr<std::vector<Obstacle>> first = ParseObstacleFile(kAllShapes, "o.json");
  ASSERT_TRUE(first.ok()) << first.status();
  const std::string written = ObstacleFileJson(*first);
  absl::StatusOr<std::vector<Obstacle>> again = ParseObstacleFile(written, "written.json");
  ASSERT_TRUE(again.ok()) << again.status() << "\n" << written;
  EXPECT_EQ(ObstacleFileJson(*again), written);
  ASSERT_EQ(again->size(), first->size());
  for (size_t i = 0; i < first->size(); ++i) {
    EXPECT_EQ((*again)[i].id, (*first)[i].id);
    EXPECT_EQ((*again)[i].shape.index(), (*first)[i].shape.index());
    EXPECT_EQ((*again)[i].effect, (*first)[i].effect);
    EXPECT_EQ((*again)[i].area, (*first)[i].area);
  }
}

struct BadFile {
  const char* name;
  const char* obstacle;  // one element of "obstacles"
  std::vector<const char*> said;
};

// Each bad obstacle is the only element of the list, so messages say obstacles[0].
const BadFile kBadFiles[] = {
    {"UnknownShape",
     R"({"id": "x", "shape": "sphere", "center": [0, 0, 0], "effect": "block"})",
     {"o.json: obstacles[0] (id \"x\").shape", "\"sphere\"", "cylinder"}},
    {"MissingRadius",
     R"({"id": "fire", "shape": "cylinder", "center": [0, 0, 0], "height": 1, "effect": "block"})",
     {"obstacles[0] (id \"fire\").radius", "missing"}},
    {"MissingId",
     R"({"shape": "cylinder", "center": [0, 0, 0], "radius": 1, "height": 1,
                    "effect": "block"})",
     {"obstacles[0].id", "missing"}},
    {"NonConvexPrism",
     R"({"id": "wall-9", "shape": "prism", "points": [[0, 0], [4, 0], [1, 1], [4, 4], [0, 4]],
        "y_min": 0, "y_max": 3, "effect": "block"})",
     {"obstacles[0]", "wall-9", "points", "not convex"}},
    {"NaNIsNoNumber",
     R"({"id": "n", "shape": "box", "center": [0, NaN, 0], "half_extents": [1, 1, 1],
        "effect": "block"})",
     {"o.json"}},
    {"NegativeRadius",
     R"({"id": "r", "shape": "cylinder", "center": [0, 0, 0], "radius": -1, "height": 1,
        "effect": "block"})",
     {"obstacles[0] (id \"r\").radius"}},
    {"ZeroHalfExtent",
     R"({"id": "flat", "shape": "box", "center": [0, 0, 0], "half_extents": [0, 1, 1],
        "effect": "block"})",
     {"obstacles[0]", "flat", "half_extents"}},
    {"UpsideDownPrism",
     R"({"id": "p", "shape": "prism", "points": [[0, 0], [1, 0], [0, 1]], "y_min": 3,
        "y_max": 0, "effect": "block"})",
     {"obstacles[0]", "\"p\"", "y_min"}},
    {"AreaWithoutItsId",
     R"({"id": "a", "shape": "cylinder", "center": [0, 0, 0], "radius": 1, "height": 1,
        "effect": "area"})",
     {"obstacles[0] (id \"a\").area", "missing"}},
    {"AreaOutOfRange",
     R"({"id": "a", "shape": "cylinder", "center": [0, 0, 0], "radius": 1, "height": 1,
        "effect": "area", "area": 64})",
     {"obstacles[0] (id \"a\").area"}},
    {"AreaOnABlock",
     R"({"id": "a", "shape": "cylinder", "center": [0, 0, 0], "radius": 1, "height": 1,
        "effect": "block", "area": 3})",
     {"obstacles[0] (id \"a\").area", "only for"}},
    {"UnknownEffect",
     R"({"id": "e", "shape": "cylinder", "center": [0, 0, 0], "radius": 1, "height": 1,
        "effect": "slow"})",
     {"obstacles[0] (id \"e\").effect", "\"slow\""}},
    {"AMisspeltKey",
     R"({"id": "k", "shape": "cylinder", "center": [0, 0, 0], "radius": 1, "height": 1,
        "effect": "block", "raduis": 2})",
     {"obstacles[0] (id \"k\")", "raduis"}},
    {"AKeyOfAnotherShape",
     R"({"id": "k", "shape": "box", "center": [0, 0, 0], "half_extents": [1, 1, 1],
        "radius": 2, "effect": "block"})",
     {"obstacles[0] (id \"k\")", "radius"}},
    {"APrismPointWithThreeCoordinates",
     R"({"id": "p", "shape": "prism", "points": [[0, 0, 0], [1, 0], [0, 1]], "y_min": 0,
        "y_max": 1, "effect": "block"})",
     {"obstacles[0] (id \"p\").points[0]"}},
    {"ACoordinateBeyondTheLimit",
     R"({"id": "far", "shape": "cylinder", "center": [1e9, 0, 0], "radius": 1, "height": 1,
        "effect": "block"})",
     {"obstacles[0] (id \"far\").center"}},
};

class BadObstacleFileTest : public ::testing::TestWithParam<BadFile> {};

TEST_P(BadObstacleFileTest, IsRefusedNamingTheObstacleAndTheField) {
  const std::string json = std::string(R"({"obstacles": [)") + GetParam().obstacle + "]}";
  absl::StatusOr<std::vector<Obstacle>> parsed = ParseObstacleFile(json, "o.json");
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.status().code(), absl::StatusCode::kInvalidArgument);
  for (const char* part : GetParam().said) {
    EXPECT_THAT(parsed.status().message(), HasSubstr(part));
  }
}

INSTANTIATE_TEST_SUITE_P(Files, BadObstacleFileTest, ::testing::ValuesIn(kBadFiles),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(ObstacleFileTest, RepeatedIdsAndWrongDocumentsAreRefused) {
  const char* cylinder = R"({"id": "twice", "shape": "cylinder", "center": [0, 0, 0],
                            "radius": 1, "height": 1, "effect": "block"})";
  const std::string twice = std::string(R"({"obstacles": [)") + cylinder + "," + cylinder + "]}";
  EXPECT_THAT(ParseObstacleFile(twice, "o.json").status().message(),
              AllOf(HasSubstr("obstacles[1]"), HasSubstr("twice"), HasSubstr("unique")));
  EXPECT_THAT(ParseObstacleFile("[]", "o.json").status().message(), HasSubstr("o.json"));
  EXPECT_THAT(ParseObstacleFile(R"({"obstacle": []})", "o.json").status().message(),
              HasSubstr("obstacle"));
  EXPECT_THAT(ParseObstacleFile(R"({"obstacles": {}})", "o.json").status().message(),
              HasSubstr("obstacles must be an array"));
  EXPECT_THAT(ParseObstacleFile(R"({"obstacles": [)", "o.json").status().message(),
              HasSubstr("o.json:1:"));
  EXPECT_FALSE(ReadObstacleFile("/nonexistent/obstacles.json").ok());
}

}  // namespace
}  // namespace waymesh
