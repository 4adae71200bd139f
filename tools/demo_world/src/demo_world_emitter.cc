#include "demo_world_emitter.h"

#include <cmath>
#include <utility>

namespace waymesh::demo {
namespace {

// Jitter step (metres) where floats are finer than that; elsewhere the step is one ulp, the
// smallest change a float can show.
constexpr float kJitterStep = 5e-7f;

// Moves `v` by -1, 0 or +1 steps (two random bits; half of the values stay exact).
float Jitter(float v, uint64_t two_bits) {
  if (two_bits == 0 || two_bits == 3) return v;
  const float sign = two_bits == 1 ? 1.0f : -1.0f;
  const float moved = v + sign * kJitterStep;
  return moved != v ? moved : std::nextafter(v, sign * HUGE_VALF);
}

}  // namespace

TriangleEmitter::TriangleEmitter(SourceMesh* mesh, uint64_t seed)
    : mesh_(mesh), jitter_(seed ^ 0x6A09E667F3BCC909ull) {}

void TriangleEmitter::AddCorner(Vec3 p, uint64_t bits) {
  // A quarter of the copies get jitter (and then each coordinate only half the time): most
  // copies of a position stay bit-identical, as in real exports.
  if ((bits & 3) == 0) {
    p = {Jitter(p.x, (bits >> 2) & 3), Jitter(p.y, (bits >> 4) & 3), Jitter(p.z, (bits >> 6) & 3)};
  }
  mesh_->vertices.push_back(p);
  mesh_->poly_verts.push_back(static_cast<uint32_t>(mesh_->vertices.size() - 1));
}

void TriangleEmitter::AddTriangle(Vec3 a, Vec3 b, Vec3 c, uint8_t area) {
  ++triangles_;
  if (mesh_ == nullptr) return;
  if (TriArea2XZ(a, b, c) > 0) std::swap(b, c);
  const uint64_t bits = jitter_.Next();
  AddCorner(a, bits);
  AddCorner(b, bits >> 8);
  AddCorner(c, bits >> 16);
  mesh_->poly_start.push_back(static_cast<uint32_t>(mesh_->poly_verts.size()));
  mesh_->poly_area.push_back(area);
}

void TriangleEmitter::AddQuad(Vec3 p00, Vec3 p10, Vec3 p11, Vec3 p01, bool flip, uint8_t area) {
  if (flip) {
    AddTriangle(p00, p10, p01, area);
    AddTriangle(p10, p11, p01, area);
  } else {
    AddTriangle(p00, p10, p11, area);
    AddTriangle(p00, p11, p01, area);
  }
}

void ReserveTriangles(SourceMesh* mesh, uint64_t triangles) {
  mesh->vertices.reserve(mesh->vertices.size() + 3 * triangles);
  mesh->poly_verts.reserve(mesh->poly_verts.size() + 3 * triangles);
  mesh->poly_start.reserve(mesh->poly_start.size() + triangles);
  mesh->poly_area.reserve(mesh->poly_area.size() + triangles);
}

}  // namespace waymesh::demo
