#pragma once
// Islands of a carved map. A wall may split an island, so they are recomputed on every carve,
// but over per-tile connected components (the base tiles' computed once in CarveBase, a carved
// tile's when it is built) rather than every polygon: only components and seams are joined.

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "absl/functional/function_ref.h"
#include "base_vertices.h"
#include "tile_digest.h"
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
  // The seams into tiles that were base tiles when this tile was built, as joins of its
  // components with the base components across, each pair once: what those seams join while
  // the tile across is still its base tile. Those seams come first: seams[0, joined_seams).
  struct ComponentJoin {
    uint32_t component, tile, across;
    friend auto operator<=>(const ComponentJoin&, const ComponentJoin&) = default;
  };
  std::vector<ComponentJoin> base_joins;
  uint32_t joined_seams = 0;
};

// The components of one tile's polygons (base_island: the tile's island id of each).
TileComponents ComponentsOfTile(const TileView& tile);

// Fills tc->base_joins from its seams into the tiles `at_base` names (whose components are
// base[tile]), ordering those seams first.
void JoinSeamsIntoBase(std::span<const TileComponents> base,
                       absl::FunctionRef<bool(uint32_t)> at_base, TileComponents* tc);

struct BaseComponents {
  std::vector<TileComponents> tiles;
  // Per tile, the other tiles whose polygons share an edge with its polygons (cross links) or
  // lie next to it in the grid: the tiles whose pieces put points on its edges' lines.
  std::vector<std::vector<uint32_t>> neighbours;
  // Per tile, the other tiles with a cross link or an off-mesh link into it.
  std::vector<std::vector<uint32_t>> linked_from;
  // Per tile, its polygons with an edge on a seam (a cross link), ascending.
  std::vector<std::vector<uint32_t>> seam_polys;
  // Per tile, its vertices by position.
  std::vector<BaseVertexIndex> vertices;
  // Per tile, its part of the map digest.
  std::vector<TileDigest> digests;
  // Per tile, per polygon, its detail surface's area (surface_area.h): a spliced polygon's
  // share of its carved tile's area prefix.
  std::vector<std::vector<double>> surface_area;
};

BaseComponents BuildBaseComponents(const NavMap& base);

struct CarvedIslands {
  std::vector<std::vector<uint32_t>> component_island;  // per tile, per component
  std::vector<IslandInfo> islands;                      // as MapInfo::islands
};

// Islands of the map made of `tiles`, `components[t]` describing tile t as it is in that map
// (its seams naming polygons of that map; &base[t] when it is the base tile). Numbered as the
// map compiler numbers them: largest first (polygons, then area, then lowest (tile, polygon));
// off-mesh links make groups.
CarvedIslands ComputeIslands(std::span<const TileView> tiles,
                             std::span<const TileComponents* const> components,
                             std::span<const TileComponents> base);

}  // namespace waymesh::obstacles
