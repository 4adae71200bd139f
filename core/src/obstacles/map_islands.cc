#include "map_islands.h"

#include <algorithm>
#include <numeric>
#include <tuple>

#include "surface_area.h"

namespace waymesh::obstacles {
namespace {

class IslandSets {
 public:
  explicit IslandSets(uint32_t n) : parent_(n) { std::iota(parent_.begin(), parent_.end(), 0); }
  uint32_t Find(uint32_t x) {
    while (parent_[x] != x) x = parent_[x] = parent_[parent_[x]];
    return x;
  }
  // The lower id stays root, so roots are each set's lowest member.
  void Join(uint32_t a, uint32_t b) {
    a = Find(a), b = Find(b);
    if (a < b) parent_[b] = a;
    if (b < a) parent_[a] = b;
  }

 private:
  std::vector<uint32_t> parent_;
};

struct IslandPart {
  uint32_t polygons = 0;
  double area = 0;
  std::pair<uint32_t, uint32_t> lowest{UINT32_MAX, UINT32_MAX};  // (tile, polygon)
};

double PolyArea(const TileView& t, uint32_t p) {
  return double(t.area_prefix[p + 1]) - t.area_prefix[p];
}

}  // namespace

TileComponents ComponentsOfTile(const TileView& t) {
  TileComponents tc;
  IslandSets sets(t.poly_count());
  for (uint32_t p = 0; p < t.poly_count(); ++p) {
    for (uint32_t c = t.poly_start[p]; c < t.poly_start[p + 1]; ++c) {
      const uint32_t nb = t.poly_neighbors[c];
      if (nb != kWall && !(nb & kCrossTileBit)) sets.Join(p, nb);
    }
  }
  tc.component.assign(t.poly_count(), UINT32_MAX);
  std::vector<uint32_t> of_root(t.poly_count(), UINT32_MAX);
  for (uint32_t p = 0; p < t.poly_count(); ++p) {
    const uint32_t r = sets.Find(p);
    if (of_root[r] == UINT32_MAX) {
      of_root[r] = uint32_t(tc.components.size());
      tc.components.push_back({0, 0, p, t.poly_island[p]});
    }
    tc.component[p] = of_root[r];
    ++tc.components[of_root[r]].polygons;
    tc.components[of_root[r]].area += PolyArea(t, p);
    for (uint32_t c = t.poly_start[p]; c < t.poly_start[p + 1]; ++c) {
      if (t.poly_neighbors[c] != kWall && (t.poly_neighbors[c] & kCrossTileBit)) {
        tc.seams.push_back({of_root[r], *t.across(c)});
      }
    }
  }
  return tc;
}

void JoinSeamsIntoBase(std::span<const TileComponents> base,
                       absl::FunctionRef<bool(uint32_t)> at_base, TileComponents* tc) {
  const auto joined_end =
      std::stable_partition(tc->seams.begin(), tc->seams.end(),
                            [&](const auto& seam) { return at_base(seam.second.tile); });
  tc->joined_seams = uint32_t(joined_end - tc->seams.begin());
  tc->base_joins.clear();
  for (auto it = tc->seams.begin(); it != joined_end; ++it) {
    const auto& [comp, nb] = *it;
    tc->base_joins.push_back({comp, nb.tile, base[nb.tile].component[nb.poly]});
  }
  std::sort(tc->base_joins.begin(), tc->base_joins.end());
  tc->base_joins.erase(std::unique(tc->base_joins.begin(), tc->base_joins.end()),
                       tc->base_joins.end());
}

BaseComponents BuildBaseComponents(const NavMap& base) {
  BaseComponents out;
  out.tiles.resize(base.tile_count());
  out.neighbours.resize(base.tile_count());
  out.linked_from.resize(base.tile_count());
  out.seam_polys.resize(base.tile_count());
  out.vertices.reserve(base.tile_count());
  const auto add = [](std::vector<uint32_t>* list, uint32_t t) {
    if (std::find(list->begin(), list->end(), t) == list->end()) list->push_back(t);
  };
  for (const TileView& t : base.tiles()) {
    out.tiles[t.index] = ComponentsOfTile(t);
    out.vertices.emplace_back(t);
    out.digests.push_back(DigestOfTile(base.info(), t));
    std::vector<double>& areas = out.surface_area.emplace_back();
    std::vector<Vec3> corners;
    for (uint32_t p = 0; p < t.poly_count(); ++p) {
      corners.clear();
      for (uint32_t i = 0; i < t.corner_count(p); ++i) corners.push_back(t.corner(p, i));
      areas.push_back(SurfaceArea(corners, t.detail(p)));
    }
    for (uint32_t p = 0; p < t.poly_count(); ++p) {
      for (uint32_t c = t.poly_start[p]; c < t.poly_start[p + 1]; ++c) {
        if (t.poly_neighbors[c] != kWall && (t.poly_neighbors[c] & kCrossTileBit)) {
          out.seam_polys[t.index].push_back(p);
          break;
        }
      }
    }
    for (const PolyIndex& l : t.cross_links) {
      if (l.tile == t.index) continue;
      add(&out.neighbours[t.index], l.tile);
      add(&out.neighbours[l.tile], t.index);
      add(&out.linked_from[l.tile], t.index);
    }
    for (const OffMeshLink& l : t.off_mesh_links) {
      if (l.end_tile != t.index) add(&out.linked_from[l.end_tile], t.index);
    }
    for (int32_t dz = -1; dz <= 1; ++dz) {
      for (int32_t dx = -1; dx <= 1; ++dx) {
        const int32_t n = base.TileIndexAt(t.grid_x + dx, t.grid_z + dz);
        if (n >= 0 && uint32_t(n) != t.index) add(&out.neighbours[t.index], uint32_t(n));
      }
    }
  }
  const auto every_tile = [](uint32_t) { return true; };  // all are at their base
  for (TileComponents& tc : out.tiles) JoinSeamsIntoBase(out.tiles, every_tile, &tc);
  for (auto& list : out.neighbours) std::sort(list.begin(), list.end());
  for (auto& list : out.linked_from) std::sort(list.begin(), list.end());
  return out;
}

CarvedIslands ComputeIslands(std::span<const TileView> tiles,
                             std::span<const TileComponents* const> components,
                             std::span<const TileComponents> base) {
  // Nodes: every tile's components; seams join them.
  std::vector<uint32_t> first(tiles.size() + 1, 0);
  for (const TileView& t : tiles) {
    first[t.index + 1] = first[t.index] + uint32_t(components[t.index]->components.size());
  }
  const auto node = [&](uint32_t tile, uint32_t poly) {
    return first[tile] + components[tile]->component[poly];
  };
  const auto is_base = [&](uint32_t tile) { return components[tile] == &base[tile]; };
  IslandSets sets(first.back());
  for (const TileView& t : tiles) {
    const TileComponents& tc = *components[t.index];
    // Seams into tiles still at their base join what the base joins say, each pair once; the
    // partition, and so the islands, are the same.
    bool into_carved = false;
    for (const TileComponents::ComponentJoin& j : tc.base_joins) {
      if (is_base(j.tile)) {
        sets.Join(first[t.index] + j.component, first[j.tile] + j.across);
      } else {
        into_carved = true;
      }
    }
    // Neighbouring seam edges mostly join the same two components: a join repeated at once is
    // skipped (joining twice changes nothing).
    uint32_t last_a = UINT32_MAX, last_b = UINT32_MAX;
    for (uint32_t s = into_carved ? 0 : tc.joined_seams; s < tc.seams.size(); ++s) {
      const auto& [comp, nb] = tc.seams[s];
      if (s < tc.joined_seams && is_base(nb.tile)) continue;  // in the base joins
      const uint32_t a = first[t.index] + comp, b = node(nb.tile, nb.poly);
      if (a == last_a && b == last_b) continue;
      sets.Join(a, b);
      last_a = a, last_b = b;
    }
  }
  std::vector<uint32_t> part_of_root(first.back(), UINT32_MAX);
  std::vector<IslandPart> parts;
  for (const TileView& t : tiles) {
    const auto& comps = components[t.index]->components;
    for (uint32_t c = 0; c < comps.size(); ++c) {
      const uint32_t r = sets.Find(first[t.index] + c);
      if (part_of_root[r] == UINT32_MAX) {
        part_of_root[r] = uint32_t(parts.size());
        parts.emplace_back();
      }
      IslandPart& part = parts[part_of_root[r]];
      part.polygons += comps[c].polygons;
      part.area += comps[c].area;
      part.lowest = std::min(part.lowest, std::pair{t.index, comps[c].lowest});
    }
  }
  std::vector<uint32_t> order(parts.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    const IslandPart &x = parts[a], &y = parts[b];
    return std::tie(y.polygons, y.area, x.lowest) < std::tie(x.polygons, x.area, y.lowest);
  });
  std::vector<uint32_t> island_of_part(parts.size());
  for (uint32_t i = 0; i < order.size(); ++i) island_of_part[order[i]] = i;

  CarvedIslands out;
  out.component_island.resize(tiles.size());
  for (const TileView& t : tiles) {
    std::vector<uint32_t>& ids = out.component_island[t.index];
    ids.resize(components[t.index]->components.size());
    for (uint32_t c = 0; c < ids.size(); ++c) {
      ids[c] = island_of_part[part_of_root[sets.Find(first[t.index] + c)]];
    }
  }
  const auto island = [&](uint32_t tile, uint32_t poly) {
    return out.component_island[tile][components[tile]->component[poly]];
  };
  IslandSets groups(uint32_t(order.size()));
  for (const TileView& t : tiles) {
    for (const OffMeshLink& l : t.off_mesh_links) {
      groups.Join(island(t.index, l.start_poly), island(l.end_tile, l.end_poly));
    }
  }
  std::vector<uint32_t> group_id(order.size(), UINT32_MAX);
  uint32_t next_group = 0;
  out.islands.resize(order.size());
  for (uint32_t i = 0; i < order.size(); ++i) {
    const uint32_t root = groups.Find(i);
    if (group_id[root] == UINT32_MAX) group_id[root] = next_group++;
    const IslandPart& part = parts[order[i]];
    out.islands[i] = {part.polygons, part.area, group_id[root]};
  }
  return out;
}

}  // namespace waymesh::obstacles
