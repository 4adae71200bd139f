// Every request field check: bad values get INVALID_ARGUMENT naming the field, good requests
// (including every optional field left unset) pass.

#include "waymesh/server/request_validation.h"

#include <cmath>
#include <limits>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace waymesh::server {
namespace {

using ::testing::HasSubstr;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

void Set(v1::Vec3* v, float x, float y, float z) {
  v->set_x(x);
  v->set_y(y);
  v->set_z(z);
}

v1::FindPathRequest GoodPath() {
  v1::FindPathRequest r;
  r.set_map_id("town");
  Set(r.mutable_start(), 1, 0, 2);
  Set(r.mutable_end(), -30, 5, 40);
  return r;
}

// The status is INVALID_ARGUMENT and its message starts with `field`.
void ExpectInvalid(const absl::Status& s, const std::string& field) {
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_THAT(std::string(s.message()), ::testing::StartsWith(field + ":")) << s;
}

// Just past a limit, the message shows the value and the limit exactly, so it never reads
// "1e+06 must be in [-1e+06, 1e+06]".
TEST(RequestValidationTest, RangeMessagesShowExactValuesAndLimits) {
  v1::FindPathRequest far = GoodPath();
  far.mutable_start()->set_x(1000001);
  EXPECT_EQ(ValidateFindPath(far).message(),
            "start.x: 1000001 must be in [-1000000, 1000000] metres");
  v1::FindPathRequest wide = GoodPath();
  Set(wide.mutable_options()->mutable_extents(), 1, 1000.0001f, 1);
  EXPECT_EQ(ValidateFindPath(wide).message(),
            "options.extents.y: 1000.0001 must be in (0, 1000] metres");
  v1::FindPathRequest tiny = GoodPath();
  Set(tiny.mutable_options()->mutable_extents(), 1, 1, -1e-30f);
  EXPECT_EQ(ValidateFindPath(tiny).message(),
            "options.extents.z: -1e-30 must be in (0, 1000] metres");
}

TEST(RequestValidationTest, MinimalRequestsPass) {
  EXPECT_TRUE(ValidateFindPath(GoodPath()).ok());
  v1::ValidateMoveRequest move;
  move.set_map_id("town");
  Set(move.mutable_start(), 0, 0, 0);
  Set(move.mutable_end(), 1, 0, 1);
  EXPECT_TRUE(ValidateValidateMove(move).ok());
  v1::RandomPointRequest random;
  random.set_map_id("town");
  EXPECT_TRUE(ValidateRandomPoint(random).ok());
  v1::RaycastRequest ray;
  ray.set_map_id("town");
  Set(ray.mutable_start(), 0, 0, 0);
  Set(ray.mutable_end(), 10, 0, 0);
  EXPECT_TRUE(ValidateRaycast(ray).ok());
  v1::NearestPointRequest nearest;
  nearest.set_map_id("town");
  Set(nearest.mutable_position(), 0, 0, 0);
  EXPECT_TRUE(ValidateNearestPoint(nearest).ok());
  v1::GetMapInfoRequest info;
  info.set_map_id("a-B_9.v2");
  EXPECT_TRUE(ValidateGetMapInfo(info).ok());
}

TEST(RequestValidationTest, MapIdsAreNamesNeverPaths) {
  for (const char* bad :
       {"", "../etc/passwd", "a/b", "/abs", ".", "..", "a..b", "sp ace", "t\nx", "x\\y", "naïve"}) {
    const absl::Status s = ValidateMapId(bad);
    ExpectInvalid(s, "map_id");
  }
  ExpectInvalid(ValidateMapId(std::string(kMaxMapIdLength + 1, 'a')), "map_id");
  EXPECT_TRUE(ValidateMapId(std::string(kMaxMapIdLength, 'a')).ok());
  EXPECT_TRUE(ValidateMapId("zone-12.night_v3").ok());
  EXPECT_THAT(std::string(ValidateMapId("a/b").message()), HasSubstr("never paths"));
}

TEST(RequestValidationTest, PositionsMustBePresentFiniteAndSane) {
  v1::FindPathRequest r = GoodPath();
  r.mutable_start()->set_x(kNaN);
  ExpectInvalid(ValidateFindPath(r), "start.x");
  r = GoodPath();
  r.mutable_end()->set_z(-kInf);
  ExpectInvalid(ValidateFindPath(r), "end.z");
  r = GoodPath();
  r.mutable_start()->set_y(2e6f);
  ExpectInvalid(ValidateFindPath(r), "start.y");
  r = GoodPath();
  r.clear_end();
  const absl::Status missing = ValidateFindPath(r);
  ExpectInvalid(missing, "end");
  EXPECT_THAT(std::string(missing.message()), HasSubstr("required"));
}

TEST(RequestValidationTest, ExtentsAreOptionalButBounded) {
  v1::FindPathRequest r = GoodPath();
  Set(r.mutable_options()->mutable_extents(), 2, 4, 2);
  EXPECT_TRUE(ValidateFindPath(r).ok());
  for (float bad : {0.0f, -1.0f, kMaxExtent * 2, kNaN}) {
    Set(r.mutable_options()->mutable_extents(), 2, bad, 2);
    ExpectInvalid(ValidateFindPath(r), "options.extents.y");
  }
  v1::RaycastRequest ray;
  ray.set_map_id("m");
  Set(ray.mutable_start(), 0, 0, 0);
  Set(ray.mutable_end(), 1, 0, 0);
  Set(ray.mutable_extents(), kInf, 1, 1);
  ExpectInvalid(ValidateRaycast(ray), "extents.x");
}

TEST(RequestValidationTest, FilterFields) {
  v1::FindPathRequest r = GoodPath();
  (*r.mutable_filter()->mutable_area_costs())[3] = 0.5f;
  r.mutable_filter()->set_area_mask(~uint64_t{0});
  r.mutable_filter()->set_include_flags(0xFFFF);
  EXPECT_TRUE(ValidateFindPath(r).ok());
  (*r.mutable_filter()->mutable_area_costs())[70] = 1.0f;
  ExpectInvalid(ValidateFindPath(r), "filter.area_costs[70]");
  r = GoodPath();
  for (float bad : {0.0f, -2.0f, kNaN, kInf, 2 * kMaxAreaCost}) {
    (*r.mutable_filter()->mutable_area_costs())[4] = bad;
    ExpectInvalid(ValidateFindPath(r), "filter.area_costs[4]");
  }
  r = GoodPath();
  r.mutable_filter()->set_include_flags(0x10000);
  ExpectInvalid(ValidateFindPath(r), "filter.include_flags");
  r = GoodPath();
  r.mutable_filter()->set_exclude_flags(0xFFFFFFFF);
  ExpectInvalid(ValidateFindPath(r), "filter.exclude_flags");
}

TEST(RequestValidationTest, PathOptionLimits) {
  v1::FindPathRequest r = GoodPath();
  r.mutable_options()->set_max_waypoints(kMaxWaypoints);
  r.mutable_options()->set_agent_radius(0.5f);
  r.mutable_options()->set_max_nodes(~uint32_t{0});  // capped by the server, not an error
  EXPECT_TRUE(ValidateFindPath(r).ok());
  r.mutable_options()->set_max_waypoints(kMaxWaypoints + 1);
  ExpectInvalid(ValidateFindPath(r), "options.max_waypoints");
  r = GoodPath();
  for (float bad : {-0.1f, kNaN, kMaxAgentRadius + 1}) {
    r.mutable_options()->set_agent_radius(bad);
    ExpectInvalid(ValidateFindPath(r), "options.agent_radius");
  }
  // Exact mode keeps no clearance; a mode outside the enum is refused.
  r = GoodPath();
  r.mutable_options()->set_mode(v1::PATH_MODE_EXACT);
  EXPECT_TRUE(ValidateFindPath(r).ok());
  r.mutable_options()->set_agent_radius(0.5f);
  ExpectInvalid(ValidateFindPath(r), "options.agent_radius");
  r = GoodPath();
  r.mutable_options()->set_mode(static_cast<v1::PathMode>(7));
  ExpectInvalid(ValidateFindPath(r), "options.mode");
}

TEST(RequestValidationTest, BatchesHoldAtMostTheLimit) {
  EXPECT_TRUE(ValidateBatchSize(kMaxBatchRequests).ok());
  ExpectInvalid(ValidateBatchSize(kMaxBatchRequests + 1), "requests");
}

TEST(RequestValidationTest, AgentTypesFollowTheMapIdRules) {
  v1::FindPathRequest r = GoodPath();
  r.set_agent_type("ogre");
  EXPECT_TRUE(ValidateFindPath(r).ok());
  r.set_agent_type("../ogre");
  ExpectInvalid(ValidateFindPath(r), "agent_type");
  r.set_agent_type("og@re");
  ExpectInvalid(ValidateFindPath(r), "agent_type");
}

TEST(RequestValidationTest, MoveLimits) {
  v1::ValidateMoveRequest r;
  r.set_map_id("town");
  Set(r.mutable_start(), 0, 0, 0);
  Set(r.mutable_end(), 1, 0, 1);
  r.set_max_distance(kInf);
  ExpectInvalid(ValidateValidateMove(r), "max_distance");
  r.set_max_distance(-1);
  ExpectInvalid(ValidateValidateMove(r), "max_distance");
  r.set_max_distance(5);
  r.set_tolerance(kNaN);
  ExpectInvalid(ValidateValidateMove(r), "tolerance");
  r.set_tolerance(0.1f);
  EXPECT_TRUE(ValidateValidateMove(r).ok());
  r.clear_start();
  ExpectInvalid(ValidateValidateMove(r), "start");
}

TEST(RequestValidationTest, RandomPointRadiusNeedsToBePositiveWithACenter) {
  v1::RandomPointRequest r;
  r.set_map_id("town");
  Set(r.mutable_center(), 0, 0, 0);
  ExpectInvalid(ValidateRandomPoint(r), "radius");
  r.set_radius(kNaN);
  ExpectInvalid(ValidateRandomPoint(r), "radius");
  r.set_radius(25);
  EXPECT_TRUE(ValidateRandomPoint(r).ok());
  r.mutable_center()->set_z(kInf);
  ExpectInvalid(ValidateRandomPoint(r), "center.z");
}

}  // namespace
}  // namespace waymesh::server
