#pragma once
// Where the exact landmark table's landmarks go (exact_landmark_table.cc). A landmark L bounds
// d(s, g) tightly when s or g lies on a shortest path from L to the other, so the landmarks
// should sit behind the routes whose bound is loosest. Farthest-point sampling rings the map
// without looking at routes; "avoid" (Goldberg & Werneck, ALENEX 2005) looks: it floods a
// sample root and puts a landmark beyond where the landmarks so far bound the root's distances
// worst; a "maxcover"-style swap search (same paper) then keeps the candidates that bound
// sampled pairs best.

#include <cstdint>
#include <functional>
#include <vector>

#include "exact/exact_search.h"
#include "query_context.h"
#include "waymesh/core/surface_point.h"

namespace waymesh::internal::exact {

// Writes the distances from a point to every vertex as the table stores them (exact flood,
// seam copies merged, rows relaxed).
using LandmarkFlood = std::function<void(const SurfacePoint& from, VertexDistances* out)>;

// Chosen landmark positions, each with its flood (same order).
struct PlacedLandmarks {
  std::vector<Vec3> positions;
  std::vector<VertexDistances> floods;
};

// Up to `count` landmarks on the largest island of ctx's resident map: the `count`
// farthest-point candidates, with improving swaps against count / 2 "avoid" ones (from random
// roots, fixed seed) for the best bound summed over sampled (root, vertex) pairs, weighted by
// their distance. Fewer when the island has fewer far points.
PlacedLandmarks PlaceLandmarks(QueryContext& ctx, uint32_t count, const LandmarkFlood& flood);

}  // namespace waymesh::internal::exact
