// The map viewer (--ui-port) over real loopback HTTP: its page, its JSON API's map geometry and
// queries (answered exactly as the gRPC service answers them), its errors and the bearer token.

#include <gtest/gtest.h>
#include <httplib.h>

#include <cmath>
#include <string>

#include "google/protobuf/util/json_util.h"
#include "nlohmann/json.hpp"
#include "test_server.h"
#include "waymesh/v1/obstacles.grpc.pb.h"

namespace waymesh::testing {
namespace {

using nlohmann::json;

std::string ToJson(const google::protobuf::Message& message) {
  std::string out;
  EXPECT_TRUE(google::protobuf::util::MessageToJsonString(message, &out).ok());
  return out;
}

class ViewerApiTest : public ::testing::Test {
 protected:
  void SetUp() override { Start(""); }

  void Start(const std::string& token) {
    server_.reset();
    maps_.Write("town.wmesh", Town().bytes);
    server::ServerConfig config = TestConfig(maps_.path());
    config.ui_port = -1;  // any free port
    config.ui_address = "127.0.0.1";
    config.auth_token = token;
    server_ = StartServer(config);
    ASSERT_NE(server_, nullptr);
    ASSERT_GT(server_->ui_port(), 0);
    http_ = std::make_unique<httplib::Client>("127.0.0.1", server_->ui_port());
    http_->set_read_timeout(20, 0);
    if (!token.empty()) http_->set_default_headers({{"Authorization", "Bearer " + token}});
  }

  // GET path; the answer's status and its body as JSON (null when not JSON).
  std::pair<int, json> Get(const std::string& path) {
    httplib::Result res = http_->Get(path);
    EXPECT_TRUE(res) << path;
    if (!res) return {0, nullptr};
    return {res->status, json::parse(res->body, nullptr, false)};
  }
  std::pair<int, json> Post(const std::string& path, const std::string& body) {
    httplib::Result res = http_->Post(path, body, "application/json");
    EXPECT_TRUE(res) << path;
    if (!res) return {0, nullptr};
    return {res->status, json::parse(res->body, nullptr, false)};
  }

  TempDir maps_;
  std::unique_ptr<server::NavigationServer> server_;
  std::unique_ptr<httplib::Client> http_;
};

TEST_F(ViewerApiTest, ServesThePage) {
  httplib::Result page = http_->Get("/");
  ASSERT_TRUE(page);
  EXPECT_EQ(page->status, 200);
  EXPECT_EQ(page->get_header_value("Content-Type"), "text/html; charset=utf-8");
  EXPECT_NE(page->body.find("/viewer.js"), std::string::npos);
  httplib::Result script = http_->Get("/viewer.js");
  ASSERT_TRUE(script);
  EXPECT_EQ(script->status, 200);
  EXPECT_NE(script->body.find("/api/find_path"), std::string::npos);
  EXPECT_EQ(http_->Get("/nothing-here")->status, 404);
}

TEST_F(ViewerApiTest, TilesHoldEveryPolygonOfTheMap) {
  auto [status, maps] = Get("/api/maps");
  ASSERT_EQ(status, 200);
  ASSERT_EQ(maps["maps"].size(), 1u);
  EXPECT_EQ(maps["maps"][0]["id"], "town");
  auto [detail_status, detail] = Get("/api/map?map=town");
  ASSERT_EQ(detail_status, 200);
  const uint64_t polygons = detail["polygons"];
  EXPECT_EQ(polygons, Town().map->info().polygon_count);
  ASSERT_EQ(detail["tile_list"].size(), detail["tiles"].get<size_t>());
  uint64_t drawn = 0;
  for (const json& tile : detail["tile_list"]) {
    auto [tile_status, body] =
        Get("/api/tile?map=town&tile=" + std::to_string(tile["index"].get<int>()));
    ASSERT_EQ(tile_status, 200) << body;
    EXPECT_EQ(body["polygons"].size(), tile["polygons"].get<size_t>());
    for (const json& p : body["polygons"]) {
      EXPECT_GE(p["xz"].size(), 6u);
      EXPECT_EQ(p["xz"].size() % 2, 0u);
      EXPECT_LE(p["y"][0].get<double>(), p["y"][1].get<double>());
      EXPECT_LT(p["island"].get<size_t>(), detail["island_list"].size());
      EXPECT_FALSE(p["ref"].get<std::string>().empty());
    }
    drawn += body["polygons"].size();
  }
  EXPECT_EQ(drawn, polygons);
}

TEST_F(ViewerApiTest, FindPathAnswersAsTheGrpcServiceDoes) {
  const v1::FindPathRequest request = BankToBankRequest();
  auto stub = v1::NavigationService::NewStub(Dial(*server_));
  v1::FindPathResponse grpc_answer;
  ASSERT_TRUE(Unary(*stub, &NavigationStub::FindPath, request, &grpc_answer).ok());
  ASSERT_EQ(grpc_answer.status(), v1::PATH_STATUS_COMPLETE);
  auto [status, answer] = Post("/api/find_path", ToJson(request));
  ASSERT_EQ(status, 200) << answer;
  const json& result = answer["result"];
  EXPECT_EQ(result["status"], "PATH_STATUS_COMPLETE");
  EXPECT_NEAR(result["length"].get<double>(), grpc_answer.length(), 1e-5);
  EXPECT_EQ(result["nodes_expanded"].get<uint32_t>(), grpc_answer.nodes_expanded());
  EXPECT_GE(answer["elapsed_ms"].get<double>(), 0.0);
  ASSERT_EQ(result["waypoints"].size(), size_t(grpc_answer.waypoints_size()));
  for (int i = 0; i < grpc_answer.waypoints_size(); ++i) {
    const json& p = result["waypoints"][i]["position"];
    EXPECT_FLOAT_EQ(p["x"].get<float>(), grpc_answer.waypoints(i).position().x()) << i;
    EXPECT_FLOAT_EQ(p["z"].get<float>(), grpc_answer.waypoints(i).position().z()) << i;
  }
  // The heat map saw both calls, the viewer's and the gRPC client's.
  auto [heat_status, heat] = Get("/api/heat?map=town");
  ASSERT_EQ(heat_status, 200);
  ASSERT_EQ(heat["calls"].size(), 2u);
  EXPECT_EQ(heat["calls"][1]["status"], "COMPLETE");
  EXPECT_FLOAT_EQ(heat["calls"][1]["start"][0].get<float>(), request.start().x());
}

TEST_F(ViewerApiTest, RaycastValidateMoveAndNearestPointAreForwarded) {
  const v1::FindPathRequest path = BankToBankRequest();
  const std::string ends = absl::StrCat(R"("map_id": "town", "start": )", ToJson(path.start()),
                                        R"(, "end": )", ToJson(path.end()));
  auto [ray_status, ray] = Post("/api/raycast", "{" + ends + "}");
  ASSERT_EQ(ray_status, 200) << ray;
  EXPECT_TRUE(ray["result"]["start_on_mesh"].get<bool>());
  auto [move_status, move] = Post("/api/validate_move", "{" + ends + "}");
  ASSERT_EQ(move_status, 200) << move;
  EXPECT_TRUE(move["result"].contains("verdict"));
  auto [nearest_status, nearest] =
      Post("/api/nearest_point",
           absl::StrCat(R"({"map_id": "town", "position": )", ToJson(path.start()), "}"));
  ASSERT_EQ(nearest_status, 200) << nearest;
  EXPECT_TRUE(nearest["result"]["found"].get<bool>());
}

TEST_F(ViewerApiTest, ObstacleLayersShowTheirVersionAndFootprints) {
  auto [empty_status, empty] = Get("/api/obstacles?map=town");
  ASSERT_EQ(empty_status, 200);
  EXPECT_TRUE(empty["layers"].empty());
  const v1::Vec3 center = BankToBankRequest().start();
  v1::PutObstacleLayerRequest put;
  put.set_map_id("town");
  put.set_layer("crates");
  put.set_version(3);
  v1::Obstacle* crate = put.add_obstacles();
  crate->set_id("crate-1");
  crate->set_effect(v1::OBSTACLE_EFFECT_BLOCK);
  *crate->mutable_cylinder()->mutable_center() = center;
  crate->mutable_cylinder()->set_radius(1);
  crate->mutable_cylinder()->set_height(2);
  auto obstacles = v1::ObstacleService::NewStub(Dial(*server_));
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  v1::PutObstacleLayerResponse put_answer;
  ASSERT_TRUE(obstacles->PutObstacleLayer(&ctx, put, &put_answer).ok());

  auto [status, body] = Get("/api/obstacles?map=town");
  ASSERT_EQ(status, 200) << body;
  ASSERT_EQ(body["layers"].size(), 1u);
  const json& layer = body["layers"][0];
  EXPECT_EQ(layer["name"], "crates");
  EXPECT_EQ(layer["version"], 3);
  ASSERT_EQ(layer["obstacles"].size(), 1u);
  const json& footprint = layer["obstacles"][0];
  EXPECT_EQ(footprint["id"], "crate-1");
  EXPECT_EQ(footprint["effect"], "block");
  // The outline goes round the crate, grown by the agent radius.
  const float reach = 1 + Town().map->info().agent.radius;
  ASSERT_GE(footprint["xz"].size(), 6u);
  for (size_t i = 0; i < footprint["xz"].size(); i += 2) {
    const double d = std::hypot(footprint["xz"][i].get<double>() - center.x(),
                                footprint["xz"][i + 1].get<double>() - center.z());
    EXPECT_GE(d, 1.0);
    EXPECT_LE(d, reach * 1.2);
  }
}

TEST_F(ViewerApiTest, BadRequestsAre400WithAClearMessage) {
  struct Case {
    std::string method, path, body, says;
  };
  const Case cases[] = {
      {"POST", "/api/find_path", "not json", "not a FindPathRequest"},
      {"POST", "/api/find_path", R"({"map_id": "town", "stat": {}})", "stat"},
      {"POST", "/api/find_path",
       R"({"map_id": "town", "start": {"x": 1}, "end": {"x": 2}, "options": {"extents": {"x": -1, "y": 1, "z": 1}}})",
       "extents"},
      {"POST", "/api/raycast", R"({"map_id": 5})", "RaycastRequest"},
      {"GET", "/api/map", "", "map"},
      {"GET", "/api/tile?map=town", "", "tile"},
      {"GET", "/api/tile?map=town&tile=-3", "", "tile"},
      {"GET", "/api/tile?map=town&tile=1&tile=2", "", "twice"},
      {"GET", "/api/map?map=%zz", "", "escape"},
  };
  for (const Case& c : cases) {
    auto [status, body] = c.method == "GET" ? Get(c.path) : Post(c.path, c.body);
    EXPECT_EQ(status, 400) << c.path << " " << c.body << ": " << body;
    const std::string message = body["error"]["message"].get<std::string>();
    EXPECT_NE(message.find(c.says), std::string::npos) << message;
  }
  EXPECT_EQ(http_->Get("/api/find_path")->status, 405);
  EXPECT_EQ(http_->Post("/api/maps", "", "text/plain")->status, 405);
}

TEST_F(ViewerApiTest, UnknownMapsAndTilesAre404) {
  EXPECT_EQ(Get("/api/map?map=nowhere").first, 404);
  EXPECT_EQ(Get("/api/heat?map=nowhere").first, 404);
  EXPECT_EQ(Get("/api/tile?map=nowhere&tile=0").first, 404);
  auto [tile_status, tile] = Get("/api/tile?map=town&tile=100000");
  EXPECT_EQ(tile_status, 404);
  EXPECT_NE(tile["error"]["message"].get<std::string>().find("has tiles 0.."), std::string::npos);
  v1::FindPathRequest elsewhere = BankToBankRequest();
  elsewhere.set_map_id("nowhere");
  auto [path_status, path] = Post("/api/find_path", ToJson(elsewhere));
  EXPECT_EQ(path_status, 404) << path;
  EXPECT_EQ(path["error"]["code"], "NOT_FOUND");
  // A layer version this replica does not hold: the gRPC code's HTTP status, and its message.
  v1::FindPathRequest layered = BankToBankRequest();
  layered.mutable_obstacles()->set_layer("gone");
  layered.mutable_obstacles()->set_version(5);
  auto [layer_status, layer] = Post("/api/find_path", ToJson(layered));
  EXPECT_EQ(layer_status, 412) << layer;
  EXPECT_EQ(layer["error"]["code"], "FAILED_PRECONDITION");
  EXPECT_NE(layer["error"]["message"].get<std::string>().find("gone"), std::string::npos) << layer;
}

TEST_F(ViewerApiTest, WithATokenTheApiAsksForIt) {
  Start("s3cret");
  EXPECT_EQ(Get("/api/maps").first, 200);  // the default header carries it
  httplib::Client bare("127.0.0.1", server_->ui_port());
  EXPECT_EQ(bare.Get("/")->status, 200);  // the page holds no data: it asks for the token
  httplib::Result refused = bare.Get("/api/maps");
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->status, 401);
  EXPECT_EQ(refused->get_header_value("WWW-Authenticate"), "Bearer");
  EXPECT_EQ(bare.Post("/api/find_path", ToJson(BankToBankRequest()), "application/json")->status,
            401);
  EXPECT_EQ(bare.Get("/api/tile?map=town&tile=0", {{"Authorization", "Bearer wrong"}})->status,
            401);
  EXPECT_EQ(bare.Get("/api/map?map=town", {{"Authorization", "Bearer s3cret"}})->status, 200);
}

}  // namespace
}  // namespace waymesh::testing
