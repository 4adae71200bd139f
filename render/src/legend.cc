#include "waymesh/render/legend.h"

#include <algorithm>

#include "waymesh/render/palette.h"

namespace waymesh::render {
namespace {

constexpr float kColumnWidth = 260;  // px
constexpr float kRowHeight = 20;     // px
constexpr float kPadding = 8;        // px
constexpr float kSwatch = 12;        // px
constexpr float kFontSize = 12;      // px

size_t Columns(int width) {
  return std::max<size_t>(1, size_t((width - 2 * kPadding) / kColumnWidth));
}

}  // namespace

float LegendHeight(size_t entries, int width) {
  if (entries == 0) return 0;
  const size_t rows = (entries + Columns(width) - 1) / Columns(width);
  return 2 * kPadding + rows * kRowHeight;
}

void AppendLegend(std::span<const LegendEntry> entries, float top, Scene* scene) {
  const size_t columns = Columns(scene->width);
  for (size_t i = 0; i < entries.size(); ++i) {
    const float x = kPadding + (i % columns) * kColumnWidth;
    const float y = top + kPadding + (i / columns) * kRowHeight;
    scene->Add(SceneRect{{x, y + 3}, kSwatch, kSwatch, entries[i].color, kPolygonOutline, 1});
    scene->Add(
        SceneText{{x + kSwatch + 6, y + 3 + kSwatch - 1}, entries[i].label, kFontSize, kTextColor});
  }
}

}  // namespace waymesh::render
