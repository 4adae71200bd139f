#pragma once
// Builds a tile's bounding-volume tree (Detour-style: quantized boxes, depth-first nodes,
// escape indices) and the polygon order it implies: polygons are stored in leaf order.

#include <cstdint>
#include <span>
#include <vector>

#include "waymesh/core/nav_map.h"
#include "waymesh/core/vec3.h"

namespace waymesh {

struct BvTree {
  std::vector<BvNode> nodes;    // depth-first; leaves index positions in `order`
  std::vector<uint32_t> order;  // order[k] = input item stored at position k
  float quant_factor = 1.0f;    // quantized = (coordinate - tile min) * quant_factor
};

// 65535 / largest extent of `tile_bounds`, nudged so no coordinate inside the bounds quantizes
// past 65535; 1 for a degenerate box.
float BvQuantFactor(const Aabb& tile_bounds);

// Tree over items with boxes `boxes` and centroids `centroids` (same length, >= 1), all inside
// `tile_bounds`. Splits the longest axis at the median centroid until kBvMaxLeafSize items.
BvTree BuildBvTree(std::span<const Aabb> boxes, std::span<const Vec3> centroids,
                   const Aabb& tile_bounds);

}  // namespace waymesh
