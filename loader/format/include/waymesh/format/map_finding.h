#pragma once
// One problem a map check found: which check, and what and where.

#include <string>
#include <string_view>

namespace waymesh {

// Names of the checks every reader of a compiled map applies (format), as findings print
// them; `waymesh validate`'s own checks name theirs in waymesh/checks/map_checks.h.
inline constexpr std::string_view kCheckChecksum = "checksum";         // CRC mismatch
inline constexpr std::string_view kCheckStructure = "structure";       // sizes, index ranges
inline constexpr std::string_view kCheckNonManifold = "non-manifold";  // >2 sides, asymmetric
inline constexpr std::string_view kCheckNonConvex = "non-convex";

// A finding: the check that failed and a message that says what and where.
struct MapFinding {
  std::string check;    // one of the kCheck* names
  std::string message;  // what is wrong and where (tile, polygon, position or byte offset)
};

// "check: message", the line `waymesh validate` prints for a finding.
inline std::string FindingLine(const MapFinding& f) { return f.check + ": " + f.message; }

}  // namespace waymesh
