#include "exact/landmark_row_relax.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <queue>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "exact/position_key.h"

namespace waymesh::internal::exact {
namespace {

// Turns per-vertex counts (at index v + 1) into CSR starts.
void CountsToStarts(std::vector<uint32_t>* start) {
  for (size_t v = 1; v < start->size(); ++v) (*start)[v] += (*start)[v - 1];
}

}  // namespace

LandmarkRowRelaxer::LandmarkRowRelaxer(const NavMap& map) : map_(map) {
  const uint32_t tiles = map.tile_count();
  polygons_.start.resize(tiles);
  polygons_.items.resize(tiles);
  for (const TileView& t : map.tiles()) {
    std::vector<uint32_t>& start = polygons_.start[t.index];
    start.assign(t.vertices.size() + 1, 0);
    for (const uint32_t v : t.poly_verts) ++start[v + 1];
    CountsToStarts(&start);
    std::vector<uint32_t>& polys = polygons_.items[t.index];
    polys.resize(t.poly_verts.size());
    std::vector<uint32_t> fill(start.begin(), start.end() - 1);
    for (uint32_t p = 0; p < t.poly_count(); ++p) {
      for (uint32_t c = t.poly_start[p]; c < t.poly_start[p + 1]; ++c) {
        polys[fill[t.poly_verts[c]]++] = p;
      }
    }
  }
  absl::flat_hash_map<PositionKey, std::vector<MapVertex>> at;
  for (const TileView& t : map.tiles()) {
    for (uint32_t v = 0; v < t.vertices.size(); ++v)
      at[KeyOf(t.vertices[v])].push_back({t.index, v});
  }
  seam_group_.resize(tiles);
  for (const TileView& t : map.tiles()) seam_group_[t.index].assign(t.vertices.size(), kNoSeam);
  for (const auto& [k, copies] : at) {
    if (copies.size() < 2) continue;
    for (const MapVertex& c : copies)
      seam_group_[c.tile][c.vertex] = uint32_t(seam_start_.size() - 1);
    seam_members_.insert(seam_members_.end(), copies.begin(), copies.end());
    seam_start_.push_back(uint32_t(seam_members_.size()));
  }
}

void LandmarkRowRelaxer::MergeSeamCopies(VertexDistances* d) const {
  for (size_t g = 0; g + 1 < seam_start_.size(); ++g) {
    double least = INFINITY;
    for (uint32_t i = seam_start_[g]; i < seam_start_[g + 1]; ++i) {
      least = std::min(least, (*d)[seam_members_[i].tile][seam_members_[i].vertex]);
    }
    for (uint32_t i = seam_start_[g]; i < seam_start_[g + 1]; ++i) {
      (*d)[seam_members_[i].tile][seam_members_[i].vertex] = least;
    }
  }
}

void LandmarkRowRelaxer::Relax(VertexDistances* d) const {
  MergeSeamCopies(d);
  using Item = std::pair<double, MapVertex>;
  const auto later = [](const Item& x, const Item& y) { return x.first > y.first; };
  std::priority_queue<Item, std::vector<Item>, decltype(later)> open(later);
  for (uint32_t t = 0; t < d->size(); ++t) {
    for (uint32_t v = 0; v < (*d)[t].size(); ++v) {
      if (std::isfinite((*d)[t][v])) open.push({(*d)[t][v], {t, v}});
    }
  }
  // Unreached vertices stay unknown: a corner shared with another island (a pinch, which no
  // interval crosses) must not pass a distance over.
  const auto lower = [&](uint32_t tile, uint32_t v, double value) {
    if (std::isfinite((*d)[tile][v]) && value < (*d)[tile][v]) {
      (*d)[tile][v] = value;
      open.push({value, {tile, v}});
    }
  };
  while (!open.empty()) {
    const auto [dist, at] = open.top();
    open.pop();
    if (dist > (*d)[at.tile][at.vertex]) continue;  // lowered since it was queued
    const TileView& t = map_.tile(at.tile);
    const Point2 from = ToPoint2(t.vertices[at.vertex]);
    const std::vector<uint32_t>& polys = polygons_.items[at.tile];
    for (uint32_t i = polygons_.start[at.tile][at.vertex];
         i < polygons_.start[at.tile][at.vertex + 1]; ++i) {
      for (uint32_t c = t.poly_start[polys[i]]; c < t.poly_start[polys[i] + 1]; ++c) {
        const uint32_t w = t.poly_verts[c];
        lower(at.tile, w, dist + Dist(from, ToPoint2(t.vertices[w])));
      }
    }
    const uint32_t group = seam_group_[at.tile][at.vertex];
    if (group == kNoSeam) continue;
    for (uint32_t i = seam_start_[group]; i < seam_start_[group + 1]; ++i) {
      lower(seam_members_[i].tile, seam_members_[i].vertex, dist);
    }
  }
}

}  // namespace waymesh::internal::exact
