#include "funnel.h"

#include "poly_geometry.h"
#include "waymesh/core/tolerances.h"

namespace waymesh::internal {
namespace {

bool SamePoint(Vec3 a, Vec3 b) { return DistSqXZ(a, b) <= tol::kSamePointSq; }

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
