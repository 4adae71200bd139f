// BakeMap: OBJ level geometry -> Recast bake -> the same repair and compile steps as
// `waymesh build`.

#include <algorithm>
#include <filesystem>
#include <span>
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "waymesh/bake/baker.h"
#include "waymesh/format/map_file.h"
#include "waymesh/format/map_tiles.h"

namespace waymesh {
namespace {

// Shares of the progress fraction: the tile bake dominates.
constexpr double kImportShare = 0.05;
constexpr double kBakeShare = 0.75;
constexpr double kRepairShare = 0.15;
constexpr double kCompileShare = 1.0 - kImportShare - kBakeShare - kRepairShare;

// ImportOptions::mirror_x negates X without touching winding, which turns every floor of level
// geometry upside down for Recast (it reads floors from the winding): restore it.
void ReverseWinding(SourceMesh& mesh) {
  for (uint32_t p = 0; p < mesh.polygon_count(); ++p) {
    std::reverse(mesh.poly_verts.begin() + mesh.poly_start[p],
                 mesh.poly_verts.begin() + mesh.poly_start[p + 1]);
  }
}

ProgressFn Scaled(const ProgressFn& progress, double start, double share) {
  if (!progress) return nullptr;
  return [&progress, start, share](std::string_view step, double fraction) {
    progress(step, start + share * fraction);
  };
}

absl::StatusOr<SourceMesh> ImportGeometry(const std::string& path, const ImportOptions& import) {
  const std::string extension =
      absl::AsciiStrToLower(std::filesystem::path(path).extension().string());
  if (extension != ".obj") {
    return absl::InvalidArgumentError(absl::StrCat(
        path, ": bake reads level geometry as Wavefront OBJ (.obj); this file is not one"));
  }
  absl::StatusOr<SourceMesh> geometry = ImportFile(path, import);
  if (!geometry.ok()) return geometry.status();
  if (import.mirror_x) ReverseWinding(*geometry);
  return geometry;
}

}  // namespace

absl::StatusOr<BakeResult> BakeMap(const std::string& geometry_path,
                                   const std::string& volumes_path, const BakeSettings& settings,
                                   const BakeMapOptions& options, const ProgressFn& progress) {
  if (absl::Status s = ValidateBakeSettings(settings); !s.ok()) return s;
  if (progress) progress(absl::StrCat("import ", geometry_path), 0);
  absl::StatusOr<SourceMesh> geometry = ImportGeometry(geometry_path, options.import);
  if (!geometry.ok()) return geometry.status();
  absl::StatusOr<BakeVolumes> extras =
      volumes_path.empty() ? DefaultBakeVolumes() : LoadBakeVolumesFile(volumes_path);
  if (!extras.ok()) return extras.status();

  BakeResult result;
  absl::StatusOr<SourceMesh> baked = BakeNavMesh(*geometry, settings, *extras, &result.bake,
                                                 Scaled(progress, kImportShare, kBakeShare));
  if (!baked.ok()) return baked.status();
  *geometry = SourceMesh{};  // free the level geometry before the repair allocates

  const double repair_start = kImportShare + kBakeShare;
  absl::StatusOr<RepairedMesh> mesh =
      RepairMeshes(std::span<const SourceMesh>(&*baked, 1), BakeRepairOptions(settings),
                   &result.build.report, Scaled(progress, repair_start, kRepairShare));
  if (!mesh.ok()) return mesh.status();
  *baked = SourceMesh{};

  if (progress) progress("compile", repair_start + kRepairShare);
  absl::StatusOr<std::string> bytes = CompileMap(*mesh);
  if (!bytes.ok()) return bytes.status();
  if ((options.stored.exact_landmarks || options.stored.exact_twin) && progress) {
    progress("exact path indexes", repair_start + kRepairShare + kCompileShare / 2);
  }
  if (absl::Status s = FinishCompiledMap(options.stored, &*bytes, &result.build.stored);
      !s.ok()) {
    return s;
  }
  result.build.bytes = *std::move(bytes);
  result.build.info = std::move(mesh->info);
  if (progress) progress("done", 1.0);
  return result;
}

}  // namespace waymesh
