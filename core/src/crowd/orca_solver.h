#pragma once
// The small linear program at the heart of ORCA: the velocity closest to the preferred one
// inside a disc of speeds and a set of half-planes (one per neighbour or wall), solved
// incrementally; when the half-planes leave nothing, the velocity that violates the softest
// constraints least.

#include <cstddef>
#include <span>

#include "crowd/vec2.h"

namespace waymesh::crowd::internal {

// Velocities v with Det2(dir, v - point) >= 0 (the side left of `dir`); `dir` is unit length.
struct HalfPlane {
  V2 point;
  V2 dir;
};

// Most half-planes one agent builds (neighbours plus walls).
inline constexpr size_t kMaxHalfPlanes = 64;

// The velocity closest to `preferred` with |v| <= max_speed inside every half-plane. When no
// velocity is, the first `hard` half-planes (walls) are kept and the largest violation of the
// others is minimised. `scratch` holds at least planes.size() planes (kept by the caller so
// that a solve neither allocates nor clears a buffer).
V2 SolveOrca(std::span<const HalfPlane> planes, size_t hard, float max_speed, V2 preferred,
             std::span<HalfPlane> scratch);

}  // namespace waymesh::crowd::internal
