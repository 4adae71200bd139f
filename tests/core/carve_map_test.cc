// Carving obstacles into real maps (waymesh/core/obstacles/carve_map.h): the carved map passes
// the structural checks, loses exactly the surface under the block footprints (an independent
// Clipper computation is the oracle), and every query on it respects the obstacles.

#include "waymesh/core/obstacles/carve_map.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <polyclipping/clipper.hpp>
#include <random>
#include <string>
#include <vector>

#include "carve_test_support.h"
#include "gtest/gtest.h"
#include "hand_built_map.h"
#include "support/demo_town.h"
#include "support/map_builder.h"
#include "support/test_data.h"
#include "waymesh/checks/map_checks.h"
#include "waymesh/core/nav_query.h"
#include "waymesh/core/obstacles/carved_layer.h"
#include "waymesh/core/obstacles/footprint.h"
#include "waymesh/core/tile_source.h"
#include "waymesh/demo_world/demo_world.h"

namespace waymesh {
namespace {

using testing::Footprints;
using testing::RandomObstacles;

// Clipper's integer units per metre for the area oracle.
constexpr double kClipScale = 1e5;
// Carved surface area against the oracle (relative).
constexpr double kAreaTolerance = 1e-3;
// How deep a path, a random point or a polygon centroid may reach into a block footprint (m).
constexpr double kFootprintDepth = 1e-3;
// How far (metres) a corner may lie on the reflex side of the chord joining its neighbours:
// collinear T-junction corners are off their straight line by float rounding.
constexpr double kReflexDeviation = 1e-5;
// Path segments are sampled at this spacing (metres).
constexpr double kPathSampleStep = 0.05;

// Deepest reach of a point into any block footprint whose height range holds `y`.
double BlockDepth(const std::vector<Footprint>& fs, Vec3 p) {
  double worst = -INFINITY;
  for (const Footprint& f : fs) {
    if (f.effect != ObstacleEffect::kBlock || p.y < f.y_min || p.y > f.y_max) continue;
    worst = std::max(worst, InsideDepth(f, p.x, p.z));
  }
  return worst;
}

double PlanArea(const TileView& t, uint32_t p) {
  double sum = 0;
  const uint32_t n = t.corner_count(p);
  for (uint32_t i = 0; i < n; ++i) {
    const Vec3 a = t.corner(p, i), b = t.corner(p, (i + 1) % n);
    sum += double(a.x) * b.z - double(b.x) * a.z;
  }
  return sum / 2;
}

double MapPlanArea(const NavMap& map) {
  double sum = 0;
  for (const TileView& t : map.tiles()) {
    for (uint32_t p = 0; p < t.poly_count(); ++p) sum += PlanArea(t, p);
  }
  return sum;
}

ClipperLib::IntPoint ToClip(double x, double z) {
  return {ClipperLib::cInt(std::llround(x * kClipScale)),
          ClipperLib::cInt(std::llround(z * kClipScale))};
}

// Plan area of the base surface under the union of the block footprints, by Clipper (single
// floor maps: the footprints' height ranges cover the whole surface).
double BlockedArea(const NavMap& base, const std::vector<Footprint>& fs) {
  ClipperLib::Paths surface, blocks, inter;
  for (const TileView& t : base.tiles()) {
    for (uint32_t p = 0; p < t.poly_count(); ++p) {
      ClipperLib::Path path;
      for (uint32_t i = 0; i < t.corner_count(p); ++i) {
        path.push_back(ToClip(t.corner(p, i).x, t.corner(p, i).z));
      }
      surface.push_back(path);
    }
  }
  for (const Footprint& f : fs) {
    if (f.effect != ObstacleEffect::kBlock) continue;
    ClipperLib::Path path;
    for (const PlanPoint& q : f.outline) path.push_back(ToClip(q.x, q.z));
    blocks.push_back(path);
  }
  ClipperLib::Clipper c;
  c.AddPaths(surface, ClipperLib::ptSubject, true);
  c.AddPaths(blocks, ClipperLib::ptClip, true);
  c.Execute(ClipperLib::ctIntersection, inter, ClipperLib::pftNonZero, ClipperLib::pftNonZero);
  double area = 0;
  for (const auto& path : inter) area += ClipperLib::Area(path);
  return area / (kClipScale * kClipScale);
}

// Island ids against a flood fill over every polygon's links: one id per connected set, and
// the per-island polygon counts.
void ExpectIslandsMatchFlood(const NavMap& map) {
  std::vector<uint32_t> first{0};
  for (const TileView& t : map.tiles()) first.push_back(first.back() + t.poly_count());
  std::vector<int64_t> flood(first.back(), -1);
  std::vector<uint32_t> counts(map.info().islands.size(), 0);
  int64_t next = 0;
  for (const TileView& t : map.tiles()) {
    for (uint32_t p = 0; p < t.poly_count(); ++p) {
      ASSERT_LT(t.poly_island[p], counts.size());
      ++counts[t.poly_island[p]];
      if (flood[first[t.index] + p] >= 0) continue;
      std::vector<PolyIndex> stack{{t.index, p}};
      flood[first[t.index] + p] = next;
      while (!stack.empty()) {
        const PolyIndex at = stack.back();
        stack.pop_back();
        const TileView& u = map.tile(at.tile);
        ASSERT_EQ(u.poly_island[at.poly], t.poly_island[p]) << "one island split in two ids";
        for (uint32_t c = u.poly_start[at.poly]; c < u.poly_start[at.poly + 1]; ++c) {
          const auto nb = u.across(c);
          if (!nb || flood[first[nb->tile] + nb->poly] >= 0) continue;
          flood[first[nb->tile] + nb->poly] = next;
          stack.push_back(*nb);
        }
      }
      ++next;
    }
  }
  EXPECT_EQ(next, int64_t(map.info().islands.size())) << "connected sets vs islands";
  for (size_t i = 0; i < counts.size(); ++i) EXPECT_EQ(counts[i], map.info().islands[i].polygons);
}

// Structure of a carved map: the validator's structural and topology checks, convex polygons,
// and every link mirrored by an edge with the same two end positions.
void ExpectSound(const std::shared_ptr<const NavMap>& map) {
  MapCheckOptions options;
  options.off_mesh_links = true;
  const MapCheckReport report = CheckMap(map, options);
  // The validator's convexity tolerance is an absolute area (m²) made for the base map's
  // T-junctions; carved T-junction corners are judged by their distance off the chord below.
  for (const MapFinding& f : report.findings) {
    if (f.check != "non-convex") ADD_FAILURE() << FindingLine(f);
  }
  int reflex = 0, asymmetric = 0;
  for (const TileView& t : map->tiles()) {
    for (uint32_t p = 0; p < t.poly_count(); ++p) {
      const uint32_t n = t.corner_count(p);
      ASSERT_EQ(t.detail(p).size(), n - 2);
      for (uint32_t i = 0; i < n; ++i) {
        const Vec3 a = t.corner(p, i), b = t.corner(p, (i + 1) % n), c = t.corner(p, (i + 2) % n);
        const double ux = b.x - a.x, uz = b.z - a.z, vx = c.x - b.x, vz = c.z - b.z;
        const double chord = std::hypot(double(c.x) - a.x, double(c.z) - a.z);
        if (chord > 0 && (ux * vz - uz * vx) / chord < -kReflexDeviation) {
          ++reflex;
          ADD_FAILURE() << "reflex: tile " << t.index << " poly " << p << " corner " << (i + 1) % n
                        << " of " << n << " off by " << -(ux * vz - uz * vx) / chord << " m";
        }
        const auto nb = t.across(t.poly_start[p] + i);
        if (!nb) continue;
        const TileView& o = map->tile(nb->tile);
        bool back = false;
        for (uint32_t j = 0; j < o.corner_count(nb->poly); ++j) {
          const auto r = o.across(o.poly_start[nb->poly] + j);
          back = back || (r && r->tile == t.index && r->poly == p && o.corner(nb->poly, j) == b &&
                          o.corner(nb->poly, (j + 1) % o.corner_count(nb->poly)) == a);
        }
        if (!back) ++asymmetric;
      }
    }
  }
  EXPECT_EQ(reflex, 0);
  EXPECT_EQ(asymmetric, 0);
  ExpectIslandsMatchFlood(*map);
}

TEST(CarveMapTest, EmptyListIsTheBase) {
  const auto base = testing::CarveArena(8);
  auto carved = CarveMap(base, {});
  ASSERT_TRUE(carved.ok());
  EXPECT_EQ(carved->get(), base.get());
  // An obstacle far from every polygon changes nothing either.
  const std::vector<Obstacle> far{
      {"far", CylinderShape{{-1000, 0, -1000}, 1, 2}, ObstacleEffect::kBlock, 0}};
  carved = CarveMap(base, far);
  ASSERT_TRUE(carved.ok());
  EXPECT_EQ(carved->get(), base.get());
}

// Serves no tile: enough to make a paged map.
class NoTileSource : public TileSource {
 public:
  std::shared_ptr<const TileView> Acquire(uint32_t) const override { return nullptr; }
};

TEST(CarveMapTest, PagedMapRefused) {
  const auto resident = testing::CarveArena(8);
  const auto paged = std::make_shared<const NavMap>(resident->info(), resident->digest(),
                                                    std::make_shared<NoTileSource>());
  const std::vector<Obstacle> one{
      {"crate", CylinderShape{{10, 0, 10}, 1, 2}, ObstacleEffect::kBlock, 0}};
  const auto carved = CarveMap(paged, one);
  EXPECT_EQ(carved.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(carved.status().message().find("paged"), std::string::npos);
}

// Carving is a function of the base and the list: removing an obstacle (carving without it)
// gives exactly the tiles carving the rest alone gives, and tiles it never touched are the
// base's own.
TEST(CarveMapTest, RemovingAnObstacleRestoresExactly) {
  const auto base = testing::CarveArena(8);
  NavQuery q(base);
  std::mt19937 rng(5);
  std::vector<Obstacle> obstacles = RandomObstacles(q, 12, rng, true);
  auto with = CarveMap(base, obstacles);
  ASSERT_TRUE(with.ok());
  obstacles.pop_back();
  auto without = CarveMap(base, obstacles);
  auto again = CarveMap(base, obstacles);
  ASSERT_TRUE(without.ok() && again.ok());
  int shared = 0;
  for (const TileView& t : (*without)->tiles()) {
    const TileView& u = (*again)->tile(t.index);
    ASSERT_EQ(t.poly_count(), u.poly_count());
    EXPECT_TRUE(std::equal(t.poly_verts.begin(), t.poly_verts.end(), u.poly_verts.begin(),
                           u.poly_verts.end()));
    EXPECT_TRUE(std::equal(t.poly_neighbors.begin(), t.poly_neighbors.end(),
                           u.poly_neighbors.begin(), u.poly_neighbors.end()));
    EXPECT_TRUE(
        std::equal(t.vertices.begin(), t.vertices.end(), u.vertices.begin(), u.vertices.end()));
    if ((*without)->generation(t.index) == base->generation(t.index)) {
      EXPECT_EQ(t.vertices.data(), base->tile(t.index).vertices.data());
      ++shared;
    }
  }
  EXPECT_GT(shared, 0);
  // Every polygon of a changed tile names the base polygon it lies in: its centroid is inside
  // that polygon (plan view).
  int pieces = 0;
  for (const TileView& t : (*with)->tiles()) {
    if (t.poly_origin.empty()) continue;
    ASSERT_EQ(t.poly_origin.size(), t.poly_count());
    const TileView& b = base->tile(t.index);
    for (uint32_t p = 0; p < t.poly_count(); ++p) {
      const uint32_t o = t.poly_origin[p];
      ASSERT_LT(o, b.poly_count());
      double cx = 0, cz = 0;
      for (uint32_t i = 0; i < t.corner_count(p); ++i)
        cx += t.corner(p, i).x, cz += t.corner(p, i).z;
      cx /= t.corner_count(p), cz /= t.corner_count(p);
      for (uint32_t i = 0, n = b.corner_count(o); i < n; ++i) {
        const Vec3 a = b.corner(o, i), c = b.corner(o, (i + 1) % n);
        EXPECT_GE((c.x - a.x) * (cz - a.z) - (cx - a.x) * (c.z - a.z), -1e-6)
            << "tile " << t.index << " poly " << p << " outside its origin " << o;
      }
      pieces += o != p;
    }
  }
  EXPECT_GT(pieces, 0);
}

TEST(CarveMapTest, InvalidObstacleNamed) {
  const std::vector<Obstacle> bad{
      {"gate-7", BoxShape{{0, 0, 0}, {NAN, 1, 1}, 0}, ObstacleEffect::kBlock, 0}};
  const auto carved = CarveMap(testing::CarveArena(8), bad);
  EXPECT_EQ(carved.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(carved.status().message().find("gate-7"), std::string::npos);
}

// Hundreds of random obstacles over a map cut into small tiles (so many cross seams):
// structure, area against the Clipper oracle, no polygon inside a block.
TEST(CarveMapTest, RandomSetsOnArenaKeepStructureAndArea) {
  const auto base = testing::CarveArena(8);
  NavQuery q(base);
  std::mt19937 rng(29);
  const double base_area = MapPlanArea(*base);
  int total = 0;
  for (int round = 0; round < 12; ++round) {
    SCOPED_TRACE(round);
    const int count = 1 + round * 3;
    const std::vector<Obstacle> obstacles = RandomObstacles(q, count, rng, round % 2 == 1);
    total += int(obstacles.size());
    auto carved = CarveMap(base, obstacles);
    ASSERT_TRUE(carved.ok()) << carved.status();
    ExpectSound(*carved);
    const std::vector<Footprint> fs = Footprints(*base, obstacles);
    const double expected = base_area - BlockedArea(*base, fs);
    EXPECT_NEAR(MapPlanArea(**carved), expected, kAreaTolerance * expected);
    for (const TileView& t : (*carved)->tiles()) {
      for (uint32_t p = 0; p < t.poly_count(); ++p) {
        double cx = 0, cz = 0;
        for (uint32_t i = 0; i < t.corner_count(p); ++i) {
          cx += t.corner(p, i).x, cz += t.corner(p, i).z;
        }
        const Vec3 centroid{float(cx / t.corner_count(p)), t.corner(p, 0).y,
                            float(cz / t.corner_count(p))};
        EXPECT_LE(BlockDepth(fs, centroid), kFootprintDepth) << "tile " << t.index << " poly " << p;
      }
    }
  }
  EXPECT_GE(total, 200);
}

// Obstacles as tall as the whole map, so that the plan-view Clipper oracle applies to maps
// with slopes: a real Unity export, cut at its default 64 m tiles and at 8 m tiles.
TEST(CarveMapTest, RandomSetsOnUnityExportKeepStructureAndArea) {
  for (const float tile_size : {64.0f, 8.0f}) {
    SCOPED_TRACE(tile_size);
    RepairOptions options;
    options.tile_size = tile_size;
    auto loaded = testing::CachedMapFromFile(testing::SharedData("unity/1100.navmesh"), options);
    ASSERT_TRUE(loaded.ok()) << loaded.status();
    const std::shared_ptr<const NavMap> base = *loaded;
    const Aabb box = base->info().bounds;
    NavQuery q(base);
    std::mt19937 rng(1100);
    const double base_area = MapPlanArea(*base);
    for (int round = 0; round < 6; ++round) {
      std::vector<Obstacle> obstacles = RandomObstacles(q, 10 + 10 * round, rng, true);
      testing::SpanHeights(box, 5, &obstacles);
      auto carved = CarveMap(base, obstacles);
      ASSERT_TRUE(carved.ok()) << carved.status();
      ExpectSound(*carved);
      const double expected = base_area - BlockedArea(*base, Footprints(*base, obstacles));
      EXPECT_NEAR(MapPlanArea(**carved), expected, kAreaTolerance * expected);
    }
  }
}

// Finds paths between `pairs` pairs of random points of `q`'s map; no random point and no point
// sampled along a complete path lies deeper than kFootprintDepth inside a block footprint.
// Returns how many paths were complete (-1 after a failure).
int RandomPathsOutsideBlocks(NavQuery& q, const std::vector<Footprint>& fs, int pairs,
                             std::mt19937& rng) {
  QueryFilter all;
  PathResult path;
  int complete = 0;
  for (int i = 0; i < pairs; ++i) {
    const auto a = q.RandomPoint(all, rng), b = q.RandomPoint(all, rng);
    if (!(a.ok() && b.ok() && *a && *b)) {
      ADD_FAILURE() << "no random point, pair " << i;
      return -1;
    }
    EXPECT_LE(BlockDepth(fs, (*a)->pos), kFootprintDepth);
    if (absl::Status s = q.FindPath(**a, **b, all, {}, &path); !s.ok()) {
      ADD_FAILURE() << s;
      return -1;
    }
    if (path.status != QueryStatus::kComplete) continue;
    ++complete;
    for (size_t k = 0; k + 1 < path.waypoints.size(); ++k) {
      const Vec3 s = path.waypoints[k].pos, e = path.waypoints[k + 1].pos;
      const int steps = 1 + int(DistanceXZ(s, e) / kPathSampleStep);
      for (int j = 0; j <= steps; ++j) {
        const Vec3 p = s + (e - s) * (float(j) / steps);
        if (BlockDepth(fs, p) > kFootprintDepth) {
          ADD_FAILURE() << "pair " << i << " segment " << k << " enters a block by "
                        << BlockDepth(fs, p) << " m";
          return -1;
        }
      }
    }
  }
  return complete;
}

// The demo town has stacked floors (a bridge over a walkway, ramps): obstacles cut only the
// floors their height range reaches; structure holds and paths stay out of the blocks.
TEST(CarveMapTest, RandomSetsOnDemoTown) {
  const testing::DemoTown& town = testing::Town();
  NavQuery base_query(town.map);
  std::mt19937 rng(200);
  const std::vector<Obstacle> obstacles = RandomObstacles(base_query, 150, rng, true);
  auto carved = CarveMap(town.map, obstacles);
  ASSERT_TRUE(carved.ok()) << carved.status();
  ExpectSound(*carved);
  const std::vector<Footprint> fs = Footprints(*town.map, obstacles);
  NavQuery q(*carved);
  EXPECT_GT(RandomPathsOutsideBlocks(q, fs, 100, rng), 50);
}

// Paths never enter a block footprint; random points are never inside one; a point inside
// one snaps out of it.
TEST(CarveMapTest, QueriesRespectBlocks) {
  const auto base = testing::CarveArena(8);
  NavQuery base_query(base);
  std::mt19937 rng(7);
  const std::vector<Obstacle> obstacles = RandomObstacles(base_query, 25, rng, false);
  auto carved = CarveMap(base, obstacles);
  ASSERT_TRUE(carved.ok()) << carved.status();
  const std::vector<Footprint> fs = Footprints(*base, obstacles);
  NavQuery q(*carved);
  QueryFilter all;
  EXPECT_GT(RandomPathsOutsideBlocks(q, fs, 200, rng), 100);
  // NearestPoint from inside a footprint: the seed case of a door closing on an NPC.
  for (const Obstacle& o : obstacles) {
    if (!std::holds_alternative<CylinderShape>(o.shape)) continue;
    const Vec3 c = std::get<CylinderShape>(o.shape).center;
    const auto near = q.NearestPoint(c, {5, 2, 5}, all);
    ASSERT_TRUE(near.ok());
    if (*near) {
      EXPECT_LE(BlockDepth(fs, (*near)->pos), kFootprintDepth);
    }
  }
}

// A wall across the whole map splits it: islands grow, a path across is NO_PATH at once, and
// old references into carved tiles are stale.
TEST(CarveMapTest, WallAcrossMapGivesNoPath) {
  const auto base = testing::CarveArena(8);
  const Aabb box = base->info().bounds;
  const float zc = 0.5f * (box.min.z + box.max.z);
  NavQuery base_query(base);
  QueryFilter all;
  // A start and goal well apart on either side of the wall, joined on the base map.
  std::optional<SurfacePoint> start, goal;
  std::mt19937 rng(3);
  PathResult path;
  for (int i = 0; i < 500 && !(start && goal); ++i) {
    const auto a = base_query.RandomPoint(all, rng), b = base_query.RandomPoint(all, rng);
    if ((*a)->pos.z < zc - 4 && (*b)->pos.z > zc + 4 &&
        base_query.FindPath(**a, **b, all, {}, &path).ok() &&
        path.status == QueryStatus::kComplete) {
      start = *a, goal = *b;
    }
  }
  ASSERT_TRUE(start && goal);
  const std::vector<Obstacle> wall{{"wall",
                                    PrismShape{{{box.min.x - 1, zc - 0.5f},
                                                {box.max.x + 1, zc - 0.5f},
                                                {box.max.x + 1, zc + 0.5f},
                                                {box.min.x - 1, zc + 0.5f}},
                                               box.min.y - 1,
                                               box.max.y + 1},
                                    ObstacleEffect::kBlock, 0}};
  auto carved = CarveMap(base, wall);
  ASSERT_TRUE(carved.ok()) << carved.status();
  ExpectSound(*carved);
  EXPECT_GT((*carved)->info().islands.size(), base->info().islands.size());
  NavQuery q(*carved);
  const auto s = q.NearestPoint(start->pos, {0.5f, 1, 0.5f}, all);
  const auto g = q.NearestPoint(goal->pos, {0.5f, 1, 0.5f}, all);
  ASSERT_TRUE(s.ok() && g.ok() && *s && *g);
  ASSERT_TRUE(q.FindPath(**s, **g, all, {}, &path).ok());
  EXPECT_EQ(path.status, QueryStatus::kNoPath);
  // References handed out by the base map into a carved tile are refused, not misread.
  int stale = 0;
  for (const TileView& t : base->tiles()) {
    if ((*carved)->generation(t.index) != base->generation(t.index)) {
      EXPECT_EQ(q.CheckRef(base->Ref({t.index, 0})).code(), absl::StatusCode::kFailedPrecondition);
      ++stale;
    }
  }
  EXPECT_GT(stale, 0);
  // The base map is untouched and still answers.
  ASSERT_TRUE(base_query.FindPath(*start, *goal, all, {}, &path).ok());
  EXPECT_EQ(path.status, QueryStatus::kComplete);
}

// An area obstacle changes the area under it: a filter excluding that area routes around it.
TEST(CarveMapTest, AreaObstacleSteersFilteredPaths) {
  const auto base = testing::CarveArena(8);
  NavQuery base_query(base);
  QueryFilter all;
  std::mt19937 rng(11);
  PathResult path;
  int checked = 0;
  for (int i = 0; i < 200 && checked < 10; ++i) {
    const auto a = base_query.RandomPoint(all, rng), b = base_query.RandomPoint(all, rng);
    if (!base_query.FindPath(**a, **b, all, {}, &path).ok() ||
        path.status != QueryStatus::kComplete || path.length < 20) {
      continue;
    }
    // A fire zone on the middle of the path.
    const Vec3 mid = path.waypoints[path.waypoints.size() / 2].pos;
    const std::vector<Obstacle> fire{
        {"fire", CylinderShape{mid, 1.0f, 4}, ObstacleEffect::kArea, 5}};
    auto carved = CarveMap(base, fire);
    ASSERT_TRUE(carved.ok()) << carved.status();
    NavQuery q(*carved);
    QueryFilter no_fire;
    no_fire.SetAreaEnabled(5, false);
    const auto on = q.NearestPoint(mid, {0.1f, 1, 0.1f}, all);
    ASSERT_TRUE(on.ok() && *on);
    EXPECT_EQ(q.map().tile((*on)->poly.tile()).poly_area[(*on)->poly.poly()], 5);
    PathResult around;
    ASSERT_TRUE(q.FindPath((*a)->pos, (*b)->pos, no_fire, {}, &around).ok());
    if (around.status != QueryStatus::kComplete) continue;  // the zone closed a corridor
    ++checked;
    const Footprint f = ObstacleFootprint(fire[0], base->info().agent);
    for (size_t k = 0; k + 1 < around.waypoints.size(); ++k) {
      const Vec3 s = around.waypoints[k].pos, e = around.waypoints[k + 1].pos;
      const int steps = 1 + int(DistanceXZ(s, e) / kPathSampleStep);
      for (int j = 0; j <= steps; ++j) {
        const Vec3 p = s + (e - s) * (float(j) / steps);
        ASSERT_LE(InsideDepth(f, p.x, p.z), kFootprintDepth);
      }
    }
  }
  EXPECT_GT(checked, 3);
}

// The demo town's bridge: a block on the deck leaves the walkway 5 m below uncut.
TEST(CarveMapTest, BlockOnBridgeKeepsRoadBeneath) {
  const testing::DemoTown& town = testing::Town();
  const Vec3 deck = testing::ProbeAt(town, kProbeDeckOverWalkway);
  const Vec3 walkway = testing::ProbeAt(town, kProbeWalkwayUnderBridge);
  const std::vector<Obstacle> crate{{"crate",
                                     BoxShape{{deck.x, deck.y + 0.5f, deck.z}, {1, 0.5f, 1}, 15},
                                     ObstacleEffect::kBlock, 0}};
  auto carved = CarveMap(town.map, crate);
  ASSERT_TRUE(carved.ok()) << carved.status();
  ExpectSound(*carved);
  NavQuery q(*carved);
  const auto under = q.Height(walkway.x, walkway.z, walkway.y);
  ASSERT_TRUE(under.ok() && *under);
  EXPECT_NEAR((*under)->pos.y, walkway.y, 0.05);
  const auto on_deck = q.Height(deck.x, deck.z, deck.y);
  ASSERT_TRUE(on_deck.ok());
  if (*on_deck) {
    EXPECT_GT(std::fabs((*on_deck)->pos.y - deck.y), 1.0f);  // only the walkway is left
  }
  const double blocked_before = MapPlanArea(*town.map) - MapPlanArea(**carved);
  EXPECT_GT(blocked_before, 1.0);
}

}  // namespace
}  // namespace waymesh

namespace waymesh {
namespace {

template <typename T>
bool SameSpan(std::span<const T> a, std::span<const T> b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end());
}

// Off-mesh links have no operator== (and no padding: compared as bytes).
bool SameLinks(std::span<const OffMeshLink> a, std::span<const OffMeshLink> b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size_bytes()) == 0);
}

// Every array of every tile, and the map-wide figures, are the same bits (generations aside).
void ExpectSameMap(const NavMap& a, const NavMap& b, const std::string& where) {
  ASSERT_EQ(a.tile_count(), b.tile_count()) << where;
  EXPECT_EQ(a.info().polygon_count, b.info().polygon_count) << where;
  EXPECT_EQ(a.info().vertex_count, b.info().vertex_count) << where;
  EXPECT_EQ(a.info().walkable_area, b.info().walkable_area) << where;
  EXPECT_EQ(a.info().islands.size(), b.info().islands.size()) << where;
  for (const TileView& t : a.tiles()) {
    const TileView& u = b.tile(t.index);
    const std::string at = where + ", tile " + std::to_string(t.index);
    EXPECT_TRUE(SameSpan(t.vertices, u.vertices)) << at;
    EXPECT_TRUE(SameSpan(t.poly_start, u.poly_start)) << at;
    EXPECT_TRUE(SameSpan(t.poly_verts, u.poly_verts)) << at;
    EXPECT_TRUE(SameSpan(t.poly_neighbors, u.poly_neighbors)) << at;
    EXPECT_TRUE(SameSpan(t.poly_area, u.poly_area)) << at;
    EXPECT_TRUE(SameSpan(t.poly_flags, u.poly_flags)) << at;
    EXPECT_TRUE(SameSpan(t.poly_island, u.poly_island)) << at;
    EXPECT_TRUE(SameSpan(t.area_prefix, u.area_prefix)) << at;
    EXPECT_TRUE(SameSpan(t.cross_links, u.cross_links)) << at;
    EXPECT_TRUE(SameLinks(t.off_mesh_links, u.off_mesh_links)) << at;
    EXPECT_TRUE(SameSpan(t.poly_origin, u.poly_origin)) << at;
    EXPECT_EQ(t.detail_tris.size(), u.detail_tris.size()) << at;
    EXPECT_EQ(t.bv_nodes.size(), u.bv_nodes.size()) << at;
  }
}

template <typename T>
void AppendBytes(std::span<const T> s, std::string* out) {
  out->append(reinterpret_cast<const char*>(s.data()), s.size_bytes());
  out->push_back('|');
}

// What a reference into the tile relies on: its polygons, edges and links.
std::string PolygonsSignature(const TileView& t) {
  std::string sig;
  AppendBytes(t.vertices, &sig);
  AppendBytes(t.poly_start, &sig);
  AppendBytes(t.poly_verts, &sig);
  AppendBytes(t.poly_neighbors, &sig);
  AppendBytes(t.poly_area, &sig);
  AppendBytes(t.poly_flags, &sig);
  AppendBytes(t.cross_links, &sig);
  AppendBytes(t.off_mesh_links, &sig);
  return sig;
}

// The arena with 8 m tiles, prepared for carving.
std::shared_ptr<const CarveBase> PreparedArena() {
  auto prepared = CarveBase::Prepare(testing::CarveArena(8));
  EXPECT_TRUE(prepared.ok()) << prepared.status();
  return *prepared;
}

// Random sequences of adds, moves (an id upserted again elsewhere) and removals, one or several
// per update: every version equals carving its whole obstacle set from the base.
TEST(CarvedLayerTest, IncrementalEqualsFullCarve) {
  const std::shared_ptr<const CarveBase> prepared = PreparedArena();
  const std::shared_ptr<const NavMap>& base = prepared->map();
  NavQuery q(base);
  std::mt19937 rng(29);
  std::vector<Obstacle> pool = RandomObstacles(q, 60, rng, true);
  std::shared_ptr<const CarvedLayer> layer = CarvedLayer::Empty(prepared);
  EXPECT_EQ(layer->map().get(), base.get());
  std::vector<std::string> present;
  int next_id = 0;
  // (tile, generation) -> the polygons it had: a generation never names two different tiles.
  std::map<std::pair<uint32_t, uint32_t>, std::string> seen;
  int generations_moved = 0;
  const auto check_generations = [&](const NavMap& map, const std::string& where) {
    for (const TileView& t : map.tiles()) {
      const auto [it, added] =
          seen.try_emplace({t.index, map.generation(t.index)}, PolygonsSignature(t));
      EXPECT_TRUE(added || it->second == PolygonsSignature(t))
          << where << ": tile " << t.index << " generation " << map.generation(t.index)
          << " reused for different polygons";
      generations_moved += added;
    }
  };
  check_generations(*base, "base");
  for (int step = 0; step < 40; ++step) {
    std::vector<Obstacle> upserts;
    std::vector<std::string> removals;
    const int changes = 1 + int(rng() % 3);
    for (int c = 0; c < changes; ++c) {
      const int kind = int(rng() % 3);
      Obstacle o = pool[rng() % pool.size()];
      if (kind == 0 || present.size() < 3) {  // add
        o.id = "n" + std::to_string(next_id++);
        present.push_back(o.id);
        upserts.push_back(o);
      } else if (kind == 1) {  // move an obstacle of the layer to another obstacle's shape
        o.id = present[rng() % present.size()];
        if (std::find_if(upserts.begin(), upserts.end(),
                         [&](const Obstacle& u) { return u.id == o.id; }) != upserts.end()) {
          continue;
        }
        upserts.push_back(o);
      } else {  // remove one not touched in this update
        const size_t k = rng() % present.size();
        const std::string id = present[k];
        if (std::find_if(upserts.begin(), upserts.end(),
                         [&](const Obstacle& u) { return u.id == id; }) != upserts.end()) {
          continue;
        }
        present.erase(present.begin() + k);
        removals.push_back(id);
      }
    }
    auto next = ApplyObstacleChanges(*layer, upserts, removals);
    ASSERT_TRUE(next.ok()) << next.status();
    layer = *next;
    ASSERT_EQ(layer->obstacle_count(), present.size());
    uint64_t areas = 0;
    for (const Obstacle& o : layer->obstacles()) {
      if (o.effect == ObstacleEffect::kArea) areas |= uint64_t{1} << o.area;
    }
    EXPECT_EQ(layer->obstacle_areas(), areas) << "step " << step;
    auto full = CarveMap(*prepared, layer->obstacles());
    ASSERT_TRUE(full.ok()) << full.status();
    ExpectSameMap(*layer->map(), **full, "step " + std::to_string(step));
    check_generations(*layer->map(), "step " + std::to_string(step));
  }
  EXPECT_GT(generations_moved, int(base->tile_count()));
  // Removing everything gives the base back.
  auto empty = ApplyObstacleChanges(*layer, {}, present);
  ASSERT_TRUE(empty.ok()) << empty.status();
  EXPECT_EQ((*empty)->map().get(), base.get());
}

// A block walking along a row of tiles in half-tile steps, across every seam, while another
// sits on a seam and toggles, on a layer already holding many obstacles: neighbouring tiles are
// re-cut in turn and footprints cross seams. Every version equals the full carve, and only the
// tiles around the changed footprints are rebuilt (the others share the previous version's).
TEST(CarvedLayerTest, IncrementalAcrossSeamsEqualsFullCarve) {
  const std::shared_ptr<const CarveBase> prepared = PreparedArena();
  const std::shared_ptr<const NavMap>& base = prepared->map();
  NavQuery q(base);
  std::mt19937 rng(31);
  std::vector<Obstacle> fill = RandomObstacles(q, 30, rng, true);
  for (Obstacle& o : fill) o.id = "fill-" + o.id;
  auto filled = ApplyObstacleChanges(*CarvedLayer::Empty(prepared), fill, {});
  ASSERT_TRUE(filled.ok()) << filled.status();
  std::shared_ptr<const CarvedLayer> layer = *filled;
  const MapInfo& info = base->info();
  const float size = info.tile_size;
  const float row_z = info.grid_origin.z + 2 * size;  // on a seam between two tile rows
  const float y = base->tile(0).bounds.min.y;
  size_t carved_tiles = 0;
  for (uint32_t t = 0; t < base->tile_count(); ++t) {
    carved_tiles += layer->map()->tile(t).vertices.data() != base->tile(t).vertices.data();
  }
  ASSERT_GT(carved_tiles, 9u);
  int steps = 0;
  for (float x = info.grid_origin.x + 0.5f * size;
       x < info.grid_origin.x + (float(info.grid_width) - 0.5f) * size; x += 0.5f * size) {
    std::vector<Obstacle> upserts = {
        {"walker", BoxShape{{x, y, row_z + 0.3f * size}, {0.6f * size, 2, 0.4f}, 20},
         ObstacleEffect::kBlock, 0}};
    std::vector<std::string> removals;
    const bool seam_present = steps % 2 == 1;
    const Obstacle seam{"seam", CylinderShape{{x, y, row_z}, 0.4f * size, 4}, ObstacleEffect::kArea,
                        5};
    if (seam_present) {
      removals.push_back("seam");
    } else {
      upserts.push_back(seam);
    }
    auto next = ApplyObstacleChanges(*layer, upserts, removals);
    ASSERT_TRUE(next.ok()) << next.status();
    auto full = CarveMap(*prepared, (*next)->obstacles());
    ASSERT_TRUE(full.ok()) << full.status();
    const std::string where = "x " + std::to_string(x);
    ExpectSameMap(*(*next)->map(), **full, where);
    size_t rebuilt = 0;
    for (uint32_t t = 0; t < base->tile_count(); ++t) {
      const bool shared =
          (*next)->map()->tile(t).vertices.data() == layer->map()->tile(t).vertices.data();
      rebuilt += !shared;
      if (shared) {
        EXPECT_EQ((*next)->map()->generation(t), layer->map()->generation(t)) << where;
      }
    }
    EXPECT_LT(rebuilt, carved_tiles) << where;
    layer = *std::move(next);
    ++steps;
  }
  EXPECT_GT(steps, 6);
}

// Whether the plan bounds of base polygon p of tile t meet some footprint's bounds grown by
// `margin` (metres).
bool FootprintMayReach(const TileView& t, uint32_t p, const std::vector<Footprint>& fs,
                       double margin) {
  Aabb box;
  for (uint32_t i = 0; i < t.corner_count(p); ++i) box.Extend(t.corner(p, i));
  for (const Footprint& f : fs) {
    double x0 = INFINITY, x1 = -INFINITY, z0 = INFINITY, z1 = -INFINITY;
    for (const PlanPoint& q : f.outline) {
      x0 = std::min(x0, q.x), x1 = std::max(x1, q.x);
      z0 = std::min(z0, q.z), z1 = std::max(z1, q.z);
    }
    if (box.min.x <= x1 + margin && box.max.x >= x0 - margin && box.min.z <= z1 + margin &&
        box.max.z >= z0 - margin) {
      return true;
    }
  }
  return false;
}

// Every polygon of `carved` whose base polygon no footprint reaches and whose edges got no
// T-junction point is its base polygon: the same corners, detail triangles, area id and flags,
// linked across each edge to the base neighbour or a piece of it. Returns how many such
// polygons lie in tiles carving rebuilt.
size_t ExpectUntouchedAreBase(const NavMap& carved, const NavMap& base,
                              const std::vector<Footprint>& fs, const std::string& where) {
  size_t in_rebuilt = 0;
  for (const TileView& c : carved.tiles()) {
    const TileView& b = base.tile(c.index);
    if (c.vertices.data() == b.vertices.data()) continue;
    for (uint32_t q = 0; q < c.poly_count(); ++q) {
      const uint32_t o = c.poly_origin[q];
      const uint32_t n = b.corner_count(o);
      if (c.corner_count(q) != n || FootprintMayReach(b, o, fs, 0.01)) continue;
      const std::string at = where + ", tile " + std::to_string(c.index) + " poly " +
                             std::to_string(q) + " (base " + std::to_string(o) + ")";
      ++in_rebuilt;
      EXPECT_EQ(c.poly_area[q], b.poly_area[o]) << at;
      EXPECT_EQ(c.poly_flags[q], b.poly_flags[o]) << at;
      const auto cd = c.detail(q), bd = b.detail(o);
      EXPECT_TRUE(cd.size() == bd.size() && std::memcmp(cd.data(), bd.data(), cd.size_bytes()) == 0)
          << at << ": detail triangles";
      for (uint32_t i = 0; i < n; ++i) {
        EXPECT_EQ(c.corner(q, i), b.corner(o, i)) << at << " corner " << i;
        const auto base_nb = b.across(b.poly_start[o] + i);
        const auto nb = c.across(c.poly_start[q] + i);
        EXPECT_EQ(nb.has_value(), base_nb.has_value()) << at << " edge " << i;
        if (!nb || !base_nb) continue;
        EXPECT_EQ(nb->tile, base_nb->tile) << at << " edge " << i;
        // A tile carving left as it is has no origins: its polygons are the base ones.
        const TileView& across = carved.tile(nb->tile);
        const uint32_t origin =
            across.poly_origin.empty() ? nb->poly : across.poly_origin[nb->poly];
        EXPECT_EQ(origin, base_nb->poly) << at << " edge " << i;
      }
    }
  }
  return in_rebuilt;
}

// The digest a carved version gathers from its tiles' parts is the one its tiles give.
void ExpectDigestOfTiles(const NavMap& map, const std::string& where) {
  MapDigest fresh;
  for (const TileView& t : map.tiles()) AddTileToDigest(map.info(), t, &fresh);
  const MapDigest& kept = map.digest();
  EXPECT_EQ(kept.areas_present, fresh.areas_present) << where;
  EXPECT_TRUE(kept.link_cost_per_metre == fresh.link_cost_per_metre) << where;
  ASSERT_EQ(kept.tiles.size(), fresh.tiles.size()) << where;
  for (size_t t = 0; t < kept.tiles.size(); ++t) {
    const TileSummary &a = kept.tiles[t], &b = fresh.tiles[t];
    EXPECT_TRUE(a.grid_x == b.grid_x && a.grid_z == b.grid_z && a.bounds.min == b.bounds.min &&
                a.bounds.max == b.bounds.max && a.poly_count == b.poly_count &&
                a.vertex_count == b.vertex_count && a.area == b.area)
        << where << ", tile " << t;
  }
}

// Splicing (polygons no cut reaches copied from the base tile) on the demo town, whose tiles
// hold hundreds of polygons: random adds, moves and removals; every version equals its full
// carve, and its untouched polygons are their base polygons.
TEST(CarvedLayerTest, SplicedPolygonsEqualBaseOnDemoTown) {
  const std::shared_ptr<const NavMap>& base = testing::Town().map;
  auto prepared = CarveBase::Prepare(base);
  ASSERT_TRUE(prepared.ok()) << prepared.status();
  NavQuery q(base);
  std::mt19937 rng(290);
  const std::vector<Obstacle> pool = RandomObstacles(q, 80, rng, true);
  std::shared_ptr<const CarvedLayer> layer = CarvedLayer::Empty(*prepared);
  std::vector<std::string> present;
  size_t checked = 0;
  for (int step = 0; step < 30; ++step) {
    Obstacle o = pool[rng() % pool.size()];
    std::vector<Obstacle> upserts;
    std::vector<std::string> removals;
    const int kind = int(rng() % 3);
    if (kind == 0 || present.size() < 5) {
      o.id = "s" + std::to_string(step);
      present.push_back(o.id);
      upserts.push_back(o);
    } else if (kind == 1) {
      o.id = present[rng() % present.size()];
      upserts.push_back(o);
    } else {
      const size_t k = rng() % present.size();
      removals.push_back(present[k]);
      present.erase(present.begin() + k);
    }
    auto next = ApplyObstacleChanges(*layer, upserts, removals);
    ASSERT_TRUE(next.ok()) << next.status();
    layer = *std::move(next);
    const std::string where = "step " + std::to_string(step);
    auto full = CarveMap(**prepared, layer->obstacles());
    ASSERT_TRUE(full.ok()) << full.status();
    ExpectSameMap(*layer->map(), **full, where);
    ExpectDigestOfTiles(*layer->map(), where);
    checked += ExpectUntouchedAreBase(*layer->map(), *base,
                                      testing::Footprints(*base, layer->obstacles()), where);
  }
  EXPECT_GT(checked, 1000u);
}

// Two obstacles with the same footprint (a move onto another obstacle's place): edges on the
// same line must not be crossed by it (this gave NaN corners).
TEST(CarveMapTest, IdenticalFootprintsCarveOnce) {
  const auto base = testing::CarveArena(8);
  NavQuery q(base);
  std::mt19937 rng(11);
  const std::vector<Obstacle> pool = RandomObstacles(q, 20, rng, false);
  for (const Obstacle& o : pool) {
    Obstacle twin = o;
    twin.id += "-twin";
    const std::vector<Obstacle> one{o}, two{o, twin};
    auto single = CarveMap(base, one);
    auto twice = CarveMap(base, two);
    ASSERT_TRUE(single.ok() && twice.ok());
    ASSERT_TRUE(std::isfinite((*twice)->info().walkable_area)) << o.id;
    EXPECT_NEAR((*twice)->info().walkable_area, (*single)->info().walkable_area, 1e-3) << o.id;
    ExpectSound(*twice);
  }
}

// Whether polygon p of t holds (x, z) in plan view, within `slack` metres.
bool PolygonHoldsInPlan(const TileView& t, uint32_t p, Vec3 v, double slack) {
  for (uint32_t i = 0, n = t.corner_count(p); i < n; ++i) {
    const Vec3 a = t.corner(p, i), b = t.corner(p, (i + 1) % n);
    const double len = std::hypot(double(b.x) - a.x, double(b.z) - a.z);
    const double side =
        (double(b.x) - a.x) * (double(v.z) - a.z) - (double(v.x) - a.x) * (double(b.z) - a.z);
    if (side / len < -slack) return false;
  }
  return true;
}

// An off-mesh link whose start polygon is cut moves to the piece under its start; a link whose
// end is under a block is dropped.
TEST(CarveMapTest, OffMeshLinksFollowPiecesOrDrop) {
  const auto [verts, polys] = testing::GridPolygons(4, 1, 4.0f);
  const std::vector<testing::HandLink> links{{{2, 0, 2}, {14, 0, 2}, 0, 3, 1.0f}};
  const auto base = testing::BuildHandMap(verts, polys, links);
  ASSERT_EQ(base->tile(0).off_mesh_links.size(), 1u);
  // A crate in the first cell beside the link's start: that cell is cut into pieces.
  std::vector<Obstacle> obstacles{
      {"crate", CylinderShape{{3.0f, 0, 3.0f}, 0.3f, 2}, ObstacleEffect::kBlock, 0}};
  auto carved = CarveMap(base, obstacles);
  ASSERT_TRUE(carved.ok()) << carved.status();
  const TileView& t = (*carved)->tile(0);
  ASSERT_GT(t.poly_count(), base->tile(0).poly_count());
  ASSERT_EQ(t.off_mesh_links.size(), 1u);
  const OffMeshLink& l = t.off_mesh_links[0];
  EXPECT_EQ(t.poly_origin[l.start_poly], 0u);
  EXPECT_TRUE(PolygonHoldsInPlan(t, l.start_poly, l.start, 1e-4));
  EXPECT_TRUE(PolygonHoldsInPlan((*carved)->tile(l.end_tile), l.end_poly, l.end, 1e-4));
  // A lid over the link's end: the link is gone.
  obstacles.push_back({"lid", CylinderShape{{14, 0, 2}, 0.5f, 2}, ObstacleEffect::kBlock, 0});
  carved = CarveMap(base, obstacles);
  ASSERT_TRUE(carved.ok()) << carved.status();
  EXPECT_TRUE((*carved)->tile(0).off_mesh_links.empty());
  EXPECT_EQ((*carved)->info().off_mesh_link_count, 0u);
}

TEST(CarvedLayerTest, BadUpdatesNamed) {
  auto prepared = CarveBase::Prepare(testing::CarveArena(8));
  ASSERT_TRUE(prepared.ok());
  const auto layer = CarvedLayer::Empty(*prepared);
  const Obstacle crate{"crate", CylinderShape{{10, 0, 10}, 1, 2}, ObstacleEffect::kBlock, 0};
  const std::vector<std::string> unknown{"ghost"};
  auto r = ApplyObstacleChanges(*layer, {}, unknown);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kNotFound);
  EXPECT_NE(r.status().message().find("ghost"), std::string::npos);
  const std::vector<Obstacle> twice{crate, crate};
  r = ApplyObstacleChanges(*layer, twice, {});
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find("crate"), std::string::npos);
  Obstacle bad = crate;
  bad.shape = CylinderShape{{10, 0, 10}, -1, 2};
  r = ApplyObstacleChanges(*layer, std::vector<Obstacle>{bad}, {});
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace waymesh
