#include "query_context.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace waymesh::internal {
namespace {

uint32_t TotalPolygons(const NavMap& map) {
  uint64_t n = 0;
  for (const TileSummary& t : map.digest().tiles) n += t.poly_count;
  return uint32_t(n);
}

}  // namespace

const TileView QueryContext::kUnreachableTile{};

QueryContext::QueryContext(std::shared_ptr<const NavMap> map_in, uint32_t max_nodes,
                           bool use_landmarks_in, bool use_dead_ends_in, bool use_hierarchy_in)
    : owner(std::move(map_in)),
      map(owner.get()),
      use_landmarks(use_landmarks_in),
      use_dead_ends(use_dead_ends_in),
      use_hierarchy(use_hierarchy_in),
      pool(TotalPolygons(*map), max_nodes),
      heap(std::max<uint32_t>(max_nodes, 1)) {
  BindTables();
}

void QueryContext::Bind(std::shared_ptr<const NavMap> map_in) {
  ReleasePins();
  owner = std::move(map_in);
  map = owner.get();
  pool.Reuse(TotalPolygons(*map));
  island_start.clear();
  island_polys.clear();
  island_prefix.clear();
  exact.turn_corners.Clear();
  BindTables();
}

void QueryContext::BindTables() {
  const uint32_t tiles = map->tile_count();
  tile_base = map->PolygonBases();
  tile_area_prefix.assign(tiles + 1, 0.0);
  for (uint32_t i = 0; i < tiles; ++i) {
    tile_area_prefix[i + 1] = tile_area_prefix[i] + map->summary(i).area;
  }
  const MapInfo& info = map->info();
  for (int a = 0; a < kMaxAreas; ++a) {
    const float c = info.areas[a].cost;
    inv_default_cost[a] = (std::isfinite(c) && c > 0) ? 1.0f / c : 1.0f;
  }
  link_cost_per_metre = map->digest().link_cost_per_metre;
  pin_stamp.clear();
  pin_view.clear();
  if (map->paged()) {
    pin_stamp.assign(tiles, 0);
    pin_view.assign(tiles, nullptr);
  }
  landmarks = nullptr;
  dead_ends = nullptr;
  exact_landmarks = nullptr;
  exact_twin = nullptr;
  twin_area_gains_known = false;
  clusters = nullptr;
  tables_remapped = false;
  table_base.clear();
  if (const SearchTables* tables = map->search_tables(); tables != nullptr) {
    if (use_landmarks && !tables->landmarks.empty()) landmarks = &tables->landmarks;
    if (use_dead_ends && !tables->dead_ends.empty()) dead_ends = &tables->dead_ends;
    if (use_landmarks && tables->exact_landmarks.Fits(*map)) {
      exact_landmarks = &tables->exact_landmarks;
    }
    AdoptTableNumbering(*tables);
    AdoptClusters(*tables);
    // A carved version searches the twin of the map it was cut from, read through the
    // polygons' origins (TableIndex); twin_path.cc checks each answer on the version itself.
    const bool own = !map->carved() && tables->polygon_bases == tile_base;
    if (tables->exact_twin != nullptr && (own || tables_remapped)) {
      exact_twin = tables->exact_twin.get();
    }
  }
}

void QueryContext::AdoptClusters(const SearchTables& tables) {
  if (!use_hierarchy || tables.clusters.empty()) return;
  if (tables.clusters.tile_count() != map->tile_count()) return;  // of another map
  if (tables.polygon_bases.size() != tile_base.size()) return;
  clusters = &tables.clusters;
  // Obstacles carved tiles of these clusters: their costs and entrances may no longer hold.
  plain_clusters.assign(clusters->cluster_count(), 0);
  if (map->paged()) return;
  for (uint32_t i = 0; i < map->tile_count(); ++i) {
    if (!map->tile(i).poly_origin.empty()) plain_clusters[clusters->ClusterOf(i)] = 1;
  }
}

void QueryContext::AdoptTableNumbering(const SearchTables& tables) {
  const bool carved =
      !map->paged() && std::any_of(map->tiles().begin(), map->tiles().end(),
                                   [](const TileView& t) { return !t.poly_origin.empty(); });
  if (!carved && tables.polygon_bases == tile_base) return;
  if (!carved || tables.polygon_bases.size() != tile_base.size()) {
    // Tables of another map: searching without them is slower, never wrong.
    landmarks = nullptr;
    dead_ends = nullptr;
    exact_landmarks = nullptr;
    return;
  }
  tables_remapped = true;
  table_base = tables.polygon_bases;
}

const TileView* QueryContext::PinSlow(uint32_t tile) const {
  std::shared_ptr<const TileView> view = map->source()->Acquire(tile);
  if (view == nullptr) {
    tile_load_failed = true;
    return nullptr;
  }
  pin_stamp[tile] = pin_generation;
  pin_view[tile] = view.get();
  pins.push_back(std::move(view));
  return pin_view[tile];
}

void QueryContext::ReleasePins() const {
  tile_load_failed = false;
  if (pins.empty()) return;
  pins.clear();
  if (++pin_generation == 0) {
    // Wrapped: old stamps could match again.
    std::fill(pin_stamp.begin(), pin_stamp.end(), 0);
    pin_generation = 1;
  }
}

uint32_t QueryContext::GroupOf(PolyIndex p) const {
  const uint32_t island = Tile(p.tile).poly_island[p.poly];
  const auto& islands = map->info().islands;
  return island < islands.size() ? islands[island].group : island;
}

float QueryContext::HeuristicScale(const QueryFilter& filter) const {
  // Only areas some polygon or link has can be on a path: a handful, not all 64.
  float scale = INFINITY;
  for (uint64_t m = filter.area_mask() & map->digest().areas_present; m != 0; m &= m - 1) {
    const uint8_t a = uint8_t(std::countr_zero(m));
    scale = std::min(scale, filter.Cost(a));
    if (std::isfinite(link_cost_per_metre[a])) {
      scale = std::min(scale, filter.Cost(a) * link_cost_per_metre[a]);
    }
  }
  // Nothing enabled is on the map: no search gets past its start.
  return std::isfinite(scale) ? std::max(scale, 0.0f) : 1.0f;
}

PolyIndex SplitGlobal(const QueryContext& ctx, uint32_t global) {
  const auto it = std::upper_bound(ctx.tile_base.begin(), ctx.tile_base.end(), global);
  const uint32_t tile = uint32_t(it - ctx.tile_base.begin()) - 1;
  return {tile, global - ctx.tile_base[tile]};
}

}  // namespace waymesh::internal
