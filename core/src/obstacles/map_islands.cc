#include "map_islands.h"

#include <algorithm>
#include <numeric>

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
  uint32_t lowest = 0;
  uint32_t polygons = 0;
  double area = 0;
};

}  // namespace

void ComputeIslands(std::span<const TileView> tiles,
                    std::vector<std::vector<uint32_t>>* poly_island,
                    std::vector<IslandInfo>* islands) {
  std::vector<uint32_t> base{0};
  for (const TileView& t : tiles) base.push_back(base.back() + t.poly_count());
  const uint32_t total = base.back();
  IslandSets sets(total);
  for (const TileView& t : tiles) {
    for (uint32_t p = 0; p < t.poly_count(); ++p) {
      for (uint32_t c = t.poly_start[p]; c < t.poly_start[p + 1]; ++c) {
        if (const auto nb = t.across(c)) sets.Join(base[t.index] + p, base[nb->tile] + nb->poly);
      }
    }
  }
  std::vector<uint32_t> part_of_root(total, UINT32_MAX);
  std::vector<IslandPart> parts;
  for (const TileView& t : tiles) {
    for (uint32_t p = 0; p < t.poly_count(); ++p) {
      const uint32_t g = base[t.index] + p, r = sets.Find(g);
      if (part_of_root[r] == UINT32_MAX) {
        part_of_root[r] = uint32_t(parts.size());
        parts.push_back({g});
      }
      IslandPart& part = parts[part_of_root[r]];
      ++part.polygons;
      part.area += double(t.area_prefix[p + 1]) - t.area_prefix[p];
    }
  }
  std::vector<uint32_t> order(parts.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    const IslandPart &x = parts[a], &y = parts[b];
    if (x.polygons != y.polygons) return x.polygons > y.polygons;
    if (x.area != y.area) return x.area > y.area;
    return x.lowest < y.lowest;
  });
  std::vector<uint32_t> island_of_part(parts.size());
  for (uint32_t i = 0; i < order.size(); ++i) island_of_part[order[i]] = i;
  poly_island->assign(tiles.size(), {});
  for (const TileView& t : tiles) {
    auto& ids = (*poly_island)[t.index];
    ids.resize(t.poly_count());
    for (uint32_t p = 0; p < t.poly_count(); ++p) {
      ids[p] = island_of_part[part_of_root[sets.Find(base[t.index] + p)]];
    }
  }
  IslandSets groups(uint32_t(order.size()));
  for (const TileView& t : tiles) {
    for (const OffMeshLink& l : t.off_mesh_links) {
      groups.Join((*poly_island)[t.index][l.start_poly], (*poly_island)[l.end_tile][l.end_poly]);
    }
  }
  std::vector<uint32_t> group_id(order.size(), UINT32_MAX);
  uint32_t next_group = 0;
  islands->resize(order.size());
  for (uint32_t i = 0; i < order.size(); ++i) {
    const uint32_t root = groups.Find(i);
    if (group_id[root] == UINT32_MAX) group_id[root] = next_group++;
    const IslandPart& part = parts[order[i]];
    (*islands)[i] = {part.polygons, part.area, group_id[root]};
  }
}

}  // namespace waymesh::obstacles
