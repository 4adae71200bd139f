#pragma once
// The plan-view region an obstacle carves: a convex polygon plus a height range.

#include <vector>

#include "waymesh/core/nav_map.h"
#include "waymesh/core/obstacles/obstacle.h"

namespace waymesh {

// Sides of the regular polygon standing for a circle (a cylinder, or the agent radius around a
// box corner). The polygon's circumradius is r / cos(pi / n), so it contains the circle.
inline constexpr int kCircleSegments = 16;

// A point of a footprint outline in plan view, in double so that every polygon cut by one
// footprint edge computes the same crossing points.
struct PlanPoint {
  double x = 0;
  double z = 0;
};

struct Footprint {
  std::vector<PlanPoint> outline;  // convex, map winding (TriArea2XZ > 0), no repeated point
  double y_min = 0;                // surfaces whose heights reach into [y_min, y_max] are cut
  double y_max = 0;
  ObstacleEffect effect = ObstacleEffect::kBlock;
  uint8_t area = 0;
};

// The footprint of a valid obstacle (ValidateObstacle) on a map baked for `agent`. A block
// footprint grows conservatively by the agent radius in plan view (it contains the Minkowski sum
// of the shape and the agent's circle), and downwards by the agent height: an agent standing
// under an obstacle's bottom would hit it. An area footprint is the shape itself.
Footprint ObstacleFootprint(const Obstacle& obstacle, const AgentSettings& agent);

// Signed plan-view distance (metres) of (x, z) from the outline's boundary: > 0 inside (the
// smallest distance to an edge line), < 0 outside.
double InsideDepth(const Footprint& footprint, double x, double z);

// Twice the signed plan-view area of `outline` (> 0 in the map winding).
double SignedArea2(const std::vector<PlanPoint>& outline);

}  // namespace waymesh
