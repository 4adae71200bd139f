#pragma once
// One exact query's landmark bound (exact_landmark_table.h): a lower bound of the plan distance
// from any point of a part of a polygon edge to the goal, from the triangle inequality
// d(p, goal) >= d(L, goal) - d(L, p) and >= d(L, p) - d(L, goal) for each landmark L. Every
// landmark distance is used as an interval [lower, upper]: the stored floor, one step above
// it, and a margin for float error in the floods; points off the vertices get the slack of
// the straight line to the nearer vertex (|d(L, p) - d(L, u)| <= |u p|).

#include <algorithm>
#include <array>
#include <cstdint>
#include <utility>

#include "exact/interval_geometry.h"
#include "waymesh/core/exact_landmark_table.h"
#include "waymesh/core/nav_map.h"

namespace waymesh::internal::exact {

class LandmarkBound {
 public:
  // Float error the floods' distances may carry (m; they sum a few hundred double lengths).
  static constexpr double kMargin = 1e-4;
  // Landmarks one query consults (Choose).
  static constexpr uint32_t kActive = 6;

  // Prepares the bound towards `goal` in polygon `poly` of tile `t`; inactive when `table` is
  // null or empty.
  void Begin(const ExactLandmarkTable* table, const TileView& t, uint32_t poly, Point2 goal) {
    table_ = table != nullptr && !table->empty() ? table : nullptr;
    if (table_ == nullptr) return;
    const uint32_t count = table_->count();
    Bracket(t, poly, goal, &goal_lo_, &goal_hi_);
    active_count_ = count;
    for (uint32_t k = 0; k < count; ++k) active_[k] = k;
  }

  // Keeps the kActive landmarks that bound the distance from `from` (in polygon `poly` of
  // tile `t`: the start, then the search's frontier) to the goal best: a landmark that bounds
  // the rest of the way poorly rarely bounds a part of it well, and each one costs every
  // successor a row (the ALT practice).
  void Choose(const TileView& t, uint32_t poly, Point2 from) {
    if (table_ == nullptr) return;
    std::array<double, ExactLandmarkTable::kMaxCount> lo, hi;
    Bracket(t, poly, from, &lo, &hi);
    std::array<std::pair<double, uint32_t>, ExactLandmarkTable::kMaxCount> score;
    const uint32_t count = table_->count();
    for (uint32_t k = 0; k < count; ++k) {
      const bool known = goal_hi_[k] < INFINITY && hi[k] < INFINITY;
      score[k] = {known ? std::max(goal_lo_[k] - hi[k], lo[k] - goal_hi_[k]) : -INFINITY, k};
    }
    active_count_ = std::min(count, kActive);
    std::partial_sort(score.begin(), score.begin() + active_count_, score.begin() + count,
                      [](const auto& x, const auto& y) { return x > y; });
    for (uint32_t i = 0; i < active_count_; ++i) active_[i] = score[i].second;
  }

  bool active() const { return table_ != nullptr; }

  // A lower bound of the plan length of any path from `root` through the part [lo, hi] of the
  // edge from vertex iu (at u) to vertex iv (at v) of tile `tile` on to the goal; at least
  // `straight`, the distance from the root to that part.
  //
  // Per landmark the part's distance to the goal is bounded by a piecewise linear function of
  // the edge parameter t whose slopes are -|u v| then +|u v| (a valley; see below), and the
  // root's distance |root p(t)| changes by at most |u v| per unit of t: the sum falls until the
  // valley's kink and rises after it, so its least value over the part is at the kink (clamped
  // to the part). Bounding the two terms together there, rather than each at its own least
  // point, keeps the bound when the point nearest the root is far from the kink.
  double EdgeBound(uint32_t tile, uint32_t iu, uint32_t iv, Point2 u, Point2 v, double lo,
                   double hi, Point2 root, double straight) const {
    const uint16_t* ru = table_->Row(tile, iu);
    const uint16_t* rv = table_->Row(tile, iv);
    const double len = Dist(u, v);
    double best = straight;
    for (uint32_t i = 0; i < active_count_; ++i) {
      const uint32_t k = active_[i];
      if (ru[k] == ExactLandmarkTable::kUnknown || rv[k] == ExactLandmarkTable::kUnknown ||
          goal_hi_[k] == INFINITY) {
        continue;
      }
      // Over the edge part, d(L, p) stays below min(upper_u + t len, upper_v + (1 - t) len),
      // a tent whose peak is where the two lines cross, and above max(lower_u - t len,
      // lower_v - (1 - t) len), a valley; d(L, goal) - tent and valley - d(L, goal) are the
      // two valleys of d(p, goal).
      const double uu = Upper(ru[k]), uv = Upper(rv[k]), lu = Lower(ru[k]), lv = Lower(rv[k]);
      const double peak = Clamp(len > 0 ? (uv - uu + len) / (2 * len) : 0, lo, hi);
      const double floor = Clamp(len > 0 ? (lu - lv + len) / (2 * len) : 0, lo, hi);
      const double below = goal_lo_[k] - std::min(uu + peak * len, uv + (1 - peak) * len);
      const double above = std::max(lu - floor * len, lv - (1 - floor) * len) - goal_hi_[k];
      // |root p| <= straight + len: a term that cannot beat `best` even so needs no sqrt.
      if (below + straight + len > best)
        best = std::max(best, below + Dist(root, Along(u, v, peak)));
      if (above + straight + len > best)
        best = std::max(best, above + Dist(root, Along(u, v, floor)));
    }
    return best;
  }

 private:
  using Distances = std::array<double, ExactLandmarkTable::kMaxCount>;
  // Each landmark's distance to point `p` inside polygon `poly` of tile `t`, from below and
  // above (-/+ infinity: unknown): the polygon is convex, so the straight line joins p to
  // every corner.
  void Bracket(const TileView& t, uint32_t poly, Point2 p, Distances* lo, Distances* hi) const {
    lo->fill(-INFINITY);
    hi->fill(INFINITY);
    for (uint32_t i = 0, n = t.corner_count(poly); i < n; ++i) {
      const uint32_t v = t.poly_verts[t.poly_start[poly] + i];
      const double reach = Dist(ToPoint2(t.vertices[v]), p);
      const uint16_t* row = table_->Row(t.index, v);
      for (uint32_t k = 0; k < table_->count(); ++k) {
        if (row[k] == ExactLandmarkTable::kUnknown) continue;
        (*lo)[k] = std::max((*lo)[k], Lower(row[k]) - reach);
        (*hi)[k] = std::min((*hi)[k], Upper(row[k]) + reach);
      }
    }
  }
  static double Clamp(double t, double lo, double hi) { return std::min(std::max(t, lo), hi); }
  double Lower(uint16_t steps) const { return steps * table_->step() - kMargin; }
  double Upper(uint16_t steps) const { return (steps + 1) * table_->step() + kMargin; }

  const ExactLandmarkTable* table_ = nullptr;
  // Per landmark, the goal's distance from below and from above (-/+ infinity: unknown).
  // Uninitialised until Begin: a search without a table never reads them.
  Distances goal_lo_, goal_hi_;
  // The landmarks EdgeBound consults (Choose).
  std::array<uint32_t, ExactLandmarkTable::kMaxCount> active_;
  uint32_t active_count_ = 0;
};

}  // namespace waymesh::internal::exact
