#include "support/map_builder.h"

#include <map>
#include <mutex>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "waymesh/format/map_file.h"
#include "waymesh/import/importers.h"
#include "waymesh/repair/repair.h"

namespace waymesh::testing {

absl::StatusOr<std::shared_ptr<const NavMap>> BuildMapFromSource(const SourceMesh& source,
                                                                 const RepairOptions& options) {
  RepairReport report;
  absl::StatusOr<RepairedMesh> repaired =
      RepairMeshes(std::span<const SourceMesh>(&source, 1), options, &report);
  if (!repaired.ok()) return repaired.status();
  absl::StatusOr<std::string> bytes = CompileMap(*repaired);
  if (!bytes.ok()) return bytes.status();
  return LoadMap(std::make_shared<const std::string>(*std::move(bytes)));
}

absl::StatusOr<std::shared_ptr<const NavMap>> BuildMapFromFile(const std::string& path,
                                                               const RepairOptions& options) {
  absl::StatusOr<SourceMesh> source = ImportFile(path);
  if (!source.ok()) return source.status();
  return BuildMapFromSource(*source, options);
}

absl::StatusOr<std::shared_ptr<const NavMap>> CachedMapFromFile(const std::string& path,
                                                                const RepairOptions& options) {
  using Key = std::tuple<std::string, float, float, float, int, bool, float>;
  static std::mutex mu;
  static auto* cache = new std::map<Key, absl::StatusOr<std::shared_ptr<const NavMap>>>();
  const Key key{path,
                options.weld_tolerance,
                options.t_junction_tolerance,
                options.merge_height_tolerance,
                options.max_verts_per_poly,
                options.merge,
                options.tile_size};
  std::lock_guard<std::mutex> lock(mu);
  auto it = cache->find(key);
  if (it == cache->end()) it = cache->emplace(key, BuildMapFromFile(path, options)).first;
  return it->second;
}

}  // namespace waymesh::testing
