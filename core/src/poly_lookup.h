#pragma once
// The spatial index: tile grid (with the polygons' overhang) then each tile's quantized BV tree.
// Calls fn(tile, poly) for every polygon whose box may overlap `box` (a conservative superset).
// fn may return bool: false stops the walk (a search that has found its answer).

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "query_context.h"
#include "waymesh/core/nav_map.h"
#include "waymesh/core/vec3.h"

namespace waymesh::internal {

// Quantized query box in a tile's BV space (inclusive, conservative).
struct QuantBox {
  uint16_t min[3];
  uint16_t max[3];
};

inline uint16_t QuantizeDown(float v) {
  return uint16_t(std::clamp(std::floor(v), 0.0f, 65535.0f));
}
inline uint16_t QuantizeUp(float v) { return uint16_t(std::clamp(std::ceil(v), 0.0f, 65535.0f)); }

inline QuantBox QuantizeBox(const TileView& tile, const Aabb& box) {
  const float f = tile.bv_quant_factor;
  const Vec3 lo = (box.min - tile.bounds.min) * f;
  const Vec3 hi = (box.max - tile.bounds.min) * f;
  return QuantBox{{QuantizeDown(lo.x), QuantizeDown(lo.y), QuantizeDown(lo.z)},
                  {QuantizeUp(hi.x), QuantizeUp(hi.y), QuantizeUp(hi.z)}};
}

inline bool Overlaps(const QuantBox& q, const BvNode& n) {
  return q.min[0] <= n.max[0] && q.max[0] >= n.min[0] && q.min[1] <= n.max[1] &&
         q.max[1] >= n.min[1] && q.min[2] <= n.max[2] && q.max[2] >= n.min[2];
}

// Calls fn(tile, poly); whether the walk goes on.
template <typename Fn>
bool VisitPoly(Fn& fn, const TileView& tile, uint32_t poly) {
  if constexpr (std::is_void_v<std::invoke_result_t<Fn&, const TileView&, uint32_t>>) {
    fn(tile, poly);
    return true;
  } else {
    return fn(tile, poly);
  }
}

// Polygons of one tile whose box may overlap `box`; false when fn stopped the walk.
template <typename Fn>
bool ForEachPolyInTile(const TileView& tile, const Aabb& box, Fn&& fn) {
  const uint32_t polys = tile.poly_count();
  if (tile.bv_nodes.empty()) {
    // No tree (tiny tile): test every polygon's box.
    for (uint32_t p = 0; p < polys; ++p) {
      Aabb pb;
      for (uint32_t i = 0, n = tile.corner_count(p); i < n; ++i) pb.Extend(tile.corner(p, i));
      if (pb.Overlaps(box) && !VisitPoly(fn, tile, p)) return false;
    }
    return true;
  }
  const QuantBox q = QuantizeBox(tile, box);
  const uint32_t end = uint32_t(tile.bv_nodes.size());
  uint32_t i = 0;
  while (i < end) {
    const BvNode& node = tile.bv_nodes[i];
    const bool overlap = Overlaps(q, node);
    const bool leaf = (node.data & kBvInternalBit) == 0;
    if (leaf) {
      if (overlap) {
        const uint32_t first = node.data & kBvFirstMask;
        const uint32_t last = std::min(first + (node.data >> kBvCountShift) + 1, polys);
        for (uint32_t p = first; p < last; ++p) {
          if (!VisitPoly(fn, tile, p)) return false;
        }
      }
      ++i;
    } else if (overlap) {
      ++i;
    } else {
      i += std::max<uint32_t>(node.data & ~kBvInternalBit, 1);
    }
  }
  return true;
}

// Every polygon of the map whose box may overlap `box`. On a paged map only tiles whose bounds
// overlap are loaded (and pinned for the query); tiles that cannot be loaded are skipped.
template <typename Fn>
void ForEachPolyInBox(const QueryContext& ctx, const Aabb& box, Fn&& fn) {
  // Also rejects NaN, which must never reach the float -> int conversions below.
  if (!(box.min.x <= box.max.x && box.min.y <= box.max.y && box.min.z <= box.max.z)) return;
  const NavMap& map = *ctx.map;
  // Whether the walk goes on.
  auto visit = [&](uint32_t index) {
    if (!map.summary(index).bounds.Overlaps(box)) return true;
    const TileView* tile = ctx.TryTile(index);
    return tile == nullptr || ForEachPolyInTile(*tile, box, fn);
  };
  const MapInfo& info = map.info();
  if (info.tile_size <= 0 || info.grid_width == 0 || info.grid_height == 0) {
    for (uint32_t i = 0; i < map.tile_count(); ++i) {
      if (!visit(i)) return;
    }
    return;
  }
  const float reach = info.max_tile_overhang;
  const float inv = 1.0f / info.tile_size;
  auto cell = [&](float v, float origin, uint32_t count) {
    const float c = std::floor((v - origin) * inv);
    return int32_t(std::clamp(c, -1.0f, float(count)));
  };
  const int32_t x0 = cell(box.min.x - reach, info.grid_origin.x, info.grid_width);
  const int32_t x1 = cell(box.max.x + reach, info.grid_origin.x, info.grid_width);
  const int32_t z0 = cell(box.min.z - reach, info.grid_origin.z, info.grid_height);
  const int32_t z1 = cell(box.max.z + reach, info.grid_origin.z, info.grid_height);
  for (int32_t z = std::max(z0, 0); z <= z1; ++z) {
    for (int32_t x = std::max(x0, 0); x <= x1; ++x) {
      const int32_t index = map.TileIndexAt(x, z);
      if (index >= 0 && !visit(uint32_t(index))) return;
    }
  }
}

}  // namespace waymesh::internal
