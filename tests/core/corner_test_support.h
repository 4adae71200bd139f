#pragma once
// Shared by the tests of the corner index, VisibleCorners and the corner graph
// (core/src/exact/turn_corner_index.h, sight_flood.h, corner_graph.h): the maps they look at
// and a query context over a map, as the exact search's callers make one.

#include <memory>

#include "gtest/gtest.h"
#include "hand_built_map.h"
#include "query_context.h"
#include "support/map_builder.h"
#include "support/test_data.h"
#include "waymesh/core/nav_map.h"

namespace waymesh::testing {

// A 5 x 5 grid of 1 m cells round one square pillar (the cell from (2, 2) to (3, 3)): its
// four corners are the map's only turn corners; the outline's corners are convex.
inline std::shared_ptr<const NavMap> PillarMap() {
  auto [verts, polys] = GridPolygons(5, 5, 1.0f, 0, {2 * 5 + 2});
  return BuildHandMap(std::move(verts), polys);
}
// Vertex (i, k) of PillarMap: its index in the one tile.
inline uint32_t PillarVertex(int i, int k) { return uint32_t(k * 6 + i); }

// A tile size (m) larger than the Polyanya maps: one tile, no seams.
inline constexpr float kOneTile = 1e5f;

// Polyanya's aurora-merged, polygons as they are, in the default tiles (tile_size 0, as
// LoadAurora: 64 m) or in tiles of `tile_size` metres (vertices repeat at the seams). Built
// once per binary.
inline std::shared_ptr<const NavMap> AuroraMerged(float tile_size = 0) {
  RepairOptions options{.merge = false};
  if (tile_size > 0) options.tile_size = tile_size;
  auto map = CachedMapFromFile(SharedData("polyanya/meshes/aurora-merged.mesh"), options);
  EXPECT_TRUE(map.ok()) << map.status();
  return map.ok() ? *map : nullptr;
}

// A context for searching `map` without its search tables (the corner searches use none).
inline std::unique_ptr<internal::QueryContext> ContextFor(std::shared_ptr<const NavMap> map) {
  uint32_t polygons = 0;
  for (const TileView& t : map->tiles()) polygons += t.poly_count();
  return std::make_unique<internal::QueryContext>(map, polygons, /*use_landmarks=*/false,
                                                  /*use_dead_ends=*/false,
                                                  /*use_hierarchy=*/false);
}

}  // namespace waymesh::testing
