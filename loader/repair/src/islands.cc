#include "islands.h"

#include <algorithm>
#include <numeric>

namespace waymesh::repair {
namespace {

class DisjointSets {
 public:
  explicit DisjointSets(uint32_t n) : parent_(n) { std::iota(parent_.begin(), parent_.end(), 0); }
  uint32_t Find(uint32_t x) {
    while (parent_[x] != x) {
      parent_[x] = parent_[parent_[x]];
      x = parent_[x];
    }
    return x;
  }
  // Keeps the lower id as the root, so roots are each set's lowest member.
  void Join(uint32_t a, uint32_t b) {
    a = Find(a);
    b = Find(b);
    if (a < b) parent_[b] = a;
    if (b < a) parent_[a] = b;
  }

 private:
  std::vector<uint32_t> parent_;
};

struct Component {
  uint32_t lowest;  // lowest polygon index
  uint32_t polygons = 0;
  double area = 0;
};

}  // namespace

void BuildIslands(std::span<const double> poly_surface_area, RepairedMesh* mesh) {
  const uint32_t polys = mesh->polygon_count();
  DisjointSets sets(polys);
  for (uint32_t p = 0; p < polys; ++p) {
    for (uint32_t c = mesh->poly_start[p]; c < mesh->poly_start[p + 1]; ++c) {
      if (mesh->poly_neighbors[c] >= 0) sets.Join(p, uint32_t(mesh->poly_neighbors[c]));
    }
  }
  // Roots are lowest members, so components appear in order of their lowest polygon.
  std::vector<uint32_t> component_of_root(polys, UINT32_MAX);
  std::vector<Component> components;
  for (uint32_t p = 0; p < polys; ++p) {
    const uint32_t r = sets.Find(p);
    if (component_of_root[r] == UINT32_MAX) {
      component_of_root[r] = uint32_t(components.size());
      components.push_back({p});
    }
    Component& c = components[component_of_root[r]];
    ++c.polygons;
    c.area += poly_surface_area[p];
  }
  std::vector<uint32_t> order(components.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    const Component &x = components[a], &y = components[b];
    if (x.polygons != y.polygons) return x.polygons > y.polygons;
    if (x.area != y.area) return x.area > y.area;
    return x.lowest < y.lowest;
  });
  std::vector<uint32_t> island_of_component(components.size());
  for (uint32_t i = 0; i < order.size(); ++i) island_of_component[order[i]] = i;
  mesh->poly_island.resize(polys);
  for (uint32_t p = 0; p < polys; ++p) {
    mesh->poly_island[p] = island_of_component[component_of_root[sets.Find(p)]];
  }
  // Groups: islands joined by links; a group is numbered after its lowest (largest) island.
  DisjointSets groups(uint32_t(order.size()));
  for (const ResolvedOffMeshLink& l : mesh->links) {
    groups.Join(mesh->poly_island[l.start_poly], mesh->poly_island[l.end_poly]);
  }
  std::vector<uint32_t> group_id(order.size(), UINT32_MAX);
  uint32_t next_group = 0;
  mesh->info.islands.resize(order.size());
  for (uint32_t i = 0; i < order.size(); ++i) {
    const uint32_t root = groups.Find(i);
    if (group_id[root] == UINT32_MAX) group_id[root] = next_group++;
    const Component& c = components[order[i]];
    mesh->info.islands[i] = {c.polygons, c.area, group_id[root]};
  }
}

}  // namespace waymesh::repair
