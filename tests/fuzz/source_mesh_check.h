#pragma once
// For fuzz targets: a mesh an importer accepted must be well formed, or the fuzzer found a bug
// (traps, so libFuzzer records the input).

#include <cmath>

#include "waymesh/mesh/source_mesh.h"
#include "waymesh/mesh/tolerances.h"

namespace waymesh::fuzz {

inline void Require(bool condition) {
  if (!condition) __builtin_trap();
}

inline bool Sane(Vec3 v) {
  return IsFinite(v) && std::fabs(v.x) <= tol::kMaxCoordinate &&
         std::fabs(v.y) <= tol::kMaxCoordinate && std::fabs(v.z) <= tol::kMaxCoordinate;
}

// Checks the invariants every importer promises about an accepted mesh.
inline void CheckSourceMesh(const SourceMesh& mesh) {
  Require(!mesh.poly_start.empty() && mesh.poly_start.front() == 0);
  Require(mesh.poly_start.back() == mesh.poly_verts.size());
  Require(mesh.poly_area.size() == mesh.polygon_count());
  for (uint32_t p = 0; p < mesh.polygon_count(); ++p) {
    Require(mesh.poly_start[p + 1] >= mesh.poly_start[p] + 3);
  }
  for (uint32_t v : mesh.poly_verts) Require(v < mesh.vertices.size());
  for (const Vec3& v : mesh.vertices) Require(Sane(v));
  for (uint8_t a : mesh.poly_area) {
    Require(a < mesh.areas.size() && mesh.areas[a].has_value());
  }
  for (const SourceOffMeshLink& link : mesh.links) {
    Require(Sane(link.start) && Sane(link.end) && std::isfinite(link.radius));
    Require(link.area < mesh.areas.size() && mesh.areas[link.area].has_value());
  }
  if (!mesh.declared_neighbors.empty()) {
    Require(mesh.declared_neighbors.size() == mesh.poly_verts.size());
    for (int32_t q : mesh.declared_neighbors) Require(q >= -1 && q < int64_t(mesh.polygon_count()));
  }
}

}  // namespace waymesh::fuzz
