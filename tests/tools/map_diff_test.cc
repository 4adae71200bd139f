// `waymesh diff` as a library: identical maps have no changes; real rebuilds, area edits, a
// cut corridor and a joined island are each reported as what they are.

#include "waymesh/diff/map_diff.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "absl/strings/str_format.h"
#include "support/defect_maps.h"
#include "support/map_builder.h"
#include "support/test_data.h"

namespace waymesh::testing {
namespace {

using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::StartsWith;

MapDiff DiffOrDie(std::shared_ptr<const NavMap> a, std::shared_ptr<const NavMap> b) {
  absl::StatusOr<MapDiff> diff = DiffMaps(std::move(a), std::move(b));
  EXPECT_TRUE(diff.ok()) << diff.status();
  return diff.ok() ? *std::move(diff) : MapDiff{};
}

// The Unity export unity/NAME.navmesh, built with the defect maps' tile size; null after a
// failure.
std::shared_ptr<const NavMap> UnityMap(const std::string& name) {
  RepairOptions options;
  options.tile_size = kDefectTileSize;
  absl::StatusOr<std::shared_ptr<const NavMap>> map =
      CachedMapFromFile(SharedData("unity/" + name + ".navmesh"), options);
  EXPECT_TRUE(map.ok()) << map.status();
  return map.ok() ? *map : nullptr;
}

TEST(MapDiffTest, IdenticalMapsHaveNoChanges) {
  const std::string bytes = CompileOrDie(Unity1000Mesh());
  // Two loads of the same bytes: nothing is shared but the content.
  const MapDiff diff = DiffOrDie(LoadOrDie(bytes), LoadOrDie(bytes));
  EXPECT_FALSE(diff.HasChanges());
  EXPECT_EQ(diff.unchanged_polygons, Unity1000Mesh().polygon_count());
  EXPECT_THAT(diff.removed, IsEmpty());
  EXPECT_THAT(diff.added, IsEmpty());
  EXPECT_EQ(diff.pairs_sampled, 200u);
  EXPECT_THAT(diff.flips, IsEmpty());
  EXPECT_THAT(DescribeMapDiff(diff), StartsWith("no changes"));
}

TEST(MapDiffTest, DifferentExportsAreReported) {
  const std::shared_ptr<const NavMap> a = UnityMap("1000"), b = UnityMap("1100");
  ASSERT_TRUE(a && b);
  const MapDiff diff = DiffOrDie(a, b);
  EXPECT_TRUE(diff.HasChanges());
  // Every polygon is accounted for exactly once on each side.
  EXPECT_EQ(diff.removed.size() + diff.area_changes.size() + diff.unchanged_polygons,
            a->info().polygon_count);
  EXPECT_EQ(diff.added.size() + diff.area_changes.size() + diff.unchanged_polygons,
            b->info().polygon_count);
  EXPECT_GT(diff.removed.size(), 0u);
  EXPECT_DOUBLE_EQ(diff.new_walkable_area - diff.old_walkable_area,
                   b->info().walkable_area - a->info().walkable_area);
  EXPECT_EQ(diff.old_islands, 2u);
  EXPECT_EQ(diff.new_islands, 4u);
  const std::string text = DescribeMapDiff(diff);
  EXPECT_THAT(text,
              AllOf(HasSubstr("polygons removed: "), HasSubstr("polygons added: "),
                    HasSubstr("walkable area: 1202.89 m² -> "), HasSubstr("islands: 2 -> 4")));
}

TEST(MapDiffTest, AreaChangeNamesThePolygon) {
  const RepairedMesh before = Unity1000Mesh();
  RepairedMesh after = before;
  const uint32_t poly = before.polygon_count() / 2;
  after.poly_area[poly] = 3;
  std::vector<PolyIndex> placement;
  const MapDiff diff =
      DiffOrDie(LoadOrDie(CompileOrDie(before)), LoadOrDie(CompileOrDie(after, &placement)));
  EXPECT_TRUE(diff.HasChanges());
  EXPECT_THAT(diff.removed, IsEmpty());
  EXPECT_THAT(diff.added, IsEmpty());
  EXPECT_THAT(diff.flips, IsEmpty());  // area 3 is walkable for the default filter
  ASSERT_EQ(diff.area_changes.size(), 1u);
  const AreaIdChange& c = diff.area_changes[0];
  EXPECT_EQ(c.new_poly.at, placement[poly]);
  EXPECT_EQ(c.old_poly.area, 0);
  EXPECT_EQ(c.new_poly.area, 3);
  EXPECT_THAT(DescribeMapDiff(diff),
              AllOf(HasSubstr("area ids changed: 1 polygons"),
                    HasSubstr(absl::StrFormat("tile %d polygon %d", placement[poly].tile,
                                              placement[poly].poly)),
                    HasSubstr("area 0 -> 3")));
}

TEST(MapDiffTest, CutCorridorFlipsReachabilityAndSplitsTheIsland) {
  const RepairedMesh before = Unity1000Mesh();
  uint32_t smaller = 0;
  const auto bridge = FindBridgeEdge(before, &smaller);
  ASSERT_TRUE(bridge.has_value());
  ASSERT_GE(smaller, 10u);  // a real corridor: both sides are sizeable
  RepairedMesh after = before;
  MakeWall(&after, bridge->first);
  MakeWall(&after, bridge->second);
  RecomputeIslands(&after);
  ASSERT_EQ(after.info.islands.size(), before.info.islands.size() + 1);
  const MapDiff diff = DiffOrDie(LoadOrDie(CompileOrDie(before)), LoadOrDie(CompileOrDie(after)));
  EXPECT_TRUE(diff.HasChanges());
  EXPECT_THAT(diff.removed, IsEmpty());  // same shapes, only the link is gone
  ASSERT_FALSE(diff.flips.empty());
  for (const ReachabilityFlip& f : diff.flips) {
    EXPECT_EQ(f.old_status, QueryStatus::kComplete);
    EXPECT_NE(f.new_status, QueryStatus::kComplete);
  }
  ASSERT_EQ(diff.island_changes.size(), 1u);
  EXPECT_FALSE(diff.island_changes[0].merged);
  EXPECT_EQ(diff.island_changes[0].island, 0u);
  EXPECT_EQ(diff.island_changes[0].parts.size(), 2u);
  EXPECT_THAT(DescribeMapDiff(diff),
              AllOf(HasSubstr(absl::StrFormat("reachability: %d of 200 sampled pairs flipped (%d "
                                              "no longer reachable, 0 newly reachable)",
                                              diff.flips.size(), diff.flips.size())),
                    HasSubstr("COMPLETE -> "),
                    HasSubstr("island split: old island 0 is new "
                              "islands")));
  // The other way round, the two islands merge and the same pairs become reachable.
  const MapDiff back = DiffOrDie(LoadOrDie(CompileOrDie(after)), LoadOrDie(CompileOrDie(before)));
  EXPECT_EQ(back.flips.size(), diff.flips.size());
  ASSERT_EQ(back.island_changes.size(), 1u);
  EXPECT_TRUE(back.island_changes[0].merged);
  EXPECT_EQ(back.island_changes[0].island, 0u);
  EXPECT_THAT(DescribeMapDiff(back), HasSubstr("islands merged: old islands 0, "));
}

TEST(MapDiffTest, JoiningSquaresMergesIslands) {
  SourceMesh two = Unity1000Source();
  const Vec3 a = AddDetachedSquare(&two, 2.0f);
  // A second square 1 m further along +X, then a third one filling the gap.
  SourceMesh joined = two;
  auto add_square = [](SourceMesh* s, float x0, float x1, float y, float z0, float z1) {
    const uint32_t f = uint32_t(s->vertices.size());
    for (Vec3 v : {Vec3{x0, y, z0}, Vec3{x1, y, z0}, Vec3{x1, y, z1}, Vec3{x0, y, z1}}) {
      s->vertices.push_back(v);
    }
    s->AddPolygon({f, f + 1, f + 2});
    s->AddPolygon({f, f + 2, f + 3});
  };
  add_square(&two, a.x + 2, a.x + 4, a.y, a.z - 1, a.z + 1);
  add_square(&joined, a.x + 2, a.x + 4, a.y, a.z - 1, a.z + 1);
  add_square(&joined, a.x + 1, a.x + 2, a.y, a.z - 1, a.z + 1);
  const RepairedMesh before = RepairOrDie(two), after = RepairOrDie(joined);
  ASSERT_EQ(before.info.islands.size(), after.info.islands.size() + 1);
  const MapDiff diff = DiffOrDie(LoadOrDie(CompileOrDie(before)), LoadOrDie(CompileOrDie(after)));
  ASSERT_EQ(diff.island_changes.size(), 1u);
  EXPECT_TRUE(diff.island_changes[0].merged);
  EXPECT_EQ(diff.island_changes[0].parts.size(), 2u);
  EXPECT_FALSE(diff.added.empty());
}

TEST(MapDiffTest, SamplingIsDeterministic) {
  const std::shared_ptr<const NavMap> a = UnityMap("1000"), b = UnityMap("1200");
  ASSERT_TRUE(a && b);
  EXPECT_EQ(DescribeMapDiff(DiffOrDie(a, b), 1000), DescribeMapDiff(DiffOrDie(a, b), 1000));
}

}  // namespace
}  // namespace waymesh::testing
