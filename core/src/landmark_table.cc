#include "waymesh/core/landmark_table.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <memory>

#include "landmark_seed.h"
#include "path_search.h"
#include "poly_geometry.h"
#include "query_context.h"
#include "waymesh/core/nav_map.h"

namespace waymesh {
namespace {

using internal::QueryContext;

constexpr uint32_t kNoPolygon = 0xFFFFFFFFu;

// Index of the polygon with the largest finite value, or kNoPolygon when none is finite.
uint32_t ArgMaxFinite(const std::vector<float>& v) {
  uint32_t best = kNoPolygon;
  for (uint32_t i = 0; i < v.size(); ++i) {
    if (std::isfinite(v[i]) && (best == kNoPolygon || v[i] > v[best])) best = i;
  }
  return best;
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

// `cost` in steps of `step`, rounded up. Saturates at kMaxSteps (0x7FFE), which every use
// treats as out of reach: an upper cost that large is unknown, a crossing that large cancels
// its bound.
int16_t UpSteps(float cost, float step) {
  return int16_t(std::min(std::ceil(cost / step), float(0x7FFE)));
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
                   uint32_t(polygons), /*use_landmarks=*/false, /*use_dead_ends=*/false);
  const QueryFilter filter = ReferenceFilter(map.info());
  std::vector<float> dist, nearest_landmark(polygons, INFINITY);
  std::vector<std::vector<float>> floods;
  std::vector<SurfacePoint> points;
  // Farthest-point sampling: each landmark is the polygon farthest from all earlier ones (the
  // first: farthest from a seed), so the landmarks ring the map where they bound best.
  internal::FloodDistances(ctx, internal::PointIn(ctx, internal::SeedPolygon(ctx)), filter, &dist);
  for (uint32_t k = 0; k < count; ++k) {
    const uint32_t next = ArgMaxFinite(k == 0 ? dist : nearest_landmark);
    if (next == kNoPolygon) break;
    points.push_back(internal::PointIn(ctx, next));
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
  table.link_end_.assign(polygons, false);
  for (const TileView& t : map.tiles()) {
    for (const OffMeshLink& link : t.off_mesh_links) {
      table.link_end_[ctx.Global({link.end_tile, link.end_poly})] = true;
    }
  }
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
  m.crossing.assign(polygons, 0);
  uint32_t base = 0;
  for (const TileView& t : map.tiles()) {
    for (uint32_t p = 0; p < t.poly_count(); ++p) {
      m.crossing[base + p] = UpSteps(Diameter(t, p) * filter.Cost(t.poly_area[p]), m.step);
    }
    base += t.poly_count();
  }
  return m;
}

int LandmarkTable::Metric::Bound(uint32_t a, const int16_t* goal_row,
                                 const int16_t* goal_upper) const {
  const int16_t* ra = &rows[size_t(a) * kSlots];
  // Branch-free 16-bit lanes over a fixed number of slots, so that even baseline x86-64
  // (SSE2: signed 16-bit max, no 32-bit one) runs it as a few vector instructions; unused
  // slots, unreached polygons and unknown goal costs hold kUnreached and contribute 0.
  int16_t a_farther = 0, goal_farther = 0;
  for (uint32_t k = 0; k < kSlots; ++k) {
    const int16_t va = ra[k], vg = goal_row[k], vu = goal_upper[k];
    const int16_t a_known = int16_t(-int(va != kUnreached));
    const int16_t up = int16_t((va - vu) & a_known & int16_t(-int(vu != kUnreached)));
    const int16_t down = int16_t((vg - va) & a_known & int16_t(-int(vg != kUnreached)));
    a_farther = up > a_farther ? up : a_farther;
    goal_farther = down > goal_farther ? down : goal_farther;
  }
  // Rows hold the cost to a polygon's nearest point, floored: a point of `a` may cost up to
  // its crossing more than its row, and the goal row's floor costs one step.
  const int via_goal = int(goal_farther) - 1 - crossing[a];
  return std::max(int(a_farther), via_goal);
}

void LandmarkTable::Metric::AnywhereRows(uint32_t goal, GoalBound* out) const {
  const int16_t* rg = &rows[size_t(goal) * kSlots];
  for (uint32_t k = 0; k < kSlots; ++k) {
    out->goal_row_[k] = rg[k];
    const int upper = rg[k] + 1 + crossing[goal];
    out->goal_upper_[k] = rg[k] != kUnreached && upper < kUnreached ? int16_t(upper) : kUnreached;
  }
}

void LandmarkTable::Metric::GoalRows(const Goal& goal, bool entered_by_link, GoalBound* out) const {
  const TileView& t = *goal.tile;
  const int16_t* rg = &rows[size_t(goal.global) * kSlots];
  const float rate = 1.0f / inverse_costs[t.poly_area[goal.poly] & (kMaxAreas - 1)];
  // Distance to the goal point is convex, so over a polygon or an edge it peaks at a corner:
  // per edge, the farther of its two corners (edges beyond kMaxEdges count as the farthest).
  constexpr uint32_t kMaxEdges = 32;
  std::array<float, kMaxEdges> edge_reach;
  const uint32_t n = t.corner_count(goal.poly);
  const uint32_t edges = std::min<uint32_t>({n, kMaxEdges, uint32_t(goal.neighbours.size())});
  float farthest = 0, first = Distance(t.corner(goal.poly, 0), goal.pos), prev = first;
  for (uint32_t i = 0; i < n; ++i) {
    const float next = i + 1 == n ? first : Distance(t.corner(goal.poly, i + 1), goal.pos);
    if (i < edges) edge_reach[i] = std::max(prev, next);
    farthest = std::max(farthest, prev);
    prev = next;
  }
  for (uint32_t k = 0; k < kSlots; ++k) {
    out->goal_row_[k] = rg[k];
    out->goal_upper_[k] = kUnreached;
    if (rg[k] == kUnreached) continue;
    // The row is the cost to the point where the landmark's flood entered the polygon. That
    // point is on an edge to the polygon it came from, whose row is no larger; without such
    // an edge (the landmark inside, a link's end), anywhere in the polygon.
    float slack = -1;
    if (rg[k] > 0 && !entered_by_link && edges == n) {
      for (uint32_t i = 0; i < edges; ++i) {
        const uint32_t q = goal.neighbours[i];
        if (q == kNoNeighbour || rows[size_t(q) * kSlots + k] > rg[k]) continue;
        slack = std::max(slack, edge_reach[i]);
      }
    }
    if (slack < 0) slack = farthest;
    const int upper = rg[k] + 1 + std::min<int>(UpSteps(slack * rate, step), crossing[goal.global]);
    if (upper < kUnreached) out->goal_upper_[k] = int16_t(upper);
  }
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
  return (rows.size() + crossing.size()) * sizeof(int16_t);
}

bool LandmarkTable::has_distance_rows() const { return !distance_.empty(); }

size_t LandmarkTable::bytes() const { return cost_.bytes() + distance_.bytes(); }

float LandmarkTable::LowerBound(uint32_t a, uint32_t b) const {
  if (empty()) return 0.0f;
  // Towards anywhere in b: b's row plus its whole crossing, and the floor's step.
  GoalBound towards_b;
  cost_.AnywhereRows(b, &towards_b);
  return std::max(cost_.Bound(a, towards_b.goal_row_.data(), towards_b.goal_upper_.data()), 0) *
         cost_.step;
}

float LandmarkTable::FilterScale(const QueryFilter& filter) const {
  return cost_.Scale(filter, areas_present_);
}

LandmarkTable::GoalBound LandmarkTable::ForGoal(const QueryFilter& filter, uint32_t start,
                                                const Goal& goal) const {
  GoalBound best;
  if (empty()) return best;
  // The row set is chosen on the cheap polygon-to-polygon bound; only the chosen one gets the
  // goal point's rows (a look at every neighbour's row per landmark).
  float best_value = -1;
  for (const Metric* m : {&cost_, &distance_}) {
    if (m->empty()) continue;
    GoalBound b;
    b.metric_ = m;
    b.scale_ = m->Scale(filter, areas_present_);
    m->AnywhereRows(goal.global, &b);
    const float value = b.From(start);
    if (value > best_value) {
      best = b;
      best_value = value;
    }
  }
  if (goal.tile != nullptr) best.metric_->GoalRows(goal, link_end_[goal.global], &best);
  return best;
}

float LandmarkTable::GoalBound::From(uint32_t global) const {
  if (metric_ == nullptr) return 0.0f;
  const int steps = metric_->Bound(global, goal_row_.data(), goal_upper_.data());
  return steps > 0 ? float(steps) * metric_->step * scale_ : 0.0f;
}

}  // namespace waymesh
