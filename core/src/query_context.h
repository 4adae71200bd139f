#pragma once
// Everything a NavQuery owns: the shared map, per-map lookup tables computed once at
// construction, and the reusable mutable search state. Internal to core.

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "corridor.h"
#include "exact/exact_buffers.h"
#include "funnel.h"
#include "hierarchy/hierarchy_buffers.h"
#include "node_pool.h"
#include "open_heap.h"
#include "waymesh/core/nav_map.h"
#include "waymesh/core/path_result.h"
#include "waymesh/core/poly_ref.h"
#include "waymesh/core/query_filter.h"
#include "waymesh/core/search_tables.h"
#include "waymesh/core/tile_source.h"

namespace waymesh::internal {

struct QueryContext {
  // `use_landmarks` / `use_dead_ends`: search with the map's tables when it has them
  // (search_tables.h).
  QueryContext(std::shared_ptr<const NavMap> map_in, uint32_t max_nodes, bool use_landmarks = true,
               bool use_dead_ends = true, bool use_hierarchy = true);
  // Points the context at `map_in` (e.g. the next version of the same map), keeping the node
  // pool, heap and scratch buffers: much cheaper than a new context on a large map.
  void Bind(std::shared_ptr<const NavMap> map_in);

  // Dense global index of a polygon.
  uint32_t Global(PolyIndex p) const { return tile_base[p.tile] + p.poly; }
  // Its index in the search tables: the global index, or on a carved map version searching
  // with its base map's tables, the global index of the base polygon it was cut from.
  uint32_t TableIndex(PolyIndex p) const {
    if (!tables_remapped) return Global(p);
    const TileView& t = Tile(p.tile);
    return table_base[p.tile] + (t.poly_origin.empty() ? p.poly : t.poly_origin[p.poly]);
  }
  // The reference handed to callers for a polygon (with its tile's generation).
  PolyRef Ref(PolyIndex p) const { return map->Ref(p); }
  // Whether p is in the map (no tile is loaded).
  bool InRange(PolyIndex p) const {
    return p.tile < map->tile_count() && p.poly < map->summary(p.tile).poly_count;
  }
  // Whether p is in the map and its tile can be reached (loaded and pinned for the rest of
  // this query on a paged map). A tile that cannot be loaded is a wall.
  bool Exists(PolyIndex p) const { return InRange(p) && TryTile(p.tile) != nullptr; }
  // Tile `tile` (< tile count): on a paged map loaded and pinned until ReleasePins();
  // nullptr when it cannot be loaded (also recorded in tile_load_failed).
  const TileView* TryTile(uint32_t tile) const {
    if (!map->paged()) return &map->tile(tile);
    if (pin_stamp[tile] == pin_generation) return pin_view[tile];
    return PinSlow(tile);
  }
  // A tile this query has already reached through Exists / TryTile (so it is in memory).
  const TileView& Tile(uint32_t tile) const {
    const TileView* t = TryTile(tile);
    return t != nullptr ? *t : kUnreachableTile;
  }
  // Calls fn(tile_view) for every tile in index order without pinning them (a paged map loads
  // each one for the call only, so a whole-map pass stays within the cache). Tiles that cannot
  // be loaded are skipped and recorded in tile_load_failed.
  template <typename Fn>
  void ForEachTile(Fn&& fn) const {
    for (uint32_t i = 0; i < map->tile_count(); ++i) {
      if (!map->paged()) {
        fn(map->tile(i));
        continue;
      }
      const std::shared_ptr<const TileView> view = map->source()->Acquire(i);
      if (view == nullptr) {
        tile_load_failed = true;
        continue;
      }
      fn(*view);
    }
  }
  // Ends the current query's pins: its tiles may be evicted again. Called when a NavQuery
  // call returns (see PinScope).
  void ReleasePins() const;
  // Whether the filter accepts the polygon (of a tile already reached).
  bool Passes(const QueryFilter& filter, PolyIndex p) const {
    const TileView& t = Tile(p.tile);
    return filter.Passes(t.poly_area[p.poly], t.poly_flags[p.poly]);
  }
  // Area of a polygon (of a tile already reached).
  uint8_t AreaOf(PolyIndex p) const { return Tile(p.tile).poly_area[p.poly]; }
  // Island group of a polygon (every polygon is in some island by the map's contract).
  uint32_t GroupOf(PolyIndex p) const;
  // Cost of an off-mesh link under `filter` (the map's cost re-weighted by the filter's area
  // cost).
  float LinkCost(const OffMeshLink& link, const QueryFilter& filter) const {
    return link.cost * filter.Cost(link.area) * inv_default_cost[link.area & (kMaxAreas - 1)];
  }
  // Factor for the A* heuristic (distance) that never overestimates a cost under `filter`.
  float HeuristicScale(const QueryFilter& filter) const;

 private:
  const TileView* PinSlow(uint32_t tile) const;
  // Everything derived from the map: tile bases and areas, costs, pins, search tables.
  void BindTables();
  // Maps polygons to the numbering of the map's search tables (TableIndex), or drops tables
  // that belong to another map.
  void AdoptTableNumbering(const SearchTables& tables);
  // Searches long paths with the tables' cluster graph when it is of this map's tiles.
  void AdoptClusters(const SearchTables& tables);

 public:
  // Stands in for a tile that could not be loaded (no polygons); never indexed by callers
  // that reached tiles through Exists / TryTile first.
  static const TileView kUnreachableTile;

  std::shared_ptr<const NavMap> owner;
  const NavMap* map;
  bool use_landmarks = true;  // search with the map's tables when it has them
  bool use_dead_ends = true;
  const LandmarkTable* landmarks = nullptr;  // the map's, when it has one
  const DeadEndTable* dead_ends = nullptr;   // the map's, when it has dead ends
  // The map's exact landmark table when it has one built on these very tiles.
  const ExactLandmarkTable* exact_landmarks = nullptr;
  bool use_hierarchy = true;               // search long paths with the map's cluster graph
  const ClusterGraph* clusters = nullptr;  // the map's, when it has one
  std::vector<uint8_t> plain_clusters;     // per cluster: 1 = carved, searched without the graph
  HierarchyBuffers hierarchy;              // scratch of hierarchical searches
  std::vector<uint32_t> tile_base;         // tiles + 1 prefix sums of polygon counts
  bool tables_remapped = false;            // TableIndex goes through poly_origin
  std::vector<uint32_t> table_base;        // the tables' tile_base, when remapped
  std::vector<double> tile_area_prefix;    // tiles + 1 prefix sums of tile surface area
  std::array<float, kMaxAreas> inv_default_cost;
  // Per area: the smallest (link cost / map area cost) per metre of link displacement.
  std::array<float, kMaxAreas> link_cost_per_metre;

  NodePool pool;
  OpenHeap heap;
  // Scratch buffers reused by every query (capacity survives, contents do not).
  std::vector<CorridorStep> steps;
  std::vector<CorridorStep> steps_alt;
  std::vector<CorridorStep> fan;  // polygons around one vertex (path refinement)
  std::vector<FunnelPortal> portals;
  std::vector<FunnelPoint> points;
  std::vector<CornerInfo> corners;  // parallel to the last built path's waypoints
  std::vector<CornerInfo> corners_alt;
  PathResult path_alt;                    // candidate path during refinement
  std::vector<uint32_t> goal_neighbours;  // LandmarkTable::Goal::neighbours of a path search
  exact::ExactBuffers exact;              // state of the exact (interval) path search
  // The map's plan twin when exact mode may search it instead (its tables were built on these
  // tiles, or on the map a carved version was cut from: twin_path.h), and the context its
  // searches run in (made on first use).
  const PlanTwin* exact_twin = nullptr;
  std::unique_ptr<QueryContext> twin;
  // On a carved version, per area a polygon now has, the areas its origin had when they differ
  // (bit `from` of twin_area_gains[to]); filled on first use after each bind.
  std::array<uint64_t, kMaxAreas> twin_area_gains{};
  bool twin_area_gains_known = false;

  // Tiles pinned by the current query (paged maps): stamp == generation marks a pinned tile.
  mutable uint32_t pin_generation = 1;
  mutable std::vector<uint32_t> pin_stamp;
  mutable std::vector<const TileView*> pin_view;
  mutable std::vector<std::shared_ptr<const TileView>> pins;
  mutable bool tile_load_failed = false;  // a tile could not be loaded during this query

  // Lazily built per-island sampling index (see random_point.cc).
  std::vector<uint32_t> island_start;  // islands + 1, CSR into island_polys
  std::vector<uint32_t> island_polys;  // global polygon indices grouped by island
  std::vector<double> island_prefix;   // running area sums, per island segment
};

// Releases the query's tile pins when a NavQuery call returns, however it returns.
class PinScope {
 public:
  explicit PinScope(const QueryContext& ctx) : ctx_(ctx) {}
  ~PinScope() { ctx_.ReleasePins(); }
  PinScope(const PinScope&) = delete;
  PinScope& operator=(const PinScope&) = delete;

 private:
  const QueryContext& ctx_;
};

// The polygon of a dense global index.
PolyIndex SplitGlobal(const QueryContext& ctx, uint32_t global);

}  // namespace waymesh::internal
