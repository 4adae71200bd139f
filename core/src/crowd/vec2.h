#pragma once
// Plan-view (X–Z) vectors for the crowd's steering: velocities and offsets live in the
// horizontal plane; heights come from the surface.

#include <cmath>

#include "waymesh/core/vec3.h"

namespace waymesh::crowd::internal {

struct V2 {
  float x = 0, z = 0;

  friend constexpr V2 operator+(V2 a, V2 b) { return {a.x + b.x, a.z + b.z}; }
  friend constexpr V2 operator-(V2 a, V2 b) { return {a.x - b.x, a.z - b.z}; }
  friend constexpr V2 operator-(V2 a) { return {-a.x, -a.z}; }
  friend constexpr V2 operator*(V2 a, float s) { return {a.x * s, a.z * s}; }
  friend constexpr bool operator==(V2 a, V2 b) = default;
};

constexpr V2 XZ(Vec3 v) { return {v.x, v.z}; }
constexpr Vec3 Lift(V2 v, float y = 0) { return {v.x, y, v.z}; }
constexpr float Dot2(V2 a, V2 b) { return a.x * b.x + a.z * b.z; }
// Plan-view cross product (the determinant of the 2x2 matrix [a b]).
constexpr float Det2(V2 a, V2 b) { return a.x * b.z - a.z * b.x; }
constexpr float LengthSq2(V2 a) { return Dot2(a, a); }
inline float Length2(V2 a) { return std::sqrt(LengthSq2(a)); }
// `a` scaled to unit length; zero stays zero.
inline V2 Normalized2(V2 a) {
  const float len = Length2(a);
  return len > 0 ? a * (1.0f / len) : V2{};
}
// `a` shortened to at most `max_len`.
inline V2 ClampLength2(V2 a, float max_len) {
  const float len_sq = LengthSq2(a);
  if (len_sq <= max_len * max_len) return a;
  return a * (max_len / std::sqrt(len_sq));
}
// The unit vector at `angle` radians from +x towards +z.
inline V2 FromAngle(float angle) { return {std::cos(angle), std::sin(angle)}; }

}  // namespace waymesh::crowd::internal
