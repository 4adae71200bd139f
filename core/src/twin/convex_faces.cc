#include "twin/convex_faces.h"

#include <algorithm>
#include <iterator>
#include <queue>
#include <tuple>

#include "absl/container/flat_hash_map.h"
#include "waymesh/core/tolerances.h"

#include "poly_geometry.h"
#include "twin/twin_geometry.h"

namespace waymesh::twin {
namespace {

class Merger {
 public:
  Merger(const TileView& tile, const PlanTriangles& triangles) : tile_(tile) {
    for (const PlanTriangle& t : triangles.triangles()) {
      if (!t.alive) continue;
      faces_.push_back(ConvexFace{{t.v[0], t.v[1], t.v[2]}, t.group, t.island, t.sources});
      alive_.push_back(true);
      Index(uint32_t(faces_.size() - 1));
    }
    for (uint32_t f = 0; f < faces_.size(); ++f) Offer(f);
  }

  std::vector<ConvexFace> Run() {
    while (!candidates_.empty()) {
      const auto [length2, u, v] = candidates_.top();
      candidates_.pop();
      TryMerge(u, v);
    }
    std::vector<ConvexFace> out;
    for (uint32_t f = 0; f < faces_.size(); ++f) {
      if (alive_[f]) out.push_back(std::move(faces_[f]));
    }
    return out;
  }

 private:
  void Index(uint32_t f) {
    const std::vector<uint32_t>& c = faces_[f].corners;
    for (size_t i = 0; i < c.size(); ++i) edge_face_[EdgeKey(c[i], c[(i + 1) % c.size()])] = f;
  }

  // Queues face f's inner edges to a face of its region.
  void Offer(uint32_t f) {
    const std::vector<uint32_t>& c = faces_[f].corners;
    for (size_t i = 0; i < c.size(); ++i) {
      const uint32_t u = c[i], v = c[(i + 1) % c.size()];
      const auto other = edge_face_.find(EdgeKey(v, u));
      if (other == edge_face_.end() || faces_[other->second].group != faces_[f].group) continue;
      const Vec3 a = tile_.vertices[u], b = tile_.vertices[v];
      candidates_.emplace(double(a.x - b.x) * (a.x - b.x) + double(a.z - b.z) * (a.z - b.z), u, v);
    }
  }

  void TryMerge(uint32_t u, uint32_t v) {
    const auto ia = edge_face_.find(EdgeKey(u, v)), ib = edge_face_.find(EdgeKey(v, u));
    if (ia == edge_face_.end() || ib == edge_face_.end()) return;
    const uint32_t fa = ia->second, fb = ib->second;
    if (fa == fb || faces_[fa].group != faces_[fb].group) return;
    std::vector<uint32_t> a = faces_[fa].corners, b = faces_[fb].corners;
    std::rotate(a.begin(), std::find(a.begin(), a.end(), u), a.end());  // a = u, v, ...
    std::rotate(b.begin(), std::find(b.begin(), b.end(), v), b.end());  // b = v, u, ...
    if (a.size() + b.size() - 2 > size_t(tol::kMaxVertsPerPolyLimit)) return;
    const auto pos = [&](uint32_t i) { return tile_.vertices[i]; };
    // Convex where the edge ends: at u between a's last corner and b's third, and at v.
    if (internal::Area2XZ(pos(a.back()), pos(u), pos(b[2])) < 0) return;
    if (internal::Area2XZ(pos(b.back()), pos(v), pos(a[2])) < 0) return;
    std::vector<uint32_t> merged(a.begin() + 1, a.end());  // v, a2 .. ak
    merged.push_back(u);
    merged.insert(merged.end(), b.begin() + 2, b.end());  // b2 .. bm
    std::vector<uint32_t> sorted = merged;
    std::sort(sorted.begin(), sorted.end());
    if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) return;
    edge_face_.erase(EdgeKey(u, v));
    edge_face_.erase(EdgeKey(v, u));
    faces_[fa].corners = std::move(merged);
    std::vector<uint32_t> sources;
    std::set_union(faces_[fa].sources.begin(), faces_[fa].sources.end(),
                   faces_[fb].sources.begin(), faces_[fb].sources.end(),
                   std::back_inserter(sources));
    faces_[fa].sources = std::move(sources);
    alive_[fb] = false;
    Index(fa);
    Offer(fa);
  }

  const TileView& tile_;
  std::vector<ConvexFace> faces_;
  std::vector<bool> alive_;
  absl::flat_hash_map<uint64_t, uint32_t> edge_face_;  // directed edge -> face
  std::priority_queue<std::tuple<double, uint32_t, uint32_t>> candidates_;  // longest first
};

}  // namespace

std::vector<ConvexFace> MergeConvexFaces(const TileView& tile, const PlanTriangles& triangles) {
  return Merger(tile, triangles).Run();
}

}  // namespace waymesh::twin
