#include "waymesh/render/palette.h"

#include <array>
#include <cmath>

namespace waymesh::render {
namespace {

// HSV (hue in degrees, s and v in 0..1) to opaque RGB.
Rgba FromHsv(double hue, double s, double v) {
  const double c = v * s;
  const double h = std::fmod(hue, 360.0) / 60.0;
  const double x = c * (1 - std::fabs(std::fmod(h, 2.0) - 1));
  double r = 0, g = 0, b = 0;
  switch (int(h)) {
    case 0:
      r = c, g = x;
      break;
    case 1:
      r = x, g = c;
      break;
    case 2:
      g = c, b = x;
      break;
    case 3:
      g = x, b = c;
      break;
    case 4:
      r = x, b = c;
      break;
    default:
      r = c, b = x;
      break;
  }
  const double m = v - c;
  auto byte = [m](double u) { return uint8_t(std::lround((u + m) * 255)); };
  return {byte(r), byte(g), byte(b), 255};
}

}  // namespace

Rgba AreaColor(uint8_t area) {
  static constexpr std::array<Rgba, 3> kBuiltIn = {
      Rgba{110, 170, 215, 255},  // 0 Walkable
      Rgba{90, 90, 90, 255},     // 1 Not Walkable
      Rgba{235, 200, 60, 255},   // 2 Jump
  };
  if (area < kBuiltIn.size()) return kBuiltIn[area];
  // Golden-angle hue steps keep neighbouring ids apart.
  return FromHsv(30.0 + 137.508 * area, 0.55, 0.85);
}

Rgba IslandColor(uint32_t island) {
  // Hand-picked, clearly distinct colours for the islands people look at first.
  static constexpr std::array<Rgba, 10> kFirst = {
      Rgba{90, 160, 220, 255},  Rgba{240, 180, 60, 255},  Rgba{100, 190, 110, 255},
      Rgba{160, 120, 210, 255}, Rgba{70, 190, 190, 255},  Rgba{200, 200, 80, 255},
      Rgba{120, 140, 170, 255}, Rgba{230, 140, 200, 255}, Rgba{150, 110, 70, 255},
      Rgba{110, 220, 160, 255},
  };
  if (island < kFirst.size()) return kFirst[island];
  // Then hues 45..315 degrees only (never red), spread by the golden angle, with alternating
  // brightness so islands whose hues come close still differ.
  const double hue = 45.0 + std::fmod(137.508 * island, 270.0);
  const double value = (island / 2) % 2 == 0 ? 0.85 : 0.65;
  return FromHsv(hue, 0.6, value);
}

Rgba PathColor(uint32_t i) {
  static constexpr std::array<Rgba, 6> kPaths = {
      Rgba{0, 60, 200, 255},  Rgba{0, 140, 70, 255},  Rgba{200, 90, 0, 255},
      Rgba{150, 0, 150, 255}, Rgba{0, 130, 150, 255}, Rgba{120, 80, 20, 255},
  };
  return kPaths[i % kPaths.size()];
}

}  // namespace waymesh::render
