#include "crowd/orca_lines.h"

#include <algorithm>
#include <cmath>

namespace waymesh::crowd::internal {

V2 ClosestOnSegment(V2 a, V2 b, V2 p) {
  const V2 ab = b - a;
  const float len_sq = LengthSq2(ab);
  if (len_sq <= 0) return a;
  const float t = std::clamp(Dot2(p - a, ab) / len_sq, 0.0f, 1.0f);
  return a + ab * t;
}

HalfPlane AgentHalfPlane(V2 pos, V2 vel, V2 other_pos, V2 other_vel, float combined_radius,
                         float horizon, float dt, float share) {
  const V2 rel_pos = other_pos - pos;
  const V2 rel_vel = vel - other_vel;
  const float dist_sq = LengthSq2(rel_pos);
  const float r_sq = combined_radius * combined_radius;
  HalfPlane h;
  V2 u;  // smallest change of the relative velocity that leaves the velocity obstacle
  if (dist_sq > r_sq) {
    // The obstacle is a cone truncated by a disc of radius R / horizon round rel_pos / horizon.
    const V2 w = rel_vel - rel_pos * (1.0f / horizon);
    const float w_len_sq = LengthSq2(w);
    const float along = Dot2(w, rel_pos);
    if (along < 0 && along * along > r_sq * w_len_sq) {
      // Closest to the truncating disc.
      const float w_len = std::sqrt(w_len_sq);
      const V2 unit_w = w * (1.0f / w_len);
      h.dir = {unit_w.z, -unit_w.x};
      u = unit_w * (combined_radius / horizon - w_len);
    } else {
      // Closest to one of the cone's legs (tangents from the origin to the disc).
      const float leg = std::sqrt(dist_sq - r_sq);
      if (Det2(rel_pos, w) > 0) {
        h.dir = V2{rel_pos.x * leg - rel_pos.z * combined_radius,
                   rel_pos.x * combined_radius + rel_pos.z * leg} *
                (1.0f / dist_sq);
      } else {
        h.dir = V2{rel_pos.x * leg + rel_pos.z * combined_radius,
                   -rel_pos.x * combined_radius + rel_pos.z * leg} *
                (-1.0f / dist_sq);
      }
      u = h.dir * Dot2(rel_vel, h.dir) - rel_vel;
    }
  } else {
    // Already overlapping: leave the disc of radius R / dt round rel_pos / dt.
    const V2 w = rel_vel - rel_pos * (1.0f / dt);
    const float w_len = Length2(w);
    // Exactly on top of each other: any direction separates; take one fixed by the geometry.
    const V2 unit_w = w_len > 0 ? w * (1.0f / w_len) : V2{1.0f, 0.0f};
    h.dir = {unit_w.z, -unit_w.x};
    u = unit_w * (combined_radius / dt - w_len);
  }
  h.point = vel + u * share;
  return h;
}

bool WallHalfPlane(V2 pos, V2 vel, float radius, const WallXZ& wall, float horizon, float dt,
                   float max_push, HalfPlane* out) {
  const V2 ab = wall.b - wall.a;
  if (Det2(ab, pos - wall.a) < 0) return false;  // behind the wall's line
  const float len_sq = LengthSq2(ab);
  const float t = len_sq > 0 ? Dot2(pos - wall.a, ab) / len_sq : 0.0f;
  if (t <= 0 || t >= 1) {
    // Nearest to an end (a corner the agent may walk round): avoid it as a standing agent of
    // no size, taking all of the avoidance. Walls further along are nearer next tick.
    const V2 corner = t <= 0 ? wall.a : wall.b;
    *out = AgentHalfPlane(pos, vel, corner, V2{}, radius, horizon, dt, 1.0f);
    return true;
  }
  // Nearest to the inside: the wall is a line. Velocities v with Dot2(v, n) >= limit go
  // towards it only as fast as the gap allows (a wall closer than the radius pushes the agent
  // out at up to max_push m/s within dt).
  const V2 closest = wall.a + ab * t;
  const V2 away = pos - closest;
  const float dist = Length2(away);
  const V2 n = dist > 0 ? away * (1.0f / dist) : Normalized2(V2{-ab.z, ab.x});
  const float gap = dist - radius;
  const float limit = gap >= 0 ? -gap / horizon : std::min(-gap / dt, max_push);
  out->point = n * limit;
  out->dir = {n.z, -n.x};  // n is on its left
  return true;
}

}  // namespace waymesh::crowd::internal
