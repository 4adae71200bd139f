#pragma once
// The legend: a strip under the map with a colour swatch and a label per entry, flowing in
// columns across the picture's width.

#include <span>
#include <string>

#include "waymesh/render/scene.h"

namespace waymesh::render {

// One legend row: a swatch colour and its label.
struct LegendEntry {
  Rgba color;
  std::string label;
};

// Height in px of the strip holding `entries` in a picture `width` px wide (0 for none).
float LegendHeight(size_t entries, int width);

// Appends the strip's items to `scene`, starting at `top` px.
void AppendLegend(std::span<const LegendEntry> entries, float top, Scene* scene);

}  // namespace waymesh::render
