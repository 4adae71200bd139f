#include "tile_plan.h"

#include <algorithm>
#include <tuple>

#include "bv_tree_builder.h"

namespace waymesh {
namespace {

// Groups polygon ids by cell, cells ascending, polygons ascending inside a cell.
std::vector<TilePlan> GroupByCell(const RepairedMesh& mesh) {
  std::vector<uint32_t> by_cell(mesh.polygon_count());
  for (uint32_t p = 0; p < by_cell.size(); ++p) by_cell[p] = p;
  std::stable_sort(by_cell.begin(), by_cell.end(),
                   [&](uint32_t a, uint32_t b) { return mesh.poly_tile[a] < mesh.poly_tile[b]; });
  std::vector<TilePlan> plans;
  for (uint32_t p : by_cell) {
    const uint32_t cell = mesh.poly_tile[p];
    if (plans.empty() || plans.back().cell != cell) {
      TilePlan& t = plans.emplace_back();
      t.cell = cell;
      t.grid_x = int32_t(cell % mesh.info.grid_width);
      t.grid_z = int32_t(cell / mesh.info.grid_width);
    }
    plans.back().polys.push_back(p);
  }
  return plans;
}

// Reorders the plan's polygons into the leaf order of its BV tree.
void BuildTree(const RepairedMesh& mesh, TilePlan* plan) {
  std::vector<Aabb> boxes(plan->polys.size());
  std::vector<Vec3> centroids(plan->polys.size());
  for (size_t i = 0; i < plan->polys.size(); ++i) {
    const uint32_t p = plan->polys[i];
    double sum[3] = {0, 0, 0};
    for (uint32_t c = mesh.poly_start[p]; c < mesh.poly_start[p + 1]; ++c) {
      const Vec3 v = mesh.vertices[mesh.poly_verts[c]];
      boxes[i].Extend(v);
      sum[0] += v.x, sum[1] += v.y, sum[2] += v.z;
    }
    const double n = mesh.corner_count(p);
    centroids[i] = {float(sum[0] / n), float(sum[1] / n), float(sum[2] / n)};
    plan->bounds.Extend(boxes[i].min);
    plan->bounds.Extend(boxes[i].max);
  }
  BvTree tree = BuildBvTree(boxes, centroids, plan->bounds);
  std::vector<uint32_t> ordered(plan->polys.size());
  for (size_t k = 0; k < ordered.size(); ++k) ordered[k] = plan->polys[tree.order[k]];
  plan->polys = std::move(ordered);
  plan->bv_nodes = std::move(tree.nodes);
  plan->bv_quant_factor = tree.quant_factor;
}

OffMeshLink Directed(const ResolvedOffMeshLink& l, bool reverse,
                     const std::vector<PolyIndex>& placement) {
  const PolyIndex from = placement[reverse ? l.end_poly : l.start_poly];
  const PolyIndex to = placement[reverse ? l.start_poly : l.end_poly];
  OffMeshLink d{};
  d.start = reverse ? l.end : l.start;
  d.end = reverse ? l.start : l.end;
  d.radius = l.radius;
  d.cost = l.cost;
  d.start_poly = from.poly;
  d.end_tile = to.tile;
  d.end_poly = to.poly;
  d.id = l.id;
  d.area = l.area;
  d.bidirectional = l.bidirectional ? 1 : 0;
  return d;
}

void DistributeLinks(const RepairedMesh& mesh, const std::vector<PolyIndex>& placement,
                     std::vector<TilePlan>* plans) {
  for (const ResolvedOffMeshLink& l : mesh.links) {
    (*plans)[placement[l.start_poly].tile].off_mesh_links.push_back(Directed(l, false, placement));
    if (l.bidirectional) {
      (*plans)[placement[l.end_poly].tile].off_mesh_links.push_back(Directed(l, true, placement));
    }
  }
  for (TilePlan& plan : *plans) {
    // Deterministic order among links leaving the same polygon.
    std::stable_sort(plan.off_mesh_links.begin(), plan.off_mesh_links.end(),
                     [](const OffMeshLink& a, const OffMeshLink& b) {
                       return std::tie(a.start_poly, a.id) < std::tie(b.start_poly, b.id);
                     });
  }
}

}  // namespace

std::vector<TilePlan> PlanTiles(const RepairedMesh& mesh, std::vector<PolyIndex>* placement) {
  std::vector<TilePlan> plans = GroupByCell(mesh);
  placement->assign(mesh.polygon_count(), PolyIndex{});
  for (uint32_t t = 0; t < plans.size(); ++t) {
    BuildTree(mesh, &plans[t]);
    for (uint32_t k = 0; k < plans[t].polys.size(); ++k) {
      (*placement)[plans[t].polys[k]] = PolyIndex{t, k};
    }
  }
  DistributeLinks(mesh, *placement, &plans);
  return plans;
}

}  // namespace waymesh
