// Paged maps (tiles from a TileSource on demand) answer exactly like the same map resident,
// release every tile when a call returns, and treat a tile that cannot be loaded as a wall or
// an Unavailable error, never as memory to read.

#include <atomic>
#include <memory>
#include <random>
#include <set>
#include <vector>

#include "gtest/gtest.h"
#include "polyanya_data.h"
#include "support/map_builder.h"
#include "support/query_points.h"
#include "support/test_data.h"
#include "waymesh/core/dead_end_table.h"
#include "waymesh/core/landmark_table.h"
#include "waymesh/core/nav_query.h"
#include "waymesh/core/search_tables.h"
#include "waymesh/core/tile_source.h"

namespace waymesh {
namespace {

// Serves the tiles of a resident map, counting the pins alive and failing chosen tiles.
class CountingSource : public TileSource {
 public:
  explicit CountingSource(std::shared_ptr<const NavMap> resident)
      : resident_(std::move(resident)) {}

  std::shared_ptr<const TileView> Acquire(uint32_t index) const override {
    ++acquired_;
    if (failing_.contains(index)) return nullptr;
    ++alive_;
    // The deleter only counts: the view points into the resident map, which outlives it.
    return std::shared_ptr<const TileView>(&resident_->tile(index),
                                           [this](const TileView*) { --alive_; });
  }

  void Fail(uint32_t tile) { failing_.insert(tile); }
  int alive() const { return alive_; }
  int acquired() const { return acquired_; }

 private:
  std::shared_ptr<const NavMap> resident_;
  std::set<uint32_t> failing_;
  mutable std::atomic<int> alive_{0};
  mutable std::atomic<int> acquired_{0};
};

struct PagedFixture {
  std::shared_ptr<const NavMap> resident;
  std::shared_ptr<CountingSource> source;
  std::shared_ptr<const NavMap> paged;
};

PagedFixture MakePaged() {
  RepairOptions options;
  options.tile_size = 64;
  auto resident = testing::CachedMapFromFile(
      testing::SharedData("polyanya/meshes/aurora-merged.mesh"), options);
  EXPECT_TRUE(resident.ok()) << resident.status();
  if (!resident.ok()) return {};
  PagedFixture f;
  f.resident = *resident;
  f.source = std::make_shared<CountingSource>(f.resident);
  f.paged = std::make_shared<const NavMap>(f.resident->info(), f.resident->digest(), f.source);
  return f;
}

std::vector<testing::ExpectedQuery> Queries(size_t count) {
  auto all = testing::ReadExpectedFile(
      testing::SharedData("polyanya/expected/aurora_euclid_expected.csv"));
  if (all.size() > count) all.resize(count);
  return all;
}

TEST(PagedMapTest, AnswersEqualTheResidentMapAndEveryCallReleasesItsTiles) {
  PagedFixture f = MakePaged();
  ASSERT_NE(f.paged, nullptr);
  ASSERT_GT(f.paged->tile_count(), 16u);
  EXPECT_TRUE(f.paged->paged());
  EXPECT_EQ(f.paged->search_tables(), nullptr);
  NavQueryOptions bare;  // the paged map has neither: same heuristic, same search
  bare.landmarks = false;
  bare.dead_ends = false;
  NavQuery resident(f.resident, bare);
  NavQuery paged(f.paged);
  PathOptions po;
  po.half_extents = {0.5f, 1, 0.5f};
  const QueryFilter filter;
  PathResult pr, pp;
  RaycastResult rr, rp;
  MoveResult mr, mp;
  WallDistance wr, wp;
  PolygonsInCircle cr, cp;
  const auto queries = Queries(200);
  ASSERT_GE(queries.size(), 100u);
  for (size_t i = 0; i < queries.size(); ++i) {
    const auto& q = queries[i];
    ASSERT_TRUE(resident.FindPath(q.start, q.goal, filter, po, &pr).ok());
    ASSERT_TRUE(paged.FindPath(q.start, q.goal, filter, po, &pp).ok());
    EXPECT_EQ(pp.status, pr.status) << i;
    EXPECT_EQ(pp.length, pr.length) << i;
    EXPECT_EQ(pp.corridor, pr.corridor) << i;
    EXPECT_EQ(f.source->alive(), 0) << "tiles still pinned after FindPath " << i;

    ASSERT_TRUE(resident.Raycast(q.start, q.goal, filter, po.half_extents, &rr).ok());
    ASSERT_TRUE(paged.Raycast(q.start, q.goal, filter, po.half_extents, &rp).ok());
    EXPECT_EQ(rp.hit, rr.hit) << i;
    EXPECT_EQ(rp.t, rr.t) << i;
    EXPECT_EQ(rp.polys, rr.polys) << i;

    const Vec3 target = Lerp(q.start, q.goal, 0.2f);
    ASSERT_TRUE(resident.MoveAlongSurface(q.start, target, filter, po.half_extents, &mr).ok());
    ASSERT_TRUE(paged.MoveAlongSurface(q.start, target, filter, po.half_extents, &mp).ok());
    EXPECT_EQ(mp.pos, mr.pos) << i;
    EXPECT_EQ(mp.visited, mr.visited) << i;

    std::mt19937_64 g1(i), g2(i);
    const auto a = testing::RandomOnMap(resident, filter, g1);
    const auto b = testing::RandomOnMap(paged, filter, g2);
    ASSERT_TRUE(a && b);
    EXPECT_EQ(a->pos, b->pos) << i;
    EXPECT_EQ(a->poly, b->poly) << i;

    const auto near = testing::Nearest(paged, q.start, po.half_extents, filter);
    ASSERT_TRUE(near.has_value()) << i;
    std::mt19937_64 g3(i), g4(i);
    const auto ca = testing::RandomInCircle(resident, *near, 30, filter, g3);
    const auto cb = testing::RandomInCircle(paged, *near, 30, filter, g4);
    ASSERT_TRUE(ca && cb);
    EXPECT_EQ(ca->pos, cb->pos) << i;

    ASSERT_TRUE(resident.FindDistanceToWall(*near, 20, filter, &wr).ok());
    ASSERT_TRUE(paged.FindDistanceToWall(*near, 20, filter, &wp).ok());
    EXPECT_EQ(wp.distance, wr.distance) << i;
    EXPECT_EQ(wp.hit_point, wr.hit_point) << i;
    ASSERT_TRUE(resident.FindPolygonsInCircle(*near, 30, filter, 500, &cr).ok());
    ASSERT_TRUE(paged.FindPolygonsInCircle(*near, 30, filter, 500, &cp).ok());
    ASSERT_EQ(cp.polygons.size(), cr.polygons.size()) << i;
    for (size_t k = 0; k < cr.polygons.size(); ++k) {
      EXPECT_EQ(cp.polygons[k].poly, cr.polygons[k].poly) << i;
      EXPECT_EQ(cp.polygons[k].cost, cr.polygons[k].cost) << i;
    }
    EXPECT_EQ(f.source->alive(), 0) << "tiles still pinned after query " << i;
  }
  // Tiles are asked for once per call that reaches them, not once per polygon visited.
  EXPECT_LT(f.source->acquired(), int(queries.size()) * 200);
}

TEST(PagedMapTest, WithTheResidentTablesPathsEqualTheResidentMapsPaths) {
  PagedFixture f = MakePaged();
  ASSERT_NE(f.paged, nullptr);
  // The tables are built from the resident map, as the server does before it pages a map out.
  auto tables = std::make_shared<const SearchTables>(SearchTables::Build(*f.resident));
  ASSERT_FALSE(tables->landmarks.empty());
  ASSERT_FALSE(tables->dead_ends.empty());
  auto paged = std::make_shared<const NavMap>(*f.paged, tables);
  NavQuery resident(f.resident);
  NavQuery q(paged);
  PathOptions po;
  po.half_extents = {0.5f, 1, 0.5f};
  PathResult pr, pp;
  const auto queries = Queries(200);
  for (size_t i = 0; i < queries.size(); ++i) {
    ASSERT_TRUE(resident.FindPath(queries[i].start, queries[i].goal, QueryFilter(), po, &pr).ok());
    ASSERT_TRUE(q.FindPath(queries[i].start, queries[i].goal, QueryFilter(), po, &pp).ok());
    EXPECT_EQ(pp.length, pr.length) << i;
    EXPECT_EQ(pp.nodes_expanded, pr.nodes_expanded) << i;
  }
  EXPECT_EQ(f.source->alive(), 0);
}

TEST(PagedMapTest, ATileThatCannotBeLoadedIsAWallNotACrash) {
  PagedFixture f = MakePaged();
  ASSERT_NE(f.paged, nullptr);
  NavQuery resident(f.resident);
  const auto queries = Queries(300);
  // Break the tile that the most long paths cross.
  PathOptions po;
  po.half_extents = {0.5f, 1, 0.5f};
  PathResult path;
  std::vector<int> crossings(f.resident->tile_count(), 0);
  for (const auto& q : queries) {
    ASSERT_TRUE(resident.FindPath(q.start, q.goal, QueryFilter(), po, &path).ok());
    std::set<uint32_t> tiles;
    for (PolyRef r : path.corridor) tiles.insert(r.tile());
    for (uint32_t t : tiles) ++crossings[t];
  }
  const uint32_t broken =
      uint32_t(std::max_element(crossings.begin(), crossings.end()) - crossings.begin());
  ASSERT_GT(crossings[broken], 0);
  f.source->Fail(broken);

  NavQuery paged(f.paged);
  RaycastResult ray;
  MoveResult move;
  WallDistance wall;
  PolygonsInCircle circle;
  int unavailable = 0, circle_unavailable = 0;
  for (const auto& q : queries) {
    const absl::Status s = paged.FindPath(q.start, q.goal, QueryFilter(), po, &path);
    if (!s.ok()) {
      EXPECT_EQ(s.code(), absl::StatusCode::kUnavailable) << s;
      ++unavailable;
    } else {
      for (PolyRef r : path.corridor) EXPECT_NE(r.tile(), broken);
    }
    const absl::Status r = paged.Raycast(q.start, q.goal, QueryFilter(), po.half_extents, &ray);
    EXPECT_TRUE(r.ok() || r.code() == absl::StatusCode::kUnavailable) << r;
    const absl::Status m =
        paged.MoveAlongSurface(q.start, q.goal, QueryFilter(), po.half_extents, &move);
    EXPECT_TRUE(m.ok() || m.code() == absl::StatusCode::kUnavailable) << m;
    const absl::Status w =
        paged.FindDistanceToWall(q.start, 60, QueryFilter(), po.half_extents, &wall);
    EXPECT_TRUE(w.ok() || w.code() == absl::StatusCode::kUnavailable) << w;
    circle_unavailable += w.code() == absl::StatusCode::kUnavailable;
    const absl::Status c =
        paged.FindPolygonsInCircle(q.start, 60, QueryFilter(), 5000, po.half_extents, &circle);
    EXPECT_TRUE(c.ok() || c.code() == absl::StatusCode::kUnavailable) << c;
    circle_unavailable += c.code() == absl::StatusCode::kUnavailable;
    EXPECT_EQ(f.source->alive(), 0);
  }
  EXPECT_GT(unavailable, 0) << "no query reached the broken tile " << broken;
  EXPECT_GT(circle_unavailable, 0) << "no circle reached the broken tile " << broken;
  // A reference into the broken tile is refused with a clear error.
  SurfacePoint inside{f.paged->Ref({broken, 0}), f.resident->tile(broken).corner(0, 0)};
  const absl::Status s = paged.FindPath(inside, inside, QueryFilter(), po, &path);
  EXPECT_EQ(s.code(), absl::StatusCode::kUnavailable) << s;
}

}  // namespace
}  // namespace waymesh
