#pragma once
// The tables that speed up path searches on one map: landmark distances (a sharper A*
// heuristic, landmark_table.h), dead ends (polygons a search may skip, dead_end_table.h) and
// the cluster graph of long searches (hierarchy/cluster_graph.h).
// Building them runs path searches over the whole map, so it is an explicit step of loading a
// map (the loader, or the server before it pages a map out), never a side effect of a query;
// the result is attached to the map (NavMap's tables constructor) and shared read-only by
// every query object.
//
// Both tables are keyed by the map's polygons as loaded (`polygon_bases`: where each tile's
// polygons start in that numbering). A version of the map whose tiles an obstacle layer carved
// may carry the tables of the map it was carved from (CanShareSearchTables): each polygon of a
// carved tile is looked up by the polygon it was cut from (TileView::poly_origin). Carving
// only takes surface away: two pieces touch only where their origins touched (or are pieces of
// one polygon), and links follow pieces or are dropped. So, read through the origins, the
// carved map's adjacency is part of the map's: distances only grow (landmark bounds stay lower
// bounds) and a dead end stays a dead end (a subtree without the goal still cannot lead to it).

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "waymesh/core/dead_end_table.h"
#include "waymesh/core/exact_landmark_table.h"
#include "waymesh/core/hierarchy/cluster_graph.h"
#include "waymesh/core/landmark_table.h"
#include "waymesh/core/nav_map.h"
#include "waymesh/core/obstacles/obstacle.h"
#include "waymesh/core/plan_twin.h"

namespace waymesh {

// What a map's file may store of its search tables (`waymesh build --exact-landmarks
// --exact-twin`), read at load and used as they are instead of being built.
struct StoredSearchTables {
  ExactLandmarkTable exact_landmarks;  // empty: none stored
  std::optional<PlanTwin> exact_twin;
};

struct SearchTables {
  LandmarkTable landmarks;
  DeadEndTable dead_ends;
  // The abstract graph of long path searches (cluster_graph.h); empty on small maps.
  ClusterGraph clusters;
  // Exact landmark distances of exact mode's search (exact_landmark_table.h); empty unless
  // Options::exact_landmarks asked for them.
  ExactLandmarkTable exact_landmarks;
  // The map's plan twin, which exact mode searches instead of the map (plan_twin.h); null
  // unless Options::exact_twin asked for it.
  std::shared_ptr<const PlanTwin> exact_twin;
  std::vector<uint32_t> polygon_bases;  // NavMap::PolygonBases of the map they were built on

  struct Options {
    // Also build the exact landmark table: seconds of interval floods on a large map, 2 bytes
    // per landmark and vertex, for fewer nodes in long exact queries.
    bool exact_landmarks = false;
    uint32_t exact_landmark_count = ExactLandmarkTable::kDefaultCount;
    // Also build the plan twin (plan_twin.h) that exact mode then searches, with dead ends and
    // the map's exact landmarks of its own (WithTwinTables); kept only when WorthKeeping.
    // Resident maps only. A twin the file stores is used whatever this says.
    bool exact_twin = false;
  };

  // The landmark and dead-end tables and the cluster graph for a resident map (O(landmarks *
  // polygons log polygons)); empty tables on maps too small to profit
  // (LandmarkTable::kMinPolygons, ClusterGraph::kMinClusters).
  // `stored` is what the map's file holds (`waymesh build --exact-landmarks --exact-twin`):
  // used as it is (no floods, no twin build), whatever the options say.
  static SearchTables Build(const NavMap& map, const Options& options,
                            StoredSearchTables stored = {});
  static SearchTables Build(const NavMap& map) { return Build(map, Options{}); }
  size_t bytes() const {
    return landmarks.bytes() + dead_ends.bytes() + clusters.bytes() + exact_landmarks.bytes() +
           (exact_twin != nullptr ? exact_twin->bytes() : 0);
  }
};

// Whether a version of `base` with `obstacles` carved into it may search with `base`'s tables:
// block obstacles always may; an area obstacle's area must be one the map has (a filter could
// make another area cheaper than any the bounds were scaled for) and cost at least as much for
// the tables' reference costs as any area it may cover. Per obstacle, not per polygon, so a
// layer update pays it for its obstacles only.
bool CanShareSearchTables(const NavMap& base, std::span<const Obstacle> obstacles);
// The same for a layer whose area obstacles give the areas of mask `obstacle_areas` (bit a: area
// a; CarvedLayer::obstacle_areas), so that a layer update need not list its obstacles.
bool CanShareSearchTables(const NavMap& base, uint64_t obstacle_areas);

// `map` with freshly built search tables attached (resident maps); `stored` as in
// SearchTables::Build.
std::shared_ptr<const NavMap> WithSearchTables(std::shared_ptr<const NavMap> map,
                                               const SearchTables::Options& options = {},
                                               StoredSearchTables stored = {});

}  // namespace waymesh
