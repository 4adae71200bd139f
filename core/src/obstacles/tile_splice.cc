#include "tile_splice.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace waymesh::obstacles {

EdgeLinePoints::EdgeLinePoints(const PointsOnLine& points)
    : points_(points), x0_(INFINITY), x1_(-INFINITY), z0_(INFINITY), z1_(-INFINITY) {
  for (const auto& [line, on] : points) {
    if (line.kind() != LineKey::kBaseEdge) continue;
    // The words hold the edge's two ends: x y z, x y z.
    for (const size_t x : {size_t(1), size_t(4)}) {
      const float px = std::bit_cast<float>(line.words[x]);
      const float pz = std::bit_cast<float>(line.words[x + 2]);
      x0_ = std::min(x0_, px), x1_ = std::max(x1_, px);
      z0_ = std::min(z0_, pz), z1_ = std::max(z1_, pz);
    }
  }
}

bool EdgeLinePoints::OnLineOf(Vec3 a, Vec3 b) const {
  return Inside(a) && Inside(b) && points_.contains(BaseEdgeKey(a, b));
}

bool SplicesUntouched(const TileView& tile, uint32_t poly, const EdgeLinePoints& points,
                      const TileNumbering* own,
                      absl::FunctionRef<const TileNumbering*(uint32_t)> numbering_of) {
  const uint32_t start = tile.poly_start[poly];
  const uint32_t n = tile.corner_count(poly);
  for (uint32_t i = 0; i < n; ++i) {
    if (const std::optional<PolyIndex> across = tile.across(start + i)) {
      const TileNumbering* num = across->tile == tile.index ? own : numbering_of(across->tile);
      if (num != nullptr && num->new_index[across->poly] == kCutPolygon) return false;
    }
    // A point on the edge's line may still lie outside the edge; building the corners decides
    // that, and gives the same polygon when it does.
    if (points.OnLineOf(tile.corner(poly, i), tile.corner(poly, (i + 1) % n))) return false;
  }
  return true;
}

std::vector<PieceCorner> BaseCorners(const TileView& tile, uint32_t poly) {
  const uint32_t n = tile.corner_count(poly);
  std::vector<PieceCorner> corners;
  corners.reserve(n);
  for (uint32_t i = 0; i < n; ++i) {
    const Vec3 a = tile.corner(poly, i), b = tile.corner(poly, (i + 1) % n);
    corners.push_back({a, BaseEdgeKey(a, b), int32_t(i)});
  }
  return corners;
}

}  // namespace waymesh::obstacles
