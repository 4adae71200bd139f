#include "reachability_sample.h"

#include <random>

#include "waymesh/format/finding_place.h"

namespace waymesh {
namespace {

void AppendCentroids(const NavMap& map, std::vector<Vec3>* points) {
  for (const TileView& t : map.tiles()) {
    for (uint32_t p = 0; p < t.poly_count(); ++p) points->push_back(PolygonCentroid(t, p));
  }
}

QueryStatus PathStatus(NavQuery& query, Vec3 a, Vec3 b, const PathOptions& options,
                       PathResult* result) {
  const QueryFilter filter(query.map().info());
  if (!query.FindPath(a, b, filter, options, result).ok()) return QueryStatus::kNoPath;
  return result->status;
}

}  // namespace

ReachabilitySample CompareReachability(NavQuery& old_query, NavQuery& new_query,
                                       const MapDiffOptions& options) {
  std::vector<Vec3> points;
  AppendCentroids(old_query.map(), &points);
  AppendCentroids(new_query.map(), &points);
  ReachabilitySample out;
  if (points.empty()) return out;
  // mt19937_64's output sequence is fixed by the standard; the reduction below is ours, so the
  // pairs are the same with every standard library.
  std::mt19937_64 rng(options.seed);
  PathOptions path_options;
  path_options.half_extents = options.half_extents;
  PathResult result;
  for (uint32_t i = 0; i < options.reachability_pairs; ++i) {
    const Vec3 a = points[rng() % points.size()];
    const Vec3 b = points[rng() % points.size()];
    const QueryStatus before = PathStatus(old_query, a, b, path_options, &result);
    const QueryStatus after = PathStatus(new_query, a, b, path_options, &result);
    ++out.pairs;
    if ((before == QueryStatus::kComplete) != (after == QueryStatus::kComplete)) {
      out.flips.push_back({a, b, before, after});
    }
  }
  return out;
}

}  // namespace waymesh
