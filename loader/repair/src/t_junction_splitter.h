#pragma once
// Splits T-junctions: a vertex lying on another triangle's edge (within a tolerance) but not
// at its ends splits that edge and its triangle, so both sides of the seam share vertices and
// the edges pair up. Only unpaired (boundary) edges can have T-junctions, so only they are
// indexed, in a plan-view grid.

#include <cstdint>

#include "triangle_soup.h"

namespace waymesh::repair {

// Splits in place (split triangles are replaced by their pieces, order otherwise kept) and
// returns the number of edge splits (vertex-on-edge incidences).
uint64_t SplitTJunctions(float tolerance, TriangleSoup* soup);

}  // namespace waymesh::repair
