#pragma once
// `waymesh diff OLD NEW`: what changed between two builds of a map, as a level designer or a
// reviewer of a map change needs it: polygons added and removed (shapes compared by their
// corners rounded to tol::kDiffCornerRounding), area-id changes, walkable area, islands merged
// or split, and pairs of sample points whose reachability flipped.

#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "waymesh/core/nav_map.h"
#include "waymesh/core/query_status.h"
#include "waymesh/core/vec3.h"

namespace waymesh {

// How much DiffMaps samples.
struct MapDiffOptions {
  // Sample point pairs whose reachability is compared (FindPath on both maps).
  uint32_t reachability_pairs = 200;
  // At most this many OLD polygon centroids decide island merges and splits.
  uint32_t island_samples = 4096;
  // Seed of the deterministic pair sampling.
  uint64_t seed = 1;
  // Box that puts sample points on the mesh for FindPath (m).
  Vec3 half_extents{2.0f, 4.0f, 2.0f};
};

// A polygon of one of the two maps.
struct DiffPolygon {
  PolyIndex at{};
  Vec3 centroid;
  uint8_t area = 0;
};

// The same polygon shape with another area id.
struct AreaIdChange {
  DiffPolygon old_poly;
  DiffPolygon new_poly;
};

// Several islands became one (merged), or one island became several (split).
struct IslandChange {
  bool merged = false;
  uint32_t island = 0;               // the one island: of NEW when merged, of OLD when split
  std::vector<uint32_t> parts;       // the several islands: of OLD when merged, of NEW when split
  std::vector<Vec3> part_positions;  // a sample point on each part
};

// A sample pair reachable on one map and not on the other.
struct ReachabilityFlip {
  Vec3 a, b;
  QueryStatus old_status = QueryStatus::kNoPath;  // COMPLETE means reachable
  QueryStatus new_status = QueryStatus::kNoPath;
};

// Everything DiffMaps measured; HasChanges() says whether any of it differs.
struct MapDiff {
  std::vector<DiffPolygon> removed;  // OLD polygons no NEW polygon has the shape of
  std::vector<DiffPolygon> added;    // NEW polygons no OLD polygon has the shape of
  std::vector<AreaIdChange> area_changes;
  uint64_t unchanged_polygons = 0;
  double old_walkable_area = 0, new_walkable_area = 0;  // m²
  uint64_t old_islands = 0, new_islands = 0;
  uint64_t old_links = 0, new_links = 0;  // off-mesh links
  std::vector<IslandChange> island_changes;
  uint32_t pairs_sampled = 0;
  std::vector<ReachabilityFlip> flips;

  // False when the maps are the same as far as these measures tell.
  bool HasChanges() const;
};

// Compares `old_map` with `new_map` (neither null). Deterministic for given options.
absl::StatusOr<MapDiff> DiffMaps(std::shared_ptr<const NavMap> old_map,
                                 std::shared_ptr<const NavMap> new_map,
                                 const MapDiffOptions& options = {});

// The report `waymesh diff` prints: "no changes", or one line per kind of change with counts
// and up to `examples` examples each (positions, tiles, polygons).
std::string DescribeMapDiff(const MapDiff& diff, size_t examples = 5);

}  // namespace waymesh
