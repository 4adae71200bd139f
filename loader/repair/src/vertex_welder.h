#pragma once
// Welds vertices closer than a tolerance into one.
//
// Choice: first-come representatives in a canonical order, not union-find. Vertices are visited
// sorted by (x, z, y) and each joins the nearest existing representative within the tolerance
// or becomes one. Welding never chains (a vertex moves at most `tolerance`), and the result
// does not depend on the input's vertex order. Neighbouring hash cells are searched, so two
// points 1 mm apart on either side of a cell edge still weld.

#include <cstdint>
#include <span>
#include <vector>

#include "waymesh/core/vec3.h"

namespace waymesh::repair {

inline constexpr uint32_t kUnusedVertex = UINT32_MAX;

struct WeldResult {
  std::vector<Vec3> positions;  // one per representative, in canonical order
  std::vector<uint32_t> remap;  // input vertex -> representative, kUnusedVertex if unused
  uint64_t welded = 0;          // used input vertices merged into another vertex
};

// Welds the vertices with `used[i] != 0`; `tolerance` is a 3D distance in metres (>= 0).
WeldResult WeldVertices(std::span<const Vec3> points, std::span<const uint8_t> used,
                        float tolerance);

}  // namespace waymesh::repair
