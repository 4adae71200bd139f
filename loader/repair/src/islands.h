#pragma once
// Islands: connected pieces of walkable surface over polygon adjacency (off-mesh links do not
// join islands; they join islands into groups, in either direction).

#include <cstdint>
#include <span>
#include <vector>

#include "waymesh/core/nav_map.h"
#include "waymesh/mesh/repaired_mesh.h"

namespace waymesh::repair {

// Fills mesh->poly_island and mesh->info.islands from poly_neighbors and links.
// `poly_surface_area` is each polygon's 3D surface area (m²). Island ids are ordered largest
// first: by polygon count, then area, then lowest polygon index, so they are deterministic.
void BuildIslands(std::span<const double> poly_surface_area, RepairedMesh* mesh);

}  // namespace waymesh::repair
