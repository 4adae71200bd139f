#pragma once
// An independent oracle for shortest paths in plan view: the exact Euclidean shortest path
// between two points of a closed polygonal region with holes, by Dijkstra over its visibility
// graph. The region is built with Clipper (a map's polygons minus the block footprints), never
// from the carving code, and the predicates are exact integer arithmetic on Clipper's
// coordinates, so the oracle shares neither code nor rounding with core.
//
// Nodes are the region's reflex corners (a shortest path bends nowhere else), the points where
// its outline meets itself, and the two ends; a segment joins two nodes when it stays in the
// closed region: it properly crosses no outline edge, and the midpoint of each piece between
// the outline vertices it passes through lies inside or on the outline. A segment that cannot
// be the edge of a shortest path (it would cut through the corner at one of its node ends: the
// corner's two outline edges lie strictly on both sides of it) is left out; a path through that
// corner without bending there is the straight segment past it, which is tested on its own.
// The outline is Clipper's ring edges, cut where other vertices lie on them, less the pieces
// two rings share (the region is on both sides).

#include <cstdint>
#include <optional>
#include <polyclipping/clipper.hpp>
#include <span>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "waymesh/core/nav_map.h"
#include "waymesh/core/obstacles/footprint.h"

namespace waymesh::testing {

// A plan-view point in oracle units.
struct OraclePoint {
  int64_t x = 0;
  int64_t z = 0;
  bool operator==(const OraclePoint&) const = default;
};

// Clipper units per metre for the oracle's regions: 1 µm. Maps within ±1000 m stay inside
// Clipper's fast 64-bit range (±1.07e9 units); the predicates multiply in 128 bits anyway.
inline constexpr double kOracleUnitsPerMetre = 1e6;

// A plan-view region as Clipper rings in kOracleUnitsPerMetre units (Clipper's X = x, Y = z)
// in the form Clipper's boolean operations give: rings that do not cross, outer rings with
// positive orientation and holes negative, so the region lies left of every directed edge.
// Rings may touch at vertices and share edges (Clipper sometimes cuts one piece of region in
// two along an edge).
using PlanRegion = ClipperLib::Paths;

// The union of `map`'s polygons in plan view minus the union of the block footprints among
// `footprints` (area footprints are ignored). Plan view fits single-floor maps: on stacked
// floors the union would join surfaces that do not touch.
// `slack` (metres) > 0 gives a region containing the free region grown by `slack` (each
// polygon grown, each footprint shrunk, mitred: no point is more than 2 slack beyond it);
// `slack` < 0 the map's polygons minus the footprints each grown by |slack|, which holds what
// is left of the free region where float rounding moves the footprint edges by less than that.
PlanRegion PlanFreeRegion(const NavMap& map, std::span<const Footprint> footprints,
                          double slack = 0);

// The free region of PlanFreeRegion kept `margin` metres (> 0) off the map's outline and off
// every block footprint (mitred): a subset of the free region in which places where two map
// polygons meet only at a corner (no path on the mesh passes there) come apart.
PlanRegion PlanFreeRegionKeptOff(const NavMap& map, std::span<const Footprint> footprints,
                                 double margin);

// A region from rings in metres, each ring counter-clockwise in (x, z) for surface and
// clockwise for holes (non-zero fill: a clockwise ring inside a counter-clockwise one cuts it,
// overlapping counter-clockwise rings join).
PlanRegion PlanRegionFromRings(const std::vector<std::vector<PlanPoint>>& rings);

class VisibilityGraphOracle {
 public:
  // Builds the graph between the region's reflex corners: O(V^2) pair tests, each walking the
  // grid cells along the segment.
  explicit VisibilityGraphOracle(const PlanRegion& region);

  // Whether plan point p (rounded to units) lies in the closed region.
  bool Contains(PlanPoint p) const;
  // Whether the segment a-b (ends rounded to units) lies in the closed region.
  bool SegmentInside(PlanPoint a, PlanPoint b) const;
  // Length (metres) of the shortest path from `a` to `b` inside the closed region (ends
  // rounded to units), nullopt when none exists. InvalidArgument naming the end and its
  // position when an end is outside the region.
  absl::StatusOr<std::optional<double>> ShortestPath(PlanPoint a, PlanPoint b) const;

  size_t corner_count() const { return corners_.size(); }    // reflex corners (graph nodes)
  size_t edge_count() const { return edges_.size(); }        // region outline edges
  size_t visible_pair_count() const { return pair_count_; }  // graph edges between corners

 private:
  using Point = OraclePoint;
  struct Edge {
    Point a, b;  // the region lies on the left of a -> b
  };
  struct Corner {
    Point at, prev, next;  // a reflex vertex and its outline neighbours
    bool pinch = false;    // the region touches itself here: no tangent pruning
  };

  struct PointOrder {
    bool operator()(const Point& p, const Point& q) const {
      return p.x < q.x || (p.x == q.x && p.z < q.z);
    }
  };
  struct PairOrder {
    bool operator()(const std::pair<Point, Point>& p, const std::pair<Point, Point>& q) const {
      const PointOrder less;
      return less(p.first, q.first) || (!less(q.first, p.first) && less(p.second, q.second));
    }
  };

  // The region's boundary from Clipper's ring edges: edges split where other vertices lie on
  // them, and pieces that two rings run in opposite directions dropped.
  static std::vector<Edge> BoundaryEdges(const std::vector<Edge>& raw);
  static Point Round(PlanPoint p);
  // Whether a straight path may bend at (or arrive at) corner c coming from `from`: the
  // corner's outline neighbours do not lie strictly on both sides of the line.
  static bool Tangent(const Corner& c, Point from);
  static double Metres(Point a, Point b);

  // Calls fn(edge index) for every edge that may touch segment a-b (each once, nearest cells
  // first) until fn returns false.
  template <typename Fn>
  void ForEdgesAlong(Point a, Point b, Fn&& fn) const;
  // Whether the point whose doubled coordinates are p2 lies in the closed region.
  bool ContainsDoubled(Point p2) const;
  bool SegmentInsideUnits(Point a, Point b) const;
  // Grid cell of (x, z) in units, clamped to the grid.
  size_t CellOf(int64_t x, int64_t z) const;
  int64_t CellX(int64_t x) const;
  int64_t CellZ(int64_t z) const;

  std::vector<Edge> edges_;
  std::vector<Corner> corners_;
  std::vector<std::vector<std::pair<uint32_t, double>>> graph_;  // corner -> (corner, metres)
  size_t pair_count_ = 0;
  // Uniform grid over the region's bounds: each cell lists the edges whose bounding box
  // reaches it or a neighbouring cell; each row lists the edges whose z range reaches it.
  Point min_, max_;
  int64_t cell_ = 1;
  int64_t nx_ = 1, nz_ = 1;
  std::vector<std::vector<uint32_t>> cells_;
  std::vector<std::vector<uint32_t>> rows_;
  // Per edge, the last ForEdgesAlong call that visited it (so the oracle is not thread-safe).
  mutable std::vector<uint32_t> visited_;
  mutable uint32_t visit_ = 0;
};

}  // namespace waymesh::testing
