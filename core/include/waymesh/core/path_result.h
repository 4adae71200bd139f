#pragma once
// FindPath's options and result: the polygon corridor and the string-pulled waypoints.

#include <cstdint>
#include <optional>
#include <vector>

#include "waymesh/core/path_mode.h"
#include "waymesh/core/poly_ref.h"
#include "waymesh/core/query_interrupt.h"
#include "waymesh/core/query_status.h"
#include "waymesh/core/surface_point.h"
#include "waymesh/core/vec3.h"

namespace waymesh {

// Waypoint flags (bit set).
enum WaypointFlag : uint8_t {
  kWaypointStart = 1,        // the (snapped) start position
  kWaypointEnd = 2,          // the (snapped) goal, or the end of a partial path
  kWaypointOffMeshLink = 4,  // start of an off-mesh link: the next waypoint is its far end
  kWaypointAreaChange = 8,   // the path enters a polygon of another area here
};

struct PathOptions {
  // Approximate (A* over polygons, string-pulled) or exact (the shortest path, exact_path.h).
  PathMode mode = PathMode::kApproximate;
  // Box half size used to put start and goal on the mesh (metres; y is the vertical reach).
  Vec3 half_extents{2.0f, 4.0f, 2.0f};
  // Upper bound of A* nodes for this query; 0 or more than the query's pool means the pool size.
  // Exact mode: of interval nodes created, 0 meaning kExactDefaultMaxNodes (exact_path.h).
  uint32_t max_nodes = 0;
  // Add a waypoint (kWaypointAreaChange) wherever the path crosses into a different area.
  bool area_crossings = false;
  // When the goal cannot be reached (another island, or walled off under the filter): true
  // returns kPartial, a path to the reachable point closest to the goal (searching up to the
  // node limit); false returns kNoPath at once when the islands differ. A search stopped by
  // the node limit is kPartial either way.
  bool allow_partial = false;
  // Stop after this many waypoints (0 = no limit); `PathResult::truncated` tells it happened.
  uint32_t max_waypoints = 0;
  // Keep this distance (metres, e.g. the agent radius) from wall corners the path bends around,
  // never leaving the mesh: corners closer than that to another wall are passed at the middle.
  float clearance = 0.0f;
  // Polled while the search runs (null = never): a non-OK status stops the search and
  // FindPath returns that status with an empty result. Not owned.
  QueryInterrupt* interrupt = nullptr;
};

// One end of a path request: a position and, when the caller knows it, its polygon.
struct PathEnd {
  PathEnd(Vec3 position, std::optional<PolyRef> polygon = std::nullopt)
      : pos(position), poly(polygon) {}
  Vec3 pos;
  std::optional<PolyRef> poly;  // nullopt: snap `pos` within PathOptions::half_extents
};

struct Waypoint {
  Vec3 pos;           // on the surface
  PolyRef poly;       // polygon the path continues on from here (the last: the goal's polygon)
  uint8_t flags = 0;  // WaypointFlag bits
  uint8_t area = 0;   // area of `poly`
};

// Reused between queries: vectors keep their capacity, so a warm result does not allocate.
struct PathResult {
  QueryStatus status = QueryStatus::kNoPath;
  SurfacePoint start;               // snapped start (valid unless kStartOffMesh)
  SurfacePoint end;                 // snapped goal (valid unless kStartOffMesh / kEndOffMesh)
  std::vector<PolyRef> corridor;    // polygons from start to the last reached polygon
  std::vector<Waypoint> waypoints;  // string-pulled path, first = start, last = end
  double length = 0;                // 3D length of the waypoint polyline (metres)
  uint32_t nodes_expanded = 0;      // A* nodes taken from the open list (for metrics); 0 when
                                    // the goal was in straight sight (line_of_sight.h)
  bool truncated = false;           // waypoints hit PathOptions::max_waypoints
  bool node_limit = false;          // kPartial because the node limit stopped the search (not
                                    // because the goal is unreachable)
  bool hierarchical = false;        // found over the map's cluster graph (docs/hierarchy.md)
};

}  // namespace waymesh
