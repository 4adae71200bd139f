// PolygonParts (waymesh/core/hierarchy/polygon_parts.h): parts read back as given, in 8 bits
// when they all fit and 16 otherwise; and on the demo town's cluster graph, polygons that
// share an edge inside one cluster (both passable) are in the same part.

#include "waymesh/core/hierarchy/polygon_parts.h"

#include <vector>

#include "gtest/gtest.h"
#include "support/demo_town.h"
#include "waymesh/core/hierarchy/cluster_graph.h"
#include "waymesh/core/query_filter.h"
#include "waymesh/core/search_tables.h"

namespace waymesh {
namespace {

TEST(PolygonPartsTest, NarrowWhenEveryPartFitsEightBits) {
  const std::vector<uint16_t> parts = {0, 3, 255, 7, 0, 12};
  const PolygonParts narrow(parts);
  ASSERT_EQ(narrow.size(), parts.size());
  EXPECT_EQ(narrow.bits(), 8u);
  EXPECT_EQ(narrow.bytes(), parts.size());
  for (uint32_t p = 0; p < parts.size(); ++p) EXPECT_EQ(narrow.Of(p), parts[p]) << p;
}

TEST(PolygonPartsTest, WideWhenOnePartNeedsSixteenBits) {
  const std::vector<uint16_t> parts = {0, 256, 3, 0xFFFF, 9};
  const PolygonParts wide(parts);
  ASSERT_EQ(wide.size(), parts.size());
  EXPECT_EQ(wide.bits(), 16u);
  EXPECT_EQ(wide.bytes(), parts.size() * sizeof(uint16_t));
  for (uint32_t p = 0; p < parts.size(); ++p) EXPECT_EQ(wide.Of(p), parts[p]) << p;
  EXPECT_TRUE(PolygonParts().empty());
  EXPECT_EQ(PolygonParts().bits(), 0u);
}

TEST(PolygonPartsTest, DemoTownNeighboursInsideAClusterShareTheirPart) {
  const auto& town = testing::Town(400, 7, 64);
  ASSERT_NE(town.map->search_tables(), nullptr);
  const ClusterGraph& graph = town.map->search_tables()->clusters;
  ASSERT_FALSE(graph.empty());
  EXPECT_EQ(graph.parts().bits(), 8u);  // a 64 m tile falls into far fewer than 256 parts
  const QueryFilter filter(town.map->info());
  const std::vector<uint32_t> bases = town.map->PolygonBases();
  ASSERT_EQ(graph.parts().size(), bases.back());
  int shared = 0;
  for (uint32_t t = 0; t < town.map->tile_count(); ++t) {
    const TileView& tile = town.map->tile(t);
    for (uint32_t p = 0; p < tile.poly_count(); ++p) {
      if (!filter.Passes(tile.poly_area[p], tile.poly_flags[p])) continue;
      for (uint32_t i = 0; i < tile.corner_count(p); ++i) {
        const auto next = tile.across(tile.poly_start[p] + i);
        if (!next || graph.ClusterOf(next->tile) != graph.ClusterOf(t)) continue;
        const TileView& other = town.map->tile(next->tile);
        if (!filter.Passes(other.poly_area[next->poly], other.poly_flags[next->poly])) continue;
        ++shared;
        EXPECT_EQ(graph.PartOf(bases[t] + p), graph.PartOf(bases[next->tile] + next->poly))
            << "tile " << t << " polygon " << p;
      }
    }
  }
  EXPECT_GT(shared, int(town.map->tile_count()));
}

}  // namespace
}  // namespace waymesh
