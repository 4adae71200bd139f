#pragma once
// How findings and diff reports name places: "tile 3 (1,0) polygon 12", "(1.25, 0.00, -3.50)".

#include <cstdint>
#include <string>

#include "waymesh/core/nav_map.h"
#include "waymesh/core/vec3.h"

namespace waymesh {

// "(x, y, z)" with centimetre precision.
std::string PositionText(Vec3 p);

// "tile T (gx,gz) polygon P".
std::string PolygonPlace(const TileView& tile, uint32_t poly);

// "tile T (gx,gz) polygon P edge I (x, y, z)-(x, y, z)": the edge from corner I to the next.
std::string EdgePlace(const TileView& tile, uint32_t poly, uint32_t edge);

// Mean of the polygon's corners: inside a convex polygon, so a fair place to point at.
Vec3 PolygonCentroid(const TileView& tile, uint32_t poly);

}  // namespace waymesh
