#pragma once
// LoadMapView without the structural checks, for `waymesh validate`, which reports every
// structural problem of a map (CheckMap) instead of refusing it at the first.

#include <cstddef>
#include <memory>
#include <span>

#include "absl/status/statusor.h"
#include "waymesh/core/exact_landmark_table.h"
#include "waymesh/core/nav_map.h"

namespace waymesh {

// Validates header, tiles and the exact landmark section (checksums, sizes, index ranges) as
// LoadMapView does. The section's table goes to `*exact_landmarks` (empty when the file has
// none; may be null).
absl::StatusOr<std::shared_ptr<const NavMap>> LoadMapViewUnchecked(
    std::span<const std::byte> bytes, std::shared_ptr<const void> storage,
    ExactLandmarkTable* exact_landmarks = nullptr);

}  // namespace waymesh
