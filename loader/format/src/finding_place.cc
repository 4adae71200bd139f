#include "waymesh/format/finding_place.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace waymesh {

std::string PositionText(Vec3 p) { return absl::StrFormat("(%.2f, %.2f, %.2f)", p.x, p.y, p.z); }

std::string PolygonPlace(const TileView& tile, uint32_t poly) {
  return absl::StrFormat("tile %d (%d,%d) polygon %d", tile.index, tile.grid_x, tile.grid_z, poly);
}

std::string EdgePlace(const TileView& tile, uint32_t poly, uint32_t edge) {
  const Vec3 from = tile.corner(poly, edge);
  const Vec3 to = tile.corner(poly, (edge + 1) % tile.corner_count(poly));
  return absl::StrCat(PolygonPlace(tile, poly), " edge ", edge, " ", PositionText(from), "-",
                      PositionText(to));
}

Vec3 PolygonCentroid(const TileView& tile, uint32_t poly) {
  double x = 0, y = 0, z = 0;
  const uint32_t n = tile.corner_count(poly);
  for (uint32_t i = 0; i < n; ++i) {
    const Vec3 c = tile.corner(poly, i);
    x += c.x;
    y += c.y;
    z += c.z;
  }
  return {float(x / n), float(y / n), float(z / n)};
}

}  // namespace waymesh
