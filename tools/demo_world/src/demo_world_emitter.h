#pragma once
// Writes triangles into a SourceMesh with the quirks of a Unity export, so the repair pipeline
// has real work: every triangle gets three fresh vertices (no sharing), some copies of a shared
// position carry float jitter of about 1e-6 m (one ulp at large coordinates), and all use one
// winding, the opposite of the map's (TriArea2XZ < 0), so importers must normalise it.

#include <cstdint>

#include "demo_world_random.h"
#include "waymesh/core/vec3.h"
#include "waymesh/mesh/source_mesh.h"

namespace waymesh::demo {

class TriangleEmitter {
 public:
  // Appends to `mesh`; with a null mesh it only counts (used to reserve exact sizes first).
  TriangleEmitter(SourceMesh* mesh, uint64_t seed);

  // One triangle, any winding on input.
  void AddTriangle(Vec3 a, Vec3 b, Vec3 c, uint8_t area);
  // The square p00 p10 p11 p01 as two triangles split along p00-p11, or p10-p01 when `flip`.
  void AddQuad(Vec3 p00, Vec3 p10, Vec3 p11, Vec3 p01, bool flip, uint8_t area);

  uint64_t triangle_count() const { return triangles_; }

 private:
  void AddCorner(Vec3 p, uint64_t bits);

  SourceMesh* mesh_;
  DemoRandom jitter_;
  uint64_t triangles_ = 0;
};

// Reserves exactly `triangles` triangles (3 vertices each) in `mesh`.
void ReserveTriangles(SourceMesh* mesh, uint64_t triangles);

}  // namespace waymesh::demo
