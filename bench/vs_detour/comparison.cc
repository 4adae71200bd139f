#include "vs_detour/comparison.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "bench_tolerances.h"
#include "common/stopwatch.h"
#include "vs_detour/wall_crossing.h"

namespace waymesh::bench {
namespace {

// Latency samples of one operation for both libraries.
struct Samples {
  std::vector<double> waymesh, detour;
};

template <typename Fn>
double TimeNs(Fn&& fn) {
  const Stopwatch watch;
  fn();
  return watch.ElapsedNs();
}

// Runs `wm` and `dt` in the given order, recording each one's time.
template <typename Wm, typename Dt>
void TimePair(bool waymesh_first, Samples* samples, Wm&& wm, Dt&& dt) {
  if (waymesh_first) {
    samples->waymesh.push_back(TimeNs(wm));
    samples->detour.push_back(TimeNs(dt));
  } else {
    samples->detour.push_back(TimeNs(dt));
    samples->waymesh.push_back(TimeNs(wm));
  }
}

// Exact mode's length statistics: ratio to the optimum over the queries it completes.
void ScoreExact(const std::vector<QueryCase>& queries, const std::vector<PathOutcome>& ex,
                LibraryResult* out) {
  std::vector<double> ratio;
  std::vector<uint32_t> expanded;
  for (size_t i = 0; i < queries.size(); ++i) {
    out->complete += ex[i].complete;
    out->mean_expanded += double(ex[i].expanded) / double(queries.size());
    expanded.push_back(ex[i].expanded);
    const double optimum = queries[i].optimum;
    if (!ex[i].complete || optimum <= 0) continue;
    ratio.push_back(ex[i].length / optimum);
    out->below_optimum += ex[i].length < optimum * (1 - tol::kPublishedLengthTolerance);
  }
  out->length = SummarizeRatios(ratio);
  if (!expanded.empty()) {
    // Long routes dominate the tail; the mean alone hides whether they improved.
    std::sort(expanded.begin(), expanded.end());
    out->median_expanded = expanded[expanded.size() / 2];
    out->p90_expanded = expanded[(expanded.size() * 9) / 10];
  }
}

// Length statistics from the first repetition's outcomes.
void ScoreLengths(const std::vector<QueryCase>& queries, const std::vector<PathOutcome>& wm,
                  const std::vector<PathOutcome>& dt, MapComparison* out) {
  std::vector<double> wm_ratio, dt_ratio, wm_vs_dt;
  for (size_t i = 0; i < queries.size(); ++i) {
    out->waymesh.complete += wm[i].complete;
    out->detour.complete += dt[i].complete;
    out->waymesh.mean_expanded += double(wm[i].expanded) / double(queries.size());
    out->detour.mean_expanded += double(dt[i].expanded) / double(queries.size());
    const double optimum = queries[i].optimum;
    for (auto [outcome, result] : {std::pair{&wm[i], &out->waymesh}, {&dt[i], &out->detour}}) {
      if (outcome->complete && optimum >= 0 &&
          outcome->length < optimum * (1 - tol::kPublishedLengthTolerance)) {
        ++result->below_optimum;
      }
    }
    if (!wm[i].complete || !dt[i].complete) continue;
    if (optimum > 0) {
      wm_ratio.push_back(wm[i].length / optimum);
      dt_ratio.push_back(dt[i].length / optimum);
    }
    if (dt[i].length > 0) wm_vs_dt.push_back(wm[i].length / dt[i].length);
  }
  out->waymesh.length = SummarizeRatios(wm_ratio);
  out->detour.length = SummarizeRatios(dt_ratio);
  out->length_vs_detour = SummarizeRatios(wm_vs_dt);
}

// Raycast agreement between the libraries, and with the first wall crossing on single-floor
// maps (all queries have a published optimum only there).
void ScoreRays(const NavMap& map, const std::vector<QueryCase>& queries, WaymeshRunner& waymesh,
               DetourRunner& detour, DetourRunner& detour_rays, MapComparison* out) {
  const bool single_floor = std::all_of(queries.begin(), queries.end(),
                                        [](const QueryCase& q) { return q.optimum >= 0; });
  std::optional<WallCrossing> truth;
  if (single_floor) {
    truth.emplace(map);
    out->rays_true_waymesh = out->rays_true_detour = 0;
  }
  auto same = [](float a, float b) { return std::fabs(a - b) < tol::kRayFractionAgreement; };
  for (size_t i = 0; i < queries.size(); ++i) {
    // Detour reports "no hit" as FLT_MAX, Waymesh as 1.
    const float wm = std::min(waymesh.Raycast(i, queries[i].goal), 1.0f);
    const float dt = std::min(detour.Raycast(i, queries[i].goal), 1.0f);
    const float dt_cut = std::min(detour_rays.Raycast(i, queries[i].goal), 1.0f);
    out->rays_agreeing += same(wm, dt);
    out->rays_agreeing_cut += same(wm, dt_cut);
    if (truth) {
      const float t = truth->FirstCrossing(queries[i].start, queries[i].goal);
      out->rays_true_waymesh += same(wm, t);
      out->rays_true_detour += same(dt_cut, t);
    }
  }
}

}  // namespace

MapComparison CompareOnMap(const std::string& name, const NavMap& nav_map,
                           const std::vector<QueryCase>& queries, uint32_t repetitions,
                           WaymeshRunner& waymesh, DetourRunner& detour, DetourRunner& detour_rays,
                           bool exact_only) {
  MapComparison out;
  out.map = name;
  out.queries = queries.size();
  out.repetitions = repetitions;
  waymesh.PrepareRays(queries);
  detour.PrepareRays(queries);
  detour_rays.PrepareRays(queries);
  std::vector<PathOutcome> wm_paths(queries.size()), dt_paths(queries.size());
  std::vector<PathOutcome> ex_paths(queries.size());
  for (size_t i = 0; i < queries.size(); ++i) {  // warm-up, and the outcomes to score
    wm_paths[i] = waymesh.FindPath(queries[i].start, queries[i].goal);
    ex_paths[i] = waymesh.FindExactPath(queries[i].start, queries[i].goal);
    dt_paths[i] = detour.FindPath(queries[i].start, queries[i].goal);
    dt_paths[i].expanded = detour.LastExpanded();
  }
  ScoreLengths(queries, wm_paths, dt_paths, &out);
  ScoreExact(queries, ex_paths, &out.exact);
  ScoreRays(nav_map, queries, waymesh, detour, detour_rays, &out);

  Samples path, nearest, ray;
  std::vector<double> exact_path;
  exact_path.reserve(queries.size() * repetitions);
  for (Samples* s : {&path, &nearest, &ray}) {
    s->waymesh.reserve(queries.size() * repetitions);
    s->detour.reserve(queries.size() * repetitions);
  }
  volatile double sink = 0;  // keeps the calls from being optimised away
  for (uint32_t rep = 0; rep < repetitions; ++rep) {
    for (size_t i = 0; i < queries.size(); ++i) {
      const QueryCase& q = queries[i];
      const bool waymesh_first = ((rep + i) & 1) == 0;
      // Exact mode runs before both or after both, alternating like the other two.
      auto exact = [&] {
        exact_path.push_back(
            TimeNs([&] { sink = sink + waymesh.FindExactPath(q.start, q.goal).length; }));
      };
      if (exact_only) {
        exact();
        continue;
      }
      if (waymesh_first) exact();
      TimePair(
          waymesh_first, &path, [&] { sink = sink + waymesh.FindPath(q.start, q.goal).length; },
          [&] { sink = sink + detour.FindPath(q.start, q.goal).length; });
      if (!waymesh_first) exact();
      TimePair(
          waymesh_first, &nearest, [&] { sink = sink + waymesh.Nearest(q.start); },
          [&] { sink = sink + detour.Nearest(q.start); });
      TimePair(
          waymesh_first, &ray, [&] { sink = sink + waymesh.Raycast(i, q.goal); },
          [&] { sink = sink + detour_rays.Raycast(i, q.goal); });
    }
  }
  out.waymesh.path = SummarizeLatency(path.waymesh);
  out.detour.path = SummarizeLatency(path.detour);
  out.exact.path = SummarizeLatency(exact_path);
  out.waymesh.nearest = SummarizeLatency(nearest.waymesh);
  out.detour.nearest = SummarizeLatency(nearest.detour);
  out.waymesh.raycast = SummarizeLatency(ray.waymesh);
  out.detour.raycast = SummarizeLatency(ray.detour);
  return out;
}

}  // namespace waymesh::bench
