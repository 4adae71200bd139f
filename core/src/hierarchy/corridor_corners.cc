#include "hierarchy/corridor_corners.h"

#include <algorithm>

namespace waymesh::internal {

std::optional<uint32_t> EdgeTowards(const QueryContext& ctx, PolyIndex from, PolyIndex to) {
  const TileView& t = ctx.Tile(from.tile);
  for (uint32_t i = 0; i < t.corner_count(from.poly); ++i) {
    if (t.across(t.poly_start[from.poly] + i) == to) return i;
  }
  return std::nullopt;
}

std::optional<std::vector<uint8_t>> CornersOf(const QueryContext& ctx,
                                              std::span<const CorridorStep> steps, bool reverse) {
  std::vector<uint8_t> corners;
  for (size_t q = 1; q < steps.size(); ++q) {
    if (steps[q].via & kViaLinkBit) return std::nullopt;
    if (!reverse) {
      corners.push_back(uint8_t(std::min<uint32_t>(steps[q].via, 0xFF)));
      continue;
    }
    // Walked backwards: leave steps[k] towards steps[k - 1], k from the last step down.
    const size_t k = steps.size() - q;
    const std::optional<uint32_t> edge = EdgeTowards(ctx, steps[k].at, steps[k - 1].at);
    if (!edge) return std::nullopt;
    corners.push_back(uint8_t(std::min<uint32_t>(*edge, 0xFF)));
  }
  return corners;
}

bool WalkCorners(const QueryContext& ctx, PolyIndex from, std::span<const uint8_t> corners,
                 std::vector<CorridorStep>* steps) {
  steps->clear();
  steps->push_back({from, kViaStart});
  PolyIndex at = from;
  for (const uint8_t c : corners) {
    const TileView& t = ctx.Tile(at.tile);
    if (c >= t.corner_count(at.poly)) return false;
    const std::optional<PolyIndex> next = t.across(t.poly_start[at.poly] + c);
    if (!next) return false;
    at = *next;
    steps->push_back({at, c});
  }
  return true;
}

bool ReverseCorridor(const QueryContext& ctx, std::vector<CorridorStep>* steps) {
  auto& s = *steps;
  std::reverse(s.begin(), s.end());
  for (size_t q = 1; q < s.size(); ++q) {
    const std::optional<uint32_t> edge = EdgeTowards(ctx, s[q - 1].at, s[q].at);
    if (!edge) return false;
    s[q].via = *edge;
  }
  if (!s.empty()) s.front().via = kViaStart;
  return true;
}

}  // namespace waymesh::internal
