#include "vs_detour/detour_detail.h"

#include <DetourNavMesh.h>

#include <array>

#include "vs_detour/convex_split.h"

namespace waymesh::bench {
namespace {

// Position of source corner `corner` in `order`, or -1.
int LocalIndex(std::span<const uint8_t> order, uint8_t corner) {
  for (size_t k = 0; k < order.size(); ++k) {
    if (order[k] == corner) return static_cast<int>(k);
  }
  return -1;
}

}  // namespace

int AppendDetailTriangles(std::span<const uint8_t> order, std::span<const DetailTri> source,
                          std::vector<uint8_t>* tris) {
  const int m = static_cast<int>(order.size());
  std::array<std::array<int, 3>, kMaxPieceCorners - 2> local;
  int count = 0;
  for (const DetailTri& t : source) {
    const int a = LocalIndex(order, t.a), b = LocalIndex(order, t.b), c = LocalIndex(order, t.c);
    if (a < 0 || b < 0 || c < 0) continue;
    if (count < m - 2) local[count] = {a, c, b};  // reversed like the polygon (Detour winding)
    ++count;
  }
  if (count != m - 2) {  // not exactly a triangulation of the piece
    count = 0;
    for (int k = 2; k < m; ++k) local[count++] = {0, k - 1, k};
  }
  for (int i = 0; i < count; ++i) {
    const std::array<int, 3>& t = local[i];
    uint8_t flags = 0;
    for (int e = 0; e < 3; ++e) {
      const int u = t[e], v = t[(e + 1) % 3];
      if ((u + 1) % m == v || (v + 1) % m == u) flags |= DT_DETAIL_EDGE_BOUNDARY << (2 * e);
    }
    tris->insert(tris->end(), {uint8_t(t[0]), uint8_t(t[1]), uint8_t(t[2]), flags});
  }
  return count;
}

}  // namespace waymesh::bench
