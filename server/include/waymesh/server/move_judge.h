#pragma once
// ValidateMove's decision: may a mover go from `from` to `to` along the surface, and where does
// it really end up (the position anti-cheat rubber-bands to). Checks in this order, the first
// failing one is the verdict: the start is on the mesh, the destination is on the mesh, the move
// is not longer than allowed, no wall stops it, and it ends on the floor it claims.

#include "absl/status/statusor.h"
#include "waymesh/core/move_result.h"
#include "waymesh/core/nav_query.h"
#include "waymesh/core/query_filter.h"
#include "waymesh/core/vec3.h"
#include "waymesh/server/metrics.h"

namespace waymesh::server {

// A move is VALID when the position reached along the surface is within this plan-view
// distance of the claimed destination, unless the claim sets its own tolerance (metres).
inline constexpr float kDefaultMoveTolerance = 0.05f;
// The reached position and the surface under the claimed destination are on different floors
// when their heights differ by more than this (metres); floors one above another are at least
// an agent height apart, ramps and steps at one spot never differ by this much.
inline constexpr float kWrongFloorHeight = 1.0f;

struct MoveClaim {
  Vec3 from;
  Vec3 to;
  float max_distance = 0;  // plan view, metres; 0 = no limit
  float tolerance = 0;     // plan view, metres, how far `reached` may be from `to`; 0 = the
                           // default kDefaultMoveTolerance
  Vec3 extents;            // box half size that puts from and to on the mesh
};

struct MoveVerdict {
  MoveReason reason = MoveReason::kNone;  // kNone = VALID
  Vec3 reached;        // where the mover ends up on the surface (`from` when it is off mesh)
  float distance = 0;  // plan-view distance from the snapped start to `reached`
};

// Judges `claim` on `query`'s map. `scratch` is reused between calls. Errors are the query's
// (nav_query.h): bad arguments, which request validation already excludes, or a tile that
// cannot be loaded.
absl::StatusOr<MoveVerdict> JudgeMove(NavQuery& query, const QueryFilter& filter,
                                      const MoveClaim& claim, MoveResult* scratch);

}  // namespace waymesh::server
