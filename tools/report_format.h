#pragma once
// Human-readable and JSON summaries of maps and builds, shared by the CLI verbs.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <ostream>

#include "waymesh/build/map_build.h"
#include "waymesh/core/nav_map.h"
#include "waymesh/mesh/repaired_mesh.h"

namespace waymesh::cli {

// What the optional exact path indexes `asked` for cost (waymesh build/bake --exact-landmarks
// --exact-twin), beside the map's polygons, or why the map has none.
void PrintStoredIndexBuild(const StoredIndexOptions& asked, const StoredIndexBuild& built,
                           uint64_t polygons, std::ostream& out);

// One line per repair step with its counts.
void PrintRepairReport(const RepairReport& report, std::ostream& out);

// The `inspect --json` document: counts, islands, areas, repairs, metadata.
nlohmann::json MapSummaryJson(const NavMap& map, uint64_t file_bytes);

// The same summary as aligned text.
void PrintMapSummary(const NavMap& map, uint64_t file_bytes, std::ostream& out);

}  // namespace waymesh::cli
