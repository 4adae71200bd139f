#pragma once
// `waymesh validate`: checks that a loaded map is fit for pathfinding, so that a broken map
// fails the build pipeline instead of the live server. Integrity (checksums) is checked while
// loading, see map_file_check.h; these checks run on the loaded map.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "waymesh/core/nav_map.h"
#include "waymesh/core/vec3.h"
#include "waymesh/format/map_finding.h"

namespace waymesh {

// Names of the map checks beyond the structural ones of waymesh/format/map_finding.h, as
// findings and `waymesh validate` print them.
inline constexpr std::string_view kCheckOpenSeam = "open-seam";          // touching, not linked
inline constexpr std::string_view kCheckIslands = "islands";             // --max-islands
inline constexpr std::string_view kCheckIslandArea = "island-area";      // --min-island-area
inline constexpr std::string_view kCheckWalkableArea = "walkable-area";  // --min/max-area
inline constexpr std::string_view kCheckOffMeshLink = "off-mesh-link";   // an end off the mesh
inline constexpr std::string_view kCheckConnected = "connected";         // --connected A B

// Two positions that must be joined by a complete path.
struct ConnectedPair {
  Vec3 a, b;
};

// Which checks run, and the limits of the optional ones.
struct MapCheckOptions {
  // Open seams and edges of more than two polygons. The structural checks (map_structure.h:
  // grid, coordinates, winding, neighbour links) always run: the server refuses what they find.
  bool topology = true;
  bool off_mesh_links = true;             // every link end on its polygon
  std::optional<uint64_t> max_islands;    // more islands is a finding
  std::optional<double> min_island_area;  // m²; every smaller island is a finding
  std::optional<double> min_area;         // m² of walkable surface, inclusive
  std::optional<double> max_area;         // m² of walkable surface, inclusive
  std::vector<ConnectedPair> connected;   // each needs a COMPLETE path (NavQuery::FindPath)
  Vec3 half_extents{2.0f, 4.0f, 2.0f};    // box that puts `connected` positions on the mesh (m)
};

// What CheckMap found, and what it looked at.
struct MapCheckReport {
  std::vector<MapFinding> findings;  // empty when the map passed every check that ran
  std::vector<std::string> summary;  // one line per check that ran: what it looked at
};

// Runs the checks `options` asks for on `map` (never null). Findings name tile, polygon and
// position; the report is deterministic.
MapCheckReport CheckMap(std::shared_ptr<const NavMap> map, const MapCheckOptions& options);

}  // namespace waymesh
