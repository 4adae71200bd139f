#pragma once
// The colours of the pictures, in one place: areas, islands, paths, links and diff highlights.

#include <cstdint>

#include "waymesh/render/color.h"

namespace waymesh::render {

// Fill of a polygon of `area` (0..63): Unity-like defaults for the built-in areas (Walkable
// blue-grey, Not Walkable dark, Jump yellow), distinct hues for user areas.
Rgba AreaColor(uint8_t area);

// Fill of island `island` (0 = the largest): well-separated hues that are never red, so red
// stays reserved for small islands.
Rgba IslandColor(uint32_t island);

// Fill of islands below the small-island threshold.
inline constexpr Rgba kSmallIslandColor{220, 30, 30, 255};
// Polygon outlines (over any fill).
inline constexpr Rgba kPolygonOutline{40, 40, 40, 90};
// Tile borders.
inline constexpr Rgba kTileBorder{90, 90, 90, 160};
// Off-mesh link arrows.
inline constexpr Rgba kLinkColor{120, 40, 160, 255};
// Obstacle footprints: block ones (grown by the agent radius) and area ones.
inline constexpr Rgba kBlockObstacleColor{150, 20, 20, 255};
inline constexpr Rgba kAreaObstacleColor{235, 120, 0, 255};
// Text.
inline constexpr Rgba kTextColor{20, 20, 20, 255};

// Colour of the i-th drawn path.
Rgba PathColor(uint32_t i);

// Diff highlights.
inline constexpr Rgba kDiffUnchanged{205, 210, 216, 255};
inline constexpr Rgba kDiffRemoved{220, 40, 40, 200};
inline constexpr Rgba kDiffAdded{40, 170, 60, 220};
inline constexpr Rgba kDiffAreaChanged{240, 150, 20, 230};
inline constexpr Rgba kDiffIslandChange{30, 90, 220, 255};
inline constexpr Rgba kDiffFlip{200, 0, 200, 255};

}  // namespace waymesh::render
