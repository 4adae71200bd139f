#include "random_point.h"

#include <algorithm>
#include <cmath>

#include "absl/random/distributions.h"
#include "disc_flood.h"
#include "poly_geometry.h"

namespace waymesh::internal {
namespace {

// Rejection draws before switching to an exact linear scan (a filter rejecting most of the map).
constexpr int kRejectionTries = 32;
// Draws for the disc sampler before giving up and returning the centre.
constexpr int kDiscTries = 256;

float PolyArea(const TileView& t, uint32_t poly) {
  return std::max(t.area_prefix[poly + 1] - t.area_prefix[poly], 0.0f);
}

SurfacePoint Sample(const QueryContext& ctx, const TileView& t, uint32_t poly,
                    absl::BitGenRef rng) {
  const float a = absl::Uniform(rng, 0.0f, 1.0f);
  const float b = absl::Uniform(rng, 0.0f, 1.0f);
  const float c = absl::Uniform(rng, 0.0f, 1.0f);
  return SurfacePoint{ctx.Ref({t.index, poly}), SamplePolySurface(t, poly, a, b, c)};
}

// Polygon of tile `t` covering running area `r` (0 <= r < tile area).
uint32_t PolyAtArea(const TileView& t, double r) {
  const auto& pre = t.area_prefix;
  const auto it = std::upper_bound(pre.begin(), pre.end(), float(r));
  const ptrdiff_t p = (it - pre.begin()) - 1;
  return uint32_t(std::clamp<ptrdiff_t>(p, 0, ptrdiff_t(t.poly_count()) - 1));
}

std::optional<SurfacePoint> LinearDraw(const QueryContext& ctx, const QueryFilter& filter,
                                       absl::BitGenRef rng) {
  double total = 0;
  ctx.ForEachTile([&](const TileView& t) {
    for (uint32_t p = 0; p < t.poly_count(); ++p) {
      if (filter.Passes(t.poly_area[p], t.poly_flags[p])) total += PolyArea(t, p);
    }
  });
  if (!(total > 0)) return std::nullopt;
  double r = absl::Uniform(rng, 0.0, total);
  std::optional<SurfacePoint> drawn;
  uint32_t last_tile = 0, last_poly = 0;
  ctx.ForEachTile([&](const TileView& t) {
    for (uint32_t p = 0; p < t.poly_count() && !drawn; ++p) {
      if (!filter.Passes(t.poly_area[p], t.poly_flags[p]) || PolyArea(t, p) <= 0) continue;
      last_tile = t.index;
      last_poly = p;
      r -= PolyArea(t, p);
      if (r < 0) drawn = Sample(ctx, t, p, rng);
    }
  });
  if (drawn) return drawn;
  // Rounding left r just above 0: the last accepted polygon.
  const TileView* t = ctx.TryTile(last_tile);
  if (t == nullptr) return std::nullopt;
  return Sample(ctx, *t, last_poly, rng);
}

void BuildIslandIndex(QueryContext& ctx) {
  const uint32_t islands = uint32_t(ctx.map->info().islands.size());
  const uint32_t total = ctx.tile_base.back();
  ctx.island_start.assign(islands + 2, 0);
  ctx.ForEachTile([&](const TileView& t) {
    for (uint32_t p = 0; p < t.poly_count(); ++p) {
      ++ctx.island_start[std::min(t.poly_island[p], islands) + 1];
    }
  });
  for (uint32_t i = 0; i <= islands; ++i) ctx.island_start[i + 1] += ctx.island_start[i];
  ctx.island_polys.assign(total, 0);
  ctx.island_prefix.assign(total, 0.0);
  std::vector<uint32_t> fill(ctx.island_start.begin(), ctx.island_start.end() - 1);
  std::vector<double> poly_area(total, 0.0);  // by global index
  ctx.ForEachTile([&](const TileView& t) {
    for (uint32_t p = 0; p < t.poly_count(); ++p) {
      ctx.island_polys[fill[std::min(t.poly_island[p], islands)]++] = ctx.Global({t.index, p});
      poly_area[ctx.Global({t.index, p})] = PolyArea(t, p);
    }
  });
  // Running area inside each island's segment (inclusive).
  for (uint32_t i = 0; i <= islands; ++i) {
    double run = 0;
    for (uint32_t k = ctx.island_start[i]; k < ctx.island_start[i + 1]; ++k) {
      run += poly_area[ctx.island_polys[k]];
      ctx.island_prefix[k] = run;
    }
  }
}

}  // namespace

std::optional<SurfacePoint> RandomPointOnMap(QueryContext& ctx, const QueryFilter& filter,
                                             absl::BitGenRef rng) {
  const double total = ctx.tile_area_prefix.back();
  if (!(total > 0)) return std::nullopt;
  for (int attempt = 0; attempt < kRejectionTries; ++attempt) {
    const double u = absl::Uniform(rng, 0.0, total);
    const auto& pre = ctx.tile_area_prefix;
    const auto it = std::upper_bound(pre.begin(), pre.end(), u);
    const size_t tile = std::min<size_t>(size_t(it - pre.begin()) - 1, ctx.map->tile_count() - 1);
    const TileView* tp = ctx.TryTile(uint32_t(tile));
    if (tp == nullptr || tp->poly_count() == 0) continue;
    const TileView& t = *tp;
    const uint32_t p = PolyAtArea(t, u - pre[tile]);
    if (PolyArea(t, p) > 0 && filter.Passes(t.poly_area[p], t.poly_flags[p])) {
      return Sample(ctx, t, p, rng);
    }
  }
  return LinearDraw(ctx, filter, rng);
}

std::optional<SurfacePoint> RandomPointOnIsland(QueryContext& ctx, uint32_t island,
                                                const QueryFilter& filter, absl::BitGenRef rng) {
  if (island >= ctx.map->info().islands.size()) return std::nullopt;
  if (ctx.island_start.empty()) BuildIslandIndex(ctx);
  const uint32_t b = ctx.island_start[island], e = ctx.island_start[island + 1];
  if (b == e) return std::nullopt;
  const double total = ctx.island_prefix[e - 1];
  if (!(total > 0)) return std::nullopt;
  const auto first = ctx.island_prefix.begin() + b, last = ctx.island_prefix.begin() + e;
  for (int attempt = 0; attempt < kRejectionTries; ++attempt) {
    const double u = absl::Uniform(rng, 0.0, total);
    const size_t k = std::min<size_t>(size_t(std::upper_bound(first, last, u) - first), e - b - 1);
    const auto [tile, poly] = SplitGlobal(ctx, ctx.island_polys[b + k]);
    const TileView* tp = ctx.TryTile(tile);
    if (tp == nullptr) continue;
    const TileView& t = *tp;
    if (filter.Passes(t.poly_area[poly], t.poly_flags[poly])) return Sample(ctx, t, poly, rng);
  }
  // Exact fallback over the island's accepted polygons.
  double accepted = 0;
  for (uint32_t k = b; k < e; ++k) {
    const auto [tile, poly] = SplitGlobal(ctx, ctx.island_polys[k]);
    const TileView* t = ctx.TryTile(tile);
    if (t != nullptr && filter.Passes(t->poly_area[poly], t->poly_flags[poly])) {
      accepted += PolyArea(*t, poly);
    }
  }
  if (!(accepted > 0)) return std::nullopt;
  double r = absl::Uniform(rng, 0.0, accepted);
  std::optional<SurfacePoint> last_ok;
  for (uint32_t k = b; k < e; ++k) {
    const auto [tile, poly] = SplitGlobal(ctx, ctx.island_polys[k]);
    const TileView* tp = ctx.TryTile(tile);
    if (tp == nullptr) continue;
    const TileView& t = *tp;
    if (!filter.Passes(t.poly_area[poly], t.poly_flags[poly]) || PolyArea(t, poly) <= 0) continue;
    r -= PolyArea(t, poly);
    if (r < 0) return Sample(ctx, t, poly, rng);
    last_ok = Sample(ctx, t, poly, rng);
  }
  return last_ok;
}

std::optional<SurfacePoint> RandomPointInDisc(QueryContext& ctx, const SurfacePoint& center,
                                              float radius, const QueryFilter& filter,
                                              absl::BitGenRef rng) {
  // The polygons reachable from the centre through portals touching the disc.
  const Vec3 c = center.pos;
  const float r_sq = radius * radius;
  DiscFlood flood{c, r_sq};
  double area = 0;
  FloodDisc(ctx, filter, center, &flood, [&](uint32_t node) {
    const SearchNode& nd = ctx.pool.node(node);
    area += PolyArea(ctx.Tile(nd.at.tile), nd.at.poly);
    return true;
  });
  const uint32_t count = ctx.pool.size();
  const double disc_area = M_PI * double(r_sq);
  for (int attempt = 0; attempt < kDiscTries; ++attempt) {
    if (area <= disc_area) {
      // Polygons are small against the disc: draw on them, keep draws inside the disc.
      double u = absl::Uniform(rng, 0.0, area);
      uint32_t pick = count - 1;
      for (uint32_t i = 0; i < count; ++i) {
        const SearchNode& nd = ctx.pool.node(i);
        u -= PolyArea(ctx.Tile(nd.at.tile), nd.at.poly);
        if (u < 0) {
          pick = i;
          break;
        }
      }
      const SearchNode& nd = ctx.pool.node(pick);
      const SurfacePoint sp = Sample(ctx, ctx.Tile(nd.at.tile), nd.at.poly, rng);
      if (DistSqXZ(sp.pos, c) <= r_sq) return sp;
    } else {
      // The disc is small against the polygons: draw in the disc, keep draws on a polygon
      // (stacked floors each count, chosen uniformly among those covering the draw).
      const float ang = absl::Uniform(rng, 0.0f, float(2 * M_PI));
      const float rad = radius * std::sqrt(absl::Uniform(rng, 0.0f, 1.0f));
      const Vec3 q{c.x + rad * std::cos(ang), c.y, c.z + rad * std::sin(ang)};
      uint32_t hits = 0, chosen = kNoNode;
      for (uint32_t i = 0; i < count; ++i) {
        const SearchNode& nd = ctx.pool.node(i);
        if (!PointInPolyXZ(ctx.Tile(nd.at.tile), nd.at.poly, q, 0.0f)) continue;
        // Reservoir choice among covering polygons.
        if (absl::Uniform(rng, 0u, ++hits) == 0) chosen = i;
      }
      if (chosen != kNoNode) {
        const SearchNode& nd = ctx.pool.node(chosen);
        const TileView& t = ctx.Tile(nd.at.tile);
        return SurfacePoint{ctx.Ref(nd.at), {q.x, PolyHeightAt(t, nd.at.poly, q.x, q.z), q.z}};
      }
    }
  }
  return center;
}

}  // namespace waymesh::internal
