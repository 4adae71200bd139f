#pragma once
// Dynamic obstacles as callers describe them: a shape in the map's frame and what it does to the
// walkable surface under it (issue 29). Pure data plus validation; footprint.h turns an obstacle
// into the plan-view polygon that carving cuts with.

#include <array>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "waymesh/core/vec3.h"

namespace waymesh {

// Most outline points a prism may have: carving cost grows with footprint edges.
inline constexpr int kMaxPrismVertices = 64;

// A vertical cylinder; its height range is centre.y ± height / 2.
struct CylinderShape {
  Vec3 center;
  float radius = 0;
  float height = 0;

  bool operator==(const CylinderShape&) const = default;
};

// An oriented box turned by `yaw_deg` about the Y axis (Unity's sense: a positive yaw turns +X
// towards -Z); its height range is centre.y ± half_extents.y.
struct BoxShape {
  Vec3 center;
  Vec3 half_extents;
  float yaw_deg = 0;

  bool operator==(const BoxShape&) const = default;
};

// A convex outline in plan view ([x, z] points, either winding) between two heights.
struct PrismShape {
  std::vector<std::array<float, 2>> points;
  float y_min = 0;
  float y_max = 0;

  bool operator==(const PrismShape&) const = default;
};

using ObstacleShape = std::variant<CylinderShape, BoxShape, PrismShape>;

enum class ObstacleEffect : uint8_t {
  kBlock,  // the footprint, grown by the agent radius, is cut out of the walkable surface
  kArea,   // polygons under the footprint take `Obstacle::area` (filters and costs apply)
};

struct Obstacle {
  std::string id;  // the caller's name, used in errors
  ObstacleShape shape;
  ObstacleEffect effect = ObstacleEffect::kBlock;
  uint8_t area = 0;  // 0..63, for ObstacleEffect::kArea

  bool operator==(const Obstacle&) const = default;
};

// OK when `obstacle` can be carved; otherwise InvalidArgument naming the obstacle id and the
// field (non-finite numbers, radius or extents <= 0, y_min > y_max, non-convex or too large
// prism outline, area id out of range, coordinates beyond tol::kMaxCoordinate).
absl::Status ValidateObstacle(const Obstacle& obstacle);

}  // namespace waymesh
