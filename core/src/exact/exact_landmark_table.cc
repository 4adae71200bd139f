#include "waymesh/core/exact_landmark_table.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <memory>

#include "absl/container/flat_hash_map.h"
#include "exact/exact_search.h"
#include "exact/landmark_placement.h"
#include "exact/landmark_row_relax.h"
#include "query_context.h"

namespace waymesh {
namespace {

using internal::QueryContext;
using internal::exact::VertexDistances;

// Every area and flag at cost 1: the least any exact query (uniform costs) measures.
QueryFilter FloodFilter(const MapInfo& info) {
  QueryFilter filter(info);
  for (int a = 0; a < kMaxAreas; ++a) filter.SetAreaCost(a, 1.0f);
  return filter;
}

// A flood leaves a vertex repeated at a tile seam unreached in the tile whose polygons no
// cone entered near it; both copies are one point: each gets the smaller distance.
void MergeSeamCopies(const NavMap& map, VertexDistances* d) {
  if (map.tile_count() < 2) return;
  using Key = std::array<uint32_t, 3>;
  absl::flat_hash_map<Key, double> best;
  const auto key = [](Vec3 v) {
    return Key{std::bit_cast<uint32_t>(v.x), std::bit_cast<uint32_t>(v.y),
               std::bit_cast<uint32_t>(v.z)};
  };
  for (const TileView& t : map.tiles()) {
    for (uint32_t v = 0; v < t.vertices.size(); ++v) {
      auto [it, added] = best.try_emplace(key(t.vertices[v]), (*d)[t.index][v]);
      if (!added) it->second = std::min(it->second, (*d)[t.index][v]);
    }
  }
  for (const TileView& t : map.tiles()) {
    for (uint32_t v = 0; v < t.vertices.size(); ++v) (*d)[t.index][v] = best[key(t.vertices[v])];
  }
}

}  // namespace

ExactLandmarkTable ExactLandmarkTable::Build(const NavMap& map, uint32_t count) {
  ExactLandmarkTable table;
  count = std::min(count, kMaxCount);
  if (count == 0 || map.paged() || map.tile_count() == 0) return table;
  uint64_t polygons = 0;
  for (const TileView& t : map.tiles()) polygons += t.poly_count();
  if (polygons < kMinPolygons || polygons >= 0xFFFFFFFFull) return table;
  // A non-owning handle: the map outlives this call.
  QueryContext ctx(std::shared_ptr<const NavMap>(std::shared_ptr<const NavMap>(), &map),
                   uint32_t(polygons), /*use_landmarks=*/false, /*use_dead_ends=*/false,
                   /*use_hierarchy=*/false);
  const QueryFilter filter = FloodFilter(map.info());
  const internal::exact::LandmarkRowRelaxer relaxer(map);
  const internal::exact::PlacedLandmarks placed = internal::exact::PlaceLandmarks(
      ctx, count, [&](const SurfacePoint& from, VertexDistances* out) {
        internal::exact::FloodExact(ctx, from, filter, out);
        MergeSeamCopies(map, out);
        relaxer.Relax(out);
      });
  table.landmarks_ = placed.positions;
  const std::vector<VertexDistances>& floods = placed.floods;
  double longest = 0;
  for (const VertexDistances& f : floods) {
    for (const auto& tile : f) {
      for (double d : tile) {
        if (std::isfinite(d)) longest = std::max(longest, d);
      }
    }
  }
  if (floods.empty() || !(longest > 0)) return ExactLandmarkTable();
  table.count_ = uint32_t(floods.size());
  // kUnknown - 1 steps cover the longest distance; values are floored.
  table.step_ = longest / double(kUnknown - 1) * (1 + 1e-9);
  table.vertex_base_.assign(1, 0);
  for (const TileView& t : map.tiles()) {
    table.vertex_base_.push_back(table.vertex_base_.back() + uint32_t(t.vertices.size()));
  }
  table.rows_.assign(size_t(table.vertex_base_.back()) * table.count_, kUnknown);
  for (uint32_t k = 0; k < table.count_; ++k) {
    for (uint32_t t = 0; t < map.tile_count(); ++t) {
      for (uint32_t v = 0; v < floods[k][t].size(); ++v) {
        const double d = floods[k][t][v];
        if (!std::isfinite(d)) continue;
        const double steps = std::min(std::floor(d / table.step_), double(kUnknown - 1));
        table.rows_[(size_t(table.vertex_base_[t]) + v) * table.count_ + k] = uint16_t(steps);
      }
    }
  }
  return table;
}

bool ExactLandmarkTable::Fits(const NavMap& map) const {
  if (empty() || vertex_base_.size() != size_t(map.tile_count()) + 1) return false;
  // A paged map is never carved (obstacle layers carve resident copies); its tiles' vertex
  // counts are in the digest, so checking it loads no tile.
  if (!map.paged()) {
    for (const TileView& t : map.tiles()) {
      if (!t.poly_origin.empty()) return false;  // carved: other vertices
    }
  }
  for (uint32_t i = 0; i < map.tile_count(); ++i) {
    if (vertex_base_[i + 1] - vertex_base_[i] != map.summary(i).vertex_count) return false;
  }
  return true;
}

size_t ExactLandmarkTable::bytes() const {
  return rows_.size() * sizeof(uint16_t) + vertex_base_.size() * sizeof(uint32_t) +
         landmarks_.size() * sizeof(Vec3);
}

}  // namespace waymesh
