#include "waymesh/server/obstacle_requests.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "waymesh/server/error_model.h"
#include "waymesh/server/proto_conversion.h"
#include "waymesh/server/request_validation.h"

namespace waymesh::server {
namespace {

// Longest obstacle id: ids come back in errors and in GetObstacleLayer.
constexpr size_t kMaxObstacleIdLength = 128;

absl::Status PrismLimit(int points, const ObstacleLayerLimits& limits, absl::string_view field) {
  if (points <= static_cast<int>(limits.max_prism_vertices)) return absl::OkStatus();
  return WithReason(absl::ResourceExhaustedError(absl::StrCat(
                        field, ": ", points, " outline points; at most ",
                        limits.max_prism_vertices, " (--max-prism-vertices)")),
                    reason::kObstacleLimitExceeded, "limit", "max-prism-vertices");
}

// The shape of `o`, or a violation of `field` (the obstacle's path in the request).
absl::StatusOr<ObstacleShape> ShapeFromProto(const v1::Obstacle& o,
                                             const ObstacleLayerLimits& limits,
                                             const std::string& field) {
  switch (o.shape_case()) {
    case v1::Obstacle::kCylinder:
      return CylinderShape{FromProto(o.cylinder().center()), o.cylinder().radius(),
                           o.cylinder().height()};
    case v1::Obstacle::kBox:
      return BoxShape{FromProto(o.box().center()), FromProto(o.box().half_extents()),
                      o.box().yaw_deg()};
    case v1::Obstacle::kPrism: {
      if (absl::Status s = PrismLimit(o.prism().points_size(), limits, field + ".prism.points");
          !s.ok()) {
        return s;
      }
      PrismShape prism{{}, o.prism().y_min(), o.prism().y_max()};
      for (const v1::PlanPoint& p : o.prism().points()) prism.points.push_back({p.x(), p.z()});
      return prism;
    }
    case v1::Obstacle::SHAPE_NOT_SET:
      break;
  }
  return FieldViolation(field, "one of cylinder, box or prism is required");
}

absl::StatusOr<Obstacle> ObstacleFromProto(const v1::Obstacle& o, const ObstacleLayerLimits& limits,
                                           const std::string& field) {
  if (o.id().empty()) return FieldViolation(field + ".id", "is required");
  if (o.id().size() > kMaxObstacleIdLength) {
    return FieldViolation(field + ".id", absl::StrCat("is ", o.id().size(),
                                                      " bytes long, the limit is ",
                                                      kMaxObstacleIdLength));
  }
  Obstacle obstacle;
  obstacle.id = o.id();
  absl::StatusOr<ObstacleShape> shape = ShapeFromProto(o, limits, field);
  if (!shape.ok()) return shape.status();
  obstacle.shape = *std::move(shape);
  switch (o.effect()) {
    case v1::OBSTACLE_EFFECT_BLOCK:
      obstacle.effect = ObstacleEffect::kBlock;
      if (o.area() != 0) return FieldViolation(field + ".area", "is only for OBSTACLE_EFFECT_AREA");
      break;
    case v1::OBSTACLE_EFFECT_AREA:
      obstacle.effect = ObstacleEffect::kArea;
      if (o.area() >= kMaxAreas) {
        return FieldViolation(field + ".area",
                              absl::StrCat(o.area(), " is not an area id (0..", kMaxAreas - 1, ")"));
      }
      obstacle.area = static_cast<uint8_t>(o.area());
      break;
    default:
      return FieldViolation(field + ".effect",
                            "must be OBSTACLE_EFFECT_BLOCK or OBSTACLE_EFFECT_AREA");
  }
  // The geometry: finite numbers, positive sizes, a convex outline (it names the id and field).
  if (absl::Status s = ValidateObstacle(obstacle); !s.ok()) {
    return FieldViolation(field, s.message());
  }
  return obstacle;
}

}  // namespace

absl::StatusOr<std::vector<Obstacle>> ObstaclesFromProto(
    const google::protobuf::RepeatedPtrField<v1::Obstacle>& obstacles, absl::string_view field,
    const ObstacleLayerLimits& limits) {
  if (static_cast<uint64_t>(obstacles.size()) > limits.max_obstacles_per_layer) {
    return WithReason(absl::ResourceExhaustedError(absl::StrCat(
                          field, ": ", obstacles.size(), " obstacles; a layer holds at most ",
                          limits.max_obstacles_per_layer, " (--max-obstacles-per-layer)")),
                      reason::kObstacleLimitExceeded, "limit", "max-obstacles-per-layer");
  }
  std::vector<Obstacle> out;
  out.reserve(obstacles.size());
  for (int i = 0; i < obstacles.size(); ++i) {
    absl::StatusOr<Obstacle> o =
        ObstacleFromProto(obstacles[i], limits, absl::StrCat(field, "[", i, "]"));
    if (!o.ok()) return o.status();
    out.push_back(*std::move(o));
  }
  return out;
}

void ObstacleToProto(const Obstacle& obstacle, v1::Obstacle* out) {
  out->set_id(obstacle.id);
  if (const auto* c = std::get_if<CylinderShape>(&obstacle.shape)) {
    ToProto(c->center, out->mutable_cylinder()->mutable_center());
    out->mutable_cylinder()->set_radius(c->radius);
    out->mutable_cylinder()->set_height(c->height);
  } else if (const auto* b = std::get_if<BoxShape>(&obstacle.shape)) {
    ToProto(b->center, out->mutable_box()->mutable_center());
    ToProto(b->half_extents, out->mutable_box()->mutable_half_extents());
    out->mutable_box()->set_yaw_deg(b->yaw_deg);
  } else if (const auto* p = std::get_if<PrismShape>(&obstacle.shape)) {
    for (const auto& [x, z] : p->points) {
      v1::PlanPoint* point = out->mutable_prism()->add_points();
      point->set_x(x);
      point->set_z(z);
    }
    out->mutable_prism()->set_y_min(p->y_min);
    out->mutable_prism()->set_y_max(p->y_max);
  }
  if (obstacle.effect == ObstacleEffect::kBlock) {
    out->set_effect(v1::OBSTACLE_EFFECT_BLOCK);
  } else {
    out->set_effect(v1::OBSTACLE_EFFECT_AREA);
    out->set_area(obstacle.area);
  }
}

absl::Status ValidateLayerTarget(absl::string_view map_id, absl::string_view agent_type,
                                 absl::string_view layer) {
  if (absl::Status s = ValidateMapId(map_id); !s.ok()) return s;
  if (absl::Status s = ValidateAgentType(agent_type); !s.ok()) return s;
  return ValidateLayerName(layer);
}

absl::Status ValidatePutObstacleLayer(const v1::PutObstacleLayerRequest& r) {
  if (absl::Status s = ValidateLayerTarget(r.map_id(), r.agent_type(), r.layer()); !s.ok()) {
    return s;
  }
  if (r.version() == 0) return FieldViolation("version", "must be > 0");
  return absl::OkStatus();
}

absl::Status ValidateUpdateObstacleLayer(const v1::UpdateObstacleLayerRequest& r) {
  if (absl::Status s = ValidateLayerTarget(r.map_id(), r.agent_type(), r.layer()); !s.ok()) {
    return s;
  }
  if (r.base_version() == 0) return FieldViolation("base_version", "must be > 0");
  if (r.version() <= r.base_version()) {
    return FieldViolation("version", absl::StrCat(r.version(), " must be > base_version (",
                                                  r.base_version(), ")"));
  }
  for (int i = 0; i < r.remove_size(); ++i) {
    if (r.remove(i).empty()) return FieldViolation(absl::StrCat("remove[", i, "]"), "is empty");
  }
  return absl::OkStatus();
}

}  // namespace waymesh::server
