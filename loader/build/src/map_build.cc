#include "waymesh/build/map_build.h"

#include <chrono>
#include <memory>
#include <span>
#include <vector>

#include "absl/strings/str_cat.h"
#include "waymesh/core/exact_landmark_table.h"
#include "waymesh/core/plan_twin.h"
#include "waymesh/format/map_file.h"
#include "waymesh/format/map_tiles.h"

namespace waymesh {
namespace {

// Import takes roughly the first fifth of a build, repair most of the rest.
constexpr double kImportShare = 0.2;
constexpr double kCompileShare = 0.1;

}  // namespace

absl::Status StoreExactLandmarks(std::string* bytes, ExactLandmarkBuild* stats) {
  const auto start = std::chrono::steady_clock::now();
  absl::StatusOr<std::shared_ptr<const NavMap>> map =
      LoadMapView(std::as_bytes(std::span(*bytes)), nullptr, {.search_tables = false});
  // The compiled map fails its readers' checks: CheckCompiledMap names it a writer bug.
  if (!map.ok()) return CheckCompiledMap(*bytes);
  const ExactLandmarkTable table = ExactLandmarkTable::Build(**map);
  map->reset();  // points into `bytes`, which grow next
  const size_t before = bytes->size();
  if (absl::Status s = AppendExactLandmarkSection(table, bytes); !s.ok()) return s;
  stats->landmarks = table.count();
  stats->section_bytes = bytes->size() - before;
  stats->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // Read back as every reader will: the section against the map it was built on.
  return CheckCompiledMap(*bytes);
}

absl::Status StorePlanTwin(std::string* bytes, PlanTwinBuild* stats) {
  const auto start = std::chrono::steady_clock::now();
  absl::StatusOr<std::shared_ptr<const NavMap>> map =
      LoadMapView(std::as_bytes(std::span(*bytes)), nullptr, {.search_tables = false});
  if (!map.ok()) return CheckCompiledMap(*bytes);
  absl::StatusOr<PlanTwin> twin = BuildPlanTwin(**map);
  if (!twin.ok()) return twin.status();
  stats->report = twin->report;
  if (!WorthKeeping(twin->report)) return CheckCompiledMap(*bytes);
  const size_t before = bytes->size();
  absl::Status appended = AppendPlanTwinSection(*twin, bytes);
  twin->map.reset();
  map->reset();  // both point into `bytes` as they were
  if (!appended.ok()) return appended;
  stats->stored = true;
  stats->section_bytes = bytes->size() - before;
  stats->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return CheckCompiledMap(*bytes);
}

absl::Status FinishCompiledMap(const StoredIndexOptions& options, std::string* bytes,
                               StoredIndexBuild* stats) {
  if (!options.exact_landmarks && !options.exact_twin) return CheckCompiledMap(*bytes);
  if (options.exact_landmarks) {
    if (absl::Status s = StoreExactLandmarks(bytes, &stats->exact_landmarks); !s.ok()) return s;
  }
  if (options.exact_twin) return StorePlanTwin(bytes, &stats->exact_twin);
  return absl::OkStatus();
}

absl::StatusOr<BuildResult> BuildMap(std::span<const std::string> inputs,
                                     const BuildOptions& options, const ProgressFn& progress) {
  if (inputs.empty()) return absl::InvalidArgumentError("no input files");
  std::vector<SourceMesh> sources;
  sources.reserve(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (progress) progress(absl::StrCat("import ", inputs[i]), kImportShare * i / inputs.size());
    absl::StatusOr<SourceMesh> source = ImportFile(inputs[i], options.import);
    if (!source.ok()) return source.status();
    sources.push_back(*std::move(source));
  }

  BuildResult result;
  const double repair_share = 1.0 - kImportShare - kCompileShare;
  ProgressFn repair_progress;
  if (progress) {
    repair_progress = [&](std::string_view step, double fraction) {
      progress(step, kImportShare + repair_share * fraction);
    };
  }
  absl::StatusOr<RepairedMesh> mesh =
      RepairMeshes(sources, options.repair, &result.report, repair_progress);
  if (!mesh.ok()) return mesh.status();
  sources.clear();

  if (progress) progress("compile", 1.0 - kCompileShare);
  absl::StatusOr<std::string> bytes = CompileMap(*mesh);
  if (!bytes.ok()) return bytes.status();
  if ((options.stored.exact_landmarks || options.stored.exact_twin) && progress) {
    progress("exact path indexes", 1.0 - kCompileShare / 2);
  }
  if (absl::Status s = FinishCompiledMap(options.stored, &*bytes, &result.stored); !s.ok()) {
    return s;
  }
  result.bytes = *std::move(bytes);
  result.info = std::move(mesh->info);
  if (progress) progress("done", 1.0);
  return result;
}

}  // namespace waymesh
