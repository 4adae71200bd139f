#pragma once
// An 8-bit RGBA colour, as both picture writers take it.

#include <cstdint>
#include <string>

namespace waymesh::render {

// Straight (not premultiplied) alpha; 255 is opaque.
struct Rgba {
  uint8_t r = 0, g = 0, b = 0, a = 255;
  friend bool operator==(Rgba, Rgba) = default;
};

// "#rrggbb" (alpha is written separately, e.g. as SVG fill-opacity).
std::string HexColor(Rgba c);

// The colour with every channel scaled by `factor` (0..1 darkens), alpha kept.
Rgba Darker(Rgba c, float factor);

// The colour with alpha replaced.
constexpr Rgba WithAlpha(Rgba c, uint8_t a) { return {c.r, c.g, c.b, a}; }

}  // namespace waymesh::render
