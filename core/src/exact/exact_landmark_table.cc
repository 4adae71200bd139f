#include "waymesh/core/exact_landmark_table.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <utility>

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

}  // namespace

ExactLandmarkTable ExactLandmarkTable::Build(const NavMap& map, uint32_t count) {
  ExactLandmarkTable table;
  count = std::min(count, kMaxCount);
  if (count == 0 || map.paged() || map.tile_count() == 0) return table;
  uint64_t polygons = 0, vertices = 0;
  for (const TileView& t : map.tiles()) {
    polygons += t.poly_count();
    vertices += t.vertices.size();
  }
  // Rows are indexed through 32-bit vertex bases.
  if (polygons < kMinPolygons || polygons >= 0xFFFFFFFFull || vertices >= 0xFFFFFFFFull) {
    return table;
  }
  // A non-owning handle: the map outlives this call.
  QueryContext ctx(std::shared_ptr<const NavMap>(std::shared_ptr<const NavMap>(), &map),
                   uint32_t(polygons), /*use_landmarks=*/false, /*use_dead_ends=*/false,
                   /*use_hierarchy=*/false);
  const QueryFilter filter = FloodFilter(map.info());
  const internal::exact::LandmarkRowRelaxer relaxer(map);
  const internal::exact::PlacedLandmarks placed = internal::exact::PlaceLandmarks(
      ctx, count, [&](const SurfacePoint& from, VertexDistances* out) {
        internal::exact::FloodExact(ctx, from, filter, out);
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
  table.vertex_base_ = map.VertexBases();
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

ExactLandmarkTable::ExactLandmarkTable(double step, std::vector<Vec3> landmarks,
                                       std::vector<uint32_t> vertex_base,
                                       std::vector<uint16_t> rows)
    : count_(uint32_t(landmarks.size())),
      step_(step),
      landmarks_(std::move(landmarks)),
      vertex_base_(std::move(vertex_base)),
      rows_(std::move(rows)) {
  // A programming error of the reader, which checks every part against the map file.
  if (count_ == 0 || count_ > kMaxCount || !(step_ > 0) || vertex_base_.empty() ||
      rows_.size() != size_t(vertex_base_.back()) * count_) {
    std::abort();
  }
}

bool ExactLandmarkTable::Fits(const NavMap& map) const {
  if (empty()) return false;
  // A paged map is never carved (obstacle layers carve resident copies); its tiles' vertex
  // counts are in the digest, so checking it loads no tile.
  if (!map.paged()) {
    for (const TileView& t : map.tiles()) {
      if (!t.poly_origin.empty()) return false;  // carved: other vertices
    }
  }
  return vertex_base_ == map.VertexBases();
}

size_t ExactLandmarkTable::bytes() const {
  return rows_.size() * sizeof(uint16_t) + vertex_base_.size() * sizeof(uint32_t) +
         landmarks_.size() * sizeof(Vec3);
}

}  // namespace waymesh
