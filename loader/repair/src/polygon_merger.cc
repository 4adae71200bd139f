#include "polygon_merger.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <numeric>
#include <queue>

#include "edge_pairing.h"
#include "waymesh/mesh/repair_geometry.h"

namespace waymesh::repair {
namespace {

// Where a shared edge (indexed by its lower half-edge) stands in the greedy loop.
enum class EdgeState : uint8_t { kNone, kQueued, kRejected };

// A merge candidate in priority order. Groups never merge with each other, so they are
// processed one after the other (cache-friendly, same result); inside a group the longest
// edge comes first (squared length as float bits, inverted), ties by lower half-edge id.
struct Candidate {
  uint64_t group;
  uint64_t key;
  friend bool operator<(const Candidate& a, const Candidate& b) {
    return a.group != b.group ? a.group < b.group : a.key < b.key;
  }
  friend bool operator>(const Candidate& a, const Candidate& b) { return b < a; }
  uint32_t half_edge() const { return uint32_t(key); }
};

// A polygon's ring of corners and, per corner, the half-edge leaving it.
struct Ring {
  std::vector<uint32_t> corners;
  std::vector<uint32_t> edges;
  size_t size() const { return corners.size(); }
};

class Merger {
 public:
  Merger(const TriangleSoup& soup, std::span<const uint32_t> twin, std::span<const uint64_t> group,
         const MergePolicy& policy)
      : soup_(soup), twin_(twin), group_(group), policy_(policy) {}

  MergedPolygons Run();

 private:
  uint32_t Find(uint32_t t);
  // The ring of polygon `root`; implicit triangles are spelled out in `scratch`.
  const Ring& RingOf(uint32_t root, Ring* scratch) const;
  Candidate CandidateOf(uint32_t h) const;
  // The next candidate (lowest key) from the sorted list or the re-queued heap.
  bool NextCandidate(uint32_t* h);
  // Builds the union of the polygons on both sides of h into merged_ when allowed.
  bool TryBuildMerge(uint32_t h, uint32_t a, uint32_t b);
  bool SharesOneEdge(const Ring& a, uint32_t b);
  bool IsFlat(const std::vector<uint32_t>& corners) const;
  void Commit(uint32_t a, uint32_t b);
  MergedPolygons Collect();

  const TriangleSoup& soup_;
  std::span<const uint32_t> twin_;
  std::span<const uint64_t> group_;
  const MergePolicy& policy_;

  std::vector<uint32_t> parent_;  // union-find over triangles
  std::vector<Ring> rings_;       // per root triangle; empty = the triangle itself
  std::vector<EdgeState> state_;  // per half-edge (used at the lower of each pair)
  // Candidates are sorted once; edges rejected earlier and worth retrying after a neighbour
  // changed go to a small heap that is drained in the same order.
  std::vector<Candidate> sorted_;
  size_t next_sorted_ = 0;
  std::priority_queue<Candidate, std::vector<Candidate>, std::greater<Candidate>> requeued_;
  Ring scratch_a_, scratch_b_;  // implicit triangle rings
  Ring merged_;                 // scratch result of TryBuildMerge
};

uint32_t Merger::Find(uint32_t t) {
  uint32_t root = t;
  while (parent_[root] != root) root = parent_[root];
  while (parent_[t] != root) {
    const uint32_t next = parent_[t];
    parent_[t] = root;
    t = next;
  }
  return root;
}

const Ring& Merger::RingOf(uint32_t root, Ring* scratch) const {
  if (!rings_[root].corners.empty()) return rings_[root];
  scratch->corners.assign(soup_.tris[root].begin(), soup_.tris[root].end());
  scratch->edges.assign({3 * root, 3 * root + 1, 3 * root + 2});
  return *scratch;
}

Candidate Merger::CandidateOf(uint32_t h) const {
  const Vec3 a = soup_.vertices[HalfEdgeFrom(soup_, h)], b = soup_.vertices[HalfEdgeTo(soup_, h)];
  const float length_sq = float(DistanceSq(a, b));
  uint32_t bits;
  std::memcpy(&bits, &length_sq, sizeof bits);  // non-negative floats order like their bits
  return {group_[h / 3], uint64_t{~bits} << 32 | h};
}

bool Merger::NextCandidate(uint32_t* h) {
  Candidate next;
  if (!requeued_.empty() &&
      (next_sorted_ == sorted_.size() || requeued_.top() < sorted_[next_sorted_])) {
    next = requeued_.top();
    requeued_.pop();
  } else if (next_sorted_ < sorted_.size()) {
    next = sorted_[next_sorted_++];
  } else {
    return false;
  }
  *h = next.half_edge();
  return true;
}

bool Merger::SharesOneEdge(const Ring& a, uint32_t b) {
  int shared = 0;
  for (uint32_t e : a.edges) {
    if (twin_[e] != kNoTwin && Find(twin_[e] / 3) == b) ++shared;
  }
  return shared == 1;
}

// Every corner within the height tolerance of the plane through the corners' centroid with
// the Newell normal; heights are measured vertically, as agents stand on the surface.
bool Merger::IsFlat(const std::vector<uint32_t>& corners) const {
  double n[3] = {0, 0, 0}, c[3] = {0, 0, 0};
  for (size_t i = 0; i < corners.size(); ++i) {
    const Vec3 p = soup_.vertices[corners[i]],
               q = soup_.vertices[corners[(i + 1) % corners.size()]];
    n[0] += (double(p.y) - q.y) * (double(p.z) + q.z);
    n[1] += (double(p.z) - q.z) * (double(p.x) + q.x);
    n[2] += (double(p.x) - q.x) * (double(p.y) + q.y);
    c[0] += p.x;
    c[1] += p.y;
    c[2] += p.z;
  }
  if (n[1] == 0) return false;
  for (double& v : c) v /= double(corners.size());
  for (uint32_t v : corners) {
    const Vec3 p = soup_.vertices[v];
    const double d = (n[0] * (p.x - c[0]) + n[1] * (p.y - c[1]) + n[2] * (p.z - c[2])) / n[1];
    if (std::fabs(d) > policy_.height_tolerance) return false;
  }
  return true;
}

bool Merger::TryBuildMerge(uint32_t h, uint32_t a, uint32_t b) {
  const Ring& ra = RingOf(a, &scratch_a_);
  const Ring& rb = RingOf(b, &scratch_b_);
  const size_t na = ra.size(), nb = rb.size();
  const size_t limit =
      policy_.rebuild_sources ? size_t(tol::kMaxVertsPerPolyLimit) : size_t(policy_.max_verts);
  if (na + nb - 2 > limit) return false;
  const size_t i = std::find(ra.edges.begin(), ra.edges.end(), h) - ra.edges.begin();
  const size_t j = std::find(rb.edges.begin(), rb.edges.end(), twin_[h]) - rb.edges.begin();
  if (i == na || j == nb) return false;
  merged_.corners.clear();
  merged_.edges.clear();
  for (size_t s = 0; s < na; ++s) {
    merged_.corners.push_back(ra.corners[(i + 1 + s) % na]);
    merged_.edges.push_back(s + 1 == na ? rb.edges[(j + 1) % nb] : ra.edges[(i + 1 + s) % na]);
  }
  for (size_t s = 2; s < nb; ++s) {
    const uint32_t v = rb.corners[(j + s) % nb];
    // A corner of both polygons besides the shared edge would pinch the union.
    if (std::find(ra.corners.begin(), ra.corners.end(), v) != ra.corners.end()) return false;
    merged_.corners.push_back(v);
    merged_.edges.push_back(rb.edges[(j + s) % nb]);
  }
  if (!SharesOneEdge(ra, b)) return false;
  if (policy_.rebuild_sources) return true;
  // Only the two corners at the ends of the removed edge changed.
  const size_t n = merged_.size(), u = na - 1;
  const auto& m = merged_.corners;
  const auto& vtx = soup_.vertices;
  if (!IsConvexCorner(vtx[m[n - 1]], vtx[m[0]], vtx[m[1]]) ||
      !IsConvexCorner(vtx[m[u - 1]], vtx[m[u]], vtx[m[(u + 1) % n]])) {
    return false;
  }
  return IsFlat(merged_.corners);
}

void Merger::Commit(uint32_t a, uint32_t b) {
  parent_[b] = a;
  std::swap(rings_[a], merged_);  // merged_ keeps the old buffers for reuse
  rings_[b] = Ring{};
  const Ring& r = rings_[a];
  for (uint32_t e : r.edges) {
    const uint32_t t = twin_[e];
    if (t == kNoTwin || group_[t / 3] != group_[a]) continue;
    const uint32_t low = std::min(e, t);
    if (state_[low] == EdgeState::kRejected) {
      requeued_.push(CandidateOf(low));
      state_[low] = EdgeState::kQueued;
    }
  }
}

MergedPolygons Merger::Run() {
  const uint32_t n = soup_.triangle_count();
  parent_.resize(n);
  std::iota(parent_.begin(), parent_.end(), 0);
  rings_.resize(n);
  state_.assign(3 * size_t{n}, EdgeState::kNone);
  for (uint32_t h = 0; h < 3 * n; ++h) {
    const uint32_t t = twin_[h];
    if (t != kNoTwin && h < t && group_[h / 3] == group_[t / 3]) {
      sorted_.push_back(CandidateOf(h));
      state_[h] = EdgeState::kQueued;
    }
  }
  std::sort(sorted_.begin(), sorted_.end());
  uint32_t h;
  while (NextCandidate(&h)) {
    if (state_[h] != EdgeState::kQueued) continue;
    state_[h] = EdgeState::kNone;
    const uint32_t a = Find(h / 3), b = Find(twin_[h] / 3);
    if (a == b) continue;
    if (TryBuildMerge(h, a, b)) {
      Commit(a, b);
    } else {
      state_[h] = EdgeState::kRejected;
    }
  }
  return Collect();
}

MergedPolygons Merger::Collect() {
  const uint32_t n = soup_.triangle_count();
  // Polygons in order of their lowest triangle, then stably by group.
  std::vector<uint32_t> roots;
  std::vector<uint32_t> index_of_root(n, UINT32_MAX);
  for (uint32_t t = 0; t < n; ++t) {
    const uint32_t r = Find(t);
    if (index_of_root[r] == UINT32_MAX) {
      index_of_root[r] = uint32_t(roots.size());
      roots.push_back(r);
    }
  }
  std::stable_sort(roots.begin(), roots.end(),
                   [&](uint32_t x, uint32_t y) { return group_[x] < group_[y]; });
  MergedPolygons out;
  out.poly_of_tri.resize(n);
  for (uint32_t p = 0; p < roots.size(); ++p) {
    index_of_root[roots[p]] = p;
    const Ring& ring = RingOf(roots[p], &scratch_a_);
    out.corners.insert(out.corners.end(), ring.corners.begin(), ring.corners.end());
    out.edges.insert(out.edges.end(), ring.edges.begin(), ring.edges.end());
    out.poly_start.push_back(uint32_t(out.corners.size()));
  }
  std::vector<uint32_t> count(roots.size() + 1, 0);
  for (uint32_t t = 0; t < n; ++t) {
    out.poly_of_tri[t] = index_of_root[Find(t)];
    ++count[out.poly_of_tri[t] + 1];
  }
  for (size_t p = 1; p < count.size(); ++p) count[p] += count[p - 1];
  out.tri_start = count;
  out.tris.resize(n);
  for (uint32_t t = 0; t < n; ++t) out.tris[count[out.poly_of_tri[t]]++] = t;
  return out;
}

}  // namespace

MergedPolygons MergeTriangles(const TriangleSoup& soup, std::span<const uint32_t> twin,
                              std::span<const uint64_t> group, const MergePolicy& policy) {
  return Merger(soup, twin, group, policy).Run();
}

}  // namespace waymesh::repair
