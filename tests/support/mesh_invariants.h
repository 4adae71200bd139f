#pragma once
// Structural invariants every repaired mesh must satisfy, as a reusable test helper:
//   EXPECT_TRUE(waymesh::testing::MeshInvariantsHold(mesh));
// Checks array shapes, convex polygons in map winding, detail triangles that exactly tile each
// polygon, symmetric adjacency with exactly two sides per interior edge (non-manifold edges:
// linked in pairs, the rest walls), closed boundary loops, tiles and overhang, islands and map
// counts (walkable area = detail triangle area).

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "waymesh/mesh/repaired_mesh.h"
#include "waymesh/mesh/source_mesh.h"
#include "waymesh/mesh/tolerances.h"

namespace waymesh::testing {

struct InvariantOptions {
  // False for meshes built with RepairOptions::merge = false from non-convex input polygons.
  bool require_convex = true;
  int max_verts_per_poly = tol::kMaxVertsPerPolyLimit;
};

// Every violated invariant, one line each (at most a few dozen); empty when all hold.
std::vector<std::string> FindInvariantViolations(const RepairedMesh& mesh,
                                                 const InvariantOptions& options = {});

// Success when FindInvariantViolations is empty; otherwise a failure listing the violations.
::testing::AssertionResult MeshInvariantsHold(const RepairedMesh& mesh,
                                              const InvariantOptions& options = {});

// Plan-view (X–Z) area of polygon p from its corners (shoelace), m².
double PolygonPlanArea(const RepairedMesh& mesh, uint32_t p);
// 3D surface area of polygon p's detail triangles, m².
double PolygonSurfaceArea(const RepairedMesh& mesh, uint32_t p);
// Total 3D surface area of a source mesh's polygons, each fan-triangulated (exact for
// triangle meshes and planar convex polygons), m².
double SourceSurfaceArea(const SourceMesh& source);
// Total plan-view area of a source mesh's polygons (shoelace, sign ignored), m².
double SourcePlanArea(const SourceMesh& source);

}  // namespace waymesh::testing
