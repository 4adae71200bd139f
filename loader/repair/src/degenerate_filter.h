#pragma once
// Drops triangles a navmesh cannot use and puts the rest in map winding
// (TriArea2XZ of consecutive corners > 0).

#include <cstdint>
#include <span>

#include "triangle_soup.h"

namespace waymesh::repair {

enum class TriangleDefect {
  kNone,
  kRepeatedVertex,  // two corners welded into one
  kTinyArea,        // plan-view area below tol::kDegenerateArea
  kVertical,        // wall-like: |normal.y| below tol::kMinFloorNormalY
};

// Why triangle `t` is unusable, or kNone.
TriangleDefect ClassifyTriangle(std::span<const Vec3> vertices, const Tri& t);

// Removes defective triangles (keeping the others' order) and flips the clockwise ones.
// Returns the number removed.
uint64_t DropDegenerateTriangles(TriangleSoup* soup);

}  // namespace waymesh::repair
