#pragma once
// Merges triangles into convex polygons, greedily across the longest shared edge first (as
// Recast does), deterministic. Merges happen only within one group (area and tile, or source
// polygon) and only across exactly one shared edge, so no interior vertex is ever created and
// every triangle of a polygon has its corners among the polygon's corners.

#include <cstdint>
#include <span>
#include <vector>

#include "triangle_soup.h"

namespace waymesh::repair {

struct MergePolicy {
  // True rebuilds the source polygons (RepairOptions::merge == false): any simple shape within
  // a group, no convexity or flatness limits; false makes convex, flat polygons.
  bool rebuild_sources = false;
  int max_verts = 8;               // corners per polygon
  double height_tolerance = 0.02;  // metres from the polygon's plane, for every corner
};

struct MergedPolygons {
  std::vector<uint32_t> poly_start{0};  // CSR over corners/edges
  std::vector<uint32_t> corners;        // vertex ids, map winding
  std::vector<uint32_t> edges;          // half-edge from corner i to corner i + 1
  std::vector<uint32_t> tri_start{0};   // CSR over tris: each polygon's triangles, ascending
  std::vector<uint32_t> tris;
  std::vector<uint32_t> poly_of_tri;

  uint32_t polygon_count() const { return uint32_t(poly_start.size() - 1); }
};

// `twin` pairs half-edges (kNoTwin for walls); `group[t]` is triangle t's merge group.
// Polygons come out ordered by group, then by their lowest triangle.
MergedPolygons MergeTriangles(const TriangleSoup& soup, std::span<const uint32_t> twin,
                              std::span<const uint64_t> group, const MergePolicy& policy);

}  // namespace waymesh::repair
