#pragma once
// Islands of a carved map. A wall may split an island, so they are recomputed on every carve,
// but over per-tile components of the base map (computed once, CarveBase) rather than every
// polygon: only the changed tiles' polygons and the seams between tiles are joined.

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "waymesh/core/nav_map.h"

namespace waymesh::obstacles {

// One base tile's connected components over its in-tile edges.
struct TileComponents {
  struct Component {
    uint32_t polygons = 0;
    double area = 0;      // surface area, m²
    uint32_t lowest = 0;  // lowest polygon index
    uint32_t base_island = 0;
  };
  std::vector<uint32_t> component;  // per polygon
  std::vector<Component> components;
  std::vector<std::pair<uint32_t, PolyIndex>> seams;  // (component, polygon across) per seam edge
};

struct BaseComponents {
  std::vector<TileComponents> tiles;
};

BaseComponents BuildBaseComponents(const NavMap& base);

struct CarvedIslands {
  // Per tile, each polygon's island; empty for an unchanged tile whose base ids still hold.
  std::vector<std::vector<uint32_t>> poly_island;
  std::vector<IslandInfo> islands;  // as MapInfo::islands
};

// Islands of the map made of `tiles`, where `changed[t]` marks tiles that are new (the others
// are the base's, described by `base`). Numbered as the map compiler numbers them: largest
// first (polygons, then area, then lowest (tile, polygon)); off-mesh links make groups.
CarvedIslands ComputeIslands(std::span<const TileView> tiles, const std::vector<bool>& changed,
                             const BaseComponents& base);

}  // namespace waymesh::obstacles
