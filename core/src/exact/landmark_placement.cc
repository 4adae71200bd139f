#include "exact/landmark_placement.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <random>
#include <utility>

#include "landmark_seed.h"

namespace waymesh::internal::exact {
namespace {

// How far (metres, and relative to the root's distance) a path through the worst-bounded
// polygon may exceed the shortest one for a polygon to count as lying beyond it.
constexpr double kBeyondTolerance = 0.5;
constexpr double kBeyondRelativeTolerance = 0.01;
// Sampled vertices per root for scoring a choice. (Candidates from "avoid": half as many as
// the farthest-point ones; each costs three floods.)
constexpr uint32_t kSampledVertices = 1024;
constexpr int kSwapRounds = 3;

// A sample root for scoring: its polygon (global index), position and exact flood.
struct SampleRoot {
  uint32_t polygon = 0;
  Vec3 pos;
  VertexDistances from;
};

double PlanDistance(Vec3 a, Vec3 b) { return std::hypot(a.x - b.x, a.z - b.z); }

// The polygon (global index) whose first corner has the largest finite score(tile, vertex)
// above `floor`; none when no corner qualifies.
template <typename Score>
std::optional<uint32_t> BestPlacementPolygon(const NavMap& map, double floor, Score score) {
  std::optional<uint32_t> best;
  double best_score = floor;
  uint32_t base = 0;
  for (const TileView& t : map.tiles()) {
    for (uint32_t p = 0; p < t.poly_count(); ++p) {
      const double s = score(t.index, t.poly_verts[t.poly_start[p]]);
      if (std::isfinite(s) && s > best_score) {
        best_score = s;
        best = base + p;
      }
    }
    base += t.poly_count();
  }
  return best;
}

// The distance from a flood's source to `at` (in global polygon `global`) through the
// polygon's corners (an upper bound, as a query's goal bracket sees it); INFINITY when none
// was reached.
double DistanceThroughCorners(const QueryContext& ctx, const VertexDistances& flood,
                              uint32_t global, Vec3 at) {
  const auto [tile, poly] = SplitGlobal(ctx, global);
  const TileView& t = ctx.Tile(tile);
  double best = INFINITY;
  for (uint32_t c = t.poly_start[poly]; c < t.poly_start[poly + 1]; ++c) {
    const uint32_t v = t.poly_verts[c];
    best = std::min(best, flood[tile][v] + PlanDistance(t.vertices[v], at));
  }
  return best;
}

// The landmark bound |d(L, root) - d(L, v)| (0 when either is unknown).
double PairBound(double to_root, double to_v) {
  return std::isfinite(to_root) && std::isfinite(to_v) ? std::abs(to_root - to_v) : 0;
}

// How far below d(root, v) the landmarks' best bound stays.
double BoundSlack(const PlacedLandmarks& placed, const std::vector<double>& to_root,
                  const VertexDistances& from_root, uint32_t tile, uint32_t v) {
  double bound = 0;
  for (size_t k = 0; k < to_root.size(); ++k) {
    bound = std::max(bound, PairBound(to_root[k], placed.floods[k][tile][v]));
  }
  return from_root[tile][v] - bound;
}

// Global indices of the polygons whose first corner `flood` reached: the island the landmarks
// serve (roots elsewhere would pull landmarks onto islets no query of that island crosses).
std::vector<uint32_t> ReachedPolygons(const NavMap& map, const VertexDistances& flood) {
  std::vector<uint32_t> reached;
  uint32_t base = 0;
  for (const TileView& t : map.tiles()) {
    for (uint32_t p = 0; p < t.poly_count(); ++p) {
      if (std::isfinite(flood[t.index][t.poly_verts[t.poly_start[p]]])) reached.push_back(base + p);
    }
    base += t.poly_count();
  }
  return reached;
}

// Appends a landmark at global polygon `polygon`, flooded.
void AddCandidate(QueryContext& ctx, const LandmarkFlood& flood, uint32_t polygon,
                  PlacedLandmarks* out) {
  const SurfacePoint at = PointIn(ctx, polygon);
  out->positions.push_back(at.pos);
  out->floods.emplace_back();
  flood(at, &out->floods.back());
}

// Farthest-point sampling: each landmark where the earlier ones (the first: the seed flood
// `nearest`) are farthest, so that they ring the island.
void FarthestPointCandidates(QueryContext& ctx, const LandmarkFlood& flood, uint32_t count,
                             VertexDistances nearest, PlacedLandmarks* out) {
  for (uint32_t k = 0; k < count; ++k) {
    const std::optional<uint32_t> next =
        BestPlacementPolygon(*ctx.map, -1, [&](uint32_t t, uint32_t v) { return nearest[t][v]; });
    if (!next) return;
    AddCandidate(ctx, flood, *next, out);
    const VertexDistances& d = out->floods.back();
    for (uint32_t t = 0; t < d.size(); ++t) {
      for (uint32_t v = 0; v < d[t].size(); ++v) {
        nearest[t][v] = k == 0 ? d[t][v] : std::min(nearest[t][v], d[t][v]);
      }
    }
  }
}

// A sample root at global polygon `polygon`, flooded.
SampleRoot FloodRoot(QueryContext& ctx, const LandmarkFlood& flood, uint32_t polygon) {
  const SurfacePoint at = PointIn(ctx, polygon);
  SampleRoot root{polygon, at.pos, {}};
  flood(at, &root.from);
  return root;
}

// "Avoid" (Goldberg & Werneck): from a random root, the polygon the candidates so far bound
// worst, then the polygon farthest from the root among those whose shortest path passes
// through it (a landmark there bounds every pair along the way). Both floods become sample
// roots.
void AddAvoidCandidate(QueryContext& ctx, const LandmarkFlood& flood, uint32_t random_root,
                       PlacedLandmarks* out, std::vector<SampleRoot>* roots) {
  const NavMap& map = *ctx.map;
  const SampleRoot& root = roots->emplace_back(FloodRoot(ctx, flood, random_root));
  std::vector<double> to_root;
  for (const VertexDistances& f : out->floods) {
    to_root.push_back(DistanceThroughCorners(ctx, f, root.polygon, root.pos));
  }
  const std::optional<uint32_t> worst = BestPlacementPolygon(
      map, 0, [&](uint32_t t, uint32_t v) { return BoundSlack(*out, to_root, root.from, t, v); });
  if (!worst) return;
  SampleRoot via = FloodRoot(ctx, flood, *worst);
  const double root_to_via = DistanceThroughCorners(ctx, roots->back().from, via.polygon, via.pos);
  const VertexDistances& from_root = roots->back().from;
  const std::optional<uint32_t> beyond = BestPlacementPolygon(map, -1, [&](uint32_t t, uint32_t v) {
    const double direct = from_root[t][v];
    const double detour = root_to_via + via.from[t][v] - direct;
    return detour <= kBeyondTolerance + kBeyondRelativeTolerance * direct ? direct : -INFINITY;
  });
  roots->push_back(std::move(via));
  if (beyond) AddCandidate(ctx, flood, *beyond, out);
}

// Per candidate, per (root, sampled vertex): the candidate's bound on that pair's distance,
// times that distance (long pairs cost a search the most nodes, and their bounds the most).
std::vector<std::vector<float>> PairBounds(const QueryContext& ctx,
                                           const PlacedLandmarks& candidates,
                                           const std::vector<SampleRoot>& roots,
                                           const std::vector<std::pair<uint32_t, uint32_t>>& at) {
  std::vector<std::vector<float>> bounds(candidates.floods.size());
  for (size_t c = 0; c < bounds.size(); ++c) {
    const VertexDistances& f = candidates.floods[c];
    for (const SampleRoot& r : roots) {
      const double to_root = DistanceThroughCorners(ctx, f, r.polygon, r.pos);
      for (const auto& [t, v] : at) {
        const double d = r.from[t][v];
        bounds[c].push_back(std::isfinite(d) ? float(PairBound(to_root, f[t][v]) * d) : 0);
      }
    }
  }
  return bounds;
}

// The summed best (weighted) bound over all sampled pairs of the candidates in `chosen`.
double Coverage(const std::vector<std::vector<float>>& bounds, const std::vector<size_t>& chosen) {
  double sum = 0;
  for (size_t i = 0; i < bounds[0].size(); ++i) {
    float best = 0;
    for (const size_t c : chosen) best = std::max(best, bounds[c][i]);
    sum += best;
  }
  return sum;
}

// From the first `count` candidates (the farthest-point ring), rounds of swaps with the
// others that raise the coverage: a candidate enters only where it bounds the sampled pairs
// better than the ring member it replaces.
std::vector<size_t> ChooseCovering(const std::vector<std::vector<float>>& bounds, size_t count) {
  std::vector<size_t> chosen;
  std::vector<bool> taken(bounds.size(), false);
  for (size_t c = 0; c < std::min(count, bounds.size()); ++c) {
    chosen.push_back(c);
    taken[c] = true;
  }
  double cover = Coverage(bounds, chosen);
  for (int round = 0; round < kSwapRounds; ++round) {
    bool improved = false;
    for (size_t i = 0; i < chosen.size(); ++i) {
      for (size_t c = 0; c < bounds.size(); ++c) {
        if (taken[c]) continue;
        const size_t old = chosen[i];
        chosen[i] = c;
        const double swapped = Coverage(bounds, chosen);
        if (swapped > cover) {
          cover = swapped;
          taken[old] = false;
          taken[c] = true;
          improved = true;
        } else {
          chosen[i] = old;
        }
      }
    }
    if (!improved) break;
  }
  return chosen;
}

}  // namespace

PlacedLandmarks PlaceLandmarks(QueryContext& ctx, uint32_t count, const LandmarkFlood& flood) {
  const NavMap& map = *ctx.map;
  VertexDistances seed;
  flood(PointIn(ctx, SeedPolygon(ctx)), &seed);
  PlacedLandmarks candidates;
  FarthestPointCandidates(ctx, flood, count, seed, &candidates);
  const std::vector<uint32_t> reached = ReachedPolygons(map, seed);
  if (candidates.floods.size() < count || reached.empty()) return candidates;
  std::mt19937 rng(32);
  std::uniform_int_distribution<size_t> any(0, reached.size() - 1);
  std::vector<SampleRoot> roots;
  for (uint32_t k = 0; k < count / 2; ++k) {
    AddAvoidCandidate(ctx, flood, reached[any(rng)], &candidates, &roots);
  }
  if (roots.empty()) return candidates;
  std::vector<std::pair<uint32_t, uint32_t>> sampled;
  for (uint32_t i = 0; i < kSampledVertices; ++i) {
    const auto [t, p] = SplitGlobal(ctx, reached[any(rng)]);
    sampled.emplace_back(t, ctx.Tile(t).poly_verts[ctx.Tile(t).poly_start[p]]);
  }
  const std::vector<size_t> chosen =
      ChooseCovering(PairBounds(ctx, candidates, roots, sampled), count);
  PlacedLandmarks placed;
  for (const size_t c : chosen) {
    placed.positions.push_back(candidates.positions[c]);
    placed.floods.push_back(std::move(candidates.floods[c]));
  }
  return placed;
}

}  // namespace waymesh::internal::exact
