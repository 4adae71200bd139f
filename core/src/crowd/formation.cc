#include "crowd/formation.h"

namespace waymesh::crowd::internal {

bool FormationSlot(NavQuery& query, const AgentSnap& leader, Vec3 offset, const QueryFilter& filter,
                   MoveResult* scratch, SurfacePoint* out) {
  const V2 forward = FromAngle(leader.facing);
  const V2 right{forward.z, -forward.x};
  const V2 slot = leader.pos + right * offset.x + forward * offset.z;
  const SurfacePoint from{leader.poly, Lift(leader.pos, leader.y)};
  const absl::Status s = query.MoveAlongSurface(from, Lift(slot, leader.y), filter, scratch);
  if (!s.ok() || scratch->status == QueryStatus::kStartOffMesh) return false;
  *out = SurfacePoint{scratch->poly, scratch->pos};
  return true;
}

}  // namespace waymesh::crowd::internal
