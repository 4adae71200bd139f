#include "waymesh/server/move_judge.h"

#include <cmath>

namespace waymesh::server {
namespace {

// The point `limit` metres (plan view) from `from` towards `to`; heights interpolated.
Vec3 ClampMove(Vec3 from, Vec3 to, float limit) {
  const float d = DistanceXZ(from, to);
  if (!(d > limit) || d <= 0) return to;
  return Lerp(from, to, limit / d);
}

}  // namespace

absl::StatusOr<MoveVerdict> JudgeMove(NavQuery& query, const QueryFilter& filter,
                                      const MoveClaim& claim, MoveResult* scratch) {
  MoveVerdict verdict;
  absl::StatusOr<std::optional<SurfacePoint>> start =
      query.NearestPoint(claim.from, claim.extents, filter);
  if (!start.ok()) return start.status();
  if (!*start) {
    verdict.reason = MoveReason::kFromOffMesh;
    verdict.reached = claim.from;
    return verdict;
  }
  absl::StatusOr<std::optional<SurfacePoint>> dest =
      query.NearestPoint(claim.to, claim.extents, filter);
  if (!dest.ok()) return dest.status();
  const float tolerance = claim.tolerance > 0 ? claim.tolerance : kDefaultMoveTolerance;
  const SurfacePoint& from = **start;
  const bool too_far =
      claim.max_distance > 0 && DistanceXZ(from.pos, claim.to) > claim.max_distance;
  // A mover that may not go all the way is rubber-banded to where the allowed distance ends.
  const Vec3 target = too_far ? ClampMove(from.pos, claim.to, claim.max_distance) : claim.to;
  if (absl::Status s = query.MoveAlongSurface(from, target, filter, scratch); !s.ok()) return s;
  verdict.reached = scratch->pos;
  verdict.distance = DistanceXZ(from.pos, scratch->pos);
  if (!*dest) {
    verdict.reason = MoveReason::kToOffMesh;
  } else if (too_far) {
    verdict.reason = MoveReason::kTooFar;
  } else if (DistanceXZ(scratch->pos, claim.to) > tolerance) {
    verdict.reason = MoveReason::kBlockedByWall;
  } else if (std::fabs(scratch->pos.y - (*dest)->pos.y) > kWrongFloorHeight) {
    // Under or over the claimed spot: e.g. walked along the riverside walkway but claims to
    // stand on the bridge deck above it.
    verdict.reason = MoveReason::kWrongFloor;
  }
  return verdict;
}

}  // namespace waymesh::server
