#pragma once
// Exact landmark distances for the exact (interval) search: the Euclidean geodesic distance,
// in plan view, from a few well-spread landmark points to every vertex of the map, measured by
// one exhaustive interval search per landmark. Through the triangle inequality two rows bound
// the distance between any point of a polygon edge and the goal from below, which sees round
// the buildings that the straight-line estimate looks through (exact_search.cc).
//
// Unlike LandmarkTable (polygon floods, whose taut paths may exceed the optimum), every
// stored value brackets the true distance: it is floored to a 16-bit step, and readers add one
// step and a float margin for the upper bound. Off-mesh links count at their plan span, the
// least any exact query may pay for one (exact search uses the table only when its heuristic
// keeps factor 1, i.e. no allowed link costs less than its span). Optional: built only when
// asked for (SearchTables::Options::exact_landmarks), since the floods take seconds on a large
// map and the rows cost 2 bytes per landmark and vertex.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "waymesh/core/nav_map.h"

namespace waymesh {

class ExactLandmarkTable {
 public:
  static constexpr uint32_t kDefaultCount = 16;
  static constexpr uint32_t kMaxCount = 16;
  // Maps with fewer polygons search fast with the straight-line bound alone (arena: 13
  // expansions a query, which the table's per-node work would slow): no table is built.
  static constexpr uint32_t kMinPolygons = 1024;
  // A vertex no flood reached (another island, or a polygon no filter can enter).
  static constexpr uint16_t kUnknown = 0xFFFF;

  ExactLandmarkTable() = default;
  // Up to `count` (at most kMaxCount) landmarks on the largest island, chosen among
  // farthest-point and "avoid" candidates for how well they bound sampled distances
  // (landmark_placement.h), each with one exhaustive interval search over every area and flag.
  static ExactLandmarkTable Build(const NavMap& map, uint32_t count = kDefaultCount);
  // A table as stored in a map file (loader/format: exact landmark section), from its parts:
  // 1 to kMaxCount landmarks, step > 0, vertex_base as NavMap::VertexBases of its map and
  // vertex_base.back() * landmarks rows. The reader checks them; inconsistent parts abort.
  ExactLandmarkTable(double step, std::vector<Vec3> landmarks, std::vector<uint32_t> vertex_base,
                     std::vector<uint16_t> rows);

  bool empty() const { return count_ == 0; }
  uint32_t count() const { return count_; }
  // Where landmark k (< count()) stands.
  Vec3 landmark(uint32_t k) const { return landmarks_[k]; }
  // Metres per stored unit.
  double step() const { return step_; }
  // Landmark distances of vertex `vertex` of tile `tile`, floored to steps (kUnknown:
  // unreached); count() values.
  const uint16_t* Row(uint32_t tile, uint32_t vertex) const {
    return rows_.data() + (size_t(vertex_base_[tile]) + vertex) * count_;
  }
  // Every row, vertex-major (Row's layout): what a map file stores.
  std::span<const uint16_t> rows() const { return rows_; }
  // Whether the table was built on a map with these tiles' vertices (not a carved version).
  bool Fits(const NavMap& map) const;
  size_t bytes() const;

 private:
  uint32_t count_ = 0;
  double step_ = 0;
  std::vector<Vec3> landmarks_;
  std::vector<uint32_t> vertex_base_;  // tiles + 1 prefix sums of vertex counts
  std::vector<uint16_t> rows_;         // vertex-major: rows_[vertex * count_ + k]
};

}  // namespace waymesh
