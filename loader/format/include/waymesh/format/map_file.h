#pragma once
// The compiled map format `.wmesh` (docs/map-format.md): write, validate, load.

#include <memory>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "waymesh/core/nav_map.h"
#include "waymesh/mesh/repaired_mesh.h"

namespace waymesh {

// Serialises a repaired mesh into `.wmesh` bytes (tiles, BV trees, checksums).
absl::StatusOr<std::string> CompileMap(const RepairedMesh& mesh);

struct MapLoadOptions {
  // Build the map's search tables (search_tables.h) as part of loading: what path queries
  // want. Tools that only read the map's data skip it.
  bool search_tables = true;
  // With them, the plan twin exact mode searches (SearchTables::Options::exact_twin).
  bool exact_twin = false;
};

// Validates `bytes` (sizes, checksums, index ranges) and returns a map whose tiles point into
// them. Errors name the offset and the failing check. `bytes` is kept alive by the map.
absl::StatusOr<std::shared_ptr<const NavMap>> LoadMap(std::shared_ptr<const std::string> bytes,
                                                      const MapLoadOptions& options = {});

// Loads `bytes` (as CompileMap wrote them) the way every reader will: checksums, index ranges,
// structure (map_structure.h). `waymesh build` and `bake` run it before writing, so they never
// write a map that inspect, validate or the server would refuse. Internal error naming the
// failed check otherwise (the writer's bug, not the input's).
absl::Status CheckCompiledMap(const std::string& bytes);

// Memory-maps `path` and loads it as above.
absl::StatusOr<std::shared_ptr<const NavMap>> LoadMapFile(const std::string& path,
                                                          const MapLoadOptions& options = {});

// Writes bytes to `path` atomically (temporary file, then rename).
absl::Status WriteFileAtomically(const std::string& path, std::string_view bytes);

}  // namespace waymesh
