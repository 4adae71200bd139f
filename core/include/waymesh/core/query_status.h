#pragma once
// Outcome of a query that ran on valid arguments. These are results, not errors: bad arguments
// are reported separately as absl::Status.

#include <cstdint>
#include <string_view>

namespace waymesh {

enum class QueryStatus : uint8_t {
  kComplete,      // reached the goal (path) / ran to the end (raycast, move)
  kPartial,       // node limit hit, or goal unreachable and partial paths allowed: best effort
                  // towards the goal
  kNoPath,        // the goal cannot be reached from the start (under the filter)
  kStartOffMesh,  // no usable polygon within the search extents of the start
  kEndOffMesh,    // no usable polygon within the search extents of the goal
};

// Upper-case name ("COMPLETE", "PARTIAL", "NO_PATH", "START_OFF_MESH", "END_OFF_MESH").
std::string_view QueryStatusName(QueryStatus status);

}  // namespace waymesh
