#include "waymesh/render/color.h"

#include <algorithm>

#include "absl/strings/str_format.h"

namespace waymesh::render {

std::string HexColor(Rgba c) { return absl::StrFormat("#%02x%02x%02x", c.r, c.g, c.b); }

Rgba Darker(Rgba c, float factor) {
  auto scale = [factor](uint8_t v) { return uint8_t(std::clamp(v * factor, 0.0f, 255.0f)); };
  return {scale(c.r), scale(c.g), scale(c.b), c.a};
}

}  // namespace waymesh::render
