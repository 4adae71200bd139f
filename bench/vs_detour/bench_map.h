#pragma once
// The maps the comparison runs on, loaded the way the server gets them: compiled `.wmesh`
// bytes, then LoadMap.

#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "waymesh/core/nav_map.h"
#include "waymesh/demo_world/demo_world.h"
#include "waymesh/mesh/repaired_mesh.h"
#include "waymesh/mesh/source_mesh.h"

namespace waymesh::bench {

struct BenchMap {
  std::string name;
  std::shared_ptr<const NavMap> map;
  uint64_t compiled_bytes = 0;  // size of the `.wmesh` bytes
  // The `.wmesh` bytes of a map compiled here (null for a map loaded from a file).
  std::shared_ptr<const std::string> bytes;
};

// A `.wmesh` is loaded as it is; any other file (.mesh, .obj, export JSON) is imported,
// repaired with `repair` and compiled first.
absl::StatusOr<BenchMap> LoadBenchMap(const std::string& name, const std::string& path,
                                      const RepairOptions& repair);

// Repairs (default options) and compiles one source mesh.
absl::StatusOr<BenchMap> BuildSourceMap(const std::string& name, const SourceMesh& source);

// Generates, repairs (default options) and compiles the demo town.
absl::StatusOr<BenchMap> BuildDemoWorldMap(const std::string& name,
                                           const DemoWorldOptions& options);

}  // namespace waymesh::bench
