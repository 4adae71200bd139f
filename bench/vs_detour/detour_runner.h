#pragma once
// Runs the comparison's queries through Detour (dtNavMeshQuery, default dtQueryFilter), with
// every buffer allocated once.

#include <DetourNavMesh.h>
#include <DetourNavMeshQuery.h>

#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "vs_detour/path_outcome.h"
#include "vs_detour/query_set.h"
#include "waymesh/core/query_filter.h"
#include "waymesh/core/vec3.h"

namespace waymesh::bench {

// Detour's node pool: the largest it supports (16-bit node indices), so no query is cut short.
inline constexpr int kDetourMaxNodes = 65535;

class DetourRunner {
 public:
  // Queries `mesh` (kept alive by the caller); `half_extents` is the nearest-polygon box.
  static absl::StatusOr<std::unique_ptr<DetourRunner>> Create(const dtNavMesh* mesh,
                                                              Vec3 half_extents);

  // Walking costs per area as `filter`'s (Detour's default: every area at cost 1). Detour has
  // no area mask: areas `filter` disables keep their cost.
  void SetAreaCosts(const QueryFilter& filter);
  // findNearestPoly for start and goal, findPath, findStraightPath (to the closest point of
  // the last polygon when partial).
  PathOutcome FindPath(Vec3 start, Vec3 goal);
  // findNearestPoly alone; true when a polygon was found.
  bool Nearest(Vec3 pos);
  // Nodes the last findPath closed (expanded). Walks the node pool: call it outside timing.
  uint32_t LastExpanded() const;
  // Puts each query's start on the mesh once, so Raycast measures the ray alone.
  void PrepareRays(const std::vector<QueryCase>& queries);
  // raycast from query `i`'s snapped start towards its goal; the hit fraction (> 1 = no hit,
  // negative when the start is off the mesh).
  float Raycast(size_t i, Vec3 goal);

 private:
  struct Free {
    void operator()(dtNavMeshQuery* query) const { dtFreeNavMeshQuery(query); }
  };
  DetourRunner() = default;

  std::unique_ptr<dtNavMeshQuery, Free> query_;
  dtQueryFilter filter_;
  float half_extents_[3] = {};
  std::vector<dtPolyRef> path_;
  std::vector<float> straight_;
  std::vector<unsigned char> straight_flags_;
  std::vector<dtPolyRef> straight_refs_;
  struct RayStart {
    dtPolyRef ref = 0;
    float pos[3] = {};
  };
  std::vector<RayStart> ray_starts_;
};

}  // namespace waymesh::bench
