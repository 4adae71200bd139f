#pragma once
// The per-thread query object. A NavMap is read-only and shared; every piece of mutable search
// state (node pool reset by a generation counter, open heap, scratch buffers) lives here and is
// reused, so a warm query allocates nothing. One NavQuery per thread; never share one.

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "absl/random/bit_gen_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "waymesh/core/move_result.h"
#include "waymesh/core/nav_map.h"
#include "waymesh/core/path_result.h"
#include "waymesh/core/poly_ref.h"
#include "waymesh/core/polygons_in_circle.h"
#include "waymesh/core/query_filter.h"
#include "waymesh/core/raycast_result.h"
#include "waymesh/core/surface_point.h"
#include "waymesh/core/vec3.h"
#include "waymesh/core/wall_distance.h"
#include "waymesh/core/wall_segment.h"

namespace waymesh {

namespace internal {
struct QueryContext;
}  // namespace internal

struct NavQueryOptions {
  // Capacity of the A* / flood-fill node pool: the most polygons one query may touch.
  uint32_t max_nodes = 65536;
  // Search with the map's landmark table (a sharper A* heuristic) when it has search tables
  // (search_tables.h); false gives the plain straight-line heuristic.
  bool landmarks = true;
  // Skip the map's dead ends (dead_end_table.h) when it has search tables.
  bool dead_ends = true;
  // Search long paths over the map's cluster graph (hierarchy/cluster_graph.h) when its search
  // tables carry one and the filter is the map's default (docs/hierarchy.md); false always
  // searches plainly.
  bool hierarchy = true;
};

// Every call follows one convention: an error status for bad arguments (non-finite numbers,
// negative extents, a polygon reference that is not in the map: INVALID_ARGUMENT), for stale
// references (FAILED_PRECONDITION: the map was reloaded or the tile changed since the reference
// was handed out), for a tile of a paged map that cannot be loaded (UNAVAILABLE) and for an
// interrupted search (the interrupt's status); every other outcome ("off mesh", "no path",
// "nothing found") is a result.
class NavQuery {
 public:
  // Sets up all buffers for `map` (the map stays alive as long as this object).
  explicit NavQuery(std::shared_ptr<const NavMap> map, const NavQueryOptions& options = {});
  // Points this object at `map` (another version of the same map, say: a reload or an obstacle
  // layer version), keeping its buffers: far cheaper than a new object on a large map.
  void Rebind(std::shared_ptr<const NavMap> map);
  ~NavQuery();
  NavQuery(NavQuery&&) noexcept;
  NavQuery& operator=(NavQuery&&) noexcept;
  NavQuery(const NavQuery&) = delete;
  NavQuery& operator=(const NavQuery&) = delete;

  const NavMap& map() const;

  // The closest surface point to `pos` on a polygon the filter accepts inside the box
  // pos ± half_extents. Height-aware: a point on a bridge snaps to the bridge, not the road
  // below. nullopt when nothing is in the box.
  absl::StatusOr<std::optional<SurfacePoint>> NearestPoint(Vec3 pos, Vec3 half_extents,
                                                           const QueryFilter& filter);

  // Shortest path from `start` to `goal`, both first put on the mesh with
  // options.half_extents. The outcome is in out->status.
  absl::Status FindPath(Vec3 start, Vec3 goal, const QueryFilter& filter,
                        const PathOptions& options, PathResult* out);
  // As above where an end may name the polygon it is on (a reference from an earlier answer of
  // the same map version): that end is clamped into the polygon instead of snapped, so a
  // caller that tracks its polygon skips the lookup. A stale or unknown reference is an error.
  absl::Status FindPath(const PathEnd& start, const PathEnd& goal, const QueryFilter& filter,
                        const PathOptions& options, PathResult* out);
  // As above for points already on the mesh (e.g. from NearestPoint).
  absl::Status FindPath(const SurfacePoint& start, const SurfacePoint& goal,
                        const QueryFilter& filter, const PathOptions& options, PathResult* out);

  // Walks the straight line start -> end (plan view) across polygons along the surface, so
  // overlapping floors are told apart; stops at the first wall or rejected polygon.
  absl::Status Raycast(Vec3 start, Vec3 end, const QueryFilter& filter, Vec3 half_extents,
                       RaycastResult* out);
  absl::Status Raycast(const SurfacePoint& start, Vec3 end, const QueryFilter& filter,
                       RaycastResult* out);

  // The position a mover going from `start` towards `end` really reaches, sliding along walls
  // (the reachable surface point closest to `end` near the segment), and the polygons visited.
  absl::Status MoveAlongSurface(Vec3 start, Vec3 end, const QueryFilter& filter, Vec3 half_extents,
                                MoveResult* out);
  absl::Status MoveAlongSurface(const SurfacePoint& start, Vec3 end, const QueryFilter& filter,
                                MoveResult* out);

  // A point uniformly distributed by area over the polygons the filter accepts; nullopt when
  // there are none. O(log n) per draw when the filter accepts most of the map.
  absl::StatusOr<std::optional<SurfacePoint>> RandomPoint(const QueryFilter& filter,
                                                          absl::BitGenRef rng);
  // As above restricted to one island (index into MapInfo::islands).
  absl::StatusOr<std::optional<SurfacePoint>> RandomPointOnIsland(uint32_t island,
                                                                  const QueryFilter& filter,
                                                                  absl::BitGenRef rng);
  // A point uniform by area over the surface within `radius` (plan view) of `center` that is
  // reachable from `center` without leaving that disc; nullopt when the filter rejects the
  // centre's polygon.
  absl::StatusOr<std::optional<SurfacePoint>> RandomPointInCircle(const SurfacePoint& center,
                                                                  float radius,
                                                                  const QueryFilter& filter,
                                                                  absl::BitGenRef rng);

  // The wall closest to `center` in plan view (an edge with no neighbour or whose neighbour the
  // filter rejects; off-mesh links are not walls) among the polygons reachable from it through
  // portals that come within `max_radius` (finite, > 0) of it: Detour's findDistanceToWall,
  // Unity's NavMesh.FindClosestEdge. As there, portals beyond the nearest wall found so far are
  // not entered: on overlapping floors a wall of another floor that is closer in plan view than
  // the portals leading to it is not seen. Nothing within the radius is a result (found =
  // false). The centre on no polygon the filter accepts gives status kStartOffMesh.
  absl::Status FindDistanceToWall(Vec3 center, float max_radius, const QueryFilter& filter,
                                  Vec3 half_extents, WallDistance* out);
  absl::Status FindDistanceToWall(const SurfacePoint& center, float max_radius,
                                  const QueryFilter& filter, WallDistance* out);

  // The polygons the filter accepts that are reachable from `center` without leaving the circle
  // of `radius` (finite, > 0) around it: a neighbour is entered only through an edge that comes
  // within the radius (plan view). Cheapest first, as Detour's findPolysAroundCircle; at most
  // `max_polygons` (> 0), out->truncated when more were left. The centre on no polygon the
  // filter accepts gives status kStartOffMesh.
  absl::Status FindPolygonsInCircle(Vec3 center, float radius, const QueryFilter& filter,
                                    uint32_t max_polygons, Vec3 half_extents,
                                    PolygonsInCircle* out);
  absl::Status FindPolygonsInCircle(const SurfacePoint& center, float radius,
                                    const QueryFilter& filter, uint32_t max_polygons,
                                    PolygonsInCircle* out);

  // Replaces *out with the wall edges within `radius` (plan view) of center.pos on the polygons
  // reached from center.poly through open edges inside that disc (so other floors never mix
  // in), in the order they are found. Implemented in walls_around.cc.
  absl::Status WallsAround(const SurfacePoint& center, float radius, const QueryFilter& filter,
                           std::vector<WallSegment>* out);

  // Surface height at (x, z) closest to `y_hint` (polygons of any filter), nullopt when no
  // polygon covers (x, z).
  absl::StatusOr<std::optional<SurfacePoint>> Height(float x, float z, float y_hint);
  // The point of polygon `poly` closest to `pos` in plan view, at the surface height there.
  absl::StatusOr<Vec3> ClosestPointOnPoly(PolyRef poly, Vec3 pos) const;

  // OK when `ref` names a polygon of this map at its tile's current generation; otherwise the
  // error a query given `ref` returns (INVALID_ARGUMENT or FAILED_PRECONDITION).
  absl::Status CheckRef(PolyRef ref) const;
  bool IsValid(PolyRef ref) const { return CheckRef(ref).ok(); }

 private:
  std::unique_ptr<internal::QueryContext> ctx_;
};

}  // namespace waymesh
