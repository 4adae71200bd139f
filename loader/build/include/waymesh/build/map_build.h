#pragma once
// The whole `waymesh build`: import every input, repair them into one map, compile `.wmesh`.

#include <span>
#include <string>

#include "absl/status/statusor.h"
#include "waymesh/import/importers.h"
#include "waymesh/repair/repair.h"

namespace waymesh {

struct BuildOptions {
  ImportOptions import;
  RepairOptions repair;
  // Store the map's exact landmark table (exact_landmark_table.h) in the file: seconds of
  // floods at build time instead of at every load, 2 bytes per landmark and vertex.
  bool exact_landmarks = false;
};

// What the optional exact landmark table of a build cost (all zero when not asked for, or
// when the map is too small to get one).
struct ExactLandmarkBuild {
  uint32_t landmarks = 0;
  uint64_t section_bytes = 0;  // in the file
  double seconds = 0;          // floods and writing
};

struct BuildResult {
  std::string bytes;  // the compiled map
  RepairReport report;
  MapInfo info;
  ExactLandmarkBuild exact_landmarks;
};

// Builds the exact landmark table of the compiled map `bytes` (as CompileMap wrote them) and
// appends it as their section, then checks them as readers will; `stats` says what it cost.
// A map too small for a table is left as it is (stats->landmarks 0).
absl::Status StoreExactLandmarks(std::string* bytes, ExactLandmarkBuild* stats);

// The last step of every compile (build and bake): checks the compiled map `bytes` once as its
// readers will, after storing its exact landmark table when `exact_landmarks` (whose check is
// StoreExactLandmarks's own); `stats` says what the table cost.
absl::Status FinishCompiledMap(bool exact_landmarks, std::string* bytes, ExactLandmarkBuild* stats);

// Imports `inputs` (any supported format, see importers.h), repairs them as one world and
// compiles the result. `progress` sees import, repair and compile steps.
absl::StatusOr<BuildResult> BuildMap(std::span<const std::string> inputs,
                                     const BuildOptions& options,
                                     const ProgressFn& progress = nullptr);

}  // namespace waymesh
