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
};

struct BuildResult {
  std::string bytes;  // the compiled map
  RepairReport report;
  MapInfo info;
};

// Imports `inputs` (any supported format, see importers.h), repairs them as one world and
// compiles the result. `progress` sees import, repair and compile steps.
absl::StatusOr<BuildResult> BuildMap(std::span<const std::string> inputs,
                                     const BuildOptions& options,
                                     const ProgressFn& progress = nullptr);

}  // namespace waymesh
