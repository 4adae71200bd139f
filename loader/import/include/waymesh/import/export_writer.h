#pragma once
// Writes a SourceMesh as the project's Unity export (JSON, docs/export-format.md):
//   {"format": "waymesh-navmesh-export", "version": 1, "exporter", "unity_version", "scene",
//    "agents", "areas", "vertices", "indices", "triangle_areas", "off_mesh_links"}
// Deterministic (the same mesh always gives the same bytes: numbers are the shortest text that
// reads back to the same float) and streaming, so exports of millions of triangles need no
// second copy in memory.

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "waymesh/mesh/source_mesh.h"

namespace waymesh {

struct ExportWriterOptions {
  std::string exporter_name = "waymesh";  // "exporter": {"name": ...}
};

// "fnv1a64:<16 hex digits>": 64-bit FNV-1a over the vertices, polygons, areas and links in a
// fixed little-endian byte order. Deterministic on every platform; not a cryptographic hash.
std::string ContentHash(const SourceMesh& mesh);

// The export JSON of `mesh`. The scene hash is `mesh.source_hash`, or ContentHash when empty.
// Polygons with more than 3 corners are fan-split, so they must be convex. InvalidArgument,
// naming the element, for what the format cannot hold: bad polygon indices, non-finite or
// absurd coordinates (> tol::kMaxCoordinate), area ids above 63, non-convex polygons.
absl::StatusOr<std::string> WriteUnityExport(const SourceMesh& mesh,
                                             const ExportWriterOptions& options = {});

// The same JSON streamed to `path` through a temporary file renamed at the end, so a failure
// never leaves a partial export. Returns the bytes written; I/O errors name the path.
absl::StatusOr<uint64_t> WriteUnityExportFile(const SourceMesh& mesh, const std::string& path,
                                              const ExportWriterOptions& options = {});

}  // namespace waymesh
