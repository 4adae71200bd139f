#include "exact/turn_corner_index.h"

#include "absl/container/flat_hash_map.h"
#include "exact/position_key.h"
#include "exact/turn_corner.h"

namespace waymesh::internal::exact {

TurnCornerIndex TurnCornerIndex::Build(QueryContext& ctx, const QueryFilter& filter) {
  TurnCornerIndex index;
  const NavMap& map = *ctx.map;
  if (map.paged()) return index;
  absl::flat_hash_map<PositionKey, uint32_t> id_of;
  index.ids_.resize(map.tile_count());
  for (const TileView& t : map.tiles()) index.ids_[t.index].assign(t.vertices.size(), kNone);
  for (const TileView& t : map.tiles()) {
    std::vector<uint32_t>& ids = index.ids_[t.index];
    for (uint32_t p = 0; p < t.poly_count(); ++p) {
      const PolyIndex poly{t.index, p};
      if (!ctx.Passes(filter, poly)) continue;
      // Each corner of a vertex is asked: where two fans touch only at a vertex (a pinch),
      // one may turn there and the other not.
      for (uint32_t c = 0; c < t.corner_count(p); ++c) {
        const uint32_t v = t.poly_verts[t.poly_start[p] + c];
        if (ids[v] != kNone || !IsTurnCorner(ctx, filter, poly, c)) continue;
        const auto [it, fresh] = id_of.try_emplace(KeyOf(t.vertices[v]), index.size());
        if (fresh) index.corners_.push_back(SurfacePoint{map.Ref(poly), t.vertices[v]});
        ids[v] = it->second;
      }
    }
  }
  // A copy whose own polygons were all asked before its position was numbered (or which
  // the filter cuts off on its side) still names that position.
  for (const TileView& t : map.tiles()) {
    for (uint32_t v = 0; v < t.vertices.size(); ++v) {
      const auto it = id_of.find(KeyOf(t.vertices[v]));
      if (it != id_of.end()) index.ids_[t.index][v] = it->second;
    }
  }
  return index;
}

}  // namespace waymesh::internal::exact
