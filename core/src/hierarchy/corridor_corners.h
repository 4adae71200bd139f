#pragma once
// Corridors written as the corner index of the edge each polygon is left by (what
// ClusterCorridors stores), and back.

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "corridor.h"
#include "query_context.h"

namespace waymesh::internal {

// The corner index of the edge of polygon `from` that leads to `to`, or nullopt when they do
// not touch.
std::optional<uint32_t> EdgeTowards(const QueryContext& ctx, PolyIndex from, PolyIndex to);

// The corner indices of `steps` walked first to last (`reverse`: last to first), or nullopt
// when a step takes an off-mesh link or two steps do not share an edge.
std::optional<std::vector<uint8_t>> CornersOf(const QueryContext& ctx,
                                              std::span<const CorridorStep> steps, bool reverse);

// The corridor that starts on polygon `from` and leaves each polygon by the given corners,
// into *steps; false when a corner is out of range or a wall (a damaged store).
bool WalkCorners(const QueryContext& ctx, PolyIndex from, std::span<const uint8_t> corners,
                 std::vector<CorridorStep>* steps);

// `steps` walked from its last polygon to its first (each polygon entered across its edge
// towards the previous one); false, with *steps undefined, when two steps share no edge.
bool ReverseCorridor(const QueryContext& ctx, std::vector<CorridorStep>* steps);

}  // namespace waymesh::internal
