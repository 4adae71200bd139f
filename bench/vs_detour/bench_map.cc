#include "vs_detour/bench_map.h"

#include <filesystem>
#include <span>
#include <system_error>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "waymesh/format/map_file.h"
#include "waymesh/import/importers.h"
#include "waymesh/repair/repair.h"

namespace waymesh::bench {
namespace {

absl::StatusOr<BenchMap> CompileAndLoad(const std::string& name,
                                        std::span<const SourceMesh> sources,
                                        const RepairOptions& repair) {
  RepairReport report;
  absl::StatusOr<RepairedMesh> mesh = RepairMeshes(sources, repair, &report);
  if (!mesh.ok()) return mesh.status();
  absl::StatusOr<std::string> bytes = CompileMap(*mesh);
  if (!bytes.ok()) return bytes.status();
  auto shared = std::make_shared<const std::string>(*std::move(bytes));
  absl::StatusOr<std::shared_ptr<const NavMap>> map = LoadMap(shared);
  if (!map.ok()) return map.status();
  return BenchMap{name, *std::move(map), shared->size(), shared};
}

}  // namespace

absl::StatusOr<BenchMap> LoadBenchMap(const std::string& name, const std::string& path,
                                      const RepairOptions& repair) {
  if (absl::EndsWith(path, ".wmesh")) {
    absl::StatusOr<std::shared_ptr<const NavMap>> map = LoadMapFile(path);
    if (!map.ok()) return map.status();
    std::error_code error;
    const uintmax_t bytes = std::filesystem::file_size(path, error);
    return BenchMap{name, *std::move(map), error ? 0 : uint64_t(bytes)};
  }
  absl::StatusOr<SourceMesh> source = ImportFile(path);
  if (!source.ok()) return source.status();
  return CompileAndLoad(name, std::span<const SourceMesh>(&*source, 1), repair);
}

absl::StatusOr<BenchMap> BuildSourceMap(const std::string& name, const SourceMesh& source) {
  return CompileAndLoad(name, std::span<const SourceMesh>(&source, 1), RepairOptions());
}

absl::StatusOr<BenchMap> BuildDemoWorldMap(const std::string& name,
                                           const DemoWorldOptions& options) {
  absl::StatusOr<DemoWorld> world = GenerateDemoWorld(options);
  if (!world.ok()) return world.status();
  return CompileAndLoad(name, std::span<const SourceMesh>(&world->mesh, 1), RepairOptions());
}

}  // namespace waymesh::bench
