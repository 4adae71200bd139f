#include "viewer_api.h"

#include <chrono>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "google/protobuf/util/json_util.h"
#include "nlohmann/json.hpp"
#include "query_string.h"
#include "viewer_answers.h"
#include "viewer_map_json.h"
#include "viewer_obstacle_json.h"
#include "waymesh/server/client_call.h"

namespace waymesh::server {
namespace {

using nlohmann::json;
// The served map named by the "map" parameter: 400 without one, 404 when not served.
absl::StatusOr<std::shared_ptr<const ServedMap>> NamedMap(
    const MapRegistry& maps, const std::map<std::string, std::string>& params) {
  auto it = params.find("map");
  if (it == params.end() || it->second.empty()) {
    return absl::InvalidArgumentError("query parameter map (the map id) is required");
  }
  return maps.Find(it->second);
}

}  // namespace

ViewerApi::ViewerApi(ViewerApiOptions options)
    : options_(std::move(options)),
      token_(options_.auth_token),
      crowds_(ViewerCrowdOptions{options_.crowds, options_.max_crowd_streams,
                                 options_.crowd_heartbeat, options_.max_crowd_backlog_bytes}) {}

ViewerApi::~ViewerApi() { WaitIdle(); }

void ViewerApi::Begin() {
  std::lock_guard<std::mutex> lock(mu_);
  ++in_flight_;
}

void ViewerApi::End() {
  std::lock_guard<std::mutex> lock(mu_);
  if (--in_flight_ == 0) idle_.notify_all();
}

void ViewerApi::Done(HttpResponder& respond) {
  // The responder holds the HTTP connection, which must not outlive the HTTP server: it goes
  // before WaitIdle can return.
  respond = nullptr;
  End();
}

void ViewerApi::CloseStreams() { crowds_.Close(); }

void ViewerApi::WaitIdle() {
  std::unique_lock<std::mutex> lock(mu_);
  idle_.wait(lock, [this] { return in_flight_ == 0; });
}

std::map<std::string, HttpRoute> ViewerApi::Routes() {
  // Every route checks the bearer token first; the page itself (static files) carries no data.
  auto guarded = [this](std::string method, AsyncHttpHandler handler, bool prefix = false) {
    return HttpRoute{std::move(method),
                     [this, handler = std::move(handler)](HttpRequest r, HttpResponder respond) {
                       if (token_.enabled() && !token_.Matches(r.authorization)) {
                         respond(ErrorAnswer(401, "UNAUTHENTICATED",
                                             "send 'Authorization: Bearer <token>' (the "
                                             "server's --auth-token)"));
                         return;
                       }
                       handler(std::move(r), std::move(respond));
                     },
                     prefix};
  };
  auto sync = [](auto answer) {
    return [answer](HttpRequest r, HttpResponder respond) { respond(answer(r)); };
  };
  std::map<std::string, HttpRoute> routes;
  routes["/api/maps"] = guarded("GET", sync([this](const HttpRequest&) { return ListMaps(); }));
  routes["/api/map"] =
      guarded("GET", sync([this](const HttpRequest& r) { return DescribeMap(r); }));
  routes["/api/heat"] = guarded("GET", sync([this](const HttpRequest& r) { return Heat(r); }));
  routes["/api/obstacles"] =
      guarded("GET", sync([this](const HttpRequest& r) { return Obstacles(r); }));
  routes["/api/tile"] = guarded(
      "GET", [this](HttpRequest r, HttpResponder respond) { ReadTile(r, std::move(respond)); });
  routes["/api/find_path"] = guarded("POST", [this](HttpRequest r, HttpResponder respond) {
    Forward<v1::FindPathRequest, v1::FindPathResponse>(r, std::move(respond));
  });
  routes["/api/raycast"] = guarded("POST", [this](HttpRequest r, HttpResponder respond) {
    Forward<v1::RaycastRequest, v1::RaycastResponse>(r, std::move(respond));
  });
  routes["/api/validate_move"] = guarded("POST", [this](HttpRequest r, HttpResponder respond) {
    Forward<v1::ValidateMoveRequest, v1::ValidateMoveResponse>(r, std::move(respond));
  });
  routes["/api/nearest_point"] = guarded("POST", [this](HttpRequest r, HttpResponder respond) {
    Forward<v1::NearestPointRequest, v1::NearestPointResponse>(r, std::move(respond));
  });
  for (auto& [path, route] : crowds_.Routes()) {
    routes[path] = guarded(route.method, std::move(route.handler), route.prefix);
  }
  return routes;
}

HttpResponse ViewerApi::ListMaps() const {
  json maps = json::array();
  for (const std::shared_ptr<const ServedMap>& map : options_.maps->List()) {
    maps.push_back(MapSummaryJson(*map));
  }
  return JsonAnswer(200, {{"maps", std::move(maps)}});
}

HttpResponse ViewerApi::DescribeMap(const HttpRequest& http) const {
  absl::StatusOr<std::map<std::string, std::string>> params = ParseQueryString(http.query);
  if (!params.ok()) return StatusAnswer(params.status());
  absl::StatusOr<std::shared_ptr<const ServedMap>> map = NamedMap(*options_.maps, *params);
  if (!map.ok()) return StatusAnswer(map.status());
  return JsonAnswer(200, MapDetailJson(**map));
}

HttpResponse ViewerApi::Heat(const HttpRequest& http) const {
  absl::StatusOr<std::map<std::string, std::string>> params = ParseQueryString(http.query);
  if (!params.ok()) return StatusAnswer(params.status());
  absl::StatusOr<std::shared_ptr<const ServedMap>> map = NamedMap(*options_.maps, *params);
  if (!map.ok()) return StatusAnswer(map.status());
  json calls = json::array();
  if (options_.heat != nullptr) {
    for (const PathHeatPoint& p : options_.heat->Snapshot((*map)->id())) {
      calls.push_back({{"start", {p.start.x, p.start.y, p.start.z}},
                       {"end", {p.end.x, p.end.y, p.end.z}},
                       {"status", QueryStatusName(p.status)}});
    }
  }
  return JsonAnswer(200, {{"map", (*map)->id()},
                          {"capacity", options_.heat ? options_.heat->capacity() : 0},
                          {"calls", std::move(calls)}});
}

HttpResponse ViewerApi::Obstacles(const HttpRequest& http) const {
  absl::StatusOr<std::map<std::string, std::string>> params = ParseQueryString(http.query);
  if (!params.ok()) return StatusAnswer(params.status());
  absl::StatusOr<std::shared_ptr<const ServedMap>> map = NamedMap(*options_.maps, *params);
  if (!map.ok()) return StatusAnswer(map.status());
  const std::string& id = (*map)->id();
  json layers = json::array();
  size_t budget = options_.max_obstacles;
  if (options_.layers != nullptr) {
    for (const std::string& name : options_.layers->LayerNames(id)) {
      std::optional<HeldLayer> held = options_.layers->Get(id, name);
      if (!held) continue;  // deleted meanwhile
      layers.push_back(ObstacleLayerJson(name, *held, (*map)->map()->info().agent, &budget));
    }
  }
  return JsonAnswer(200, {{"map", id}, {"layers", std::move(layers)}});
}

void ViewerApi::ReadTile(const HttpRequest& http, HttpResponder respond) {
  absl::StatusOr<std::map<std::string, std::string>> params = ParseQueryString(http.query);
  if (!params.ok()) return respond(StatusAnswer(params.status()));
  absl::StatusOr<std::shared_ptr<const ServedMap>> map = NamedMap(*options_.maps, *params);
  if (!map.ok()) return respond(StatusAnswer(map.status()));
  auto tile_param = params->find("tile");
  uint32_t tile = 0;
  if (tile_param == params->end() || !absl::SimpleAtoi(tile_param->second, &tile)) {
    return respond(ErrorAnswer(400, "INVALID_ARGUMENT",
                               "query parameter tile (a tile index, 0 or more) is required"));
  }
  const uint32_t tiles = (*map)->map()->tile_count();
  if (tile >= tiles) {
    return respond(ErrorAnswer(
        404, "NOT_FOUND",
        absl::StrCat("map ", (*map)->id(), " has tiles 0..", tiles - 1, ", not ", tile)));
  }
  const uint32_t polygons = (*map)->map()->summary(tile).poly_count;
  if (polygons > options_.max_tile_polygons) {
    return respond(ErrorAnswer(
        413, "RESOURCE_EXHAUSTED",
        absl::StrCat("tile ", tile, " has ", polygons,
                     " polygons; the viewer draws tiles of at most ", options_.max_tile_polygons)));
  }
  Begin();
  // A paged tile may have to be read from disk: on a worker, never on the HTTP loop thread.
  const Admission admission =
      options_.pool->TrySubmit([this, served = *map, tile, respond](WorkerState&) mutable {
        const NavMap& nav = *served->map();
        std::shared_ptr<const TileView> view;
        if (nav.paged()) {
          view = nav.source()->Acquire(tile);
        } else {
          view = std::shared_ptr<const TileView>(served, &nav.tile(tile));
        }
        if (view == nullptr) {
          respond(ErrorAnswer(500, "INTERNAL", absl::StrCat("tile ", tile, " cannot be read")));
        } else {
          json body = TileJson(nav, *view);
          body["map"] = served->id();
          body["version"] = served->version();
          respond(JsonAnswer(200, body));
        }
        Done(respond);
      });
  if (admission != Admission::kQueued) {
    respond(ErrorAnswer(503, "UNAVAILABLE", "the server's workers are busy; retry"));
    End();
  }
}

template <typename Request, typename Response>
void ViewerApi::Forward(const HttpRequest& http, HttpResponder respond) {
  struct Forwarded {
    Request request;
    Response response;
    std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  };
  auto call = std::make_shared<Forwarded>();
  google::protobuf::util::JsonParseOptions parse;
  parse.ignore_unknown_fields = false;  // a misspelt field must not be silently dropped
  if (auto s = google::protobuf::util::JsonStringToMessage(http.body, &call->request, parse);
      !s.ok()) {
    respond(ErrorAnswer(400, "INVALID_ARGUMENT",
                        absl::StrCat("request body is not a ", Request::descriptor()->name(),
                                     " in JSON: ", s.ToString())));
    return;
  }
  Begin();
  options_.service->RunLocal(
      call->request, &call->response,
      [this, call, respond = std::move(respond)](absl::Status status) mutable {
        if (!status.ok()) {
          respond(StatusAnswer(status));
        } else {
          const double ms = std::chrono::duration<double, std::milli>(
                                std::chrono::steady_clock::now() - call->start)
                                .count();
          respond({200, "application/json",
                   absl::StrCat("{\"elapsed_ms\":", ms,
                                ",\"result\":", MessageToJson(call->response), "}")});
        }
        Done(respond);
      });
}

}  // namespace waymesh::server
