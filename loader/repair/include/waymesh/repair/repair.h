#pragma once
// The repair pipeline: weld → drop degenerates → split T-junctions → pair non-manifold edges →
// merge into convex polygons → adjacency → islands → tiles → off-mesh links.

#include <functional>
#include <span>
#include <string_view>

#include "absl/status/statusor.h"
#include "waymesh/mesh/repaired_mesh.h"
#include "waymesh/mesh/source_mesh.h"

namespace waymesh {

// Called between steps with the step's name and the fraction of the pipeline done (0..1).
using ProgressFn = std::function<void(std::string_view step, double fraction)>;

// Builds one map from one or more exports (a world assembled from scenes: seams between them
// are welded and repaired like any other). `report` receives the counts of every step.
absl::StatusOr<RepairedMesh> RepairMeshes(std::span<const SourceMesh> sources,
                                          const RepairOptions& options, RepairReport* report,
                                          const ProgressFn& progress = nullptr);

}  // namespace waymesh
