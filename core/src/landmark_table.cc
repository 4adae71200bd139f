#include "waymesh/core/landmark_table.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <memory>

#include "path_search.h"
#include "poly_geometry.h"
#include "query_context.h"
#include "waymesh/core/nav_map.h"

namespace waymesh {
namespace {

using internal::QueryContext;

// Index of the polygon with the largest finite value, or kNone when none is finite.
constexpr uint32_t kNone = 0xFFFFFFFFu;
uint32_t ArgMaxFinite(const std::vector<float>& v) {
  uint32_t best = kNone;
  for (uint32_t i = 0; i < v.size(); ++i) {
    if (std::isfinite(v[i]) && (best == kNone || v[i] > v[best])) best = i;
  }
  return best;
}

// A surface point inside global polygon `global` (its first detail triangle's centroid).
SurfacePoint PointIn(const QueryContext& ctx, uint32_t global) {
  uint32_t tile, poly;
  internal::SplitGlobal(ctx, global, &tile, &poly);
  const TileView& t = ctx.Tile(tile);
  const DetailTri d = t.detail(poly)[0];
  const Vec3 c = (t.corner(poly, d.a) + t.corner(poly, d.b) + t.corner(poly, d.c)) * (1.0f / 3);
  return SurfacePoint{PolyRef(tile, poly), c};
}

// First polygon of the island with the largest walkable area (the landmarks' home).
uint32_t SeedPolygon(const QueryContext& ctx) {
  const auto& islands = ctx.map->info().islands;
  uint32_t best_island = 0;
  for (uint32_t i = 1; i < islands.size(); ++i) {
    if (islands[i].area > islands[best_island].area) best_island = i;
  }
  for (const TileView& t : ctx.map->tiles()) {
    for (uint32_t p = 0; p < t.poly_count(); ++p) {
      if (t.poly_island[p] == best_island) return ctx.Global(t.index, p);
    }
  }
  return 0;
}

// The map's area costs, each capped at 1 (see the header).
QueryFilter ReferenceFilter(const MapInfo& info) {
  QueryFilter filter(info);
  for (int a = 0; a < kMaxAreas; ++a) {
    filter.SetAreaCost(a, std::min(filter.Cost(uint8_t(a)), 1.0f));
  }
  return filter;
}

// Largest distance between two corners of a polygon.
float Diameter(const TileView& t, uint32_t p) {
  float d = 0;
  for (uint32_t i = 0, n = t.corner_count(p); i < n; ++i) {
    for (uint32_t j = i + 1; j < n; ++j) d = std::max(d, Distance(t.corner(p, i), t.corner(p, j)));
  }
  return d;
}

}  // namespace

LandmarkTable LandmarkTable::Build(const NavMap& map, uint32_t count) {
  LandmarkTable table;
  uint64_t polygons = 0;
  for (const TileView& t : map.tiles()) polygons += t.poly_count();
  count = std::min(count, kSlots);
  if (count == 0 || polygons < kMinPolygons || polygons >= 0xFFFFFFFFull) return table;
  // A non-owning handle: the map outlives this call.
  QueryContext ctx(std::shared_ptr<const NavMap>(std::shared_ptr<const NavMap>(), &map),
                   uint32_t(polygons), /*with_landmarks=*/false);
  const QueryFilter filter = ReferenceFilter(map.info());
  std::vector<float> dist, nearest_landmark(polygons, INFINITY);
  std::vector<std::vector<float>> floods;
  // Farthest-point sampling: each landmark is the polygon farthest from all earlier ones (the
  // first: farthest from a seed), so the landmarks ring the map where they bound best.
  internal::FloodDistances(ctx, PointIn(ctx, SeedPolygon(ctx)), filter, &dist);
  for (uint32_t k = 0; k < count; ++k) {
    const uint32_t next = ArgMaxFinite(k == 0 ? dist : nearest_landmark);
    if (next == kNone) break;
    internal::FloodDistances(ctx, PointIn(ctx, next), filter, &dist);
    for (uint32_t i = 0; i < polygons; ++i) {
      nearest_landmark[i] = std::min(nearest_landmark[i], dist[i]);
    }
    floods.push_back(dist);
  }
  float longest = 0;
  for (const auto& f : floods) {
    for (float d : f) {
      if (std::isfinite(d)) longest = std::max(longest, d);
    }
  }
  if (floods.empty() || !(longest > 0)) return table;
  table.count_ = uint32_t(floods.size());
  // kMaxSteps steps cover the longest cost (a 2 km flood: 6 cm a step).
  table.step_ = longest / float(kMaxSteps) * (1.0f + 1e-6f);
  table.rows_.assign(size_t(polygons) * kSlots, kUnreached);
  for (uint32_t k = 0; k < table.count_; ++k) {
    for (uint32_t i = 0; i < polygons; ++i) {
      const float d = floods[k][i];
      if (std::isfinite(d)) {
        table.rows_[size_t(i) * kSlots + k] =
            int16_t(std::min(std::floor(d / table.step_), float(kMaxSteps)));
      }
    }
  }
  for (int a = 0; a < kMaxAreas; ++a) {
    table.inverse_reference_costs_[a] = 1.0f / filter.Cost(uint8_t(a));
  }
  table.areas_present_ = map.digest().areas_present;
  table.crossing_.assign(polygons, 0.0f);
  for (const TileView& t : map.tiles()) {
    for (uint32_t p = 0; p < t.poly_count(); ++p) {
      table.crossing_[ctx.Global(t.index, p)] = Diameter(t, p) * filter.Cost(t.poly_area[p]);
    }
  }
  return table;
}

float LandmarkTable::LowerBound(uint32_t a, uint32_t b) const {
  if (count_ == 0) return 0.0f;
  const int16_t* ra = &rows_[size_t(a) * kSlots];
  const int16_t* rb = &rows_[size_t(b) * kSlots];
  // Branch-free 16-bit lanes over a fixed number of slots, so that even baseline x86-64
  // (SSE2: signed 16-bit max/min, no 32-bit ones) runs it as a few vector instructions;
  // unused slots and unreached polygons hold kUnreached and contribute 0.
  int16_t most = 0, least = 0;
  for (uint32_t k = 0; k < kSlots; ++k) {
    const int16_t va = ra[k], vb = rb[k];
    const int16_t known = int16_t(-int((va != kUnreached) & (vb != kUnreached)));
    const int16_t diff = int16_t((va - vb) & known);
    most = diff > most ? diff : most;
    least = diff < least ? diff : least;
  }
  const int a_farther = most, b_farther = -int(least);
  // Each row holds the cost to the polygon's nearest point, floored to a step: a point of
  // the nearer polygon may cost up to its crossing cost more, and the floors cost one step.
  const float via_a = float(a_farther - 1) * step_ - crossing_[b];
  const float via_b = float(b_farther - 1) * step_ - crossing_[a];
  const float bound = via_a > via_b ? via_a : via_b;
  return bound > 0 ? bound : 0.0f;
}

float LandmarkTable::FilterScale(const QueryFilter& filter) const {
  float scale = 1.0f;
  for (uint64_t m = filter.area_mask() & areas_present_; m != 0; m &= m - 1) {
    const uint8_t a = uint8_t(std::countr_zero(m));
    scale = std::min(scale, filter.Cost(a) * inverse_reference_costs_[a]);
  }
  return scale;
}

}  // namespace waymesh
