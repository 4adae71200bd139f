#pragma once
// Cutting one convex polygon of a tile by obstacle footprints into convex pieces whose edges
// remember the line they lie on, so that pieces of neighbouring polygons (in this tile or the
// next) compute bit-identical crossing points and can be stitched without tolerances.

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/inlined_vector.h"
#include "waymesh/core/nav_map.h"
#include "waymesh/core/obstacles/footprint.h"
#include "waymesh/core/vec3.h"
#include "word_hash.h"

namespace waymesh::obstacles {

// The line an edge lies on: an edge of the base map (both its polygons name it by its two end
// positions, canonically ordered) or a footprint edge inside one base polygon.
struct LineKey {
  enum Kind : uint32_t { kBaseEdge = 0, kCutLine = 1 };
  // kBaseEdge: kind, then the float bits of the canonical end positions (a.x a.y a.z b.x b.y b.z).
  // kCutLine: kind, tile, base polygon, footprint, footprint edge, 0, 0.
  std::array<uint32_t, 7> words{};
  friend bool operator==(const LineKey&, const LineKey&) = default;
  template <typename H>
  friend H AbslHashValue(H h, const LineKey& k) {
    return H::combine(std::move(h), HashWords(k.words));
  }
  Kind kind() const { return Kind(words[0]); }
};

LineKey BaseEdgeKey(Vec3 a, Vec3 b);
LineKey CutLineKey(uint32_t tile, uint32_t poly, uint32_t footprint, uint32_t edge);

// The corners of pieces lying on one line; most lines hold a few, kept inline so that
// gathering a tile's points does not allocate per line.
using LinePoints = absl::InlinedVector<Vec3, 4>;
// Per line, the corners of pieces lying on it: the T-junction points its edges receive.
using PointsOnLine = absl::flat_hash_map<LineKey, LinePoints>;

struct PieceCorner {
  Vec3 pos;
  LineKey next;            // line of the edge from this corner to the next
  int32_t base_edge = -1;  // that edge lies on this edge of the base polygon, or -1
};

struct Piece {
  std::vector<PieceCorner> corners;  // convex, map winding
  uint8_t area = 0;
};

// Twice the plan-view area of a piece (> 0 in the map winding).
double PieceArea2(const Piece& piece);

// Cuts base polygon `poly` of `tile` by `footprints` (in order: a block removes, an area sets
// the area id of what lies under it). Returns false, leaving *pieces empty, when no footprint
// reaches the polygon; otherwise the pieces that remain (possibly none).
bool CutPolygon(const TileView& tile, uint32_t poly, std::span<const Footprint> footprints,
                std::span<const uint32_t> candidate_footprints, std::vector<Piece>* pieces);

}  // namespace waymesh::obstacles
