#include "funnel.h"

#include <algorithm>
#include <cmath>

#include "poly_geometry.h"
#include "waymesh/core/tolerances.h"

namespace waymesh::internal {
namespace {

bool SamePoint(Vec3 a, Vec3 b) { return DistSqXZ(a, b) <= tol::kSamePointSq; }

// Funnel sides are reset to the apex by copying it, so "unconstrained" is exact equality.
bool Unconstrained(Vec3 apex, Vec3 side) { return apex.x == side.x && apex.z == side.z; }

void Bend(FunnelState* s, Vec3 corner, Vec3 l, Vec3 r) {
  s->g += s->rate * Distance(s->apex, corner);
  s->apex = corner;
  s->left = l;
  s->right = r;
}

void Emit(Vec3 p, int32_t portal, int8_t side, std::vector<FunnelPoint>* out) {
  if (!out->empty() && SamePoint(out->back().pos, p)) {
    // Keep the later portal index: the path continues from there.
    out->back().portal = portal;
    if (side == 0) out->back().side = 0;
    return;
  }
  out->push_back({p, portal, side});
}

}  // namespace

void AdvanceFunnel(FunnelState* s, Vec3 l, Vec3 r) {
  // Right side: r narrows the cone when it is not right of apex->right.
  if (Unconstrained(s->apex, s->right) || TriArea2XZ(s->apex, s->right, r) >= 0) {
    if (Unconstrained(s->apex, s->right) || Unconstrained(s->apex, s->left) ||
        TriArea2XZ(s->apex, s->left, r) <= 0) {
      s->right = r;
    } else {
      Bend(s, s->left, l, r);  // the portal is wholly left of the cone
      return;
    }
  }
  if (Unconstrained(s->apex, s->left) || TriArea2XZ(s->apex, s->left, l) <= 0) {
    if (Unconstrained(s->apex, s->left) || Unconstrained(s->apex, s->right) ||
        TriArea2XZ(s->apex, s->right, l) >= 0) {
      s->left = l;
    } else {
      Bend(s, s->right, l, r);  // wholly right of the cone
      return;
    }
  }
}

void VisiblePart(const FunnelState& s, Vec3 l, Vec3 r, Vec3* vis_l, Vec3* vis_r) {
  // Points of the portal are r + u (l - r), u in [0, 1]; each cone side is a linear constraint.
  float lo = 0, hi = 1;
  auto clip = [&](Vec3 side, float sign) {
    if (Unconstrained(s.apex, side)) return;
    // sign * TriArea2XZ(apex, side, point) >= 0 must hold.
    const float at_r = sign * TriArea2XZ(s.apex, side, r);
    const float at_l = sign * TriArea2XZ(s.apex, side, l);
    const float slope = at_l - at_r;
    if (slope > 0) {
      lo = std::max(lo, -at_r / slope);
    } else if (slope < 0) {
      hi = std::min(hi, -at_r / slope);
    } else if (at_r < 0) {
      lo = 1, hi = 0;
    }
  };
  // A side that is the portal's own end constrains nothing (the common case after a
  // narrowing step).
  if (!(s.right == r)) clip(s.right, 1.0f);
  if (!(s.left == l)) clip(s.left, -1.0f);
  if (!(lo <= hi)) {
    // Rounding emptied a sliver: fall back to the nearest end.
    lo = hi = (lo > 1 || hi > 0.5f) ? 1.0f : 0.0f;
  }
  *vis_r = Lerp(r, l, lo);
  *vis_l = Lerp(r, l, hi);
}

float FunnelCostTo(FunnelState s, Vec3 target) {
  AdvanceFunnel(&s, target, target);
  return s.g + s.rate * Distance(s.apex, target);
}

float BestPortalParam(Vec3 a, Vec3 g, Vec3 l, Vec3 r) {
  const float dx = r.x - l.x, dz = r.z - l.z;
  const float len_sq = dx * dx + dz * dz;
  if (!(len_sq > 0)) return 0;
  const float ta = ((a.x - l.x) * dx + (a.z - l.z) * dz) / len_sq;
  const float tg = ((g.x - l.x) * dx + (g.z - l.z) * dz) / len_sq;
  // Distances (times the portal length) of a and g from the portal's line; mirroring g to the
  // far side when both are on one side gives the same crossing formula.
  const float da = std::fabs(dx * (a.z - l.z) - dz * (a.x - l.x));
  const float dg = std::fabs(dx * (g.z - l.z) - dz * (g.x - l.x));
  const float sum = da + dg;
  const float t = sum > 0 ? ta + (tg - ta) * (da / sum) : tg;
  return t < 0 ? 0 : (t > 1 ? 1 : t);
}

void StringPull(Vec3 start, Vec3 end, std::span<const FunnelPortal> portals,
                std::vector<FunnelPoint>* out) {
  Emit(start, -1, 0, out);
  const int32_t n = int32_t(portals.size());
  Vec3 apex = start, left = start, right = start;
  int32_t apex_i = -1, left_i = -1, right_i = -1;
  for (int32_t i = 0; i <= n; ++i) {
    const Vec3 l = i < n ? portals[i].left : end;
    const Vec3 r = i < n ? portals[i].right : end;
    // Right side: r narrows the funnel when it is not right of apex->right.
    if (TriArea2XZ(apex, right, r) >= 0) {
      if (SamePoint(apex, right) || TriArea2XZ(apex, left, r) <= 0) {
        right = r;
        right_i = i;
      } else {
        // r crossed the left edge: the left point is a corner of the path.
        apex = left;
        apex_i = left_i;
        Emit(apex, apex_i, +1, out);
        left = right = apex;
        left_i = right_i = apex_i;
        i = apex_i;
        continue;
      }
    }
    // Left side, mirrored.
    if (TriArea2XZ(apex, left, l) <= 0) {
      if (SamePoint(apex, left) || TriArea2XZ(apex, right, l) >= 0) {
        left = l;
        left_i = i;
      } else {
        apex = right;
        apex_i = right_i;
        Emit(apex, apex_i, -1, out);
        left = right = apex;
        left_i = right_i = apex_i;
        i = apex_i;
        continue;
      }
    }
  }
  Emit(end, n, 0, out);
}

}  // namespace waymesh::internal
