#include "tile_splice.h"

namespace waymesh::obstacles {

bool SplicesUntouched(const TileView& tile, uint32_t poly, const PointsOnLine& points,
                      absl::FunctionRef<const TileNumbering*(uint32_t)> numbering_of) {
  // Most edges stay inside the tile: its numbering is looked up once.
  const TileNumbering* own = numbering_of(tile.index);
  const uint32_t start = tile.poly_start[poly];
  const uint32_t n = tile.corner_count(poly);
  for (uint32_t i = 0; i < n; ++i) {
    if (const std::optional<PolyIndex> across = tile.across(start + i)) {
      const TileNumbering* num = across->tile == tile.index ? own : numbering_of(across->tile);
      if (num != nullptr && num->new_index[across->poly] == kCutPolygon) return false;
    }
    // A point on the edge's line may still lie outside the edge; building the corners decides
    // that, and gives the same polygon when it does.
    if (!points.empty() &&
        points.contains(BaseEdgeKey(tile.corner(poly, i), tile.corner(poly, (i + 1) % n)))) {
      return false;
    }
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
