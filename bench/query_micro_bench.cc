// Micro-benchmarks of the query core's hot loops on real maps: nearest polygon, A* + funnel,
// raycast, move along surface, random point, height. Maps are built through the real pipeline
// once per process. Run: query_micro_bench [--benchmark_filter=...].

#include <benchmark/benchmark.h>

#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "waymesh/core/nav_query.h"
#include "waymesh/format/map_file.h"
#include "waymesh/import/importers.h"
#include "waymesh/repair/repair.h"

namespace waymesh {
namespace {

std::string Data(const std::string& rel) { return std::string(WAYMESH_SHARED_DATA) + "/" + rel; }

std::shared_ptr<const NavMap> Build(const std::string& rel, bool merge) {
  static auto* cache = new std::map<std::pair<std::string, bool>, std::shared_ptr<const NavMap>>();
  auto& slot = (*cache)[{rel, merge}];
  if (slot) return slot;
  absl::StatusOr<SourceMesh> source = ImportFile(Data(rel));
  RepairOptions options;
  options.merge = merge;
  RepairReport report;
  absl::StatusOr<RepairedMesh> repaired =
      source.ok() ? RepairMeshes(std::span<const SourceMesh>(&*source, 1), options, &report)
                  : absl::StatusOr<RepairedMesh>(source.status());
  absl::StatusOr<std::string> bytes =
      repaired.ok() ? CompileMap(*repaired) : absl::StatusOr<std::string>(repaired.status());
  absl::StatusOr<std::shared_ptr<const NavMap>> map =
      bytes.ok() ? LoadMap(std::make_shared<const std::string>(*std::move(bytes)))
                 : absl::StatusOr<std::shared_ptr<const NavMap>>(bytes.status());
  if (!map.ok()) {
    std::cerr << rel << ": " << map.status() << "\n";
    std::abort();  // benchmark setup, not library code
  }
  slot = *map;
  return slot;
}

struct Pair {
  Vec3 start, goal;
};

// Query pairs of a Polyanya expected-length file (2D: y -> z).
std::vector<Pair> PolyanyaPairs(const std::string& rel) {
  std::ifstream in(Data(rel));
  std::vector<Pair> pairs;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream s(line);
    float sx, sy, gx, gy;
    if (s >> sx >> sy >> gx >> gy) pairs.push_back({{sx, 0, sy}, {gx, 0, gy}});
  }
  return pairs;
}

// Random pairs of surface points on one map.
std::vector<Pair> RandomPairs(NavQuery& q, int count) {
  std::mt19937_64 rng(42);
  std::vector<Pair> pairs;
  for (int i = 0; i < count; ++i) {
    auto a = q.RandomPoint(QueryFilter(), rng);
    auto b = q.RandomPoint(QueryFilter(), rng);
    if (a.ok() && b.ok() && *a && *b) pairs.push_back({(*a)->pos, (*b)->pos});
  }
  return pairs;
}

// Points `offset` away from random surface points: {0, 0, 0} is the common case of a point on
// the surface (answered from the polygons under it), others search the whole box.
void BM_NearestPoint(benchmark::State& state, std::string rel, bool merge, Vec3 offset) {
  NavQuery q(Build(rel, merge));
  const std::vector<Pair> pairs = RandomPairs(q, 1024);
  const QueryFilter filter;
  size_t i = 0;
  for (auto _ : state) {
    const Pair& p = pairs[i++ % pairs.size()];
    benchmark::DoNotOptimize(q.NearestPoint(p.start + offset, {2, 4, 2}, filter));
  }
}

void RunPaths(benchmark::State& state, NavQuery& q, const std::vector<Pair>& pairs) {
  const QueryFilter filter(q.map().info());
  PathOptions options;
  options.half_extents = {1, 4, 1};
  PathResult r;
  size_t i = 0;
  uint64_t nodes = 0;
  for (auto _ : state) {
    const Pair& p = pairs[i++ % pairs.size()];
    benchmark::DoNotOptimize(q.FindPath(p.start, p.goal, filter, options, &r));
    nodes += r.nodes_expanded;
  }
  state.counters["nodes"] = benchmark::Counter(double(nodes) / double(i));
}

void BM_FindPathPolyanya(benchmark::State& state, std::string mesh, std::string expected,
                         bool merge) {
  NavQuery q(Build(mesh, merge));
  RunPaths(state, q, PolyanyaPairs(expected));
}

void BM_FindPathRandom(benchmark::State& state, std::string rel, bool merge) {
  NavQuery q(Build(rel, merge));
  RunPaths(state, q, RandomPairs(q, 512));
}

// Runs `query(q, start, pair)` over random pairs, `start` being the pair's start put on the
// surface: the queries that begin at a known surface point (raycast, move along surface).
template <typename Query>
void RunFromSurface(benchmark::State& state, const std::string& rel, bool merge, Query query) {
  NavQuery q(Build(rel, merge));
  const std::vector<Pair> pairs = RandomPairs(q, 1024);
  std::vector<SurfacePoint> starts;
  for (const Pair& p : pairs) starts.push_back(**q.NearestPoint(p.start, {1, 4, 1}, QueryFilter()));
  size_t i = 0;
  for (auto _ : state) {
    const size_t k = i++ % pairs.size();
    query(q, starts[k], pairs[k]);
  }
}

void BM_Raycast(benchmark::State& state, std::string rel, bool merge) {
  RaycastResult r;
  RunFromSurface(state, rel, merge, [&r](NavQuery& q, const SurfacePoint& start, const Pair& p) {
    benchmark::DoNotOptimize(q.Raycast(start, p.goal, QueryFilter(), &r));
  });
}

void BM_MoveAlongSurface(benchmark::State& state, std::string rel, bool merge) {
  MoveResult m;
  RunFromSurface(state, rel, merge, [&m](NavQuery& q, const SurfacePoint& start, const Pair& p) {
    // A short move (a few metres), as a client's position update would be.
    const Vec3 d = p.goal - p.start;
    const float len = Length(d);
    const Vec3 end = len > 0 ? start.pos + d * (3.0f / len) : start.pos;
    benchmark::DoNotOptimize(q.MoveAlongSurface(start, end, QueryFilter(), &m));
  });
}

// Random surface points (the centres of the circle queries).
std::vector<SurfacePoint> Centres(NavQuery& q, int n) {
  std::vector<SurfacePoint> out;
  for (const Pair& p : RandomPairs(q, n))
    out.push_back(**q.NearestPoint(p.start, {1, 4, 1}, QueryFilter()));
  return out;
}

void BM_DistanceToWall(benchmark::State& state, std::string rel, bool merge, float radius) {
  NavQuery q(Build(rel, merge));
  const std::vector<SurfacePoint> centres = Centres(q, 1024);
  WallDistance w;
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(
        q.FindDistanceToWall(centres[i++ % centres.size()], radius, QueryFilter(), &w));
  }
}

void BM_PolygonsInCircle(benchmark::State& state, std::string rel, bool merge, float radius) {
  NavQuery q(Build(rel, merge));
  const std::vector<SurfacePoint> centres = Centres(q, 1024);
  PolygonsInCircle out;
  size_t i = 0, polygons = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(
        q.FindPolygonsInCircle(centres[i++ % centres.size()], radius, QueryFilter(), 4096, &out));
    polygons += out.polygons.size();
  }
  state.counters["polygons"] =
      benchmark::Counter(double(polygons), benchmark::Counter::kAvgIterations);
}

void BM_RandomPoint(benchmark::State& state, std::string rel, bool merge) {
  NavQuery q(Build(rel, merge));
  std::mt19937_64 rng(1);
  const QueryFilter filter;
  for (auto _ : state) benchmark::DoNotOptimize(q.RandomPoint(filter, rng));
}

void BM_Height(benchmark::State& state, std::string rel, bool merge) {
  NavQuery q(Build(rel, merge));
  const std::vector<Pair> pairs = RandomPairs(q, 1024);
  size_t i = 0;
  for (auto _ : state) {
    const Vec3 p = pairs[i++ % pairs.size()].start;
    benchmark::DoNotOptimize(q.Height(p.x, p.z, p.y + 0.5f));
  }
}

const std::string kAurora = "polyanya/meshes/aurora.mesh";
const std::string kAuroraMerged = "polyanya/meshes/aurora-merged.mesh";
const std::string kAuroraExpected = "polyanya/expected/aurora_euclid_expected.csv";
const std::string kUnity = "unity/1100.navmesh";
const std::string kLaya = "unity/lear315/LayaNavMesh.obj";

const Vec3 kOnSurface{0, 0, 0};
const Vec3 kBeside{0.3f, 0.5f, -0.2f};

BENCHMARK_CAPTURE(BM_NearestPoint, aurora_on_surface, kAurora, false, kOnSurface);
BENCHMARK_CAPTURE(BM_NearestPoint, aurora_beside, kAurora, false, kBeside);
BENCHMARK_CAPTURE(BM_NearestPoint, laya_on_surface, kLaya, true, kOnSurface);
BENCHMARK_CAPTURE(BM_NearestPoint, laya_beside, kLaya, true, kBeside);
BENCHMARK_CAPTURE(BM_FindPathPolyanya, aurora, kAurora, kAuroraExpected, false);
BENCHMARK_CAPTURE(BM_FindPathPolyanya, aurora_merged, kAuroraMerged, kAuroraExpected, false);
BENCHMARK_CAPTURE(BM_FindPathRandom, unity_1100, kUnity, true);
BENCHMARK_CAPTURE(BM_FindPathRandom, laya, kLaya, true);
BENCHMARK_CAPTURE(BM_Raycast, aurora, kAurora, false);
BENCHMARK_CAPTURE(BM_Raycast, laya, kLaya, true);
BENCHMARK_CAPTURE(BM_MoveAlongSurface, laya, kLaya, true);
BENCHMARK_CAPTURE(BM_DistanceToWall, aurora_10m, kAurora, false, 10.0f);
BENCHMARK_CAPTURE(BM_DistanceToWall, laya_10m, kLaya, true, 10.0f);
BENCHMARK_CAPTURE(BM_PolygonsInCircle, aurora_10m, kAurora, false, 10.0f);
BENCHMARK_CAPTURE(BM_PolygonsInCircle, laya_10m, kLaya, true, 10.0f);
BENCHMARK_CAPTURE(BM_RandomPoint, aurora, kAurora, false);
BENCHMARK_CAPTURE(BM_Height, laya, kLaya, true);

}  // namespace
}  // namespace waymesh

BENCHMARK_MAIN();
