// ObstacleService over the wire: layers the caller versions, queries naming a layer version,
// the resync reasons a replica answers when it lacks a version, limits and bad requests.

#include <cmath>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <thread>

#include "error_details.h"
#include "gtest/gtest.h"
#include "support/demo_town.h"
#include "test_server.h"
#include "waymesh/core/exact_path.h"
#include "waymesh/core/nav_query.h"
#include "waymesh/v1/obstacles.grpc.pb.h"

namespace waymesh::testing {
namespace {

using ObstacleStub = v1::ObstacleService::Stub;

// Half the thickness of the test wall (metres) before the agent radius grows it.
constexpr float kWallHalfThickness = 0.5f;

template <typename Request, typename Response>
grpc::Status ObstacleCall(ObstacleStub& stub,
                          grpc::Status (ObstacleStub::*method)(grpc::ClientContext*, const Request&,
                                                               Response*),
                          const Request& request, Response* response) {
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  return (stub.*method)(&ctx, request, response);
}

// The held_version metadata of a resync error.
std::string HeldVersion(const grpc::Status& status) {
  std::optional<google::rpc::ErrorInfo> info = DetailOf<google::rpc::ErrorInfo>(DetailsOf(status));
  if (!info || !info->metadata().contains("held_version")) return "(none)";
  return info->metadata().at("held_version");
}

class ObstacleServiceTest : public ServedMapsTest {
 protected:
  void SetUp() override {
    ServedMapsTest::SetUp();
    obstacles_ = v1::ObstacleService::NewStub(channel_);
    const Aabb box = Town().map->info().bounds;
    wall_z_ = 0.5f * (box.min.z + box.max.z);
    FindPointsAcrossTheWall();
  }

  // A prism wall across the whole town at z = wall_z_, every floor included: it splits it.
  v1::Obstacle Wall() const {
    const Aabb box = Town().map->info().bounds;
    v1::Obstacle wall;
    wall.set_id("wall");
    wall.set_effect(v1::OBSTACLE_EFFECT_BLOCK);
    for (auto [x, dz] : {std::pair{box.min.x - 1, -1.f},
                         {box.max.x + 1, -1.f},
                         {box.max.x + 1, 1.f},
                         {box.min.x - 1, 1.f}}) {
      v1::PlanPoint* p = wall.mutable_prism()->add_points();
      p->set_x(x);
      p->set_z(wall_z_ + dz * kWallHalfThickness);
    }
    wall.mutable_prism()->set_y_min(box.min.y - 1);
    wall.mutable_prism()->set_y_max(box.max.y + 1);
    return wall;
  }

  v1::PutObstacleLayerRequest PutWall(uint64_t version) const {
    v1::PutObstacleLayerRequest put;
    put.set_map_id("town");
    put.set_layer("zone-1");
    put.set_version(version);
    *put.add_obstacles() = Wall();
    return put;
  }

  // The change from `base` to `version` that takes the wall away.
  static v1::UpdateObstacleLayerRequest RemoveWall(uint64_t base, uint64_t version) {
    v1::UpdateObstacleLayerRequest update;
    update.set_map_id("town");
    update.set_layer("zone-1");
    update.set_base_version(base);
    update.set_version(version);
    update.add_remove("wall");
    return update;
  }

  // A start and goal well apart on either side of the wall, joined on the map itself.
  void FindPointsAcrossTheWall() {
    NavQuery q(Town().map);
    QueryFilter all(Town().map->info());
    std::mt19937 rng(11);
    PathResult path;
    for (int i = 0; i < 2000 && !(start_ && goal_); ++i) {
      const auto a = q.RandomPoint(all, rng), b = q.RandomPoint(all, rng);
      if (!a.ok() || !b.ok() || !*a || !*b) continue;
      if ((*a)->pos.z < wall_z_ - 8 && (*b)->pos.z > wall_z_ + 8 &&
          q.FindPath(**a, **b, all, {}, &path).ok() && path.status == QueryStatus::kComplete) {
        start_ = (*a)->pos, goal_ = (*b)->pos;
      }
    }
    ASSERT_TRUE(start_ && goal_);
  }

  v1::PathStatus StatusOfPath(const std::string& layer, uint64_t version,
                              grpc::Status* call = nullptr) {
    v1::FindPathRequest request = TownPathRequest(*start_, *goal_);
    if (!layer.empty()) {
      request.mutable_obstacles()->set_layer(layer);
      request.mutable_obstacles()->set_version(version);
    }
    v1::FindPathResponse response;
    grpc::Status status = Unary(*stub_, &NavigationStub::FindPath, request, &response);
    if (call != nullptr) *call = status;
    EXPECT_TRUE(call != nullptr || status.ok()) << status.error_message();
    return response.status();
  }

  std::unique_ptr<ObstacleStub> obstacles_;
  float wall_z_ = 0;
  std::optional<Vec3> start_, goal_;
};

TEST_F(ObstacleServiceTest, AWallSplitsTheMapForQueriesNamingItsLayer) {
  v1::PutObstacleLayerResponse put;
  ASSERT_TRUE(ObstacleCall(*obstacles_, &ObstacleStub::PutObstacleLayer, PutWall(1), &put).ok());
  EXPECT_EQ(put.change().version(), 1u);
  EXPECT_EQ(put.change().map_version(), 1u);
  EXPECT_EQ(put.change().obstacles(), 1u);
  EXPECT_GT(put.change().tiles_carved(), 0u);
  EXPECT_FALSE(put.change().already_held());

  EXPECT_EQ(StatusOfPath("zone-1", 1), v1::PATH_STATUS_NO_PATH);
  EXPECT_EQ(StatusOfPath("zone-1", 0), v1::PATH_STATUS_NO_PATH);  // 0: the newest held
  EXPECT_EQ(StatusOfPath("", 0), v1::PATH_STATUS_COMPLETE);       // the map itself

  // RandomPoint never lands inside the grown wall; NearestPoint from its middle snaps out.
  const float agent_radius = Town().map->info().agent.radius;
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    v1::RandomPointRequest request;
    request.set_map_id("town");
    request.set_seed(seed);
    request.mutable_obstacles()->set_layer("zone-1");
    v1::RandomPointResponse point;
    ASSERT_TRUE(Unary(*stub_, &NavigationStub::RandomPoint, request, &point).ok());
    ASSERT_TRUE(point.found());
    EXPECT_GE(std::abs(point.position().z() - wall_z_), kWallHalfThickness + agent_radius - 1e-3f)
        << "seed " << seed;
  }
  v1::NearestPointRequest nearest;
  nearest.set_map_id("town");
  SetVec({start_->x, start_->y, wall_z_}, nearest.mutable_position());
  SetVec({2, 4, 4}, nearest.mutable_extents());
  nearest.mutable_obstacles()->set_layer("zone-1");
  v1::NearestPointResponse snapped;
  ASSERT_TRUE(Unary(*stub_, &NavigationStub::NearestPoint, nearest, &snapped).ok());
  if (snapped.found()) {
    EXPECT_GE(std::abs(snapped.position().z() - wall_z_),
              kWallHalfThickness + agent_radius - 1e-3f);
  }
}

// Exact mode answers on the map itself and on a layer version (carved polygons): the wall
// across the town separates the ends there, as in approximate mode.
TEST_F(ObstacleServiceTest, ExactModeAnswersOnALayerVersion) {
  v1::PutObstacleLayerResponse put;
  ASSERT_TRUE(ObstacleCall(*obstacles_, &ObstacleStub::PutObstacleLayer, PutWall(1), &put).ok());
  v1::FindPathRequest request = TownPathRequest(*start_, *goal_);
  request.mutable_options()->set_mode(v1::PATH_MODE_EXACT);
  // What exact mode takes on the town.
  const QueryFilter ready = ExactReadyFilter(*Town().map);
  for (uint32_t a = 0; a < kMaxAreas; ++a) {
    (*request.mutable_filter()->mutable_area_costs())[a] = ready.Cost(a);
  }
  request.mutable_filter()->set_area_mask(ready.area_mask());
  v1::FindPathResponse response;
  grpc::Status call = Unary(*stub_, &NavigationStub::FindPath, request, &response);
  ASSERT_TRUE(call.ok()) << call.error_message();
  EXPECT_EQ(response.status(), v1::PATH_STATUS_COMPLETE);

  request.mutable_obstacles()->set_layer("zone-1");
  request.mutable_obstacles()->set_version(1);
  call = Unary(*stub_, &NavigationStub::FindPath, request, &response);
  ASSERT_TRUE(call.ok()) << call.error_message();
  EXPECT_EQ(response.status(), v1::PATH_STATUS_NO_PATH);
  request.mutable_options()->set_mode(v1::PATH_MODE_APPROXIMATE);
  v1::FindPathResponse approximate;
  call = Unary(*stub_, &NavigationStub::FindPath, request, &approximate);
  ASSERT_TRUE(call.ok()) << call.error_message();
  EXPECT_EQ(approximate.status(), response.status());
}

TEST_F(ObstacleServiceTest, AReplicaWithoutTheVersionAsksForTheLayer) {
  grpc::Status call;
  StatusOfPath("zone-1", 1, &call);
  EXPECT_EQ(call.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(ReasonOf(call), "OBSTACLE_LAYER_VERSION_UNKNOWN");
  EXPECT_EQ(HeldVersion(call), "0");

  v1::PutObstacleLayerResponse put;
  ASSERT_TRUE(ObstacleCall(*obstacles_, &ObstacleStub::PutObstacleLayer, PutWall(1), &put).ok());
  StatusOfPath("zone-1", 2, &call);
  EXPECT_EQ(ReasonOf(call), "OBSTACLE_LAYER_VERSION_UNKNOWN");
  EXPECT_EQ(HeldVersion(call), "1");
  EXPECT_EQ(StatusOfPath("zone-1", 1, &call), v1::PATH_STATUS_NO_PATH);
  EXPECT_TRUE(call.ok());
}

TEST_F(ObstacleServiceTest, UpdatesApplyToTheirBaseVersionOnly) {
  v1::PutObstacleLayerResponse put;
  ASSERT_TRUE(ObstacleCall(*obstacles_, &ObstacleStub::PutObstacleLayer, PutWall(1), &put).ok());

  v1::UpdateObstacleLayerRequest update = RemoveWall(1, 2);
  v1::UpdateObstacleLayerResponse updated;
  ASSERT_TRUE(ObstacleCall(*obstacles_, &ObstacleStub::UpdateObstacleLayer, update, &updated).ok());
  EXPECT_EQ(updated.change().version(), 2u);
  EXPECT_EQ(updated.change().obstacles(), 0u);
  EXPECT_GT(updated.change().tiles_carved(), 0u);
  EXPECT_EQ(StatusOfPath("zone-1", 2), v1::PATH_STATUS_COMPLETE);
  // The version before is still held for queries in flight during the change.
  EXPECT_EQ(StatusOfPath("zone-1", 1), v1::PATH_STATUS_NO_PATH);

  // The same update again (a retry) is held already; one from another base is refused.
  ASSERT_TRUE(ObstacleCall(*obstacles_, &ObstacleStub::UpdateObstacleLayer, update, &updated).ok());
  EXPECT_TRUE(updated.change().already_held());
  update.set_base_version(5);
  update.set_version(6);
  const grpc::Status stale =
      ObstacleCall(*obstacles_, &ObstacleStub::UpdateObstacleLayer, update, &updated);
  EXPECT_EQ(stale.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(ReasonOf(stale), "OBSTACLE_LAYER_VERSION_MISMATCH");
  EXPECT_EQ(HeldVersion(stale), "2");

  // Removing an obstacle the layer does not have is named.
  update.set_base_version(2);
  update.set_version(3);
  const grpc::Status unknown =
      ObstacleCall(*obstacles_, &ObstacleStub::UpdateObstacleLayer, update, &updated);
  EXPECT_EQ(unknown.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_NE(unknown.error_message().find("wall"), std::string::npos) << unknown.error_message();
}

TEST_F(ObstacleServiceTest, PutIsIdempotentAndGetAndDeleteSeeTheLayer) {
  v1::PutObstacleLayerResponse put;
  ASSERT_TRUE(ObstacleCall(*obstacles_, &ObstacleStub::PutObstacleLayer, PutWall(7), &put).ok());
  ASSERT_TRUE(ObstacleCall(*obstacles_, &ObstacleStub::PutObstacleLayer, PutWall(7), &put).ok());
  EXPECT_TRUE(put.change().already_held());
  EXPECT_EQ(put.change().tiles_carved(), 0u);

  v1::GetObstacleLayerRequest get;
  get.set_map_id("town");
  get.set_layer("zone-1");
  v1::GetObstacleLayerResponse held;
  ASSERT_TRUE(ObstacleCall(*obstacles_, &ObstacleStub::GetObstacleLayer, get, &held).ok());
  EXPECT_EQ(held.version(), 7u);
  ASSERT_EQ(held.obstacles_size(), 1);
  EXPECT_EQ(held.obstacles(0).id(), "wall");
  EXPECT_EQ(held.obstacles(0).prism().points_size(), 4);

  // The map read in full for carving, and the carved tiles, count against the tile budget.
  EXPECT_GE(server_->maps().stats().charged_bytes, Town().bytes.size());

  v1::DeleteObstacleLayerRequest del;
  del.set_map_id("town");
  del.set_layer("zone-1");
  v1::DeleteObstacleLayerResponse deleted;
  ASSERT_TRUE(ObstacleCall(*obstacles_, &ObstacleStub::DeleteObstacleLayer, del, &deleted).ok());
  EXPECT_TRUE(deleted.deleted());
  EXPECT_EQ(server_->maps().stats().charged_bytes, 0u);
  ASSERT_TRUE(ObstacleCall(*obstacles_, &ObstacleStub::DeleteObstacleLayer, del, &deleted).ok());
  EXPECT_FALSE(deleted.deleted());
  ASSERT_TRUE(ObstacleCall(*obstacles_, &ObstacleStub::GetObstacleLayer, get, &held).ok());
  EXPECT_EQ(held.version(), 0u);
  grpc::Status call;
  StatusOfPath("zone-1", 7, &call);
  EXPECT_EQ(ReasonOf(call), "OBSTACLE_LAYER_VERSION_UNKNOWN");
}

TEST_F(ObstacleServiceTest, BadObstaclesAreNamed) {
  v1::PutObstacleLayerRequest put = PutWall(1);
  v1::Obstacle* post = put.add_obstacles();
  post->set_id("post-2");
  post->set_effect(v1::OBSTACLE_EFFECT_BLOCK);
  SetVec(*start_, post->mutable_cylinder()->mutable_center());
  post->mutable_cylinder()->set_radius(-1);
  post->mutable_cylinder()->set_height(2);
  v1::PutObstacleLayerResponse response;
  grpc::Status status = ObstacleCall(*obstacles_, &ObstacleStub::PutObstacleLayer, put, &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(ViolatedFields(DetailsOf(status)), "obstacles[1]");
  EXPECT_NE(status.error_message().find("post-2"), std::string::npos) << status.error_message();

  post->mutable_cylinder()->set_radius(1);
  post->set_effect(v1::OBSTACLE_EFFECT_UNSPECIFIED);
  status = ObstacleCall(*obstacles_, &ObstacleStub::PutObstacleLayer, put, &response);
  EXPECT_EQ(ViolatedFields(DetailsOf(status)), "obstacles[1].effect");

  post->set_effect(v1::OBSTACLE_EFFECT_BLOCK);
  post->set_id("wall");  // twice in one layer
  status = ObstacleCall(*obstacles_, &ObstacleStub::PutObstacleLayer, put, &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  // Also when the layer holds the first one already (the put is applied as a change).
  ASSERT_TRUE(
      ObstacleCall(*obstacles_, &ObstacleStub::PutObstacleLayer, PutWall(1), &response).ok());
  put.set_version(2);
  status = ObstacleCall(*obstacles_, &ObstacleStub::PutObstacleLayer, put, &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(status.error_message().find("twice"), std::string::npos) << status.error_message();
  ASSERT_TRUE(ObstacleCall(
                  *obstacles_, &ObstacleStub::DeleteObstacleLayer,
                  [] {
                    v1::DeleteObstacleLayerRequest del;
                    del.set_map_id("town");
                    del.set_layer("zone-1");
                    return del;
                  }(),
                  std::make_unique<v1::DeleteObstacleLayerResponse>().get())
                  .ok());

  put.set_version(0);
  status = ObstacleCall(*obstacles_, &ObstacleStub::PutObstacleLayer, put, &response);
  EXPECT_EQ(ViolatedFields(DetailsOf(status)), "version");
  put.set_version(1);
  put.set_layer("../x");
  status = ObstacleCall(*obstacles_, &ObstacleStub::PutObstacleLayer, put, &response);
  EXPECT_EQ(ViolatedFields(DetailsOf(status)), "layer");
  put.set_layer("zone-1");
  put.set_map_id("nowhere");
  status = ObstacleCall(*obstacles_, &ObstacleStub::PutObstacleLayer, put, &response);
  EXPECT_EQ(ReasonOf(status), "MAP_NOT_FOUND");

  // A failed first put leaves no layer behind.
  grpc::Status call;
  StatusOfPath("zone-1", 0, &call);
  EXPECT_EQ(HeldVersion(call), "0");
}

// Changes and queries at once (ThreadSanitizer runs this in CI): every query runs on one
// whole version, the wall there or not, and no call fails.
TEST_F(ObstacleServiceTest, QueriesRunWhileTheLayerChanges) {
  v1::PutObstacleLayerResponse put;
  ASSERT_TRUE(ObstacleCall(*obstacles_, &ObstacleStub::PutObstacleLayer, PutWall(1), &put).ok());
  constexpr int kChanges = 12;
  std::thread changer([&] {
    for (int v = 1; v <= kChanges; ++v) {
      v1::UpdateObstacleLayerRequest update;
      update.set_map_id("town");
      update.set_layer("zone-1");
      update.set_base_version(v);
      update.set_version(v + 1);
      if (v % 2 == 1) {
        update.add_remove("wall");
      } else {
        *update.add_upsert() = Wall();
      }
      v1::UpdateObstacleLayerResponse updated;
      EXPECT_TRUE(
          ObstacleCall(*obstacles_, &ObstacleStub::UpdateObstacleLayer, update, &updated).ok());
    }
  });
  int no_path = 0, complete = 0;
  for (int i = 0; i < 40; ++i) {
    grpc::Status call;
    const v1::PathStatus status = StatusOfPath("zone-1", 0, &call);
    ASSERT_TRUE(call.ok()) << call.error_message();
    no_path += status == v1::PATH_STATUS_NO_PATH;
    complete += status == v1::PATH_STATUS_COMPLETE;
  }
  changer.join();
  EXPECT_EQ(no_path + complete, 40);
  v1::GetObstacleLayerRequest get;
  get.set_map_id("town");
  get.set_layer("zone-1");
  v1::GetObstacleLayerResponse held;
  ASSERT_TRUE(ObstacleCall(*obstacles_, &ObstacleStub::GetObstacleLayer, get, &held).ok());
  EXPECT_EQ(held.version(), uint64_t{kChanges + 1});
  EXPECT_EQ(held.obstacles_size(), 1);  // an even number of changes: the wall is back
}

// Limits are flags; past them is RESOURCE_EXHAUSTED naming the flag.
class ObstacleLimitsTest : public ObstacleServiceTest {
 protected:
  void SetUp() override {
    ObstacleServiceTest::SetUp();
    server::ServerConfig config = TestConfig(maps_.path());
    config.max_obstacles_per_layer = 2;
    config.max_obstacle_layers_per_map = 1;
    config.max_prism_vertices = 4;
    server_->Shutdown(absl::ZeroDuration());
    server_ = StartServer(config);
    ASSERT_NE(server_, nullptr);
    channel_ = Dial(*server_);
    stub_ = v1::NavigationService::NewStub(channel_);
    obstacles_ = v1::ObstacleService::NewStub(channel_);
  }

  static void ExpectLimit(const grpc::Status& status, const std::string& flag) {
    EXPECT_EQ(status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << flag;
    EXPECT_EQ(ReasonOf(status), "OBSTACLE_LIMIT_EXCEEDED") << flag;
    EXPECT_NE(status.error_message().find("--" + flag), std::string::npos)
        << status.error_message();
  }
};

TEST_F(ObstacleLimitsTest, PastALimitIsResourceExhaustedNamingIt) {
  v1::PutObstacleLayerRequest put = PutWall(1);
  v1::PutObstacleLayerResponse response;
  ASSERT_TRUE(ObstacleCall(*obstacles_, &ObstacleStub::PutObstacleLayer, put, &response).ok());

  v1::Obstacle second = Wall();
  second.set_id("wall-2");
  *put.add_obstacles() = second;
  second.set_id("wall-3");
  *put.add_obstacles() = second;
  ExpectLimit(ObstacleCall(*obstacles_, &ObstacleStub::PutObstacleLayer, put, &response),
              "max-obstacles-per-layer");

  v1::UpdateObstacleLayerRequest update;
  update.set_map_id("town");
  update.set_layer("zone-1");
  update.set_base_version(1);
  update.set_version(2);
  *update.add_upsert() = put.obstacles(1);
  *update.add_upsert() = put.obstacles(2);
  v1::UpdateObstacleLayerResponse updated;
  ExpectLimit(ObstacleCall(*obstacles_, &ObstacleStub::UpdateObstacleLayer, update, &updated),
              "max-obstacles-per-layer");

  v1::PutObstacleLayerRequest other = PutWall(1);
  other.set_layer("zone-2");
  ExpectLimit(ObstacleCall(*obstacles_, &ObstacleStub::PutObstacleLayer, other, &response),
              "max-obstacle-layers-per-map");

  v1::PutObstacleLayerRequest five = PutWall(2);
  five.mutable_obstacles(0)->mutable_prism()->add_points()->set_x(0);
  ExpectLimit(ObstacleCall(*obstacles_, &ObstacleStub::PutObstacleLayer, five, &response),
              "max-prism-vertices");
}

// Layer changes run on their own thread: with the only query worker held and its queue full
// (the server shedding queries), a zone server's changes still go through, in order.
TEST_F(ObstacleServiceTest, ChangesGoThroughWhileQueriesAreShed) {
  server::ServerConfig config = TestConfig(maps_.path());
  config.workers = 1;
  config.queue_capacity = 1;
  WorkerGate gate;
  auto hold = gate.Hook();
  Serve(config, {.before_query = [hold](server::RpcMethod method) {
          if (method == server::RpcMethod::kFindPath) hold(method);
        }});
  obstacles_ = v1::ObstacleService::NewStub(channel_);
  grpc::Status running, queued, refused;
  std::thread a([&] { StatusOfPath("", 0, &running); });
  ASSERT_TRUE(gate.WaitEntered(1));  // the only worker is busy
  std::thread b([&] { StatusOfPath("", 0, &queued); });
  ASSERT_TRUE(WaitInFlight(*server_, 2));  // and its queue is full
  StatusOfPath("", 0, &refused);
  EXPECT_EQ(refused.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);

  v1::PutObstacleLayerResponse put;
  const grpc::Status put_status =
      ObstacleCall(*obstacles_, &ObstacleStub::PutObstacleLayer, PutWall(1), &put);
  EXPECT_TRUE(put_status.ok()) << put_status.error_message();
  v1::UpdateObstacleLayerResponse updated;
  const grpc::Status update_status =
      ObstacleCall(*obstacles_, &ObstacleStub::UpdateObstacleLayer, RemoveWall(1, 2), &updated);
  EXPECT_TRUE(update_status.ok()) << update_status.error_message();
  EXPECT_EQ(updated.change().version(), 2u);
  EXPECT_EQ(gate.entered(), 1);  // the query worker was held all along

  gate.Open();
  a.join();
  b.join();
  EXPECT_TRUE(running.ok()) << running.error_message();
  EXPECT_TRUE(queued.ok()) << queued.error_message();
}

TEST_F(ObstacleServiceTest, MetricsCountLayersObstaclesAndResyncs) {
  v1::PutObstacleLayerResponse put;
  ASSERT_TRUE(ObstacleCall(*obstacles_, &ObstacleStub::PutObstacleLayer, PutWall(1), &put).ok());
  grpc::Status call;
  StatusOfPath("zone-1", 9, &call);
  const std::string text = server_->metrics().Render();
  EXPECT_NE(text.find("waymesh_obstacle_layers{map=\"town\"} 1"), std::string::npos) << text;
  EXPECT_NE(text.find("waymesh_obstacles{map=\"town\"} 1"), std::string::npos);
  EXPECT_NE(text.find("waymesh_obstacle_resyncs_total 1"), std::string::npos);
  EXPECT_NE(text.find("waymesh_obstacle_update_seconds_count 1"), std::string::npos);
  EXPECT_NE(text.find("grpc_server_handled_total{grpc_code=\"OK\",grpc_method=\"PutObstacleLayer\","
                      "grpc_service=\"waymesh.v1.ObstacleService\",grpc_type=\"unary\"} 1"),
            std::string::npos);
}

}  // namespace
}  // namespace waymesh::testing
