#include "waymesh/core/obstacles/footprint.h"

#include <algorithm>
#include <cmath>

namespace waymesh {
namespace {

double Cross(const PlanPoint& o, const PlanPoint& a, const PlanPoint& b) {
  return (a.x - o.x) * (b.z - o.z) - (b.x - o.x) * (a.z - o.z);
}

// Convex hull in the map winding (Andrew's monotone chain); drops collinear points.
std::vector<PlanPoint> ConvexHull(std::vector<PlanPoint> pts) {
  std::sort(pts.begin(), pts.end(), [](const PlanPoint& a, const PlanPoint& b) {
    return a.x < b.x || (a.x == b.x && a.z < b.z);
  });
  if (pts.size() < 3) return pts;
  std::vector<PlanPoint> hull(2 * pts.size());
  size_t k = 0;
  for (size_t i = 0; i < pts.size(); ++i) {
    while (k >= 2 && Cross(hull[k - 2], hull[k - 1], pts[i]) <= 0) --k;
    hull[k++] = pts[i];
  }
  for (size_t i = pts.size() - 1, t = k + 1; i > 0; --i) {
    while (k >= t && Cross(hull[k - 2], hull[k - 1], pts[i - 1]) <= 0) --k;
    hull[k++] = pts[i - 1];
  }
  hull.resize(k - 1);
  return hull;
}

// A regular polygon around (cx, cz) containing the circle of radius r.
void AppendCirclePolygon(double cx, double cz, double r, std::vector<PlanPoint>* out) {
  const double reach = r / std::cos(M_PI / kCircleSegments);
  for (int i = 0; i < kCircleSegments; ++i) {
    const double a = 2 * M_PI * i / kCircleSegments;
    out->push_back({cx + reach * std::cos(a), cz + reach * std::sin(a)});
  }
}

// The shape's own outline, its height range in (*y_min, *y_max).
std::vector<PlanPoint> ShapeOutline(const ObstacleShape& shape, double* y_min, double* y_max) {
  std::vector<PlanPoint> pts;
  if (const auto* c = std::get_if<CylinderShape>(&shape)) {
    *y_min = double(c->center.y) - 0.5 * c->height;
    *y_max = double(c->center.y) + 0.5 * c->height;
    AppendCirclePolygon(c->center.x, c->center.z, c->radius, &pts);
  } else if (const auto* b = std::get_if<BoxShape>(&shape)) {
    *y_min = double(b->center.y) - b->half_extents.y;
    *y_max = double(b->center.y) + b->half_extents.y;
    const double yaw = double(b->yaw_deg) * M_PI / 180.0;
    const double cs = std::cos(yaw), sn = std::sin(yaw);
    for (const auto& [sx, sz] : {std::pair{-1, -1}, {1, -1}, {1, 1}, {-1, 1}}) {
      const double lx = sx * double(b->half_extents.x), lz = sz * double(b->half_extents.z);
      pts.push_back({b->center.x + lx * cs + lz * sn, b->center.z - lx * sn + lz * cs});
    }
  } else {
    const auto& p = std::get<PrismShape>(shape);
    *y_min = p.y_min;
    *y_max = p.y_max;
    for (const auto& q : p.points) pts.push_back({q[0], q[1]});
  }
  return pts;
}

}  // namespace

double InsideDepth(const Footprint& footprint, double x, double z) {
  double depth = INFINITY;
  const std::vector<PlanPoint>& o = footprint.outline;
  for (size_t i = 0; i < o.size(); ++i) {
    const PlanPoint& a = o[i];
    const PlanPoint& b = o[(i + 1) % o.size()];
    const double dx = b.x - a.x, dz = b.z - a.z;
    depth = std::min(depth, (dx * (z - a.z) - dz * (x - a.x)) / std::hypot(dx, dz));
  }
  return depth;
}

double SignedArea2(const std::vector<PlanPoint>& outline) {
  double sum = 0;
  for (size_t i = 0, n = outline.size(); i < n; ++i) {
    const PlanPoint& a = outline[i];
    const PlanPoint& b = outline[(i + 1) % n];
    sum += a.x * b.z - b.x * a.z;
  }
  return sum;
}

Footprint ObstacleFootprint(const Obstacle& obstacle, const AgentSettings& agent) {
  Footprint f;
  f.effect = obstacle.effect;
  f.area = obstacle.area;
  std::vector<PlanPoint> pts = ShapeOutline(obstacle.shape, &f.y_min, &f.y_max);
  if (obstacle.effect == ObstacleEffect::kBlock) {
    const double r = std::max(0.0f, agent.radius);
    if (const auto* c = std::get_if<CylinderShape>(&obstacle.shape)) {
      pts.clear();
      AppendCirclePolygon(c->center.x, c->center.z, double(c->radius) + r, &pts);
    } else if (r > 0) {
      // Minkowski sum with the agent's disc, conservatively: the hull of a circle polygon at
      // every corner.
      std::vector<PlanPoint> grown;
      for (const PlanPoint& p : pts) AppendCirclePolygon(p.x, p.z, r, &grown);
      pts = std::move(grown);
    }
    f.y_min -= std::max(0.0f, agent.height);
  }
  f.outline = ConvexHull(std::move(pts));
  return f;
}

}  // namespace waymesh
