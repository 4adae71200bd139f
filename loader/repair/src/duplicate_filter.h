#pragma once
// Drops triangles that repeat another: the same three welded vertices (exporters that emit a
// surface twice, or a scene assembled from overlapping copies). Kept, every copy would make an
// edge shared by many triangles, which edge pairing resolves in time quadratic in the copies,
// and each extra copy would become a polygon and an island of its own.

#include <cstdint>

#include "triangle_soup.h"

namespace waymesh::repair {

// Removes every triangle whose vertex set equals an earlier triangle's (keeping the first, its
// area id and the others' order). Returns the number removed. Linear in the triangles.
uint64_t DropDuplicateTriangles(TriangleSoup* soup);

}  // namespace waymesh::repair
