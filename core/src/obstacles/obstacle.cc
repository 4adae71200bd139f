#include "waymesh/core/obstacles/obstacle.h"

#include <cmath>

#include "absl/strings/str_format.h"
#include "waymesh/core/nav_map.h"
#include "waymesh/core/tolerances.h"

namespace waymesh {
namespace {

// Twice the area under which a prism outline (m²) or one of its corners counts as degenerate.
constexpr double kMinOutlineArea2 = 1e-8;

bool FiniteInRange(double v) { return std::isfinite(v) && std::fabs(v) <= tol::kMaxCoordinate; }

absl::Status Bad(const Obstacle& o, const char* field, const std::string& why) {
  return absl::InvalidArgumentError(
      absl::StrFormat("obstacle \"%s\": field %s %s", o.id, field, why));
}

absl::Status CheckVec(const Obstacle& o, const char* field, Vec3 v) {
  if (!FiniteInRange(v.x) || !FiniteInRange(v.y) || !FiniteInRange(v.z)) {
    return Bad(o, field, "is not finite or beyond the coordinate limit");
  }
  return absl::OkStatus();
}

absl::Status CheckCylinder(const Obstacle& o, const CylinderShape& c) {
  if (absl::Status s = CheckVec(o, "center", c.center); !s.ok()) return s;
  if (!FiniteInRange(c.radius) || !(c.radius > 0)) return Bad(o, "radius", "must be > 0");
  if (!FiniteInRange(c.height) || !(c.height >= 0)) return Bad(o, "height", "must be >= 0");
  return absl::OkStatus();
}

absl::Status CheckBox(const Obstacle& o, const BoxShape& b) {
  if (absl::Status s = CheckVec(o, "center", b.center); !s.ok()) return s;
  if (absl::Status s = CheckVec(o, "half_extents", b.half_extents); !s.ok()) return s;
  if (!(b.half_extents.x > 0) || !(b.half_extents.z > 0) || !(b.half_extents.y >= 0)) {
    return Bad(o, "half_extents", "must be > 0 in x and z and >= 0 in y");
  }
  if (!std::isfinite(b.yaw_deg)) return Bad(o, "yaw_deg", "is not finite");
  return absl::OkStatus();
}

// Every turn the same way and the turns adding up to one revolution: a convex simple outline.
absl::Status CheckConvex(const Obstacle& o, const std::vector<std::array<float, 2>>& pts) {
  const size_t n = pts.size();
  int sign = 0;
  double turning = 0;
  for (size_t i = 0; i < n; ++i) {
    const auto& a = pts[i];
    const auto& b = pts[(i + 1) % n];
    const auto& c = pts[(i + 2) % n];
    const double ux = double(b[0]) - a[0], uz = double(b[1]) - a[1];
    const double vx = double(c[0]) - b[0], vz = double(c[1]) - b[1];
    const double cross = ux * vz - uz * vx;
    if (std::fabs(cross) <= kMinOutlineArea2) {
      return Bad(
          o, "points",
          absl::StrFormat("has a straight or repeated corner at point %d", int((i + 1) % n)));
    }
    const int s = cross > 0 ? 1 : -1;
    if (sign != 0 && s != sign) {
      return Bad(o, "points", absl::StrFormat("is not convex at point %d", int((i + 1) % n)));
    }
    sign = s;
    turning += std::atan2(cross, ux * vx + uz * vz);
  }
  if (std::fabs(std::fabs(turning) - 2 * M_PI) > 1e-3) {
    return Bad(o, "points", "winds around more than once (self-intersecting)");
  }
  return absl::OkStatus();
}

absl::Status CheckPrism(const Obstacle& o, const PrismShape& p) {
  if (p.points.size() < 3 || p.points.size() > size_t(kMaxPrismVertices)) {
    return Bad(o, "points",
               absl::StrFormat("has %d points (3 to %d allowed)", int(p.points.size()),
                               kMaxPrismVertices));
  }
  for (size_t i = 0; i < p.points.size(); ++i) {
    if (!FiniteInRange(p.points[i][0]) || !FiniteInRange(p.points[i][1])) {
      return Bad(o, "points",
                 absl::StrFormat("point %d is not finite or beyond the coordinate limit", int(i)));
    }
  }
  if (!FiniteInRange(p.y_min)) return Bad(o, "y_min", "is not finite");
  if (!FiniteInRange(p.y_max)) return Bad(o, "y_max", "is not finite");
  if (p.y_min > p.y_max) return Bad(o, "y_min", "is above y_max");
  return CheckConvex(o, p.points);
}

}  // namespace

absl::Status ValidateObstacle(const Obstacle& o) {
  if (o.id.empty()) return absl::InvalidArgumentError("obstacle with an empty id");
  if (o.effect == ObstacleEffect::kArea && o.area >= kMaxAreas) {
    return Bad(o, "area", absl::StrFormat("%d is out of range (0 to %d)", o.area, kMaxAreas - 1));
  }
  if (const auto* c = std::get_if<CylinderShape>(&o.shape)) return CheckCylinder(o, *c);
  if (const auto* b = std::get_if<BoxShape>(&o.shape)) return CheckBox(o, *b);
  return CheckPrism(o, std::get<PrismShape>(o.shape));
}

}  // namespace waymesh
