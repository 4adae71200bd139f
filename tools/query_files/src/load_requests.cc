#include "waymesh/query_files/load_requests.h"

#include <cmath>
#include <optional>
#include <random>
#include <vector>

#include "absl/strings/str_cat.h"
#include "nlohmann/json.hpp"
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
        break;
      }
      case LoadRpc::kValidateMove: {
        const Vec3 to = Along(start->pos, Uniform(0.25f, 1.0f) * options_.move_length);
        r["from"] = Vec(start->pos);
        r["to"] = Vec(to);
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
    PathOptions po;
    return query_.FindPath(a, b, filter_, po, &path_).ok() &&
           path_.status == QueryStatus::kComplete;
  }

  std::shared_ptr<const NavMap> map_;
  LoadRequestOptions options_;
  NavQuery query_;
  QueryFilter filter_;
  std::mt19937_64 rng_;
  std::vector<SurfacePoint> zone_centres_;
  PathResult path_;
};

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
  if (!positive(o.move_length)) return absl::InvalidArgumentError("--move-length: must be > 0");
  if (!positive(o.ray_length)) return absl::InvalidArgumentError("--ray-length: must be > 0");
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<LoadRpc> ParseLoadRpc(const std::string& name) {
  if (name == "FindPath") return LoadRpc::kFindPath;
  if (name == "ValidateMove") return LoadRpc::kValidateMove;
  if (name == "Raycast") return LoadRpc::kRaycast;
  if (name == "RandomPoint") return LoadRpc::kRandomPoint;
  if (name == "NearestPoint") return LoadRpc::kNearestPoint;
  return absl::InvalidArgumentError(
      absl::StrCat("--rpc: '", name,
                   "' is not one of FindPath, ValidateMove, Raycast, RandomPoint, NearestPoint"));
}

absl::StatusOr<std::string> GenerateLoadRequests(std::shared_ptr<const NavMap> map,
                                                 const LoadRequestOptions& options) {
  if (absl::Status s = CheckOptions(options); !s.ok()) return s;
  if (map->paged()) return absl::InvalidArgumentError("load requests need a resident map");
  RequestSampler sampler(std::move(map), options);
  if (absl::Status s = sampler.PickZones(); !s.ok()) return s;
  std::string out = "[\n";
  for (uint32_t i = 0; i < options.count; ++i) {
    std::optional<Json> r;
    for (int attempt = 0; attempt < kTriesPerRequest && !r; ++attempt) r = sampler.Draw(i);
    if (!r) {
      return absl::FailedPreconditionError(absl::StrCat(
          "request ", i, ": no valid sample in ", kTriesPerRequest,
          " tries (no walkable surface, or zones / distances too small for this map)"));
    }
    // One request a line: diffable, and any JSON reader takes it.
    absl::StrAppend(&out, " ", r->dump(), i + 1 < options.count ? ",\n" : "\n");
  }
  return out + "]\n";
}

}  // namespace waymesh
