#include "waymesh/core/dead_end_table.h"

#include <algorithm>

namespace waymesh {
namespace {

constexpr uint32_t kNoParent = 0xFFFFFFFFu;

// The distinct polygons across each polygon's edges (dense global indices), as offsets into
// one array.
struct Neighbours {
  std::vector<uint32_t> start;  // polygons + 1
  std::vector<uint32_t> list;
};

Neighbours ListNeighbours(const NavMap& map, const std::vector<uint32_t>& tile_base) {
  Neighbours out;
  out.start.push_back(0);
  for (const TileView& t : map.tiles()) {
    for (uint32_t p = 0; p < t.poly_count(); ++p) {
      const size_t first = out.list.size();
      for (uint32_t e = t.poly_start[p]; e < t.poly_start[p + 1]; ++e) {
        const std::optional<PolyIndex> nb = t.across(e);
        if (nb && nb->tile < map.tile_count()) out.list.push_back(tile_base[nb->tile] + nb->poly);
      }
      std::sort(out.list.begin() + first, out.list.end());
      out.list.erase(std::unique(out.list.begin() + first, out.list.end()), out.list.end());
      out.start.push_back(uint32_t(out.list.size()));
    }
  }
  return out;
}

// Polygons an off-mesh link starts or ends in: the link is an edge the adjacency lacks.
std::vector<bool> LinkEnds(const NavMap& map, const std::vector<uint32_t>& tile_base) {
  std::vector<bool> ends(tile_base.back(), false);
  for (const TileView& t : map.tiles()) {
    for (const OffMeshLink& link : t.off_mesh_links) {
      ends[tile_base[t.index] + link.start_poly] = true;
      if (link.end_tile < map.tile_count()) ends[tile_base[link.end_tile] + link.end_poly] = true;
    }
  }
  return ends;
}

}  // namespace

DeadEndTable DeadEndTable::Build(const NavMap& map) {
  const std::vector<uint32_t> tile_base = map.PolygonBases();
  const uint32_t polygons = tile_base.back();
  const Neighbours nb = ListNeighbours(map, tile_base);
  const std::vector<bool> pinned = LinkEnds(map, tile_base);

  // Leaves first: a polygon is stripped when at most one neighbour is left; `parent` is that
  // neighbour (kNoParent when none is: the last polygon of an island that is a tree).
  std::vector<uint32_t> left(polygons), parent(polygons, kNoParent), order;
  std::vector<bool> stripped(polygons, false);
  for (uint32_t g = 0; g < polygons; ++g) {
    left[g] = nb.start[g + 1] - nb.start[g];
    if (left[g] <= 1 && !pinned[g]) order.push_back(g);
  }
  for (size_t i = 0; i < order.size(); ++i) {
    const uint32_t g = order[i];
    stripped[g] = true;
    for (uint32_t k = nb.start[g]; k < nb.start[g + 1]; ++k) {
      const uint32_t h = nb.list[k];
      if (stripped[h]) continue;
      parent[g] = h;
      // Exactly 1 now: pushed once, even when its count later drops to 0.
      if (--left[h] == 1 && !pinned[h]) order.push_back(h);
    }
  }

  // Subtree sizes bottom-up (a polygon is stripped after its children), then preorder numbers
  // top-down: each tree's root takes the next free range, each child the next range inside its
  // parent's.
  std::vector<uint32_t> size(polygons, 1), cursor(polygons, 0);
  for (const uint32_t g : order) {
    if (parent[g] != kNoParent && stripped[parent[g]]) size[parent[g]] += size[g];
  }
  DeadEndTable table;
  table.subtree_.resize(polygons);
  table.dead_ends_ = uint32_t(order.size());
  uint32_t next_free = 0;
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    const uint32_t g = *it;
    const bool root = parent[g] == kNoParent || !stripped[parent[g]];
    uint32_t& slot = root ? next_free : cursor[parent[g]];
    table.subtree_[g] = {slot, slot + size[g] - 1};
    slot += size[g];
    cursor[g] = table.subtree_[g].first + 1;
  }
  if (order.empty()) table.subtree_.clear();  // nothing to skip: queries need not look
  return table;
}

}  // namespace waymesh
