// libFuzzer target: LoadMap on arbitrary bytes must return an error or a map whose every
// array access stays in bounds (ASan/UBSan watch). The first input byte picks the mode: odd
// reseals the CRCs after mutation so the structural checks behind them get exercised.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "waymesh/core/search_tables.h"
#include "waymesh/format/map_file.h"
#include "waymesh/format/map_tiles.h"

namespace {

// Follows every index the way queries will, so a validator gap becomes an ASan report.
uint64_t Walk(const waymesh::NavMap& map) {
  using namespace waymesh;
  uint64_t sum = 0;
  for (const TileView& t : map.tiles()) {
    for (uint32_t p = 0; p < t.poly_count(); ++p) {
      for (uint32_t i = 0; i < t.corner_count(p); ++i) {
        sum += uint64_t(t.corner(p, i).x != 0);
        const uint32_t n = t.poly_neighbors[t.poly_start[p] + i];
        if (n == kWall) continue;
        if (n & kCrossTileBit) {
          const PolyIndex& link = t.cross_links[n & ~kCrossTileBit];
          sum += map.tile(link.tile).poly_count() - link.poly;
        } else {
          sum += t.corner_count(n);
        }
      }
      for (const DetailTri& d : t.detail(p)) sum += t.corner(p, d.a).y + t.corner(p, d.c).z > 0;
      sum += map.info().islands[t.poly_island[p]].polygons + t.poly_area[p] + t.poly_flags[p];
      sum += t.area_prefix[p + 1] > 0;
    }
    // Detour-style traversal that descends everywhere: every escape must stay in bounds.
    for (size_t i = 0; i < t.bv_nodes.size(); ++i) {
      const BvNode& node = t.bv_nodes[i];
      if (node.data & kBvInternalBit) continue;
      const uint32_t first = node.data & kBvFirstMask;
      for (uint32_t k = 0; k <= node.data >> kBvCountShift; ++k) sum += t.corner_count(first + k);
    }
    for (size_t i = 0; i < t.bv_nodes.size();) {
      const BvNode& node = t.bv_nodes[i];
      const bool skip = (node.data & kBvInternalBit) && node.min[0] > 30000;
      i += skip ? node.data & ~kBvInternalBit : 1;
    }
    for (const OffMeshLink& l : t.off_mesh_links) {
      sum += t.corner_count(l.start_poly) + map.tile(l.end_tile).corner_count(l.end_poly);
    }
  }
  return sum;
}

// The stored plan twin, when there is one: its tiles as any map's, and every cover entry.
uint64_t WalkTwin(const waymesh::NavMap& map) {
  using namespace waymesh;
  const SearchTables* tables = map.search_tables();
  if (tables == nullptr || tables->exact_twin == nullptr) return 0;
  const PlanTwin& twin = *tables->exact_twin;
  uint64_t sum = Walk(*twin.map);
  for (uint32_t g = 0; g + 1 < twin.cover_start.size(); ++g) {
    for (uint32_t i = twin.cover_start[g]; i < twin.cover_start[g + 1]; ++i) {
      const PolyIndex c = twin.cover[i];
      sum += twin.map->tile(c.tile).corner_count(c.poly);
    }
  }
  return sum;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const bool reseal = data[0] & 1;
  auto bytes = std::make_shared<std::string>(reinterpret_cast<const char*>(data) + 1, size - 1);
  if (reseal) waymesh::ResealMapChecksums(std::as_writable_bytes(std::span(*bytes)));
  auto map = waymesh::LoadMap(std::move(bytes));
  if (map.ok()) {
    volatile uint64_t sink = Walk(**map) + WalkTwin(**map);
    (void)sink;
  }
  return 0;
}
