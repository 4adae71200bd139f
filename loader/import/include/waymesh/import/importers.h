#pragma once
// Importers: each turns one export file's text into a SourceMesh, or a clear error naming the
// file, line (or JSON path) and what is wrong. They never repair; see repair.h.

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "waymesh/mesh/source_mesh.h"

namespace waymesh {

struct ImportOptions {
  // Undo exporters that mirror the X axis (negate X). Winding is normalised by the repair
  // pipeline either way.
  bool mirror_x = false;
};

// The project's own Unity export (JSON, docs/export-format.md).
absl::StatusOr<SourceMesh> ImportUnityExport(std::string_view text, std::string_view origin);
// The JSON dump of existing Java/C# game servers (`pathVertices` + `pathTriangles`).
absl::StatusOr<SourceMesh> ImportServerNavJson(std::string_view text, std::string_view origin);
// Wavefront OBJ: `v` and `f` (triangles and n-gons, 1-based or negative indices).
absl::StatusOr<SourceMesh> ImportObj(std::string_view text, std::string_view origin,
                                     const ImportOptions& options = {});
// Polyanya `.mesh` version 2: 2D (x, y) mapped to (x, 0, y), declared adjacency kept.
absl::StatusOr<SourceMesh> ImportPolyanyaMesh(std::string_view text, std::string_view origin);

// Reads `path` and picks the importer from its extension and content.
absl::StatusOr<SourceMesh> ImportFile(const std::string& path, const ImportOptions& options = {});

}  // namespace waymesh
