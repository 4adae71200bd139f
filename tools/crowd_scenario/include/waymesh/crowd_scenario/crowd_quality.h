#pragma once
// How well a crowd behaved, judged from the agents' positions alone so that Waymesh's crowd and
// Detour's are measured the same way on the same map: overlapping pairs, the deepest overlap,
// each centre's clearance from the nearest wall (its radius is owed), and positions that are
// not on the surface at all.

#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "waymesh/core/nav_map.h"
#include "waymesh/core/nav_query.h"
#include "waymesh/core/vec3.h"

namespace waymesh {

struct MeteredAgent {
  Vec3 pos;
  float radius = 0.5f;
  bool on_surface = true;  // false while crossing an off-mesh link: not judged against walls
};

struct CrowdQuality {
  uint64_t agent_ticks = 0;
  // Agent pairs whose discs intersect by more than tol::kCrowdOverlapFraction of the smaller
  // radius, summed over ticks; the deepest intersection (metres).
  uint64_t overlap_pairs = 0;
  float worst_overlap = 0;
  // Smallest (distance from a centre to the nearest wall - radius) over agent-ticks (metres;
  // negative: closer than its radius), and agent-ticks below -tol::kCrowdWallPenetration.
  float min_wall_clearance = std::numeric_limits<float>::infinity();
  uint64_t wall_penetrations = 0;
  // Agent-ticks whose position is not on the walkable surface (tol::kCrowdOnSurface).
  uint64_t off_mesh = 0;
};

class CrowdQualityMeter {
 public:
  explicit CrowdQualityMeter(std::shared_ptr<const NavMap> map);

  // Adds one tick's agents.
  void AddTick(std::span<const MeteredAgent> agents);
  // Judges the ticks from now on against `map` (a version of the map an obstacle changed).
  void SetMap(std::shared_ptr<const NavMap> map);
  const CrowdQuality& quality() const { return quality_; }

 private:
  void CountOverlaps(std::span<const MeteredAgent> agents);
  void MeasureWalls(const MeteredAgent& agent);

  NavQuery query_;
  std::vector<WallSegment> walls_;
  std::vector<std::pair<uint64_t, uint32_t>> cells_;  // (cell key, agent index), sorted
  CrowdQuality quality_;
};

}  // namespace waymesh
