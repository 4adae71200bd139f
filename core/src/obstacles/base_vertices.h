#pragma once
// A base tile's vertices by position. A carved tile keeps its base tile's vertices and gives a
// corner the first vertex at its position; this index, built once per CarveBase, finds it
// without hashing every vertex of the tile on each rebuild.

#include <cstdint>
#include <optional>
#include <tuple>
#include <utility>
#include <vector>

#include "waymesh/core/nav_map.h"

namespace waymesh::obstacles {

class BaseVertexIndex {
 public:
  BaseVertexIndex() = default;
  explicit BaseVertexIndex(const TileView& tile);

  // The first vertex at the position of vertex v.
  uint32_t FirstAt(uint32_t v) const { return first_[v]; }
  // The first vertex at `pos` (positions compare as floats: 0 and -0 are one), if any.
  std::optional<uint32_t> Find(Vec3 pos) const;

 private:
  using Position = std::tuple<float, float, float>;
  std::vector<std::pair<Position, uint32_t>> by_position_;  // ascending (position, vertex)
  std::vector<uint32_t> first_;
};

}  // namespace waymesh::obstacles
