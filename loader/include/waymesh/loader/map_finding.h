#pragma once
// One problem a map check found (`waymesh validate`): which check, and what and where.

#include <string>
#include <string_view>

namespace waymesh {

// Names of the checks, as findings and `waymesh validate` print them.
inline constexpr std::string_view kCheckChecksum = "checksum";         // CRC mismatch
inline constexpr std::string_view kCheckStructure = "structure";       // sizes, index ranges
inline constexpr std::string_view kCheckOpenSeam = "open-seam";        // touching, not linked
inline constexpr std::string_view kCheckNonManifold = "non-manifold";  // >2 sides, asymmetric
inline constexpr std::string_view kCheckNonConvex = "non-convex";
inline constexpr std::string_view kCheckIslands = "islands";             // --max-islands
inline constexpr std::string_view kCheckIslandArea = "island-area";      // --min-island-area
inline constexpr std::string_view kCheckWalkableArea = "walkable-area";  // --min/max-area
inline constexpr std::string_view kCheckOffMeshLink = "off-mesh-link";   // an end off the mesh
inline constexpr std::string_view kCheckConnected = "connected";         // --connected A B

// A finding: the check that failed and a message that says what and where.
struct MapFinding {
  std::string check;    // one of the kCheck* names
  std::string message;  // what is wrong and where (tile, polygon, position or byte offset)
};

// "check: message", the line `waymesh validate` prints for a finding.
inline std::string FindingLine(const MapFinding& f) { return f.check + ": " + f.message; }

}  // namespace waymesh
