#pragma once
// Validates every SourceMesh and concatenates them into one polygon soup with global indices,
// so that seams between scenes are repaired like any other seam.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "waymesh/mesh/source_mesh.h"

namespace waymesh::repair {

struct CombinedSource {
  std::vector<Vec3> vertices;
  std::vector<uint32_t> poly_start{0};  // CSR over poly_verts, global vertex indices
  std::vector<uint32_t> poly_verts;
  std::vector<uint8_t> poly_area;
  std::vector<SourceOffMeshLink> links;
  std::vector<std::string> link_names;  // "file link 3", for findings
  uint64_t input_triangles = 0;         // sum of (corners - 2) over polygons

  uint32_t polygon_count() const { return uint32_t(poly_start.size() - 1); }
};

// Checks index ranges, CSR shape, area ids and finite, bounded coordinates; errors name the
// file and the polygon, corner, vertex or link at fault.
absl::StatusOr<CombinedSource> CombineSources(std::span<const SourceMesh> sources);

}  // namespace waymesh::repair
