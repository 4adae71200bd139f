#pragma once
// Merging the pieces of one cut polygon back into fewer convex pieces.

#include <vector>

#include "carve_pieces.h"

namespace waymesh::obstacles {

// Greedy merging of pieces of one polygon with the same area while the union stays convex
// (Hertel-Mehlhorn style): cutting by every footprint edge leaves many slivers. Always merges
// the first mergeable pair in (piece, piece, corner, corner) order, so the result depends only
// on the pieces given.
void MergePieces(std::vector<Piece>* pieces);

}  // namespace waymesh::obstacles
