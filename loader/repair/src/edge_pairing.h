#pragma once
// Pairs the half-edges of a triangle soup into twins (the two sides of one walkable edge).
// An edge used by two triangles in opposite directions is an ordinary interior edge. An edge
// used by more than two (non-manifold: fins, stacked floors meeting at a seam) is paired by
// facing and continuity: opposite directions only, most aligned normals first, then nearest
// height; what is left becomes walls and each such edge is reported with its location.

#include <cstdint>
#include <string>
#include <vector>

#include "triangle_soup.h"

namespace waymesh::repair {

inline constexpr uint32_t kNoTwin = UINT32_MAX;

struct EdgePairing {
  std::vector<uint32_t> twin;  // per half-edge: its twin or kNoTwin (a wall)
  uint64_t non_manifold = 0;   // edges with more than two triangles
  uint64_t boundary = 0;       // half-edges left without a twin
  std::vector<std::string> findings;
};

EdgePairing PairHalfEdges(const TriangleSoup& soup);

}  // namespace waymesh::repair
