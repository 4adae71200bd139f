// FindDistanceToWall and FindPolygonsInCircle over the wire give what the core queries give
// on the same map, and say when the point is off the mesh.

#include "gtest/gtest.h"
#include "support/demo_town.h"
#include "test_server.h"
#include "waymesh/core/nav_query.h"
#include "waymesh/server/proto_conversion.h"
#include "waymesh/server/request_validation.h"

namespace waymesh::testing {
namespace {

using SurroundingsTest = ServedMapsTest;

TEST_F(SurroundingsTest, DistanceToWallIsTheCoreQuerysAnswer) {
  for (const char* probe : {kProbeCourtyard, kProbeWestBank, kProbeDeckCentre}) {
    const Vec3 at = ProbeAt(Town(), probe);
    v1::FindDistanceToWallRequest request;
    request.set_map_id("town");
    SetVec(at, request.mutable_position());
    request.set_max_radius(25);
    v1::FindDistanceToWallResponse served;
    ASSERT_TRUE(Unary(*stub_, &NavigationStub::FindDistanceToWall, request, &served).ok()) << probe;

    NavQuery direct(Town().map);
    WallDistance expected;
    ASSERT_TRUE(direct
                    .FindDistanceToWall(at, 25, QueryFilter(Town().map->info()),
                                        server::kDefaultMoveExtents, &expected)
                    .ok());
    ASSERT_TRUE(served.start_on_mesh()) << probe;
    EXPECT_EQ(served.found(), expected.found) << probe;
    EXPECT_FLOAT_EQ(served.distance(), expected.distance) << probe;
    EXPECT_EQ(GetVec(served.hit_position()), expected.hit_point) << probe;
    EXPECT_EQ(GetVec(served.hit_normal()), expected.hit_normal) << probe;
    EXPECT_EQ(served.wall_poly(), expected.found ? expected.wall_poly.bits() : 0u) << probe;
    EXPECT_EQ(served.map_version(), 1u);
  }
}

TEST_F(SurroundingsTest, PolygonsInCircleAreTheCoreQuerysAnswer) {
  const Vec3 at = ProbeAt(Town(), kProbeWestBank);
  v1::FindPolygonsInCircleRequest request;
  request.set_map_id("town");
  SetVec(at, request.mutable_center());
  request.set_radius(12);
  v1::FindPolygonsInCircleResponse served;
  ASSERT_TRUE(Unary(*stub_, &NavigationStub::FindPolygonsInCircle, request, &served).ok());

  NavQuery direct(Town().map);
  PolygonsInCircle expected;
  ASSERT_TRUE(direct
                  .FindPolygonsInCircle(at, 12, QueryFilter(Town().map->info()),
                                        server::kDefaultCirclePolygons, server::kDefaultMoveExtents,
                                        &expected)
                  .ok());
  ASSERT_TRUE(served.center_on_mesh());
  EXPECT_EQ(served.truncated(), expected.truncated);
  ASSERT_EQ(served.polygons_size(), static_cast<int>(expected.polygons.size()));
  ASSERT_GT(served.polygons_size(), 1);
  for (int i = 0; i < served.polygons_size(); ++i) {
    const v1::PolygonInCircle& p = served.polygons(i);
    EXPECT_EQ(p.poly(), expected.polygons[i].poly.bits()) << i;
    EXPECT_EQ(p.parent(), i == 0 ? 0u : expected.polygons[i].parent.bits()) << i;
    EXPECT_FLOAT_EQ(p.cost(), expected.polygons[i].cost) << i;
    EXPECT_EQ(p.area(), expected.polygons[i].area) << i;
  }

  request.set_max_polygons(2);  // a small limit truncates
  v1::FindPolygonsInCircleResponse limited;
  ASSERT_TRUE(Unary(*stub_, &NavigationStub::FindPolygonsInCircle, request, &limited).ok());
  EXPECT_EQ(limited.polygons_size(), 2);
  EXPECT_TRUE(limited.truncated());
}

TEST_F(SurroundingsTest, APointOffTheMeshIsSaidSo) {
  v1::FindDistanceToWallRequest request;
  request.set_map_id("town");
  SetVec(ProbeAt(Town(), kProbeWestBank) + Vec3{0, 300, 0}, request.mutable_position());
  request.set_max_radius(5);
  v1::FindDistanceToWallResponse served;
  ASSERT_TRUE(Unary(*stub_, &NavigationStub::FindDistanceToWall, request, &served).ok());
  EXPECT_FALSE(served.start_on_mesh());
  EXPECT_FALSE(served.found());
}

}  // namespace
}  // namespace waymesh::testing
