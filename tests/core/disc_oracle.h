#pragma once
// Brute force for the circle queries (FindDistanceToWall, FindPolygonsInCircle): which polygons
// of a resident map are reachable from a point without leaving a disc, and the walls among
// their edges. Written from the definitions in double precision, sharing no code with core.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <set>
#include <utility>
#include <vector>

#include "waymesh/core/nav_map.h"
#include "waymesh/core/query_filter.h"

namespace waymesh::testing {

// Plan-view distance from p to segment ab.
inline double SegmentDistanceXZ(Vec3 a, Vec3 b, Vec3 p) {
  const double dx = double(b.x) - a.x, dz = double(b.z) - a.z;
  const double len_sq = dx * dx + dz * dz;
  double t = len_sq > 0 ? ((double(p.x) - a.x) * dx + (double(p.z) - a.z) * dz) / len_sq : 0;
  t = std::clamp(t, 0.0, 1.0);
  return std::hypot(a.x + t * dx - p.x, a.z + t * dz - p.z);
}

class DiscOracle {
 public:
  using Key = std::pair<uint32_t, uint32_t>;  // tile, polygon

  // An edge whose distance is this close to the radius (metres) may be judged either way by
  // float arithmetic: a comparison touching one is ambiguous and skipped.
  static constexpr double kEdgeTie = 1e-4;

  DiscOracle(const NavMap& map, const QueryFilter& filter) : map_(map), filter_(filter) {}

  bool Passes(Key k) const {
    const TileView& t = map_.tile(k.first);
    return filter_.Passes(t.poly_area[k.second], t.poly_flags[k.second]);
  }

  // Polygons reachable from `start` through edges to accepted polygons within `radius` of
  // `center` (plan view), by graph search. `ambiguous` is set when some edge's distance ties
  // with the radius.
  std::set<Key> Reachable(Key start, Vec3 center, double radius, bool* ambiguous) const {
    std::set<Key> seen{start};
    std::vector<Key> todo{start};
    *ambiguous = false;
    while (!todo.empty()) {
      const Key k = todo.back();
      todo.pop_back();
      const TileView& t = map_.tile(k.first);
      const uint32_t n = t.corner_count(k.second);
      for (uint32_t i = 0; i < n; ++i) {
        const auto nb = t.across(t.poly_start[k.second] + i);
        if (!nb || !Passes({nb->tile, nb->poly})) continue;
        const double d =
            SegmentDistanceXZ(t.corner(k.second, i), t.corner(k.second, (i + 1) % n), center);
        if (std::fabs(d - radius) < kEdgeTie) *ambiguous = true;
        if (d > radius) continue;
        if (seen.insert(Key{nb->tile, nb->poly}).second) todo.push_back({nb->tile, nb->poly});
      }
    }
    return seen;
  }

  // Whether edge i of polygon k is a wall: no neighbour, or one the filter rejects.
  bool IsWall(Key k, uint32_t i) const {
    const TileView& t = map_.tile(k.first);
    const auto nb = t.across(t.poly_start[k.second] + i);
    return !nb || !Passes({nb->tile, nb->poly});
  }

  // Smallest plan-view distance from `center` to a wall edge of the polygons in `set`
  // (INFINITY when they have none).
  double NearestWall(const std::set<Key>& set, Vec3 center) const {
    double best = INFINITY;
    for (const Key& k : set) best = std::min(best, NearestWallOf(k, center));
    return best;
  }

  double NearestWallOf(Key k, Vec3 center) const {
    const TileView& t = map_.tile(k.first);
    const uint32_t n = t.corner_count(k.second);
    double best = INFINITY;
    for (uint32_t i = 0; i < n; ++i) {
      if (!IsWall(k, i)) continue;
      best = std::min(
          best, SegmentDistanceXZ(t.corner(k.second, i), t.corner(k.second, (i + 1) % n), center));
    }
    return best;
  }

 private:
  const NavMap& map_;
  const QueryFilter& filter_;
};

}  // namespace waymesh::testing
