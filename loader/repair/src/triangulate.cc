#include "triangulate.h"

#include <algorithm>
#include <cmath>

#include "waymesh/mesh/repair_geometry.h"
#include "waymesh/mesh/tolerances.h"

namespace waymesh::repair {
namespace {

// Ears thinner than this (twice the plan-view area, m²) are not cut.
constexpr double kMinEarArea2 = 2.0 * tol::kDegenerateArea;

double SignedArea2(std::span<const Vec3> vertices, std::span<const uint32_t> ring) {
  double sum = 0;
  const Vec3 o = vertices[ring[0]];
  for (size_t i = 1; i + 1 < ring.size(); ++i) {
    sum += Area2XZ(o, vertices[ring[i]], vertices[ring[i + 1]]);
  }
  return sum;
}

// Closed-triangle containment in plan view (abc in map winding).
bool InClosedTriangle(Vec3 p, Vec3 a, Vec3 b, Vec3 c) {
  return Area2XZ(a, b, p) >= 0 && Area2XZ(b, c, p) >= 0 && Area2XZ(c, a, p) >= 0;
}

}  // namespace

int PolygonTriangulator::Triangulate(std::span<const Vec3> vertices,
                                     std::span<const uint32_t> corners, std::vector<Tri>* out) {
  ring_.clear();
  for (size_t i = 0; i < corners.size(); ++i) {
    const uint32_t v = corners[i];
    if (ring_.empty() || ring_.back() != v) ring_.push_back(v);
  }
  while (ring_.size() > 1 && ring_.back() == ring_.front()) ring_.pop_back();
  if (ring_.size() < 3) return 0;
  const double area2 = SignedArea2(vertices, ring_);
  if (std::fabs(area2) < kMinEarArea2) return 0;
  if (area2 < 0) std::reverse(ring_.begin(), ring_.end());
  if (ring_.size() == 3 || IsStrictlyConvex(vertices)) {
    for (size_t i = 1; i + 1 < ring_.size(); ++i)
      out->push_back({ring_[0], ring_[i], ring_[i + 1]});
    return int(ring_.size() - 2);
  }
  return EarClip(vertices, out);
}

bool PolygonTriangulator::IsStrictlyConvex(std::span<const Vec3> vertices) const {
  const size_t n = ring_.size();
  for (size_t i = 0; i < n; ++i) {
    const Vec3 a = vertices[ring_[(i + n - 1) % n]], b = vertices[ring_[i]],
               c = vertices[ring_[(i + 1) % n]];
    if (Area2XZ(a, b, c) <= kMinEarArea2) return false;
  }
  return true;
}

bool PolygonTriangulator::IsEar(std::span<const Vec3> vertices, uint32_t cur) const {
  const uint32_t ia = ring_[prev_[cur]], ib = ring_[cur], ic = ring_[next_[cur]];
  const Vec3 a = vertices[ia], b = vertices[ib], c = vertices[ic];
  if (Area2XZ(a, b, c) <= kMinEarArea2) return false;
  for (uint32_t i = next_[next_[cur]]; i != prev_[cur]; i = next_[i]) {
    const uint32_t v = ring_[i];
    if (v == ia || v == ib || v == ic) continue;
    // A corner on the diagonal blocks the ear too: cutting there would hide a vertex
    // inside an edge (a T-junction of our own making).
    if (InClosedTriangle(vertices[v], a, b, c)) return false;
  }
  return true;
}

void PolygonTriangulator::UpdateCorner(std::span<const Vec3> vertices, uint32_t i) {
  const Vec3 a = vertices[ring_[prev_[i]]], c = vertices[ring_[next_[i]]];
  area2_[i] = Area2XZ(a, vertices[ring_[i]], c);
  is_ear_[i] = IsEar(vertices, i);
  const double dx = double(c.x) - a.x, dz = double(c.z) - a.z;
  diagonal_sq_[i] = dx * dx + dz * dz;
}

// Cuts, each round, the valid ear with the shortest diagonal (well-shaped triangles, as in
// Recast). When no ear is valid (self-touching input) the fattest convex corner is cut so the
// loop always ends. Ear status is cached and refreshed only next to a cut: O(n^2) overall.
int PolygonTriangulator::EarClip(std::span<const Vec3> vertices, std::vector<Tri>* out) {
  const uint32_t n = uint32_t(ring_.size());
  prev_.resize(n);
  next_.resize(n);
  area2_.resize(n);
  diagonal_sq_.resize(n);
  is_ear_.resize(n);
  for (uint32_t i = 0; i < n; ++i) {
    prev_[i] = (i + n - 1) % n;
    next_[i] = (i + 1) % n;
  }
  for (uint32_t i = 0; i < n; ++i) UpdateCorner(vertices, i);
  int made = 0;
  uint32_t head = 0;
  for (uint32_t left = n; left > 3; --left) {
    uint32_t best = n, fattest = n;
    double fattest_area = kMinEarArea2;
    uint32_t i = head;
    do {
      if (is_ear_[i] && (best == n || diagonal_sq_[i] < diagonal_sq_[best])) best = i;
      if (area2_[i] > fattest_area) {
        fattest_area = area2_[i];
        fattest = i;
      }
      i = next_[i];
    } while (i != head);
    if (best == n) best = fattest;
    if (best == n) return made;  // what is left has no area
    const uint32_t p = prev_[best], q = next_[best];
    out->push_back({ring_[p], ring_[best], ring_[q]});
    ++made;
    next_[p] = q;
    prev_[q] = p;
    head = q;
    UpdateCorner(vertices, p);
    UpdateCorner(vertices, q);
  }
  const uint32_t a = prev_[head], c = next_[head];
  if (Area2XZ(vertices[ring_[a]], vertices[ring_[head]], vertices[ring_[c]]) > 0) {
    out->push_back({ring_[a], ring_[head], ring_[c]});
    ++made;
  }
  return made;
}

}  // namespace waymesh::repair
