// Exact mode with off-mesh links (waymesh/core/exact_path.h): a link is an edge of its own
// cost, and the answer is the cheapest sequence of surface segments and links. Checked on
// hand-built grids against known answers and against a brute-force oracle: Dijkstra over the
// link ends, joined by the visibility-graph oracle's shortest walks (which share no code with
// core).

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "hand_built_map.h"
#include "support/demo_town.h"
#include "support/query_points.h"
#include "visibility_graph_oracle.h"
#include "waymesh/core/exact_path.h"
#include "waymesh/core/nav_query.h"

namespace waymesh {
namespace {

using testing::HandLink;

PathOptions LinkExactOptions() {
  return PathOptions{.mode = PathMode::kExact, .half_extents = {0.1f, 1, 0.1f}};
}

// Cells (x, z) of an n x n grid of 1 m cells inside the rectangles [x0, x1) x [z0, z1).
struct Block {
  int x0, x1, z0, z1;
};
std::vector<int> BlockCells(int n, const std::vector<Block>& blocks) {
  std::vector<int> out;
  for (const Block& b : blocks) {
    for (int z = b.z0; z < b.z1; ++z) {
      for (int x = b.x0; x < b.x1; ++x) out.push_back(z * n + x);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Polygon index of the cell holding plan point (x, z) in a GridPolygons grid with `holes`.
uint32_t CellPolygon(int n, const std::vector<int>& holes, float x, float z) {
  const int cell = int(std::floor(z)) * n + int(std::floor(x));
  return uint32_t(cell - (std::lower_bound(holes.begin(), holes.end(), cell) - holes.begin()));
}

// An n x n grid of 1 m cells less `blocks`, with `links` (start and end polygons filled in).
std::shared_ptr<const NavMap> GridWithLinks(int n, const std::vector<Block>& blocks,
                                            std::vector<HandLink> links) {
  const std::vector<int> holes = BlockCells(n, blocks);
  for (HandLink& l : links) {
    l.start_poly = CellPolygon(n, holes, l.start.x, l.start.z);
    l.end_poly = CellPolygon(n, holes, l.end.x, l.end.z);
  }
  auto [verts, polys] = testing::GridPolygons(n, n, 1.0f, 0, holes);
  return testing::BuildHandMap(verts, polys, links);
}

HandLink Link(Vec3 from, Vec3 to, float cost, uint8_t area = 5) {
  return HandLink{from, to, 0, 0, cost, area};
}

// The 10 x 10 grid with a wall x in [4, 6), z in [2, 8), crossed from (0.5, 5) to (9.5, 5).
const std::vector<Block> kMidWall{{4, 6, 2, 8}};
const Vec3 kWest{0.5f, 0, 5}, kEast{9.5f, 0, 5};
const Vec3 kBeforeWall{3.5f, 0, 5}, kAfterWall{6.5f, 0, 5};
// Round the wall by its north corners (4, 8) and (6, 8).
const double kRoundTheWall = 2 * std::hypot(3.5, 3.0) + 2;

// A link across the wall is taken when its cost plus the walk to and from it is below the
// walk round the wall (about 11.22), and not taken when it is above: 3 + 5 + 3 = 11 is taken,
// 3 + 5.5 + 3 = 11.5 is not.
TEST(ExactLinksTest, ALinkIsTakenExactlyWhenItIsCheaper) {
  PathResult r;
  for (const float cost : {1.0f, 5.0f}) {
    NavQuery q(GridWithLinks(10, kMidWall, {Link(kBeforeWall, kAfterWall, cost)}));
    ASSERT_TRUE(q.FindPath(kWest, kEast, QueryFilter(), LinkExactOptions(), &r).ok());
    ASSERT_EQ(r.status, QueryStatus::kComplete) << cost;
    ASSERT_EQ(r.waypoints.size(), 4u) << cost;
    EXPECT_EQ(r.waypoints[1].pos, kBeforeWall);
    EXPECT_EQ(r.waypoints[1].flags, kWaypointOffMeshLink);
    EXPECT_EQ(r.waypoints[1].area, 5);
    EXPECT_EQ(r.waypoints[1].poly, r.waypoints[2].poly);  // the polygon the link leads into
    EXPECT_EQ(r.waypoints[2].pos, kAfterWall);
    EXPECT_NEAR(r.length, 9.0, 1e-5);  // the geometric length, the link's span included
    EXPECT_EQ(r.corridor.front(), r.waypoints[0].poly);
    EXPECT_NE(std::find(r.corridor.begin(), r.corridor.end(), r.waypoints[2].poly),
              r.corridor.end());
  }
  NavQuery dear(GridWithLinks(10, kMidWall, {Link(kBeforeWall, kAfterWall, 5.5f)}));
  ASSERT_TRUE(dear.FindPath(kWest, kEast, QueryFilter(), LinkExactOptions(), &r).ok());
  ASSERT_EQ(r.status, QueryStatus::kComplete);
  EXPECT_NEAR(r.length, kRoundTheWall, 1e-5);
  for (const Waypoint& w : r.waypoints) EXPECT_EQ(w.flags & kWaypointOffMeshLink, 0);
}

// Links are one-way (a two-way link is stored once per direction), and a filter that leaves
// out their area leaves them out of the search.
TEST(ExactLinksTest, DirectionAndFilterDecide) {
  PathResult r;
  NavQuery one_way(GridWithLinks(10, kMidWall, {Link(kBeforeWall, kAfterWall, 1)}));
  ASSERT_TRUE(one_way.FindPath(kEast, kWest, QueryFilter(), LinkExactOptions(), &r).ok());
  EXPECT_NEAR(r.length, kRoundTheWall, 1e-5);
  QueryFilter no_links;
  no_links.SetAreaEnabled(5, false);
  ASSERT_TRUE(one_way.FindPath(kWest, kEast, no_links, LinkExactOptions(), &r).ok());
  EXPECT_NEAR(r.length, kRoundTheWall, 1e-5);
  NavQuery two_way(GridWithLinks(
      10, kMidWall, {Link(kBeforeWall, kAfterWall, 1), Link(kAfterWall, kBeforeWall, 1)}));
  ASSERT_TRUE(two_way.FindPath(kEast, kWest, QueryFilter(), LinkExactOptions(), &r).ok());
  ASSERT_EQ(r.waypoints.size(), 4u);
  EXPECT_EQ(r.waypoints[1].pos, kAfterWall);
  EXPECT_NEAR(r.length, 9.0, 1e-5);
  // A link area's cost scales its links (as in approximate mode): at 6 the link costs 6.
  QueryFilter dear_links;
  dear_links.SetAreaCost(5, 6.0f);
  dear_links.SetAreaCost(0, 6.0f);  // one cost over every allowed area, as exact mode needs
  ASSERT_TRUE(two_way.FindPath(kWest, kEast, dear_links, LinkExactOptions(), &r).ok());
  EXPECT_EQ(r.waypoints.size(), 4u);  // walking costs 6 a metre too: the link still wins
}

// A link that ends on a vertex shared by four cells, one from the start's own cell, and a
// link much cheaper than its span (the heuristic must not overestimate past it).
TEST(ExactLinksTest, LinkEndsOnVerticesAndShortcutsBeyondTheStraightLine) {
  PathResult r;
  const Vec3 on_vertex{7, 0, 5};
  NavQuery vertex(GridWithLinks(10, kMidWall, {Link(kBeforeWall, on_vertex, 1)}));
  ASSERT_TRUE(vertex.FindPath(kWest, kEast, QueryFilter(), LinkExactOptions(), &r).ok());
  ASSERT_EQ(r.status, QueryStatus::kComplete);
  ASSERT_EQ(r.waypoints.size(), 4u);
  EXPECT_EQ(r.waypoints[2].pos, on_vertex);
  EXPECT_NEAR(r.length, 9.0, 1e-5);
  // From (0.5, 0.5) to (9.5, 9.5): straight, 12.7 m; by the link, 1 + 0.1 + 1 in cost.
  const Vec3 from{0.5f, 0, 0.5f}, to{9.5f, 0, 9.5f}, in{1.5f, 0, 0.5f}, out{9.5f, 0, 8.5f};
  NavQuery teleport(GridWithLinks(10, {}, {Link(in, out, 0.1f)}));
  ASSERT_TRUE(teleport.FindPath(from, to, QueryFilter(), LinkExactOptions(), &r).ok());
  ASSERT_EQ(r.waypoints.size(), 4u);
  EXPECT_EQ(r.waypoints[1].pos, in);
  EXPECT_EQ(r.waypoints[2].pos, out);
  // Start and goal in one cell, a link from it and back costing less than the walk between.
  const Vec3 a{0.1f, 0, 0.1f}, b{0.9f, 0, 0.9f};
  NavQuery loop(GridWithLinks(10, {}, {Link(a, Vec3{0.8f, 0, 0.9f}, 0.01f)}));
  ASSERT_TRUE(loop.FindPath(a, b, QueryFilter(), LinkExactOptions(), &r).ok());
  ASSERT_EQ(r.waypoints.size(), 3u);
  EXPECT_EQ(r.waypoints[0].flags, kWaypointStart | kWaypointOffMeshLink);
  EXPECT_NEAR(r.length, std::hypot(0.7, 0.8) + 0.1, 1e-5);
}

// The plan-view cost of a path: walking plus link_cost(start, end) for each link taken.
template <typename LinkCostFn>
double PathCost(const PathResult& r, LinkCostFn link_cost) {
  double sum = 0;
  for (size_t i = 1; i < r.waypoints.size(); ++i) {
    const Waypoint &u = r.waypoints[i - 1], &v = r.waypoints[i];
    sum += (u.flags & kWaypointOffMeshLink) ? link_cost(u.pos, v.pos) : DistanceXZ(u.pos, v.pos);
  }
  return sum;
}

// The cost of the cheapest of `links` from `start` to `end`.
double HandLinkCost(const std::vector<HandLink>& links, Vec3 start, Vec3 end) {
  double cost = std::numeric_limits<double>::infinity();
  for (const HandLink& l : links) {
    if (l.start == start && l.end == end) cost = std::min(cost, double(l.cost));
  }
  return cost;
}

// The cheapest cost from a to b: Dijkstra over a, b and the link ends, the walk between two of
// them being the oracle's shortest path.
std::optional<double> OracleCost(const testing::VisibilityGraphOracle& oracle,
                                 const std::vector<HandLink>& links, Vec3 a, Vec3 b) {
  std::vector<Vec3> nodes{a, b};
  for (const HandLink& l : links) {
    nodes.push_back(l.start);
    nodes.push_back(l.end);
  }
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> dist(nodes.size(), inf);
  std::vector<bool> done(nodes.size(), false);
  dist[0] = 0;
  for (;;) {
    size_t u = nodes.size();
    for (size_t k = 0; k < nodes.size(); ++k) {
      if (!done[k] && dist[k] < inf && (u == nodes.size() || dist[k] < dist[u])) u = k;
    }
    if (u == nodes.size()) break;
    done[u] = true;
    if (u == 1) return dist[1];
    for (size_t v = 0; v < nodes.size(); ++v) {
      if (done[v]) continue;
      const auto walk = oracle.ShortestPath({nodes[u].x, nodes[u].z}, {nodes[v].x, nodes[v].z});
      EXPECT_TRUE(walk.ok()) << walk.status();
      if (walk.ok() && walk->has_value()) dist[v] = std::min(dist[v], dist[u] + **walk);
    }
    // Node 2 + 2i is link i's start, 3 + 2i its end.
    if (u >= 2 && u % 2 == 0) {
      const size_t end = u + 1;
      dist[end] = std::min(dist[end], dist[u] + double(links[(u - 2) / 2].cost));
    }
  }
  return std::nullopt;
}

// A point strictly inside a random cell that is not in a block.
Vec3 RandomCellPoint(int n, const std::vector<int>& holes, std::mt19937& rng) {
  std::uniform_int_distribution<int> cell(0, n * n - 1);
  std::uniform_real_distribution<float> in(0.05f, 0.95f);
  for (;;) {
    const int c = cell(rng);
    if (std::binary_search(holes.begin(), holes.end(), c)) continue;
    return Vec3{float(c % n) + in(rng), 0, float(c / n) + in(rng)};
  }
}

// Random links (some cheaper than their span, some dearer, some both ways) on a walled grid:
// every exact path costs what the oracle's cheapest sequence of walks and links costs.
TEST(ExactLinksTest, RandomLinksAgreeWithTheOracle) {
  constexpr int kN = 16;
  const std::vector<Block> blocks{{3, 5, 2, 12}, {8, 10, 4, 16}, {12, 14, 0, 10}};
  const std::vector<int> holes = BlockCells(kN, blocks);
  int taken = 0;
  for (const uint32_t seed : {1u, 2u, 3u}) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> ratio(0.1f, 1.5f);
    std::vector<HandLink> links;
    for (int i = 0; i < 5; ++i) {
      const Vec3 s = RandomCellPoint(kN, holes, rng), e = RandomCellPoint(kN, holes, rng);
      links.push_back(Link(s, e, ratio(rng) * DistanceXZ(s, e)));
      if (i % 2 == 0) links.push_back(Link(e, s, links.back().cost));
    }
    const auto map = GridWithLinks(kN, blocks, links);
    const testing::VisibilityGraphOracle oracle(testing::PlanFreeRegion(*map, {}));
    NavQuery q(map);
    PathResult r;
    for (int pair = 0; pair < 30; ++pair) {
      const Vec3 a = RandomCellPoint(kN, holes, rng), b = RandomCellPoint(kN, holes, rng);
      const std::string what = "seed " + std::to_string(seed) + " pair " + std::to_string(pair);
      ASSERT_TRUE(q.FindPath(a, b, QueryFilter(), LinkExactOptions(), &r).ok()) << what;
      const std::optional<double> truth = OracleCost(oracle, links, a, b);
      ASSERT_TRUE(truth.has_value()) << what;
      ASSERT_EQ(r.status, QueryStatus::kComplete) << what;
      const double cost =
          PathCost(r, [&](Vec3 from, Vec3 to) { return HandLinkCost(links, from, to); });
      EXPECT_NEAR(cost, *truth, 1e-5 + 1e-6 * *truth) << what;
      for (const Waypoint& w : r.waypoints) taken += (w.flags & kWaypointOffMeshLink) != 0;
    }
  }
  EXPECT_GT(taken, 10);  // the links matter in these maps
}

// The cost of the cheapest link of `map` from `start` to `end` under a filter with every area
// at 1 (the area's map cost taken out, as the search does).
double MapLinkCost(const NavMap& map, Vec3 start, Vec3 end) {
  double cost = std::numeric_limits<double>::infinity();
  for (const TileView& t : map.tiles()) {
    for (const OffMeshLink& l : t.off_mesh_links) {
      if (l.start != start || l.end != end) continue;
      const float area_cost = map.info().areas[l.area].cost;
      cost = std::min(cost, double(l.cost) / (area_cost > 0 ? area_cost : 1.0f));
    }
  }
  return cost;
}

// On the demo town with its links allowed (every area at cost 1): exact paths are complete
// where approximate ones are, and never cost more.
TEST(ExactLinksTest, DemoTownWithLinksNeverCostsMoreThanApproximate) {
  const testing::DemoTown& town = testing::Town();
  ASSERT_GT(town.map->info().off_mesh_link_count, 0u);
  QueryFilter filter(town.map->info());
  for (int a = 0; a < kMaxAreas; ++a) filter.SetAreaCost(a, 1.0f);
  ASSERT_TRUE(CheckExactPathSupport(*town.map, filter).ok());
  NavQuery q(town.map);
  PathOptions approximate = LinkExactOptions();
  approximate.mode = PathMode::kApproximate;
  std::mt19937_64 rng(11);
  PathResult r, a;
  int compared = 0;
  for (int i = 0; i < 20; ++i) {
    const auto from = testing::RandomOnMap(q, filter, rng),
               to = testing::RandomOnMap(q, filter, rng);
    ASSERT_TRUE(from && to);
    ASSERT_TRUE(q.FindPath(*from, *to, filter, approximate, &a).ok()) << i;
    ASSERT_TRUE(q.FindPath(*from, *to, filter, LinkExactOptions(), &r).ok()) << i;
    if (a.status != QueryStatus::kComplete || r.node_limit) continue;
    ASSERT_EQ(r.status, QueryStatus::kComplete) << i;
    const auto link_cost = [&](Vec3 from, Vec3 to) { return MapLinkCost(*town.map, from, to); };
    EXPECT_LE(PathCost(r, link_cost), PathCost(a, link_cost) * (1 + 1e-6) + 1e-5) << i;
    ++compared;
  }
  EXPECT_GT(compared, 10);
}

}  // namespace
}  // namespace waymesh
