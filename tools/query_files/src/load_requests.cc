#include "waymesh/query_files/load_requests.h"

#include <cmath>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "nlohmann/json.hpp"
#include "waymesh/core/exact_path.h"
#include "waymesh/core/nav_query.h"

namespace waymesh {
namespace {

using Json = nlohmann::ordered_json;

// Draws give up after this many tries per request (a map whose islands are all too small).
constexpr int kTriesPerRequest = 64;
constexpr uint32_t kMaxRequests = 10'000'000;

// Millimetres are plenty for a load test and keep the files short.
double Mm(float v) { return std::round(double(v) * 1000) / 1000; }
Json Vec(Vec3 v) { return Json{{"x", Mm(v.x)}, {"y", Mm(v.y)}, {"z", Mm(v.z)}}; }

class RequestSampler {
 public:
  RequestSampler(std::shared_ptr<const NavMap> map, const LoadRequestOptions& options)
      : map_(std::move(map)), options_(options), query_(map_), rng_(options.seed) {}

  // Exact paths: the filter exact mode can answer on this map: the server's default filter,
  // else that filter with one cost for all areas (the same areas, off-mesh links' included).
  absl::Status ChooseExactFilter() {
    if (!options_.exact_paths) return absl::OkStatus();
    path_options_.mode = PathMode::kExact;
    const QueryFilter server_default(map_->info());
    filter_ = server_default;
    if (CheckExactPathSupport(*map_, filter_).ok()) return absl::OkStatus();
    // What differs from the server's default goes into the requests.
    filter_ = ExactReadyFilter(*map_);
    Json costs = Json::object();
    for (int a = 0; a < kMaxAreas; ++a) {
      if (filter_.Cost(a) != server_default.Cost(a)) costs[std::to_string(a)] = filter_.Cost(a);
    }
    filter_json_ = Json{{"area_mask", std::to_string(filter_.area_mask())}};
    if (!costs.empty()) filter_json_["area_costs"] = std::move(costs);
    absl::Status s = CheckExactPathSupport(*map_, filter_);
    if (!s.ok()) return absl::InvalidArgumentError(absl::StrCat("--exact: ", s.message()));
    return absl::OkStatus();
  }

  absl::Status PickZones() {
    for (uint32_t i = 0; i < options_.zones; ++i) {
      absl::StatusOr<std::optional<SurfacePoint>> c = query_.RandomPoint(filter_, rng_);
      if (!c.ok()) return c.status();
      if (!*c) return absl::FailedPreconditionError("the map has no walkable surface");
      zone_centres_.push_back(**c);
    }
    return absl::OkStatus();
  }

  // One request, or nullopt when this draw did not work out (the caller tries again).
  std::optional<Json> Draw(uint32_t index) {
    std::optional<SurfacePoint> start = Start(index);
    if (!start) return std::nullopt;
    Json r{{"map_id", options_.map_id}};
    switch (options_.rpc) {
      case LoadRpc::kFindPath: {
        std::optional<SurfacePoint> goal = Goal(*start);
        if (!goal || !Connected(*start, *goal)) return std::nullopt;
        r["start"] = Vec(start->pos);
        r["end"] = Vec(goal->pos);
        if (!filter_json_.is_null()) r["filter"] = filter_json_;
        if (options_.exact_paths) r["options"] = Json{{"mode", "PATH_MODE_EXACT"}};
        break;
      }
      case LoadRpc::kValidateMove: {
        const Vec3 to = Along(start->pos, Uniform(0.25f, 1.0f) * options_.move_length);
        r["start"] = Vec(start->pos);
        r["end"] = Vec(to);
        r["max_distance"] = 2 * options_.move_length;
        break;
      }
      case LoadRpc::kRaycast:
        r["start"] = Vec(start->pos);
        r["end"] = Vec(Along(start->pos, options_.ray_length));
        break;
      case LoadRpc::kRandomPoint:
        if (options_.zones > 0) {
          r["center"] = Vec(start->pos);
          r["radius"] = options_.zone_radius;
        }
        break;
      case LoadRpc::kNearestPoint:
        r["position"] = Vec(start->pos + Vec3{Uniform(-1, 1), Uniform(0, 1), Uniform(-1, 1)});
        break;
      case LoadRpc::kFindDistanceToWall:
        r["position"] = Vec(start->pos);
        r["max_radius"] = options_.query_radius;
        break;
      case LoadRpc::kFindPolygonsInCircle:
        r["center"] = Vec(start->pos);
        r["radius"] = options_.query_radius;
        break;
      case LoadRpc::kFindPathBatch:
      case LoadRpc::kValidateMoveBatch:
      case LoadRpc::kRaycastBatch:
        return std::nullopt;  // batches are made of single requests (SingleRpc)
    }
    return r;
  }

 private:
  float Uniform(float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(rng_); }

  Vec3 Along(Vec3 from, float length) {
    const float angle = Uniform(0, float(2 * M_PI));
    return {from.x + length * std::cos(angle), from.y, from.z + length * std::sin(angle)};
  }

  // Draws on a resident map from points it handed out: the queries cannot fail, so a failed
  // draw is only one more that did not work out.
  static std::optional<SurfacePoint> Drawn(absl::StatusOr<std::optional<SurfacePoint>> point) {
    return point.ok() ? *point : std::nullopt;
  }

  std::optional<SurfacePoint> Start(uint32_t index) {
    if (zone_centres_.empty()) return Drawn(query_.RandomPoint(filter_, rng_));
    const SurfacePoint& centre = zone_centres_[index % zone_centres_.size()];
    return Drawn(query_.RandomPointInCircle(centre, options_.zone_radius, filter_, rng_));
  }

  std::optional<SurfacePoint> Goal(const SurfacePoint& start) {
    if (options_.max_path_distance > 0) {
      return Drawn(query_.RandomPointInCircle(start, options_.max_path_distance, filter_, rng_));
    }
    const uint32_t island = map_->tile(start.poly.tile()).poly_island[start.poly.poly()];
    return Drawn(query_.RandomPointOnIsland(island, filter_, rng_));
  }

  bool Connected(const SurfacePoint& a, const SurfacePoint& b) {
    return query_.FindPath(a, b, filter_, path_options_, &path_).ok() &&
           path_.status == QueryStatus::kComplete;
  }

  std::shared_ptr<const NavMap> map_;
  LoadRequestOptions options_;
  NavQuery query_;
  QueryFilter filter_;
  Json filter_json_;  // null: the map's default filter
  PathOptions path_options_;
  std::mt19937_64 rng_;
  std::vector<SurfacePoint> zone_centres_;
  PathResult path_;
};

// The RPC a batch RPC is made of (itself for the others).
LoadRpc SingleRpc(LoadRpc rpc) {
  switch (rpc) {
    case LoadRpc::kFindPathBatch:
      return LoadRpc::kFindPath;
    case LoadRpc::kValidateMoveBatch:
      return LoadRpc::kValidateMove;
    case LoadRpc::kRaycastBatch:
      return LoadRpc::kRaycast;
    default:
      return rpc;
  }
}

constexpr struct {
  const char* name;
  LoadRpc rpc;
} kLoadRpcNames[] = {{"FindPath", LoadRpc::kFindPath},
                     {"FindPathBatch", LoadRpc::kFindPathBatch},
                     {"ValidateMove", LoadRpc::kValidateMove},
                     {"ValidateMoveBatch", LoadRpc::kValidateMoveBatch},
                     {"Raycast", LoadRpc::kRaycast},
                     {"RaycastBatch", LoadRpc::kRaycastBatch},
                     {"RandomPoint", LoadRpc::kRandomPoint},
                     {"NearestPoint", LoadRpc::kNearestPoint},
                     {"FindDistanceToWall", LoadRpc::kFindDistanceToWall},
                     {"FindPolygonsInCircle", LoadRpc::kFindPolygonsInCircle}};

absl::Status CheckOptions(const LoadRequestOptions& o) {
  if (o.map_id.empty()) return absl::InvalidArgumentError("--map-id: must not be empty");
  if (o.count == 0 || o.count > kMaxRequests) {
    return absl::InvalidArgumentError(
        absl::StrCat("--count: ", o.count, " is not in 1..", kMaxRequests));
  }
  auto positive = [](float v) { return std::isfinite(v) && v > 0; };
  if (o.zones > 0 && !positive(o.zone_radius)) {
    return absl::InvalidArgumentError("--zone-radius: must be a positive number of metres");
  }
  if (!(std::isfinite(o.max_path_distance) && o.max_path_distance >= 0)) {
    return absl::InvalidArgumentError("--max-path-distance: must be >= 0 metres");
  }
  if (o.exact_paths && SingleRpc(o.rpc) != LoadRpc::kFindPath) {
    return absl::InvalidArgumentError("--exact: only for FindPath and FindPathBatch");
  }
  if (!positive(o.move_length)) return absl::InvalidArgumentError("--move-length: must be > 0");
  if (!positive(o.ray_length)) return absl::InvalidArgumentError("--ray-length: must be > 0");
  if (!positive(o.query_radius)) return absl::InvalidArgumentError("--radius: must be > 0");
  if (SingleRpc(o.rpc) != o.rpc && (o.batch_size == 0 || o.batch_size > kMaxBatchSize)) {
    return absl::InvalidArgumentError(
        absl::StrCat("--batch-size: ", o.batch_size, " is not in 1..", kMaxBatchSize));
  }
  if (SingleRpc(o.rpc) != o.rpc && uint64_t{o.count} * o.batch_size > kMaxRequests) {
    return absl::InvalidArgumentError(
        absl::StrCat("--count x --batch-size: more than ", kMaxRequests, " requests"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<LoadRpc> ParseLoadRpc(const std::string& name) {
  std::vector<std::string> names;
  for (const auto& entry : kLoadRpcNames) {
    if (name == entry.name) return entry.rpc;
    names.push_back(entry.name);
  }
  return absl::InvalidArgumentError(
      absl::StrCat("--rpc: '", name, "' is not one of ", absl::StrJoin(names, ", ")));
}

absl::StatusOr<std::string> GenerateLoadRequests(std::shared_ptr<const NavMap> map,
                                                 const LoadRequestOptions& options) {
  if (absl::Status s = CheckOptions(options); !s.ok()) return s;
  if (map->paged()) return absl::InvalidArgumentError("load requests need a resident map");
  LoadRequestOptions single = options;
  single.rpc = SingleRpc(options.rpc);
  const bool batch = single.rpc != options.rpc;
  const uint32_t per_message = batch ? options.batch_size : 1;
  RequestSampler sampler(std::move(map), single);
  if (absl::Status s = sampler.ChooseExactFilter(); !s.ok()) return s;
  if (absl::Status s = sampler.PickZones(); !s.ok()) return s;
  std::string out = "[\n";
  uint32_t index = 0;
  for (uint32_t m = 0; m < options.count; ++m) {
    Json requests = Json::array();
    for (uint32_t j = 0; j < per_message; ++j, ++index) {
      std::optional<Json> r;
      for (int attempt = 0; attempt < kTriesPerRequest && !r; ++attempt) r = sampler.Draw(index);
      if (!r) {
        return absl::FailedPreconditionError(absl::StrCat(
            "request ", index, ": no valid sample in ", kTriesPerRequest,
            " tries (no walkable surface, or zones / distances too small for this map)"));
      }
      requests.push_back(*std::move(r));
    }
    const Json message = batch ? Json{{"requests", std::move(requests)}} : requests[0];
    // One message a line: diffable, and any JSON reader takes it.
    absl::StrAppend(&out, " ", message.dump(), m + 1 < options.count ? ",\n" : "\n");
  }
  return out + "]\n";
}

}  // namespace waymesh
