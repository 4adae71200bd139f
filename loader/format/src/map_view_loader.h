#pragma once
// LoadMapView without the structural checks, for `waymesh validate`, which reports every
// structural problem of a map (CheckMap) instead of refusing it at the first.

#include <cstddef>
#include <memory>
#include <span>

#include "absl/status/statusor.h"
#include "waymesh/core/nav_map.h"
#include "waymesh/core/search_tables.h"

namespace waymesh {

// Validates header, tiles and the sections after them (checksums, sizes, index ranges; the
// plan twin's image fully) as LoadMapView does. What the sections hold goes to `*stored`
// (empty when the file has none; may be null).
absl::StatusOr<std::shared_ptr<const NavMap>> LoadMapViewUnchecked(
    std::span<const std::byte> bytes, std::shared_ptr<const void> storage,
    StoredSearchTables* stored = nullptr);

}  // namespace waymesh
