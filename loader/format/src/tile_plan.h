#pragma once
// Cutting a RepairedMesh into `.wmesh` tiles: which polygons go to which tile, in which order
// (BV-tree leaf order), and which directed off-mesh links each tile stores.

#include <cstdint>
#include <vector>

#include "waymesh/core/nav_map.h"
#include "waymesh/core/poly_ref.h"
#include "waymesh/mesh/repaired_mesh.h"

namespace waymesh {

struct TilePlan {
  uint32_t cell = 0;  // grid_z * grid_width + grid_x
  int32_t grid_x = 0;
  int32_t grid_z = 0;
  Aabb bounds;                  // of the tile's own polygons
  std::vector<uint32_t> polys;  // mesh polygon ids in stored (leaf) order
  std::vector<BvNode> bv_nodes;
  float bv_quant_factor = 1.0f;
  std::vector<OffMeshLink> off_mesh_links;  // directed, sorted by start_poly
};

// One plan per non-empty grid cell, cells ascending; (*placement)[p] = (tile, local index).
// Requires CheckCompileInput(mesh) to pass.
std::vector<TilePlan> PlanTiles(const RepairedMesh& mesh, std::vector<PolyIndex>* placement);

}  // namespace waymesh
