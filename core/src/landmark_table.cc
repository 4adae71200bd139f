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

// Every area at 1: plain walking distance (links at their own cost, as with the map's costs).
QueryFilter DistanceFilter(const MapInfo& info) {
  QueryFilter filter(info);
  for (int a = 0; a < kMaxAreas; ++a) filter.SetAreaCost(a, 1.0f);
  return filter;
}

// Whether some polygon or link area present on the map costs less than walking.
bool HasCheapAreas(const NavMap& map) {
  const QueryFilter own(map.info());
  for (uint64_t m = map.digest().areas_present; m != 0; m &= m - 1) {
    if (own.Cost(uint8_t(std::countr_zero(m))) < 1.0f) return true;
  }
  return false;
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
  std::vector<SurfacePoint> points;
  // Farthest-point sampling: each landmark is the polygon farthest from all earlier ones (the
  // first: farthest from a seed), so the landmarks ring the map where they bound best.
  internal::FloodDistances(ctx, PointIn(ctx, SeedPolygon(ctx)), filter, &dist);
  for (uint32_t k = 0; k < count; ++k) {
    const uint32_t next = ArgMaxFinite(k == 0 ? dist : nearest_landmark);
    if (next == kNone) break;
    points.push_back(PointIn(ctx, next));
    internal::FloodDistances(ctx, points.back(), filter, &dist);
    for (uint32_t i = 0; i < polygons; ++i) {
      nearest_landmark[i] = std::min(nearest_landmark[i], dist[i]);
    }
    floods.push_back(dist);
  }
  table.cost_ = Measure(floods, filter, map);
  if (table.cost_.empty()) return table;
  table.count_ = uint32_t(floods.size());
  table.areas_present_ = map.digest().areas_present;
  if (HasCheapAreas(map)) {
    const QueryFilter walking = DistanceFilter(map.info());
    for (uint32_t k = 0; k < points.size(); ++k) {
      internal::FloodDistances(ctx, points[k], walking, &floods[k]);
    }
    table.distance_ = Measure(floods, walking, map);
  }
  return table;
}

LandmarkTable::Metric LandmarkTable::Measure(const std::vector<std::vector<float>>& floods,
                                             const QueryFilter& filter, const NavMap& map) {
  Metric m;
  float longest = 0;
  for (const auto& f : floods) {
    for (float d : f) {
      if (std::isfinite(d)) longest = std::max(longest, d);
    }
  }
  if (floods.empty() || !(longest > 0)) return m;
  const size_t polygons = floods[0].size();
  // kMaxSteps steps cover the longest cost (a 2 km flood: 6 cm a step).
  m.step = longest / float(kMaxSteps) * (1.0f + 1e-6f);
  m.rows.assign(polygons * kSlots, kUnreached);
  for (uint32_t k = 0; k < floods.size(); ++k) {
    for (size_t i = 0; i < polygons; ++i) {
      const float d = floods[k][i];
      if (std::isfinite(d)) {
        m.rows[i * kSlots + k] = int16_t(std::min(std::floor(d / m.step), float(kMaxSteps)));
      }
    }
  }
  for (int a = 0; a < kMaxAreas; ++a) m.inverse_costs[a] = 1.0f / filter.Cost(uint8_t(a));
  m.crossing.assign(polygons, 0.0f);
  uint32_t base = 0;
  for (const TileView& t : map.tiles()) {
    for (uint32_t p = 0; p < t.poly_count(); ++p) {
      m.crossing[base + p] = Diameter(t, p) * filter.Cost(t.poly_area[p]);
    }
    base += t.poly_count();
  }
  return m;
}

float LandmarkTable::Metric::Bound(uint32_t a, uint32_t b, float b_slack) const {
  const int16_t* ra = &rows[size_t(a) * kSlots];
  const int16_t* rb = &rows[size_t(b) * kSlots];
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
  // the nearer polygon may cost up to its crossing cost more (b: its slack), and the floors
  // cost one step.
  const float via_a = float(a_farther - 1) * step - b_slack;
  const float via_b = float(b_farther - 1) * step - crossing[a];
  const float bound = via_a > via_b ? via_a : via_b;
  return bound > 0 ? bound : 0.0f;
}

float LandmarkTable::Metric::Slack(uint32_t global, const TileView& tile, uint32_t poly,
                                   Vec3 point) const {
  // The row was measured to a point of the polygon (on its boundary, or the landmark itself
  // inside it); distance to `point` is convex, so no point of the polygon is farther from it
  // than its farthest corner.
  float farthest = 0;
  for (uint32_t i = 0, n = tile.corner_count(poly); i < n; ++i) {
    farthest = std::max(farthest, Distance(tile.corner(poly, i), point));
  }
  const float slack = farthest / inverse_costs[tile.poly_area[poly] & (kMaxAreas - 1)];
  return std::min(slack, crossing[global]);
}

float LandmarkTable::Metric::Scale(const QueryFilter& filter, uint64_t areas_present) const {
  float scale = 1.0f;
  for (uint64_t m = filter.area_mask() & areas_present; m != 0; m &= m - 1) {
    const uint8_t a = uint8_t(std::countr_zero(m));
    scale = std::min(scale, filter.Cost(a) * inverse_costs[a]);
  }
  return scale;
}

size_t LandmarkTable::Metric::bytes() const {
  return rows.size() * sizeof(int16_t) + crossing.size() * sizeof(float);
}

bool LandmarkTable::has_distance_rows() const { return !distance_.empty(); }

size_t LandmarkTable::bytes() const { return cost_.bytes() + distance_.bytes(); }

float LandmarkTable::LowerBound(uint32_t a, uint32_t b) const {
  return empty() ? 0.0f : cost_.Bound(a, b, cost_.crossing[b]);
}

float LandmarkTable::FilterScale(const QueryFilter& filter) const {
  return cost_.Scale(filter, areas_present_);
}

float LandmarkTable::PointSlack(uint32_t global, const TileView& tile, uint32_t poly,
                                Vec3 point) const {
  return empty() ? 0.0f : cost_.Slack(global, tile, poly, point);
}

LandmarkTable::GoalBound LandmarkTable::ForGoal(const QueryFilter& filter, uint32_t start,
                                                uint32_t goal, const TileView& goal_tile,
                                                uint32_t goal_poly, Vec3 goal_pos) const {
  GoalBound best;
  if (empty()) return best;
  float best_value = -1;
  for (const Metric* m : {&cost_, &distance_}) {
    if (m->empty()) continue;
    GoalBound b;
    b.metric_ = m;
    b.goal_ = goal;
    b.goal_slack_ = m->Slack(goal, goal_tile, goal_poly, goal_pos);
    b.scale_ = m->Scale(filter, areas_present_);
    const float value = b.From(start);
    if (value > best_value) {
      best = b;
      best_value = value;
    }
  }
  return best;
}

float LandmarkTable::GoalBound::From(uint32_t global) const {
  if (metric_ == nullptr) return 0.0f;
  return metric_->Bound(global, goal_, goal_slack_) * scale_;
}

}  // namespace waymesh
