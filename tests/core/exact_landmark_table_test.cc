// The exact landmark table (waymesh/core/exact_landmark_table.h): its rows bracket the exact
// geodesic distances, and exact mode searching with it returns the same optimal lengths (the
// published Polyanya optima) while expanding fewer interval nodes.

#include "waymesh/core/exact_landmark_table.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <iostream>
#include <random>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "gtest/gtest.h"
#include "polyanya_data.h"
#include "support/demo_town.h"
#include "support/exact_pair_comparison.h"
#include "support/plan_length.h"
#include "support/query_points.h"
#include "support/sanitizer.h"
#include "support/test_data.h"
#include "waymesh/core/exact_path.h"
#include "waymesh/core/nav_query.h"
#include "waymesh/core/search_tables.h"

namespace waymesh {
namespace {

PathOptions LandmarkExactOptions() {
  PathOptions po;
  po.mode = PathMode::kExact;
  po.half_extents = {0.5f, 1, 0.5f};
  return po;
}

// A Polyanya map as the published-optima tests load it, with an exact landmark table.
std::shared_ptr<const NavMap> PolyanyaWithTable(const std::string& mesh, float tile_size,
                                                uint32_t landmarks) {
  RepairOptions options{.merge = false};
  if (tile_size > 0) options.tile_size = tile_size;
  auto map = testing::CachedMapFromFile(testing::SharedData("polyanya/meshes/" + mesh), options);
  EXPECT_TRUE(map.ok()) << map.status();
  if (!map.ok()) return nullptr;
  return WithSearchTables(*map, {.exact_landmarks = true, .exact_landmark_count = landmarks});
}

// aurora-merged cut in 64 m tiles (vertices repeat at seams) with the default table, built
// once per process.
std::shared_ptr<const NavMap> TiledAurora() {
  static const std::shared_ptr<const NavMap> map =
      PolyanyaWithTable("aurora-merged.mesh", 64, ExactLandmarkTable::kDefaultCount);
  return map;
}

// Every stored row is the floor of the exact distance from its landmark: an exact path from
// the landmark to the vertex is at least the row and less than one step (and float noise)
// above it. On aurora-merged cut in 64 m tiles, so that vertices repeat at seams.
TEST(ExactLandmarkTableTest, RowsBracketExactDistancesFromTheLandmarks) {
  const auto map = TiledAurora();
  ASSERT_NE(map, nullptr);
  ASSERT_GT(map->tile_count(), 4u);
  const ExactLandmarkTable& table = map->search_tables()->exact_landmarks;
  ASSERT_EQ(table.count(), ExactLandmarkTable::kDefaultCount);
  ASSERT_TRUE(table.Fits(*map));
  NavQuery q(map);
  std::mt19937 rng(3);
  PathResult r;
  int checked = 0;
  const int samples = testing::kUnderSanitizer ? 20 : 80;
  for (int i = 0; i < samples; ++i) {
    const TileView& t = map->tile(uint32_t(rng() % map->tile_count()));
    if (t.vertices.empty()) continue;
    const uint32_t v = uint32_t(rng() % t.vertices.size());
    const uint16_t* row = table.Row(t.index, v);
    for (uint32_t k = 0; k < table.count(); ++k) {
      if (row[k] == ExactLandmarkTable::kUnknown) continue;
      ASSERT_TRUE(
          q.FindPath(table.landmark(k), t.vertices[v], QueryFilter(), LandmarkExactOptions(), &r)
              .ok());
      ASSERT_EQ(r.status, QueryStatus::kComplete) << "tile " << t.index << " vertex " << v;
      const double exact = testing::PlanLength(r);
      EXPECT_GE(exact, row[k] * table.step() - 1e-4) << "tile " << t.index << " vertex " << v;
      EXPECT_LE(exact, (row[k] + 1) * table.step() + 1e-4) << "tile " << t.index << " vertex " << v;
      ++checked;
    }
  }
  EXPECT_GT(checked, samples);  // most vertices are reached by every landmark
}

// A vertex repeated at tile seams is one point: every copy gets the same row (the smaller
// distance of the two floods' sides). Also prints a hash of every row, to compare the bits of
// two builds of the table.
TEST(ExactLandmarkTableTest, SeamCopiesShareTheirRows) {
  const auto map = TiledAurora();
  ASSERT_NE(map, nullptr);
  const ExactLandmarkTable& table = map->search_tables()->exact_landmarks;
  ASSERT_FALSE(table.empty());
  using Key = std::array<uint32_t, 3>;
  absl::flat_hash_map<Key, const uint16_t*> first_copy;
  uint64_t hash = 1469598103934665603ull;  // FNV-1a over every row in tile order
  int seam_copies = 0;
  for (const TileView& t : map->tiles()) {
    for (uint32_t v = 0; v < t.vertices.size(); ++v) {
      const uint16_t* row = table.Row(t.index, v);
      for (uint32_t k = 0; k < table.count(); ++k) hash = (hash ^ row[k]) * 1099511628211ull;
      const Vec3 p = t.vertices[v];
      const Key key{std::bit_cast<uint32_t>(p.x), std::bit_cast<uint32_t>(p.y),
                    std::bit_cast<uint32_t>(p.z)};
      const auto [it, added] = first_copy.try_emplace(key, row);
      if (added) continue;
      ++seam_copies;
      EXPECT_EQ(std::memcmp(it->second, row, table.count() * sizeof(uint16_t)), 0)
          << "tile " << t.index << " vertex " << v;
    }
  }
  EXPECT_GT(seam_copies, 100);
  std::cout << "exact landmark rows FNV-1a: " << std::hex << hash << std::dec << "\n";
}

// The published optima still hold with the table's bound in the heuristic.
TEST(ExactLandmarkTableTest, PublishedOptimaHoldWithTheTable) {
  const auto map = TiledAurora();
  ASSERT_NE(map, nullptr);
  ASSERT_FALSE(map->search_tables()->exact_landmarks.empty());
  const auto queries = testing::ReadExpectedFile(
      testing::SharedData("polyanya/expected/aurora_euclid_expected.csv"));
  ASSERT_GT(queries.size(), 1000u);
  NavQuery q(map);
  PathResult r;
  const size_t stride = testing::kUnderSanitizer ? 10 : 1;
  for (size_t i = 0; i < queries.size(); i += stride) {
    const testing::ExpectedQuery& e = queries[i];
    ASSERT_TRUE(q.FindPath(e.start, e.goal, QueryFilter(), LandmarkExactOptions(), &r).ok());
    ASSERT_EQ(r.status, QueryStatus::kComplete) << "query " << i;
    EXPECT_NEAR(r.length, e.length, 1e-5 * std::max(double(e.length), 1.0)) << "query " << i;
  }
}

// Small maps get no table: their queries expand a dozen nodes, fewer than its work costs.
TEST(ExactLandmarkTableTest, SmallMapsGetNoTable) {
  const auto map = PolyanyaWithTable("arena-merged.mesh", 0, 8);
  ASSERT_NE(map, nullptr);
  ASSERT_LT(map->info().polygon_count, ExactLandmarkTable::kMinPolygons);
  EXPECT_TRUE(map->search_tables()->exact_landmarks.empty());
  EXPECT_EQ(map->search_tables()->exact_landmarks.bytes(), 0u);
}

// On the demo town (long routes round buildings, off-mesh links) the table changes no length
// and saves interval nodes.
TEST(ExactLandmarkTableTest, TownLengthsUnchangedWithFewerNodes) {
  const testing::DemoTown& town = testing::Town(200, 7);
  const auto with_table =
      WithSearchTables(town.map, {.exact_landmarks = true, .exact_landmark_count = 4});
  ASSERT_FALSE(with_table->search_tables()->exact_landmarks.empty());
  const QueryFilter filter = ExactReadyFilter(*town.map);
  NavQuery plain(town.map), fast(with_table);
  const int pairs = testing::kUnderSanitizer ? 15 : 60;
  const testing::ExactPairComparison c = testing::CompareExactPairs(plain, fast, filter, pairs, 11);
  EXPECT_GT(c.compared, pairs / 2);
  EXPECT_LT(c.fast_nodes, c.plain_nodes);
}

}  // namespace
}  // namespace waymesh
