#pragma once
// Splitting a convex polygon into convex pieces of bounded corner count, for navmesh formats
// with a small fixed corner limit (Detour: 6).

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "waymesh/core/vec3.h"

namespace waymesh::bench {

// Corner limit of the pieces (Detour's DT_VERTS_PER_POLYGON).
inline constexpr int kMaxPieceCorners = 6;
// Most corners a polygon to split may have (corners are indexed with a byte).
inline constexpr uint32_t kMaxSplitCorners = 255;

// One convex piece: indices of the source polygon's corners, in the polygon's own order.
struct ConvexPiece {
  std::array<uint8_t, kMaxPieceCorners> corners{};
  uint8_t count = 0;
};

// Splits the convex polygon `corners` (3..kMaxSplitCorners, map winding) into pieces of at most
// kMaxPieceCorners corners along diagonals, and also at every corner with `cut_at[c]` set, so
// that no piece keeps both polygon edges of such a corner. Diagonals go to the corner that
// halves the ring best without running along a straight boundary (compact pieces; a fan from
// one corner would make slivers, which bias Detour's edge-midpoint search). Replaces `*pieces`.
void SplitConvexPolygon(std::span<const Vec3> corners, std::span<const uint8_t> cut_at,
                        std::vector<ConvexPiece>* pieces);

// True when corner b, between a and c, is a straight angle (plan view, tol::kCollinearSine).
bool IsStraightCorner(Vec3 a, Vec3 b, Vec3 c);

}  // namespace waymesh::bench
