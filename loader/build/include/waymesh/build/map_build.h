#pragma once
// The whole `waymesh build`: import every input, repair them into one map, compile `.wmesh`.

#include <span>
#include <string>

#include "absl/status/statusor.h"
#include "waymesh/core/plan_twin.h"
#include "waymesh/import/importers.h"
#include "waymesh/repair/repair.h"

namespace waymesh {

// The optional indexes of exact FindPath a compile stores in the map file.
struct StoredIndexOptions {
  // The map's exact landmark table (exact_landmark_table.h): seconds of floods at build time
  // instead of at every load, 2 bytes per landmark and vertex.
  bool exact_landmarks = false;
  // The map's plan twin (plan_twin.h), which exact mode then searches: seconds at build time
  // instead of at every load; stored only when worth keeping (WorthKeeping).
  bool exact_twin = false;
};

struct BuildOptions {
  ImportOptions import;
  RepairOptions repair;
  StoredIndexOptions stored;
};

// What the optional exact landmark table of a build cost (all zero when not asked for, or
// when the map is too small to get one).
struct ExactLandmarkBuild {
  uint32_t landmarks = 0;
  uint64_t section_bytes = 0;  // in the file
  double seconds = 0;          // floods and writing
};

// What the optional plan twin of a build cost; `report` says how far it cut the polygons
// (zero when not asked for). Not stored when it would not cut them to 2/3.
struct PlanTwinBuild {
  PlanTwinReport report;
  bool stored = false;
  uint64_t section_bytes = 0;  // in the file
  double seconds = 0;          // building and writing
};

// What the optional indexes of a build cost.
struct StoredIndexBuild {
  ExactLandmarkBuild exact_landmarks;
  PlanTwinBuild exact_twin;
};

struct BuildResult {
  std::string bytes;  // the compiled map
  RepairReport report;
  MapInfo info;
  StoredIndexBuild stored;
};

// Builds the exact landmark table of the compiled map `bytes` (as CompileMap wrote them) and
// appends it as their section, then checks them as readers will; `stats` says what it cost.
// A map too small for a table is left as it is (stats->landmarks 0).
absl::Status StoreExactLandmarks(std::string* bytes, ExactLandmarkBuild* stats);

// Builds the plan twin of the compiled map `bytes` and, when it is worth keeping, appends it as
// their plan twin section (after any exact landmark section), then checks them as readers
// will; `stats` says what it cost and how far it cut the polygons.
absl::Status StorePlanTwin(std::string* bytes, PlanTwinBuild* stats);

// The last step of every compile (build and bake): stores the indexes `options` asks for
// (StoreExactLandmarks, StorePlanTwin, each checking the map as its readers will) or else
// checks the compiled map `bytes` once; `stats` says what they cost.
absl::Status FinishCompiledMap(const StoredIndexOptions& options, std::string* bytes,
                               StoredIndexBuild* stats);

// Imports `inputs` (any supported format, see importers.h), repairs them as one world and
// compiles the result. `progress` sees import, repair and compile steps.
absl::StatusOr<BuildResult> BuildMap(std::span<const std::string> inputs,
                                     const BuildOptions& options,
                                     const ProgressFn& progress = nullptr);

}  // namespace waymesh
