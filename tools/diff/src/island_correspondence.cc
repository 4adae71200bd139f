#include "island_correspondence.h"

#include <algorithm>
#include <tuple>

#include "waymesh/diff/diff_tolerances.h"
#include "waymesh/format/finding_place.h"

namespace waymesh {
namespace {

struct Landing {
  uint32_t old_island;
  uint32_t new_island;
  Vec3 where;
};

// Old polygon -> new polygon of the same shape, if there is one.
class ShapeLookup {
 public:
  ShapeLookup(const NavMap& old_map, std::span<const std::pair<PolyIndex, PolyIndex>> same_shape) {
    first_of_tile_.reserve(old_map.tile_count());
    uint64_t total = 0;
    for (const TileView& t : old_map.tiles()) {
      first_of_tile_.push_back(total);
      total += t.poly_count();
    }
    new_of_old_.resize(total);
    for (const auto& [before, after] : same_shape) {
      new_of_old_[first_of_tile_[before.tile] + before.poly] = after;
    }
  }
  std::optional<PolyIndex> Find(PolyIndex old) const {
    return new_of_old_[first_of_tile_[old.tile] + old.poly];
  }

 private:
  std::vector<uint64_t> first_of_tile_;
  std::vector<std::optional<PolyIndex>> new_of_old_;
};

std::vector<Landing> SampleLandings(const NavMap& old_map, NavQuery& new_query,
                                    const ShapeLookup& same_shape, uint32_t max_samples) {
  const uint64_t polys = old_map.info().polygon_count;
  const uint64_t stride =
      std::max<uint64_t>(1, (polys + max_samples - 1) / std::max(1u, max_samples));
  const Vec3 reach{tol::kDiffSampleReachXZ, tol::kDiffSampleReachY, tol::kDiffSampleReachXZ};
  const QueryFilter all_areas;
  std::vector<bool> island_sampled(old_map.info().islands.size(), false);
  std::vector<Landing> landings;
  uint64_t index = 0;
  for (const TileView& t : old_map.tiles()) {
    for (uint32_t p = 0; p < t.poly_count(); ++p, ++index) {
      const uint32_t island = t.poly_island[p];
      if (index % stride != 0 && island_sampled[island]) continue;
      island_sampled[island] = true;
      const Vec3 c = PolygonCentroid(t, p);
      std::optional<PolyIndex> landed = same_shape.Find({t.index, p});
      if (!landed) {
        const absl::StatusOr<std::optional<SurfacePoint>> hit =
            new_query.NearestPoint(c, reach, all_areas);
        // A centroid is finite and the map resident: the lookup cannot fail.
        if (!hit.ok() || !*hit || DistanceXZ((*hit)->pos, c) > tol::kDiffSampleReachXZ) continue;
        landed = (*hit)->poly.index();
      }
      const TileView& nt = new_query.map().tile(landed->tile);
      landings.push_back({island, nt.poly_island[landed->poly], c});
    }
  }
  return landings;
}

// Groups landings by `key` and reports each key value that maps to several `other` values.
template <typename Key, typename Other>
void FindFanOut(std::vector<Landing> landings, Key key, Other other, bool merged,
                std::vector<IslandChange>* out) {
  std::sort(landings.begin(), landings.end(), [&](const Landing& a, const Landing& b) {
    return std::make_tuple(key(a), other(a)) < std::make_tuple(key(b), other(b));
  });
  for (size_t i = 0; i < landings.size();) {
    size_t j = i;
    IslandChange change;
    change.merged = merged;
    change.island = key(landings[i]);
    for (; j < landings.size() && key(landings[j]) == change.island; ++j) {
      if (change.parts.empty() || change.parts.back() != other(landings[j])) {
        change.parts.push_back(other(landings[j]));
        change.part_positions.push_back(landings[j].where);
      }
    }
    if (change.parts.size() > 1) out->push_back(std::move(change));
    i = j;
  }
}

}  // namespace

std::vector<IslandChange> CompareIslands(
    const NavMap& old_map, NavQuery& new_query,
    std::span<const std::pair<PolyIndex, PolyIndex>> same_shape, uint32_t max_samples) {
  const std::vector<Landing> landings =
      SampleLandings(old_map, new_query, ShapeLookup(old_map, same_shape), max_samples);
  std::vector<IslandChange> changes;
  auto old_island = [](const Landing& l) { return l.old_island; };
  auto new_island = [](const Landing& l) { return l.new_island; };
  FindFanOut(landings, new_island, old_island, /*merged=*/true, &changes);
  FindFanOut(landings, old_island, new_island, /*merged=*/false, &changes);
  return changes;
}

}  // namespace waymesh
