// The BV tree of every compiled tile: one binary tree in depth-first order with Detour-style
// escape indices, every polygon in exactly one leaf, and quantized boxes that contain what
// they cover.

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "waymesh/format/map_file.h"
#include "waymesh/format/map_tiles.h"
#include "wmesh_test_meshes.h"

namespace waymesh {
namespace {

struct Box {
  double min[3], max[3];
};

// Quantizes like the format promises: (coordinate - tile min) * factor, floor/ceil.
bool Contains(const BvNode& n, const TileView& t, Vec3 v) {
  const double q[3] = {(double(v.x) - t.bounds.min.x) * t.bv_quant_factor,
                       (double(v.y) - t.bounds.min.y) * t.bv_quant_factor,
                       (double(v.z) - t.bounds.min.z) * t.bv_quant_factor};
  for (int a = 0; a < 3; ++a) {
    if (q[a] < n.min[a] || q[a] > n.max[a]) return false;
  }
  return true;
}

bool ContainsNode(const BvNode& outer, const BvNode& inner) {
  for (int a = 0; a < 3; ++a) {
    if (inner.min[a] < outer.min[a] || inner.max[a] > outer.max[a]) return false;
  }
  return true;
}

// Walks the subtree at `i`, checks it, and returns the index after it.
uint32_t Walk(const TileView& t, uint32_t i, int depth, std::vector<int>* leaf_of_poly,
              int* max_depth) {
  EXPECT_LT(i, t.bv_nodes.size());
  if (i >= t.bv_nodes.size()) return uint32_t(t.bv_nodes.size());
  *max_depth = std::max(*max_depth, depth);
  const BvNode& n = t.bv_nodes[i];
  if (!(n.data & kBvInternalBit)) {
    const uint32_t first = n.data & kBvFirstMask, count = (n.data >> kBvCountShift) + 1;
    EXPECT_LE(count, uint32_t(kBvMaxLeafSize));
    for (uint32_t p = first; p < first + count && p < t.poly_count(); ++p) {
      (*leaf_of_poly)[p]++;
      for (uint32_t c = 0; c < t.corner_count(p); ++c) {
        EXPECT_TRUE(Contains(n, t, t.corner(p, c))) << "polygon " << p << " corner " << c;
      }
    }
    return i + 1;
  }
  const uint32_t escape = n.data & ~kBvInternalBit;
  const uint32_t right = Walk(t, i + 1, depth + 1, leaf_of_poly, max_depth);
  EXPECT_TRUE(ContainsNode(n, t.bv_nodes[i + 1]));
  EXPECT_LT(right, t.bv_nodes.size());
  if (right < t.bv_nodes.size()) {
    EXPECT_TRUE(ContainsNode(n, t.bv_nodes[right]));
  }
  const uint32_t end = Walk(t, right, depth + 1, leaf_of_poly, max_depth);
  EXPECT_EQ(end, i + escape) << "escape of node " << i;
  return end;
}

void CheckTree(const TileView& t) {
  SCOPED_TRACE(::testing::Message() << "tile " << t.index);
  std::vector<int> leaf_of_poly(t.poly_count(), 0);
  int max_depth = 0;
  EXPECT_EQ(Walk(t, 0, 0, &leaf_of_poly, &max_depth), t.bv_nodes.size());
  for (uint32_t p = 0; p < t.poly_count(); ++p) EXPECT_EQ(leaf_of_poly[p], 1) << "polygon " << p;
  // Median splits: depth about log2(polygons / leaf size).
  const double balanced = std::ceil(std::log2(std::max(1.0, t.poly_count() / 4.0)));
  EXPECT_LE(max_depth, balanced + 1);
  // The root box spans the tile: the quantization uses the whole 16-bit range on one axis.
  const BvNode& root = t.bv_nodes[0];
  EXPECT_EQ(std::max({root.max[0], root.max[1], root.max[2]}), 65535);
}

TEST(BvTreeTest, EveryTileOfAGridHasAValidTree) {
  const RepairedMesh mesh = testing::GridMesh(50, 37, 0.8f, 12.0f);
  absl::StatusOr<std::string> bytes = CompileMap(mesh);
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  absl::StatusOr<std::shared_ptr<const NavMap>> map =
      LoadMap(std::make_shared<const std::string>(*std::move(bytes)));
  ASSERT_TRUE(map.ok()) << map.status();
  size_t internal = 0;
  for (const TileView& t : (*map)->tiles()) {
    CheckTree(t);
    for (const BvNode& n : t.bv_nodes) internal += (n.data & kBvInternalBit) != 0;
  }
  EXPECT_GT(internal, 50u);
}

TEST(BvTreeTest, SmallTilesHaveOneLeaf) {
  const RepairedMesh mesh = testing::HandMadeMesh();
  absl::StatusOr<std::string> bytes = CompileMap(mesh);
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  absl::StatusOr<std::shared_ptr<const NavMap>> map =
      LoadMap(std::make_shared<const std::string>(*std::move(bytes)));
  ASSERT_TRUE(map.ok()) << map.status();
  for (const TileView& t : (*map)->tiles()) {
    ASSERT_EQ(t.bv_nodes.size(), 1u);
    EXPECT_EQ(t.bv_nodes[0].data, (t.poly_count() - 1) << kBvCountShift);
    CheckTree(t);
  }
}

// Leaf order groups polygons spatially: consecutive leaves are near each other, so the boxes of
// leaves are much smaller than the tile.
TEST(BvTreeTest, LeavesAreSpatiallyCompact) {
  const RepairedMesh mesh = testing::GridMesh(64, 64, 1.0f, 64.0f);
  absl::StatusOr<std::string> bytes = CompileMap(mesh);
  ASSERT_TRUE(bytes.ok());
  std::shared_ptr<const NavMap> map =
      *LoadMap(std::make_shared<const std::string>(*std::move(bytes)));
  ASSERT_EQ(map->tile_count(), 1u);
  double leaf_area = 0;
  int leaves = 0;
  for (const BvNode& n : map->tile(0).bv_nodes) {
    if (n.data & kBvInternalBit) continue;
    leaf_area += double(n.max[0] - n.min[0]) * (n.max[2] - n.min[2]);
    ++leaves;
  }
  // 8192 triangles in <= 8-polygon leaves: each leaf covers a few cells of a 64 x 64 grid.
  EXPECT_GE(leaves, 8192 / kBvMaxLeafSize);
  EXPECT_LT(leaf_area / leaves, 65535.0 * 65535.0 / 400);
}

}  // namespace
}  // namespace waymesh
