#include "polygon_shape_match.h"

#include <algorithm>
#include <cmath>

#include "waymesh/format/finding_place.h"

namespace waymesh {
namespace {

struct ShapeRecord {
  std::vector<int64_t> key;  // x, y, z of each corner, rounded, from the smallest corner
  DiffPolygon poly;
};

std::vector<ShapeRecord> ShapesOf(const NavMap& map, float rounding) {
  std::vector<ShapeRecord> shapes;
  shapes.reserve(map.info().polygon_count);
  std::vector<int64_t> corners;
  for (const TileView& t : map.tiles()) {
    for (uint32_t p = 0; p < t.poly_count(); ++p) {
      const uint32_t n = t.corner_count(p);
      corners.clear();
      for (uint32_t i = 0; i < n; ++i) {
        const Vec3 c = t.corner(p, i);
        for (float v : {c.x, c.y, c.z}) corners.push_back(std::llround(double(v) / rounding));
      }
      uint32_t first = 0;
      for (uint32_t i = 1; i < n; ++i) {
        if (std::lexicographical_compare(corners.begin() + 3 * i, corners.begin() + 3 * i + 3,
                                         corners.begin() + 3 * first,
                                         corners.begin() + 3 * first + 3)) {
          first = i;
        }
      }
      ShapeRecord r;
      r.key.reserve(corners.size());
      r.key.insert(r.key.end(), corners.begin() + 3 * first, corners.end());
      r.key.insert(r.key.end(), corners.begin(), corners.begin() + 3 * first);
      r.poly = {{t.index, p}, PolygonCentroid(t, p), t.poly_area[p]};
      shapes.push_back(std::move(r));
    }
  }
  std::sort(shapes.begin(), shapes.end(),
            [](const ShapeRecord& a, const ShapeRecord& b) { return a.key < b.key; });
  return shapes;
}

}  // namespace

ShapeMatch MatchPolygonShapes(const NavMap& old_map, const NavMap& new_map, float rounding) {
  const std::vector<ShapeRecord> before = ShapesOf(old_map, rounding);
  const std::vector<ShapeRecord> after = ShapesOf(new_map, rounding);
  ShapeMatch m;
  size_t i = 0, j = 0;
  while (i < before.size() || j < after.size()) {
    if (j == after.size() || (i < before.size() && before[i].key < after[j].key)) {
      m.removed.push_back(before[i++].poly);
    } else if (i == before.size() || after[j].key < before[i].key) {
      m.added.push_back(after[j++].poly);
    } else {
      m.pairs.emplace_back(before[i].poly.at, after[j].poly.at);
      if (before[i].poly.area != after[j].poly.area) {
        m.area_changes.push_back({before[i].poly, after[j].poly});
      } else {
        ++m.unchanged;
      }
      ++i;
      ++j;
    }
  }
  return m;
}

}  // namespace waymesh
