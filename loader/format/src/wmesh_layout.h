#pragma once
// The on-disk structures of `.wmesh` (docs/map-format.md), shared by the compiler and the
// loader. Everything is little-endian and fixed-size; tile arrays are used in place, so their
// element types are the core's own (Vec3, BvNode, DetailTri, PolyIndex, OffMeshLink).

#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>

#include "waymesh/core/nav_map.h"
#include "waymesh/core/poly_ref.h"
#include "waymesh/core/vec3.h"

namespace waymesh::wmesh {

static_assert(std::endian::native == std::endian::little,
              ".wmesh is little-endian and read in place: big-endian hosts are not supported");

// "WMESH\r\n\x1a": the line endings and ^Z catch text-mode transfers, like PNG's signature.
inline constexpr char kMagic[8] = {'W', 'M', 'E', 'S', 'H', '\r', '\n', '\x1a'};
// Version 1: tiles only. Version 2: the same, optionally followed by the exact landmark
// section (FileHeader::exact_landmarks_*). Version 3: as 2, then the plan twin section, which
// ends the file. A file is written in the lowest version that holds what it carries, so older
// readers keep reading maps built without the newer sections.
inline constexpr uint32_t kPlainFormatVersion = 1;
inline constexpr uint32_t kLandmarkFormatVersion = 2;
inline constexpr uint32_t kFormatVersion = 3;
inline constexpr char kTileMagic[4] = {'W', 'T', 'I', 'L'};

// Sections, tiles and tile arrays start on this boundary (bytes).
inline constexpr uint64_t kAlignment = 16;
// The header CRC covers [kHeaderCrcStart, header_bytes): magic and version are checked by
// value and the CRC field cannot cover itself.
inline constexpr uint64_t kHeaderCrcStart = 16;
// Map name, source hash, build tool version, then one name per area.
inline constexpr uint32_t kStringCount = 3 + kMaxAreas;
inline constexpr uint32_t kMaxStringBytes = 1024;
// Bounds the grid index a NavMap allocates (4 bytes per cell).
inline constexpr uint64_t kMaxGridCells = uint64_t{1} << 22;
// Tile indices must fit a PolyRef.
inline constexpr uint64_t kMaxTiles = uint64_t{1} << PolyRef::kTileBits;
// Polygon and cross-link indices must stay below kCrossTileBit.
inline constexpr uint32_t kMaxTileIndex = kCrossTileBit - 1;
// Polygon indices must fit a PolyRef too (the tighter bound).
inline constexpr uint32_t kMaxTilePolygons = PolyRef::kMaxPoly + 1;

constexpr uint64_t AlignUp(uint64_t n) { return (n + kAlignment - 1) & ~(kAlignment - 1); }

// Whether padding (or reserved) bytes are all zero, as the format requires.
inline bool AllZero(std::span<const std::byte> bytes) {
  for (const std::byte b : bytes) {
    if (b != std::byte{0}) return false;
  }
  return true;
}

// Offset 0 of the file.
struct FileHeader {
  char magic[8];
  uint32_t version;
  uint32_t header_crc;  // CRC32 of bytes [kHeaderCrcStart, header_bytes)
  uint64_t file_bytes;
  uint32_t header_bytes;  // header block size, multiple of kAlignment; tile 0 starts here
  uint32_t tile_count;
  uint32_t island_count;
  uint32_t strings_bytes;
  float agent_radius;
  float agent_height;
  float agent_max_slope_deg;
  float agent_step_height;
  float agent_voxel_size;
  float tile_size;
  Vec3 grid_origin;
  uint32_t grid_width;
  uint32_t grid_height;
  float max_tile_overhang;
  Aabb bounds;
  uint64_t vertex_count;
  uint64_t polygon_count;
  uint64_t off_mesh_link_count;
  double walkable_area;
  uint64_t repairs_welded;
  uint64_t repairs_t_junctions;
  uint64_t repairs_non_manifold;
  uint64_t repairs_degenerate;
  // Version 2: where the exact landmark section lies (after the last tile), its size and CRC32;
  // all zero when the file has none. Version 1: reserved, zero.
  uint64_t exact_landmarks_offset;
  uint32_t exact_landmarks_bytes;
  uint32_t exact_landmarks_crc;
};
static_assert(sizeof(Vec3) == 12 && sizeof(Aabb) == 24);
static_assert(sizeof(FileHeader) == 192);
static_assert(offsetof(FileHeader, version) == 8 && offsetof(FileHeader, header_crc) == 12);
static_assert(offsetof(FileHeader, file_bytes) == 16 && offsetof(FileHeader, tile_count) == 28);
static_assert(offsetof(FileHeader, agent_radius) == 40 && offsetof(FileHeader, grid_origin) == 64);
static_assert(offsetof(FileHeader, bounds) == 88 && offsetof(FileHeader, vertex_count) == 112);
static_assert(offsetof(FileHeader, walkable_area) == 136);
static_assert(offsetof(FileHeader, repairs_degenerate) == 168);
static_assert(offsetof(FileHeader, exact_landmarks_offset) == 176);

// One entry of the area table (kMaxAreas entries, names in the string section).
struct AreaRecord {
  float cost;
  uint8_t used;  // 0 or 1
  uint8_t reserved[3];
};
static_assert(sizeof(AreaRecord) == 8);

struct IslandRecord {
  uint32_t polygons;
  uint32_t group;
  double area;
};
static_assert(sizeof(IslandRecord) == 16 && offsetof(IslandRecord, area) == 8);

// One tile directory entry.
struct TileRecord {
  int32_t grid_x;
  int32_t grid_z;
  uint64_t offset;
  uint32_t bytes;
  uint32_t crc;
  uint32_t poly_count;
  uint32_t vertex_count;
  Aabb bounds;
};
static_assert(sizeof(TileRecord) == 56 && offsetof(TileRecord, bounds) == 32);

// Header block sections in file order; the string section follows the directory.
inline constexpr uint64_t kAreaTableOffset = sizeof(FileHeader);
inline constexpr uint64_t kIslandTableOffset = kAreaTableOffset + kMaxAreas * sizeof(AreaRecord);
static_assert(kIslandTableOffset % kAlignment == 0);

constexpr uint64_t TileDirectoryOffset(uint64_t island_count) {
  return kIslandTableOffset + island_count * sizeof(IslandRecord);
}
constexpr uint64_t StringsOffset(uint64_t island_count, uint64_t tile_count) {
  return TileDirectoryOffset(island_count) + tile_count * sizeof(TileRecord);
}
constexpr uint64_t HeaderBlockBytes(uint64_t islands, uint64_t tiles, uint64_t strings_bytes) {
  return AlignUp(StringsOffset(islands, tiles) + strings_bytes);
}

// Offset 0 of every tile.
struct TileHeader {
  char magic[4];
  uint32_t tile_index;
  int32_t grid_x;
  int32_t grid_z;
  Aabb bounds;
  float bv_quant_factor;
  uint32_t vertex_count;
  uint32_t poly_count;
  uint32_t corner_count;
  uint32_t bv_node_count;
  uint32_t cross_link_count;
  uint32_t off_mesh_link_count;
  uint32_t reserved[3];  // zero
};
static_assert(sizeof(TileHeader) == 80 && offsetof(TileHeader, bounds) == 16);
static_assert(offsetof(TileHeader, vertex_count) == 44);
static_assert(offsetof(TileHeader, off_mesh_link_count) == 64);

// Tile array element types are read in place: their sizes are part of the format.
static_assert(sizeof(BvNode) == 16 && offsetof(BvNode, data) == 12);
static_assert(sizeof(DetailTri) == 4 && sizeof(PolyIndex) == 8);
static_assert(sizeof(OffMeshLink) == 52 && offsetof(OffMeshLink, start_poly) == 32 &&
              offsetof(OffMeshLink, id) == 44 && offsetof(OffMeshLink, area) == 48);
// Tile bytes must be aligned at least this much for the arrays to be used in place.
inline constexpr size_t kTileMinAlignment = alignof(OffMeshLink);
static_assert(alignof(Vec3) <= kTileMinAlignment && alignof(BvNode) <= kTileMinAlignment &&
              alignof(uint32_t) <= kTileMinAlignment);

// Offset 0 of the exact landmark section (docs/map-format.md): landmark positions, then one
// row of landmark distances per tile-local vertex, tiles in directory order.
inline constexpr char kExactLandmarkMagic[4] = {'W', 'X', 'L', 'M'};
inline constexpr uint32_t kExactLandmarkVersion = 1;
struct ExactLandmarkHeader {
  char magic[4];
  uint32_t version;         // kExactLandmarkVersion
  uint32_t landmark_count;  // 1 to ExactLandmarkTable::kMaxCount
  uint32_t tile_count;      // = the file's
  double step;              // metres per stored unit; finite, > 0
  uint64_t vertex_count;    // = the sum of the directory's tile vertex counts
};
static_assert(sizeof(ExactLandmarkHeader) == 32 && offsetof(ExactLandmarkHeader, step) == 16);

// Section-relative offsets of the landmark positions (Vec3) and the rows (u16, vertex-major:
// landmark_count per vertex), and the section's size; 64-bit, cannot overflow.
struct ExactLandmarkLayout {
  uint64_t landmarks, rows, total;
};
constexpr ExactLandmarkLayout ComputeExactLandmarkLayout(uint64_t landmarks, uint64_t vertices) {
  ExactLandmarkLayout l{};
  l.landmarks = AlignUp(sizeof(ExactLandmarkHeader));
  l.rows = AlignUp(l.landmarks + landmarks * sizeof(Vec3));
  l.total = AlignUp(l.rows + landmarks * vertices * sizeof(uint16_t));
  return l;
}

// Offset 0 of the plan twin section (docs/map-format.md): the cover (per map polygon, the twin
// polygons sharing its plan area, CSR), then the twin itself as a complete version 1 `.wmesh`
// image on the map's tile grid. Its CRC is its own (the file header has no room left): it
// covers [kPlanTwinCrcStart, section end).
inline constexpr char kPlanTwinMagic[4] = {'W', 'T', 'W', 'N'};
inline constexpr uint32_t kPlanTwinVersion = 1;
inline constexpr uint64_t kPlanTwinCrcStart = 16;
struct PlanTwinHeader {
  char magic[4];
  uint32_t version;            // kPlanTwinVersion
  uint32_t crc;                // of [kPlanTwinCrcStart, section end)
  uint32_t reserved;           // zero
  uint64_t map_polygons;       // = the file's polygon_count
  uint64_t cover_count;        // entries of the cover
  uint64_t vertices_removed;   // inner vertices the twin dropped (PlanTwinReport)
  uint64_t twin_bytes;         // size of the twin's `.wmesh` image, multiple of kAlignment
};
static_assert(sizeof(PlanTwinHeader) == 48 && offsetof(PlanTwinHeader, map_polygons) == 16);

// Section-relative offsets of cover_start (u32, map_polygons + 1), the cover (PolyIndex) and
// the twin's image, and the section's size; the caller bounds the counts by the section size
// first, so nothing overflows.
struct PlanTwinLayout {
  uint64_t cover_start, cover, twin, total;
};
constexpr PlanTwinLayout ComputePlanTwinLayout(uint64_t map_polygons, uint64_t cover_count,
                                               uint64_t twin_bytes) {
  PlanTwinLayout l{};
  l.cover_start = AlignUp(sizeof(PlanTwinHeader));
  l.cover = AlignUp(l.cover_start + (map_polygons + 1) * sizeof(uint32_t));
  l.twin = AlignUp(l.cover + cover_count * sizeof(PolyIndex));
  l.total = AlignUp(l.twin + twin_bytes);
  return l;
}

// Byte offsets of the arrays inside a tile, derived from the tile header's counts.
struct TileLayout {
  uint64_t vertices, poly_start, poly_verts, poly_neighbors, poly_island, area_prefix;
  uint64_t bv_nodes, cross_links, off_mesh_links, detail_tris, poly_flags, poly_area;
  uint64_t detail_tri_count;
  uint64_t total;  // tile size in bytes, multiple of kAlignment
};

// Requires corner_count >= 3 * poly_count (checked by the caller); 64-bit, cannot overflow.
constexpr TileLayout ComputeTileLayout(const TileHeader& h) {
  TileLayout l{};
  uint64_t at = sizeof(TileHeader);
  auto place = [&at](uint64_t count, uint64_t size) {
    uint64_t start = AlignUp(at);
    at = start + count * size;
    return start;
  };
  const uint64_t polys = h.poly_count;
  l.detail_tri_count = uint64_t{h.corner_count} - 2 * polys;
  l.vertices = place(h.vertex_count, sizeof(Vec3));
  l.poly_start = place(polys + 1, sizeof(uint32_t));
  l.poly_verts = place(h.corner_count, sizeof(uint32_t));
  l.poly_neighbors = place(h.corner_count, sizeof(uint32_t));
  l.poly_island = place(polys, sizeof(uint32_t));
  l.area_prefix = place(polys + 1, sizeof(float));
  l.bv_nodes = place(h.bv_node_count, sizeof(BvNode));
  l.cross_links = place(h.cross_link_count, sizeof(PolyIndex));
  l.off_mesh_links = place(h.off_mesh_link_count, sizeof(OffMeshLink));
  l.detail_tris = place(l.detail_tri_count, sizeof(DetailTri));
  l.poly_flags = place(polys, sizeof(uint16_t));
  l.poly_area = place(polys, sizeof(uint8_t));
  l.total = AlignUp(at);
  return l;
}

}  // namespace waymesh::wmesh
