#pragma once
// Maps for tests, built through the real pipeline: import -> repair -> compile -> load.

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "waymesh/core/nav_map.h"
#include "waymesh/mesh/repaired_mesh.h"
#include "waymesh/mesh/source_mesh.h"

namespace waymesh::testing {

// Imports `path` (any format ImportFile knows), repairs it with `options`, compiles and loads.
absl::StatusOr<std::shared_ptr<const NavMap>> BuildMapFromFile(const std::string& path,
                                                               const RepairOptions& options = {});

// As above from an in-memory source mesh.
absl::StatusOr<std::shared_ptr<const NavMap>> BuildMapFromSource(const SourceMesh& source,
                                                                 const RepairOptions& options = {});

// BuildMapFromFile memoised per (path, options) for the life of the test binary, so several
// tests share one build of a large map. Thread-safe.
absl::StatusOr<std::shared_ptr<const NavMap>> CachedMapFromFile(const std::string& path,
                                                                const RepairOptions& options = {});

}  // namespace waymesh::testing
