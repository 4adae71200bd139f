// Raycast, MoveAlongSurface, RandomPoint, Height and FindNearest against brute force over the
// source polygons (or the whole map) on random inputs.

#include <cmath>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "mesh_oracle.h"
#include "support/demo_town.h"
#include "support/map_builder.h"
#include "support/query_points.h"
#include "support/test_data.h"
#include "waymesh/core/nav_query.h"
#include "waymesh/import/importers.h"

namespace waymesh {
namespace {

using testing::MeshOracle;

struct Loaded {
  std::shared_ptr<const NavMap> map;
  SourceMesh source;
};

Loaded Load(const std::string& rel, bool merge) {
  RepairOptions options;
  options.merge = merge;
  auto map = testing::CachedMapFromFile(testing::SharedData(rel), options);
  EXPECT_TRUE(map.ok()) << map.status();
  auto source = ImportFile(testing::SharedData(rel));
  EXPECT_TRUE(source.ok()) << source.status();
  return {map.ok() ? *map : nullptr, source.ok() ? *std::move(source) : SourceMesh{}};
}

// aurora (merged polygons kept), a query on it and the brute-force oracle over its source
// polygons: where rays and moves are checked.
class AuroraOracleTest : public ::testing::Test {
 protected:
  void SetUp() override {
    loaded_ = Load("polyanya/meshes/aurora-merged.mesh", false);
    ASSERT_TRUE(loaded_.map);
    oracle_.emplace(loaded_.source);
    query_.emplace(loaded_.map);
  }

  Loaded loaded_;
  std::optional<MeshOracle> oracle_;
  std::optional<NavQuery> query_;
};

class RaycastPropertyTest : public AuroraOracleTest {};
class MoveAlongSurfacePropertyTest : public AuroraOracleTest {};

// A segment from a surface point to an end in plan view (y = 0).
struct Segment {
  SurfacePoint start;
  Vec3 end;
  float length;
};

// Random segments: starts uniform over the surface, a uniform direction and a length uniform in
// [min_length, max_length).
class SegmentSampler {
 public:
  SegmentSampler(uint64_t seed, float min_length, float max_length)
      : rng_(seed), length_(min_length, max_length) {}

  // nullopt when no surface point could be drawn.
  std::optional<Segment> Next(NavQuery& q) {
    const auto start = testing::RandomOnMap(q, QueryFilter(), rng_);
    if (!start) return std::nullopt;
    const float a = angle_(rng_), len = length_(rng_);
    const Vec3 end{start->pos.x + len * std::cos(a), 0, start->pos.z + len * std::sin(a)};
    return Segment{*start, end, len};
  }

 private:
  std::mt19937_64 rng_;
  std::uniform_real_distribution<float> angle_{0, 6.2831853f};
  std::uniform_real_distribution<float> length_;
};

// Plan-view containment in a map polygon (brute force, independent of the query code).
bool InMapPoly(const TileView& t, uint32_t p, float x, float z, float* signed_dist) {
  const uint32_t n = t.corner_count(p);
  float worst = INFINITY;
  for (uint32_t i = 0; i < n; ++i) {
    const Vec3 a = t.corner(p, i), b = t.corner(p, (i + 1) % n);
    const float len = std::hypot(b.x - a.x, b.z - a.z);
    if (len == 0) continue;
    worst = std::min(worst, TriArea2XZ(a, b, {x, 0, z}) / len);
  }
  *signed_dist = worst;  // > 0 inside, < 0 outside
  return worst >= 0;
}

// Height of map polygon p at (x, z) from its detail triangles (brute force).
float MapPolyHeight(const TileView& t, uint32_t p, float x, float z) {
  float best_y = 0, best_out = INFINITY;
  for (const DetailTri& d : t.detail(p)) {
    const Vec3 a = t.corner(p, d.a), b = t.corner(p, d.b), c = t.corner(p, d.c);
    const double det = double(b.x - a.x) * (c.z - a.z) - double(c.x - a.x) * (b.z - a.z);
    if (det == 0) continue;
    const double u = (double(x - a.x) * (c.z - a.z) - double(c.x - a.x) * (z - a.z)) / det;
    const double v = (double(b.x - a.x) * (z - a.z) - double(x - a.x) * (b.z - a.z)) / det;
    const double w = 1 - u - v;
    const float out = float(-std::min({u, v, w}));
    if (out < best_out) {
      best_out = out;
      best_y = float(w * a.y + u * b.y + v * c.y);
    }
  }
  return best_y;
}

TEST_F(RaycastPropertyTest, FirstWallMatchesBruteForceOnSourceObstacles) {
  SegmentSampler segments(21, 1, 80);
  RaycastResult r;
  int hits = 0, clear = 0, compared = 0;
  for (int i = 0; i < 1500; ++i) {
    const std::optional<Segment> seg = segments.Next(*query_);
    ASSERT_TRUE(seg);
    const auto& [s, end, len] = *seg;
    ASSERT_TRUE(query_->Raycast(s, end, QueryFilter(), &r).ok());
    bool graze = false;
    const auto brute = oracle_->FirstObstacleHit(s.pos, end, 1e-3f, &graze);
    if (graze || (brute && *brute * len < 1e-3)) continue;  // ambiguous: touches a corner
    ++compared;
    if (!brute) {
      EXPECT_FALSE(r.hit) << "ray " << i << " hit at t=" << r.t << " in open space";
      ++clear;
      continue;
    }
    ASSERT_TRUE(r.hit) << "ray " << i << " missed the wall at t=" << *brute;
    EXPECT_NEAR(r.t * len, *brute * len, 2e-3) << "ray " << i;
    EXPECT_NEAR(std::hypot(r.normal.x, r.normal.z), 1.0, 1e-4);
    // The normal faces back towards the start.
    EXPECT_LT(r.normal.x * (end.x - s.pos.x) + r.normal.z * (end.z - s.pos.z), 0) << i;
    EXPECT_EQ(r.polys.front(), s.poly);
    ++hits;
  }
  EXPECT_GT(compared, 1200);
  EXPECT_GT(hits, 100);
  EXPECT_GT(clear, 100);
}

TEST_F(MoveAlongSurfacePropertyTest, ReachesTargetWhenClearAndNeverBeatsWalls) {
  SegmentSampler segments(22, 0.5f, 12);
  RaycastResult ray;
  MoveResult mv;
  int blocked = 0;
  for (int i = 0; i < 1500; ++i) {
    const std::optional<Segment> seg = segments.Next(*query_);
    ASSERT_TRUE(seg);
    const auto& [s, end, len] = *seg;
    ASSERT_TRUE(query_->MoveAlongSurface(s, end, QueryFilter(), &mv).ok());
    ASSERT_TRUE(query_->Raycast(s, end, QueryFilter(), &ray).ok());
    ASSERT_EQ(mv.status, QueryStatus::kComplete);
    EXPECT_TRUE(oracle_->Covered(mv.pos, 2e-3f, 1e-3f)) << "move " << i << " ends off the mesh";
    ASSERT_FALSE(mv.visited.empty());
    EXPECT_EQ(mv.visited.front(), s.poly);
    EXPECT_EQ(mv.visited.back(), mv.poly);
    if (!ray.hit) {
      EXPECT_FALSE(mv.blocked) << i;
      EXPECT_NEAR(mv.pos.x, end.x, 1e-3) << i;
      EXPECT_NEAR(mv.pos.z, end.z, 1e-3) << i;
    } else {
      // The wall point the ray reached is reachable, so sliding gets at least as close.
      EXPECT_LE(DistanceXZ(mv.pos, end), DistanceXZ(ray.hit_point, end) + 1e-3) << i;
      // Never further from the start than the move allows.
      EXPECT_LE(DistanceXZ(mv.pos, s.pos), len + 1e-3) << i;
      blocked += mv.blocked;
    }
  }
  EXPECT_GT(blocked, 50);
}

// Chi-square over polygons: draws per polygon against the polygon's share of the area,
// computed here from the corners (2D mesh: plan area is surface area).
TEST(RandomPointPropertyTest, UniformByAreaOverPolygons) {
  Loaded m = Load("polyanya/meshes/arena-merged.mesh", false);
  ASSERT_TRUE(m.map);
  const MeshOracle oracle(m.source);
  NavQuery q(m.map);
  std::map<std::pair<uint32_t, uint32_t>, double> area;
  double total = 0;
  for (const TileView& t : m.map->tiles()) {
    for (uint32_t p = 0; p < t.poly_count(); ++p) {
      double a2 = 0;
      for (uint32_t i = 1; i + 1 < t.corner_count(p); ++i) {
        a2 += TriArea2XZ(t.corner(p, 0), t.corner(p, i), t.corner(p, i + 1));
      }
      area[{t.index, p}] = 0.5 * a2;
      total += 0.5 * a2;
    }
  }
  std::mt19937_64 rng(23);
  constexpr int kDraws = 40000;
  std::map<std::pair<uint32_t, uint32_t>, int> count;
  for (int i = 0; i < kDraws; ++i) {
    auto p = testing::RandomOnMap(q, QueryFilter(), rng);
    ASSERT_TRUE(p);
    const TileView& t = m.map->tile(p->poly.tile());
    float d;
    InMapPoly(t, p->poly.poly(), p->pos.x, p->pos.z, &d);
    ASSERT_GE(d, -1e-4) << "point outside its polygon";
    ASSERT_TRUE(oracle.Covered(p->pos, 1e-4f, 1e-4f));
    count[{p->poly.tile(), p->poly.poly()}]++;
  }
  double chi2 = 0;
  for (const auto& [key, a] : area) {
    const double expected = kDraws * a / total;
    const double diff = count[key] - expected;
    chi2 += diff * diff / expected;
  }
  const double dof = double(area.size() - 1);
  // Mean dof, sd sqrt(2 dof): six standard deviations is p < 1e-6 for a fixed seed.
  EXPECT_LT(chi2, dof + 6 * std::sqrt(2 * dof)) << "chi2 " << chi2 << " dof " << dof;
  // And it is not suspiciously perfect either (a sampler ignoring randomness).
  EXPECT_GT(chi2, dof - 6 * std::sqrt(2 * dof));
}

TEST(RandomPointPropertyTest, IslandDrawsStayOnTheIslandAndFiltersAreHonoured) {
  auto map = testing::CachedMapFromFile(testing::SharedData("unity/lear315/LayaNavMesh.obj"));
  ASSERT_TRUE(map.ok()) << map.status();
  NavQuery q(*map);
  std::mt19937_64 rng(24);
  const auto& islands = (*map)->info().islands;
  ASSERT_GT(islands.size(), 1u);
  for (uint32_t island = 0; island < islands.size(); ++island) {
    for (int i = 0; i < 50; ++i) {
      auto p = testing::RandomOnIsland(q, island, QueryFilter(), rng);
      ASSERT_TRUE(p);
      EXPECT_EQ((*map)->tile(p->poly.tile()).poly_island[p->poly.poly()], island);
    }
  }
  EXPECT_EQ(q.RandomPointOnIsland(uint32_t(islands.size()), QueryFilter(), rng).status().code(),
            absl::StatusCode::kInvalidArgument);
  QueryFilter none;
  none.set_area_mask(0);
  EXPECT_FALSE(testing::RandomOnMap(q, none, rng));
  QueryFilter excluded;
  excluded.set_exclude_flags(QueryFilter::kAllFlags);
  EXPECT_FALSE(testing::RandomOnMap(q, excluded, rng));
}

TEST(HeightPropertyTest, MatchesBruteForceOverAllPolygons) {
  for (const char* rel : {"unity/1100.navmesh", "unity/lear315/LayaNavMesh.obj"}) {
    auto map = testing::CachedMapFromFile(testing::SharedData(rel));
    ASSERT_TRUE(map.ok()) << map.status();
    NavQuery q(*map);
    const Aabb b = (*map)->info().bounds;
    std::mt19937_64 rng(25);
    std::uniform_real_distribution<float> ux(b.min.x, b.max.x), uz(b.min.z, b.max.z),
        uy(b.min.y - 1, b.max.y + 1);
    int covered = 0, compared = 0;
    for (int i = 0; i < 3000; ++i) {
      const float x = ux(rng), z = uz(rng), hint = uy(rng);
      std::optional<float> brute;
      bool ambiguous = false;
      for (const TileView& t : (*map)->tiles()) {
        for (uint32_t p = 0; p < t.poly_count(); ++p) {
          float d;
          InMapPoly(t, p, x, z, &d);
          if (std::fabs(d) < 1e-3f) ambiguous = true;
          if (d < 0) continue;
          const float y = MapPolyHeight(t, p, x, z);
          if (!brute || std::fabs(y - hint) < std::fabs(*brute - hint)) brute = y;
        }
      }
      if (ambiguous) continue;
      ++compared;
      const auto h = testing::HeightAt(q, x, z, hint);
      ASSERT_EQ(h.has_value(), brute.has_value()) << rel << " at " << x << ", " << z;
      if (!h) continue;
      ++covered;
      EXPECT_NEAR(h->pos.y, *brute, 1e-3) << rel << " at " << x << ", " << z;
    }
    EXPECT_GT(compared, 2500);
    EXPECT_GT(covered, 300);
  }
}

TEST(FindNearestPropertyTest, NoAcceptedPolygonIsCloserAndTheAnswerIsOnTheSurface) {
  auto map = testing::CachedMapFromFile(testing::SharedData("unity/1100.navmesh"));
  ASSERT_TRUE(map.ok()) << map.status();
  NavQuery q(*map);
  std::mt19937_64 rng(26);
  std::uniform_real_distribution<float> off(-3, 3), offy(-2, 2);
  const Vec3 ext{2, 1.5f, 2};
  int found = 0;
  for (int i = 0; i < 1500; ++i) {
    auto base = testing::RandomOnMap(q, QueryFilter(), rng);
    ASSERT_TRUE(base);
    const Vec3 pos = base->pos + Vec3{off(rng), offy(rng), off(rng)};
    const auto n = testing::Nearest(q, pos, ext, QueryFilter());
    // Brute force: closest surface point over polygons whose box meets the query box.
    const Aabb box{pos - ext, pos + ext};
    float brute = INFINITY;
    for (const TileView& t : (*map)->tiles()) {
      for (uint32_t p = 0; p < t.poly_count(); ++p) {
        Aabb pb;
        for (uint32_t c = 0; c < t.corner_count(p); ++c) pb.Extend(t.corner(p, c));
        if (!pb.Overlaps(box)) continue;
        auto c = q.ClosestPointOnPoly(q.map().Ref({t.index, p}), pos);
        ASSERT_TRUE(c.ok());
        if (std::fabs(c->y - pos.y) > ext.y) continue;
        brute = std::min(brute, Distance(*c, pos));
      }
    }
    if (!n) {
      EXPECT_FALSE(std::isfinite(brute)) << i << ": missed a polygon at distance " << brute;
      continue;
    }
    ++found;
    EXPECT_LE(Distance(n->pos, pos), brute + 1e-4) << i;
    // The answer lies on its polygon's surface.
    auto on = q.ClosestPointOnPoly(n->poly, n->pos);
    ASSERT_TRUE(on.ok());
    EXPECT_LT(Distance(*on, n->pos), 1e-3) << i;
  }
  EXPECT_GT(found, 1000);
}

// Most lookups are of points already on the surface, which FindNearest answers from the
// polygons under the point alone: on maps with bridges over roads and ramps over floors, every
// such point must come back as itself, on a polygon that really holds it.
TEST(FindNearestPropertyTest, PointsOnTheSurfaceComeBackAsThemselves) {
  auto unity = testing::CachedMapFromFile(testing::SharedData("unity/1100.navmesh"));
  ASSERT_TRUE(unity.ok()) << unity.status();
  for (const std::shared_ptr<const NavMap>& map : {testing::Town().map, *unity}) {
    NavQuery q(map);
    std::mt19937_64 rng(27);
    for (int i = 0; i < 2000; ++i) {
      const auto on = testing::RandomOnMap(q, QueryFilter(), rng);
      ASSERT_TRUE(on);
      const auto n = testing::Nearest(q, on->pos, {2, 4, 2}, QueryFilter());
      ASSERT_TRUE(n) << i;
      EXPECT_LE(Distance(n->pos, on->pos), 2e-4f) << i;
      // Brute force: the answer's polygon holds the point (plan view) at that height.
      const TileView& t = map->tile(n->poly.tile());
      float inside;
      InMapPoly(t, n->poly.poly(), on->pos.x, on->pos.z, &inside);
      EXPECT_GE(inside, -1e-3f) << i;
      EXPECT_NEAR(MapPolyHeight(t, n->poly.poly(), on->pos.x, on->pos.z), on->pos.y, 1e-3f) << i;
    }
  }
}

}  // namespace
}  // namespace waymesh
