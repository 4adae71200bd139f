#include "base_vertices.h"

#include <algorithm>

namespace waymesh::obstacles {

BaseVertexIndex::BaseVertexIndex(const TileView& tile) {
  const uint32_t n = uint32_t(tile.vertices.size());
  by_position_.reserve(n);
  for (uint32_t v = 0; v < n; ++v) {
    const Vec3 p = tile.vertices[v];
    by_position_.push_back({{p.x, p.y, p.z}, v});
  }
  std::sort(by_position_.begin(), by_position_.end());
  first_.resize(n);
  for (size_t k = 0; k < n; ++k) {
    const bool starts_run = k == 0 || by_position_[k - 1].first != by_position_[k].first;
    const uint32_t v = by_position_[k].second;
    first_[v] = starts_run ? v : first_[by_position_[k - 1].second];
  }
}

std::optional<uint32_t> BaseVertexIndex::Find(Vec3 pos) const {
  const Position key{pos.x, pos.y, pos.z};
  const auto it =
      std::lower_bound(by_position_.begin(), by_position_.end(), key,
                       [](const auto& entry, const Position& k) { return entry.first < k; });
  if (it == by_position_.end() || it->first != key) return std::nullopt;
  return it->second;
}

}  // namespace waymesh::obstacles
