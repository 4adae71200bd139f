#pragma once
// Small vector type for stored geometry. Positions are in the source export's frame
// (Unity: left-handed, Y up, metres); the horizontal plane is X–Z.

#include <cmath>

namespace waymesh {

struct Vec3 {
  float x = 0, y = 0, z = 0;

  friend constexpr Vec3 operator+(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
  friend constexpr Vec3 operator-(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
  friend constexpr Vec3 operator*(Vec3 a, float s) { return {a.x * s, a.y * s, a.z * s}; }
  friend constexpr bool operator==(Vec3 a, Vec3 b) = default;
};

constexpr float Dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
constexpr Vec3 Cross(Vec3 a, Vec3 b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
inline float Length(Vec3 a) { return std::sqrt(Dot(a, a)); }
inline float Distance(Vec3 a, Vec3 b) { return Length(a - b); }
constexpr Vec3 Lerp(Vec3 a, Vec3 b, float t) { return a + (b - a) * t; }

// Horizontal (X–Z) helpers: navigation is decided in plan view, heights come from the surface.
inline float DistanceXZ(Vec3 a, Vec3 b) { return std::hypot(a.x - b.x, a.z - b.z); }
// Twice the signed area of triangle abc in the X–Z plane; > 0 means a, b, c is the map's winding.
constexpr float TriArea2XZ(Vec3 a, Vec3 b, Vec3 c) {
  return (b.x - a.x) * (c.z - a.z) - (c.x - a.x) * (b.z - a.z);
}
inline bool IsFinite(Vec3 a) {
  return std::isfinite(a.x) && std::isfinite(a.y) && std::isfinite(a.z);
}

// Axis-aligned box.
struct Aabb {
  Vec3 min{1e30f, 1e30f, 1e30f};
  Vec3 max{-1e30f, -1e30f, -1e30f};

  void Extend(Vec3 p) {
    min = {std::fmin(min.x, p.x), std::fmin(min.y, p.y), std::fmin(min.z, p.z)};
    max = {std::fmax(max.x, p.x), std::fmax(max.y, p.y), std::fmax(max.z, p.z)};
  }
  bool Empty() const { return min.x > max.x; }
  bool Overlaps(const Aabb& o) const {
    return min.x <= o.max.x && max.x >= o.min.x && min.y <= o.max.y && max.y >= o.min.y &&
           min.z <= o.max.z && max.z >= o.min.z;
  }
};

}  // namespace waymesh
