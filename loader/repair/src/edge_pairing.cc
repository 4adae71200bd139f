#include "edge_pairing.h"

#include <algorithm>
#include <cmath>
#include <span>

#include "absl/strings/str_format.h"
#include "edge_table.h"
#include "waymesh/mesh/repair_geometry.h"

namespace waymesh::repair {
namespace {

struct Candidate {
  double misalignment;  // 1 - cos(angle between the two triangles' normals)
  double height_gap;    // |difference of the triangles' centroid heights|, metres
  uint32_t forward, backward;
  friend bool operator<(const Candidate& a, const Candidate& b) {
    if (a.misalignment != b.misalignment) return a.misalignment < b.misalignment;
    if (a.height_gap != b.height_gap) return a.height_gap < b.height_gap;
    if (a.forward != b.forward) return a.forward < b.forward;
    return a.backward < b.backward;
  }
};

struct UnitNormal {
  double x, y, z;
};

UnitNormal TriangleNormal(const TriangleSoup& soup, uint32_t t) {
  double n[3];
  CrossD(soup.vertices[soup.tris[t][0]], soup.vertices[soup.tris[t][1]],
         soup.vertices[soup.tris[t][2]], n);
  const double len = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  return len > 0 ? UnitNormal{n[0] / len, n[1] / len, n[2] / len} : UnitNormal{0, 1, 0};
}

double CentroidHeight(const TriangleSoup& soup, uint32_t t) {
  const Tri& tri = soup.tris[t];
  return (double(soup.vertices[tri[0]].y) + soup.vertices[tri[1]].y + soup.vertices[tri[2]].y) / 3;
}

void PairSimple(const TriangleSoup& soup, uint32_t h0, uint32_t h1, EdgePairing* out) {
  if (HalfEdgeFrom(soup, h0) == HalfEdgeTo(soup, h1)) {
    out->twin[h0] = h1;
    out->twin[h1] = h0;
  } else {
    // Both triangles on the same side: a fold; linking them would cross the surface.
    const Vec3 p = soup.vertices[HalfEdgeFrom(soup, h0)];
    out->findings.push_back(absl::StrFormat(
        "folded edge at (%.3f, %.3f, %.3f): two triangles on the same side, left as walls", p.x,
        p.y, p.z));
  }
}

// Greedy matching of forward (from the lower vertex id) against backward half-edges.
void PairNonManifold(const TriangleSoup& soup, std::span<const uint32_t> group, EdgePairing* out) {
  const uint32_t low = std::min(HalfEdgeFrom(soup, group[0]), HalfEdgeTo(soup, group[0]));
  std::vector<Candidate> candidates;
  for (uint32_t f : group) {
    if (HalfEdgeFrom(soup, f) != low) continue;
    const UnitNormal nf = TriangleNormal(soup, f / 3);
    for (uint32_t b : group) {
      if (HalfEdgeFrom(soup, b) == low) continue;
      const UnitNormal nb = TriangleNormal(soup, b / 3);
      candidates.push_back({1.0 - (nf.x * nb.x + nf.y * nb.y + nf.z * nb.z),
                            std::fabs(CentroidHeight(soup, f / 3) - CentroidHeight(soup, b / 3)), f,
                            b});
    }
  }
  std::sort(candidates.begin(), candidates.end());
  int paired = 0;
  for (const Candidate& c : candidates) {
    if (out->twin[c.forward] != kNoTwin || out->twin[c.backward] != kNoTwin) continue;
    out->twin[c.forward] = c.backward;
    out->twin[c.backward] = c.forward;
    ++paired;
  }
  ++out->non_manifold;
  const Vec3 a = soup.vertices[low];
  const Vec3 b = soup.vertices[std::max(HalfEdgeFrom(soup, group[0]), HalfEdgeTo(soup, group[0]))];
  out->findings.push_back(absl::StrFormat(
      "non-manifold edge (%.3f, %.3f, %.3f)-(%.3f, %.3f, %.3f) shared by %d triangles: paired "
      "%d, left %d as walls",
      a.x, a.y, a.z, b.x, b.y, b.z, group.size(), 2 * paired, int(group.size()) - 2 * paired));
}

}  // namespace

EdgePairing PairHalfEdges(const TriangleSoup& soup) {
  EdgePairing out;
  out.twin.assign(3 * size_t{soup.triangle_count()}, kNoTwin);
  const EdgeGroups groups = GroupHalfEdges(soup);
  for (uint32_t g = 0; g < groups.group_count(); ++g) {
    const std::span<const uint32_t> group = groups.group(g);
    if (group.size() == 2) {
      PairSimple(soup, group[0], group[1], &out);
    } else if (group.size() > 2) {
      PairNonManifold(soup, group, &out);
    }
  }
  for (uint32_t t : out.twin) out.boundary += t == kNoTwin;
  return out;
}

}  // namespace waymesh::repair
