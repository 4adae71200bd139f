// LayerObstacles: a layer version's obstacles by id and by tile, shared in parts between
// versions. A change must not show through in the version it was copied from.

#include "obstacles/layer_obstacles.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <string>

namespace waymesh::layer_obstacles_test {
namespace {

using obstacles::LayerObstacles;
using obstacles::PlacedObstacle;

constexpr uint32_t kTiles = 12;

std::shared_ptr<const PlacedObstacle> Placed(const std::string& id, std::vector<uint32_t> tiles,
                                             ObstacleEffect effect = ObstacleEffect::kBlock,
                                             uint8_t area = 0) {
  auto p = std::make_shared<PlacedObstacle>();
  p->obstacle.id = id;
  p->obstacle.shape = CylinderShape{.center = {0, 0, 0}, .radius = 1, .height = 2};
  p->obstacle.effect = effect;
  p->obstacle.area = area;
  p->tiles = std::move(tiles);
  return p;
}

std::vector<std::string> Ids(const std::vector<const PlacedObstacle*>& placed) {
  std::vector<std::string> ids;
  for (const PlacedObstacle* p : placed) ids.push_back(p->obstacle.id);
  return ids;
}

std::vector<std::string> Ids(const std::vector<Obstacle>& all) {
  std::vector<std::string> ids;
  for (const Obstacle& o : all) ids.push_back(o.id);
  return ids;
}

TEST(LayerObstaclesTest, FindsByIdAndByTileInIdOrder) {
  LayerObstacles layer(kTiles);
  layer.Put(Placed("wall-2", {3, 4}));
  layer.Put(Placed("door", {4}));
  layer.Put(Placed("wall-10", {7}));
  EXPECT_EQ(layer.size(), 3u);
  ASSERT_NE(layer.Find("door"), nullptr);
  EXPECT_EQ(layer.Find("door")->tiles, std::vector<uint32_t>{4});
  EXPECT_EQ(layer.Find("gate"), nullptr);
  const std::vector<uint32_t> tiles{4, 7, 3};
  EXPECT_EQ(Ids(layer.Reaching(tiles)), (std::vector<std::string>{"door", "wall-10", "wall-2"}));
  const std::vector<uint32_t> empty_tile{0};
  EXPECT_TRUE(layer.Reaching(empty_tile).empty());
  EXPECT_EQ(Ids(layer.All()), (std::vector<std::string>{"door", "wall-10", "wall-2"}));
}

TEST(LayerObstaclesTest, ReplacingMovesTheObstacleBetweenTiles) {
  LayerObstacles layer(kTiles);
  layer.Put(Placed("crate", {1, 2}));
  layer.Put(Placed("crate", {2, 9}));
  EXPECT_EQ(layer.size(), 1u);
  const std::vector<uint32_t> one{1}, nine{9};
  EXPECT_TRUE(layer.Reaching(one).empty());
  EXPECT_EQ(Ids(layer.Reaching(nine)), std::vector<std::string>{"crate"});
  EXPECT_TRUE(layer.Erase("crate"));
  EXPECT_FALSE(layer.Erase("crate"));
  EXPECT_EQ(layer.size(), 0u);
  EXPECT_TRUE(layer.Reaching(nine).empty());
}

TEST(LayerObstaclesTest, CountsTheAreasAreaObstaclesGive) {
  LayerObstacles layer(kTiles);
  layer.Put(Placed("wall", {0}));
  EXPECT_EQ(layer.areas_given(), 0u);
  layer.Put(Placed("fire-1", {1}, ObstacleEffect::kArea, 5));
  layer.Put(Placed("fire-2", {2}, ObstacleEffect::kArea, 5));
  layer.Put(Placed("mud", {2}, ObstacleEffect::kArea, 40));
  EXPECT_EQ(layer.areas_given(), (uint64_t{1} << 5) | (uint64_t{1} << 40));
  layer.Erase("fire-1");
  EXPECT_EQ(layer.areas_given(), (uint64_t{1} << 5) | (uint64_t{1} << 40));
  layer.Put(Placed("fire-2", {2}));  // the fire put out: now a block
  EXPECT_EQ(layer.areas_given(), uint64_t{1} << 40);
}

// Random changes on a chain of versions, each copied from the one before: every version keeps
// exactly what a plain map of its own says, although they share their parts.
TEST(LayerObstaclesTest, VersionsCopiedFromOneAnotherStayApart) {
  std::mt19937 rng(33);
  std::vector<LayerObstacles> versions{LayerObstacles(kTiles)};
  std::vector<std::map<std::string, std::vector<uint32_t>>> truth(1);
  for (int step = 0; step < 300; ++step) {
    LayerObstacles next = versions.back();
    std::map<std::string, std::vector<uint32_t>> expected = truth.back();
    const std::string id = "o" + std::to_string(rng() % 150);
    if (rng() % 3 == 0) {
      EXPECT_EQ(next.Erase(id), expected.erase(id) == 1);
    } else {
      std::set<uint32_t> tiles;
      for (uint32_t k = 0, n = 1 + rng() % 3; k < n; ++k) tiles.insert(rng() % kTiles);
      next.Put(Placed(id, {tiles.begin(), tiles.end()}));
      expected[id] = {tiles.begin(), tiles.end()};
    }
    versions.push_back(std::move(next));
    truth.push_back(std::move(expected));
  }
  for (size_t v = 0; v < versions.size(); ++v) {
    const LayerObstacles& layer = versions[v];
    ASSERT_EQ(layer.size(), truth[v].size()) << "version " << v;
    std::vector<std::string> ids;
    for (const auto& [id, tiles] : truth[v]) ids.push_back(id);
    EXPECT_EQ(Ids(layer.All()), ids) << "version " << v;
    for (uint32_t t = 0; t < kTiles; ++t) {
      std::vector<std::string> in_tile;
      for (const auto& [id, tiles] : truth[v]) {
        if (std::count(tiles.begin(), tiles.end(), t)) in_tile.push_back(id);
      }
      const std::vector<uint32_t> one{t};
      EXPECT_EQ(Ids(layer.Reaching(one)), in_tile) << "version " << v << " tile " << t;
    }
  }
}

}  // namespace
}  // namespace waymesh::layer_obstacles_test
