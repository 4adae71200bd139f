// Every RPC's happy path over real TCP on loopback with the generated stubs, against the demo
// town: answers agree with the same query run directly on the map, health says SERVING and
// reflection lists the service.

#include <cmath>
#include <memory>
#include <random>

#include "gmock/gmock.h"
#include "grpc/health/v1/health.grpc.pb.h"
#include "grpcpp/generic/generic_stub.h"
#include "gtest/gtest.h"
#include "support/demo_town.h"
#include "support/query_points.h"
#include "test_server.h"
#include "waymesh/core/nav_query.h"
#include "waymesh/server/proto_conversion.h"

namespace waymesh::testing {
namespace {

class NavigationServiceTest : public ServedMapsTest {
 protected:
  static const DemoTown& town() { return Town(); }
};

TEST_F(NavigationServiceTest, FindPathMatchesTheDirectQuery) {
  const Vec3 west = ProbeAt(town(), kProbeWestBank);
  const Vec3 east = ProbeAt(town(), kProbeEastBank);
  v1::FindPathResponse response;
  const grpc::Status status =
      Unary(*stub_, &NavigationStub::FindPath, TownPathRequest(west, east), &response);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(response.status(), v1::PATH_STATUS_COMPLETE);
  ASSERT_GE(response.waypoints_size(), 2);
  EXPECT_TRUE(response.waypoints(0).flags() & v1::WAYPOINT_FLAG_START);
  EXPECT_TRUE(response.waypoints(response.waypoints_size() - 1).flags() & v1::WAYPOINT_FLAG_END);
  EXPECT_GE(response.length(), Distance(west, east) - 0.01f);
  EXPECT_GT(response.nodes_expanded(), 0u);

  NavQuery direct(town().map);
  PathResult expected;
  ASSERT_TRUE(
      direct.FindPath(west, east, QueryFilter(town().map->info()), PathOptions(), &expected).ok());
  EXPECT_EQ(response.waypoints_size(), static_cast<int>(expected.waypoints.size()));
  EXPECT_FLOAT_EQ(response.length(), static_cast<float>(expected.length));
  for (int i = 0; i < response.waypoints_size() && i < int(expected.waypoints.size()); ++i) {
    EXPECT_EQ(GetVec(response.waypoints(i).position()), expected.waypoints[i].pos) << i;
    EXPECT_EQ(response.waypoints(i).poly(), expected.waypoints[i].poly.bits()) << i;
  }
}

TEST_F(NavigationServiceTest, NoPathAndOffMeshAreStatusesOfOkResponses) {
  const Vec3 west = ProbeAt(town(), kProbeWestBank);
  struct Case {
    Vec3 start, end;
    v1::PathStatus want;
  };
  const Case cases[] = {
      {west, ProbeAt(town(), kProbeIslet),
       v1::PATH_STATUS_NO_PATH},  // the river islet is an island
      {west + Vec3{0, 200, 0}, west, v1::PATH_STATUS_START_OFF_MESH},
      {west, west + Vec3{0, -200, 0}, v1::PATH_STATUS_END_OFF_MESH},
  };
  for (const Case& c : cases) {
    v1::FindPathResponse response;
    const grpc::Status status =
        Unary(*stub_, &NavigationStub::FindPath, TownPathRequest(c.start, c.end), &response);
    ASSERT_TRUE(status.ok()) << status.error_message();
    EXPECT_EQ(response.status(), c.want);
    EXPECT_EQ(response.waypoints_size(), 0);
  }
}

TEST_F(NavigationServiceTest, NodeLimitGivesPartialPaths) {
  v1::FindPathRequest limited = BankToBankRequest();
  limited.mutable_options()->set_max_nodes(4);
  v1::FindPathResponse cut;
  ASSERT_TRUE(Unary(*stub_, &NavigationStub::FindPath, limited, &cut).ok());
  // PARTIAL whatever allow_partial says: the search was cut, the goal is not unreachable.
  EXPECT_EQ(cut.status(), v1::PATH_STATUS_PARTIAL);
  EXPECT_GE(cut.waypoints_size(), 2);
  EXPECT_LE(cut.nodes_expanded(), 4u * 4u);
}

// allow_partial to a goal on another island (the river islet) gives PARTIAL to the reachable
// point closest to it, as Unity and Detour do; without it the answer is NO_PATH.
TEST_F(NavigationServiceTest, AllowPartialReachesTowardsAnotherIsland) {
  const Vec3 west = ProbeAt(town(), kProbeWestBank);
  const Vec3 islet = ProbeAt(town(), kProbeIslet);
  v1::FindPathRequest request = TownPathRequest(west, islet);
  request.mutable_options()->set_allow_partial(true);
  v1::FindPathResponse partial;
  ASSERT_TRUE(Unary(*stub_, &NavigationStub::FindPath, request, &partial).ok());
  EXPECT_EQ(partial.status(), v1::PATH_STATUS_PARTIAL);
  ASSERT_GE(partial.waypoints_size(), 2);
  const Vec3 reached = GetVec(partial.waypoints(partial.waypoints_size() - 1).position());
  // The path ends on the start's island, nearer the islet than where it began.
  EXPECT_LT(DistanceXZ(reached, islet), DistanceXZ(west, islet));

  NavQuery direct(town().map);
  PathOptions options;
  options.allow_partial = true;
  PathResult expected;
  ASSERT_TRUE(
      direct.FindPath(west, islet, QueryFilter(town().map->info()), options, &expected).ok());
  EXPECT_EQ(reached, expected.waypoints.back().pos);
}

TEST_F(NavigationServiceTest, FindPathBatchAnswersInOrder) {
  const Vec3 west = ProbeAt(town(), kProbeWestBank);
  const Vec3 east = ProbeAt(town(), kProbeEastBank);
  const Vec3 ramp = ProbeAt(town(), kProbePlatformRamp);
  v1::FindPathBatchRequest batch;
  *batch.add_requests() = TownPathRequest(west, east);
  *batch.add_requests() = TownPathRequest(west, west + Vec3{0, 300, 0});
  *batch.add_requests() = TownPathRequest(ramp, east);
  v1::FindPathBatchResponse response;
  const grpc::Status status = Unary(*stub_, &NavigationStub::FindPathBatch, batch, &response);
  ASSERT_TRUE(status.ok()) << status.error_message();
  ASSERT_EQ(response.results_size(), 3);
  EXPECT_EQ(response.results(0).response().status(), v1::PATH_STATUS_COMPLETE);
  EXPECT_EQ(response.results(1).response().status(), v1::PATH_STATUS_END_OFF_MESH);
  EXPECT_EQ(response.results(2).response().status(), v1::PATH_STATUS_COMPLETE);
  // Same answer as the single call.
  v1::FindPathResponse single;
  ASSERT_TRUE(Unary(*stub_, &NavigationStub::FindPath, TownPathRequest(ramp, east), &single).ok());
  EXPECT_EQ(single.SerializeAsString(), response.results(2).response().SerializeAsString());
}

TEST_F(NavigationServiceTest, ValidateMoveAlongTheSurface) {
  const Vec3 west = ProbeAt(town(), kProbeWestBank);
  v1::ValidateMoveRequest request;
  request.set_map_id("town");
  SetVec(west, request.mutable_start());
  SetVec(west + Vec3{0, 0, 0.8f}, request.mutable_end());
  v1::ValidateMoveResponse response;
  const grpc::Status status = Unary(*stub_, &NavigationStub::ValidateMove, request, &response);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(response.verdict(), v1::ValidateMoveResponse::VERDICT_VALID);
  EXPECT_EQ(response.reason(), v1::ValidateMoveResponse::REASON_UNSPECIFIED);
  EXPECT_NEAR(response.distance(), 0.8f, 0.06f);
}

TEST_F(NavigationServiceTest, RandomPointIsOnTheMeshAndSeedsRepeat) {
  auto call = [&](std::optional<uint64_t> seed, std::optional<Vec3> center) {
    v1::RandomPointRequest request;
    request.set_map_id("town");
    if (seed) request.set_seed(*seed);
    if (center) {
      SetVec(*center, request.mutable_center());
      request.set_radius(10);
    }
    v1::RandomPointResponse response;
    EXPECT_TRUE(Unary(*stub_, &NavigationStub::RandomPoint, request, &response).ok());
    return response;
  };
  const v1::RandomPointResponse a = call(42, std::nullopt);
  const v1::RandomPointResponse b = call(42, std::nullopt);
  ASSERT_TRUE(a.found());
  EXPECT_EQ(a.SerializeAsString(), b.SerializeAsString());
  NavQuery direct(town().map);
  const auto on_mesh =
      testing::Nearest(direct, GetVec(a.position()), {0.01f, 0.01f, 0.01f}, QueryFilter());
  ASSERT_TRUE(on_mesh.has_value());
  EXPECT_LT(Distance(on_mesh->pos, GetVec(a.position())), 0.01f);

  const Vec3 west = ProbeAt(town(), kProbeWestBank);
  const v1::RandomPointResponse near = call(7, west);
  ASSERT_TRUE(near.found());
  EXPECT_LE(DistanceXZ(GetVec(near.position()), west), 10.01f);
  EXPECT_FALSE(call(7, west + Vec3{0, 500, 0}).found());  // center off the mesh
}

TEST_F(NavigationServiceTest, RaycastAndNearestPoint) {
  const Vec3 west = ProbeAt(town(), kProbeWestBank);
  v1::RaycastRequest ray;
  ray.set_map_id("town");
  SetVec(west, ray.mutable_start());
  SetVec(west + Vec3{0, 0, 0.5f}, ray.mutable_end());
  v1::RaycastResponse hit_or_not;
  ASSERT_TRUE(Unary(*stub_, &NavigationStub::Raycast, ray, &hit_or_not).ok());
  NavQuery direct(town().map);
  RaycastResult expected;
  ASSERT_TRUE(direct
                  .Raycast(west, west + Vec3{0, 0, 0.5f}, QueryFilter(town().map->info()),
                           server::kDefaultMoveExtents, &expected)
                  .ok());
  EXPECT_TRUE(hit_or_not.start_on_mesh());
  EXPECT_EQ(hit_or_not.hit(), expected.hit);
  EXPECT_FLOAT_EQ(hit_or_not.t(), expected.t);

  v1::NearestPointRequest nearest;
  nearest.set_map_id("town");
  SetVec(west + Vec3{0, 1.5f, 0}, nearest.mutable_position());
  v1::NearestPointResponse found;
  ASSERT_TRUE(Unary(*stub_, &NavigationStub::NearestPoint, nearest, &found).ok());
  ASSERT_TRUE(found.found());
  EXPECT_NEAR(found.position().y(), west.y, 0.1f);
  EXPECT_NEAR(found.distance(), 1.5f, 0.1f);
  EXPECT_NE(found.poly(), 0u);
}

TEST_F(NavigationServiceTest, MapInfoAndListMaps) {
  v1::GetMapInfoRequest request;
  request.set_map_id("town");
  v1::GetMapInfoResponse answer;
  ASSERT_TRUE(Unary(*stub_, &NavigationStub::GetMapInfo, request, &answer).ok());
  const v1::MapInfo& info = answer.map();
  const MapInfo& truth = town().map->info();
  EXPECT_EQ(info.map_id(), "town");
  EXPECT_EQ(info.polygons(), truth.polygon_count);
  EXPECT_EQ(info.vertices(), truth.vertex_count);
  EXPECT_EQ(info.tiles(), town().map->tile_count());
  EXPECT_EQ(info.islands(), truth.islands.size());
  EXPECT_EQ(info.file_bytes(), town().bytes.size());
  EXPECT_GT(info.load_time().seconds(), 1700000000);
  EXPECT_EQ(info.map_version(), 1u);
  EXPECT_THAT(info.agent_types(), ::testing::ElementsAre(""));
  EXPECT_GT(info.areas_size(), 0);

  v1::ListMapsResponse list;
  ASSERT_TRUE(Unary(*stub_, &NavigationStub::ListMaps, v1::ListMapsRequest(), &list).ok());
  ASSERT_EQ(list.maps_size(), 1);
  EXPECT_EQ(list.maps(0).map_id(), "town");
}

TEST_F(NavigationServiceTest, HealthIsServingPerService) {
  auto health = grpc::health::v1::Health::NewStub(channel_);
  for (const char* service : {"", "waymesh.v1.NavigationService"}) {
    grpc::health::v1::HealthCheckRequest request;
    request.set_service(service);
    grpc::health::v1::HealthCheckResponse response;
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    ASSERT_TRUE(health->Check(&ctx, request, &response).ok()) << service;
    EXPECT_EQ(response.status(), grpc::health::v1::HealthCheckResponse::SERVING) << service;
  }
  grpc::health::v1::HealthCheckRequest unknown;
  unknown.set_service("no.such.Service");
  grpc::health::v1::HealthCheckResponse response;
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  EXPECT_EQ(health->Check(&ctx, unknown, &response).error_code(), grpc::StatusCode::NOT_FOUND);
}

// Reflection (v1alpha) with a generic stub: list_services must name the API.
TEST_F(NavigationServiceTest, ReflectionListsTheService) {
  absl::StatusOr<std::string> services = ReflectionListServices(channel_);
  ASSERT_TRUE(services.ok()) << services.status();
  EXPECT_THAT(*services, ::testing::HasSubstr("waymesh.v1.NavigationService"));
}

}  // namespace
}  // namespace waymesh::testing
