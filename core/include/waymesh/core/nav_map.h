#pragma once
// The read-only navigation map as the queries see it: map metadata plus tiles whose arrays are
// views into the compiled `.wmesh` bytes (loading is validating and pointing, not parsing).
// A NavMap is immutable and shared by every thread without locks.

#include <array>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "waymesh/core/poly_ref.h"
#include "waymesh/core/vec3.h"

namespace waymesh {

inline constexpr int kMaxAreas = 64;
inline constexpr uint8_t kWalkableArea = 0;  // Unity's built-in "Walkable"

// Per-edge neighbour encoding (`TileView::poly_neighbors`).
inline constexpr uint32_t kWall = 0xFFFFFFFFu;          // no neighbour across this edge
inline constexpr uint32_t kCrossTileBit = 0x80000000u;  // low bits index `cross_links`
// Otherwise the value is a polygon index inside the same tile.

// Agent the map was baked for (Unity NavMeshBuildSettings names).
struct AgentSettings {
  float radius = 0.5f;
  float height = 2.0f;
  float max_slope_deg = 45.0f;
  float step_height = 0.4f;
  float voxel_size = 0.1666667f;
};

// One navigation area type (Unity: Walkable = 0, Not Walkable = 1, Jump = 2, user areas 3..31;
// Waymesh allows 0..63).
struct AreaType {
  std::string name;
  float cost = 1.0f;
  bool used = false;
};

// A connected piece of walkable surface (edges only, not off-mesh links).
struct IslandInfo {
  uint32_t polygons = 0;
  double area = 0;     // walkable surface area, m²
  uint32_t group = 0;  // islands joined by off-mesh links (either direction) share a group
};

// What the repair pipeline did to the source data.
struct RepairCounts {
  uint64_t welded = 0;        // vertices merged into another vertex
  uint64_t t_junctions = 0;   // edge splits
  uint64_t non_manifold = 0;  // edges shared by more than two triangles
  uint64_t degenerate = 0;    // triangles dropped
};

struct MapInfo {
  std::string name;
  std::string source_hash;
  std::string build_tool_version;
  AgentSettings agent;
  std::array<AreaType, kMaxAreas> areas;
  Aabb bounds;
  float tile_size = 0;          // metres, square tiles in X–Z
  Vec3 grid_origin;             // X–Z corner of tile (0, 0)
  uint32_t grid_width = 0;      // tiles along X
  uint32_t grid_height = 0;     // tiles along Z
  float max_tile_overhang = 0;  // polygons reach at most this far outside their grid cell (m)
  uint64_t vertex_count = 0;
  uint64_t polygon_count = 0;
  uint64_t off_mesh_link_count = 0;
  double walkable_area = 0;  // m²
  std::vector<IslandInfo> islands;
  RepairCounts repairs;
};

// Quantized bounding-volume-tree node (16 bytes). Coordinates are relative to the tile's bounds
// min, multiplied by `TileView::bv_quant_factor`.
struct BvNode {
  uint16_t min[3];
  uint16_t max[3];
  // Internal node: kBvInternalBit | escape (number of nodes in this subtree, including itself).
  // Leaf: (count - 1) << kBvCountShift | first polygon (polygons are stored in leaf order).
  uint32_t data;
};
inline constexpr uint32_t kBvInternalBit = 0x80000000u;
inline constexpr int kBvCountShift = 27;
inline constexpr uint32_t kBvFirstMask = (1u << kBvCountShift) - 1;
inline constexpr int kBvMaxLeafSize = 8;

// The original triangles of a polygon, as corner indices of that polygon (exact heights).
struct DetailTri {
  uint8_t a, b, c, pad;
};

// Directed off-mesh link (ladder, jump). Bidirectional links are stored once per direction,
// each in the tile of its start polygon. Sorted by `start_poly`.
struct OffMeshLink {
  Vec3 start;
  Vec3 end;
  float radius;
  float cost;           // total traversal cost; the link's area cost is already applied
  uint32_t start_poly;  // in this tile
  uint32_t end_tile;
  uint32_t end_poly;
  uint32_t id;  // index of the source link in the export (both directions share it)
  uint8_t area;
  uint8_t bidirectional;
  uint16_t pad;
};

// One tile. All spans point into the map's bytes.
struct TileView {
  uint32_t index = 0;
  int32_t grid_x = 0, grid_z = 0;
  Aabb bounds;
  float bv_quant_factor = 0;
  std::span<const Vec3> vertices;
  std::span<const uint32_t> poly_start;  // polygon p's corners: [poly_start[p], poly_start[p+1])
  std::span<const uint32_t> poly_verts;  // corner -> vertex index, map winding (TriArea2XZ > 0)
  std::span<const uint32_t> poly_neighbors;  // corner i: edge from corner i to corner i+1
  std::span<const uint8_t> poly_area;        // 0..63
  std::span<const uint16_t> poly_flags;
  std::span<const uint32_t> poly_island;   // index into MapInfo::islands
  std::span<const DetailTri> detail_tris;  // polygon p: n-2 tris from poly_start[p] - 2p
  std::span<const float> area_prefix;      // polygons+1 running sums of polygon area (m²)
  std::span<const BvNode> bv_nodes;
  std::span<const PolyIndex> cross_links;  // neighbours in other tiles
  std::span<const OffMeshLink> off_mesh_links;
  // Tiles of a map carved with obstacles (obstacles/carve_map.h) that changed: per polygon, the
  // polygon of the base map's tile it was cut from or copied from. Empty otherwise (each
  // polygon is its own origin).
  std::span<const uint32_t> poly_origin;

  uint32_t poly_count() const { return poly_start.empty() ? 0 : uint32_t(poly_start.size() - 1); }
  uint32_t corner_count(uint32_t p) const { return poly_start[p + 1] - poly_start[p]; }
  Vec3 corner(uint32_t p, uint32_t i) const { return vertices[poly_verts[poly_start[p] + i]]; }
  // The polygon across the edge of corner slot `c` (poly_start[p] + i: the edge from corner i
  // to corner i + 1 of p), in this tile or, across a tile seam, in the one the seam's link
  // names; nullopt for a wall.
  std::optional<PolyIndex> across(uint32_t c) const {
    const uint32_t nb = poly_neighbors[c];
    if (nb == kWall) return std::nullopt;
    if (nb & kCrossTileBit) return cross_links[nb & ~kCrossTileBit];
    return PolyIndex{index, nb};
  }
  std::span<const DetailTri> detail(uint32_t p) const {
    return detail_tris.subspan(poly_start[p] - 2 * p, corner_count(p) - 2);
  }
  // The bytes of the arrays above: what the tile holds beside its few fixed fields. Kept here
  // so that an array added to the tile is counted where it is declared.
  size_t bytes() const {
    return vertices.size_bytes() + poly_start.size_bytes() + poly_verts.size_bytes() +
           poly_neighbors.size_bytes() + poly_area.size_bytes() + poly_flags.size_bytes() +
           poly_island.size_bytes() + detail_tris.size_bytes() + area_prefix.size_bytes() +
           bv_nodes.size_bytes() + cross_links.size_bytes() + off_mesh_links.size_bytes() +
           poly_origin.size_bytes();
  }
};

// What queries need to know of a tile without loading it.
struct TileSummary {
  int32_t grid_x = 0, grid_z = 0;
  Aabb bounds;
  uint32_t poly_count = 0;
  uint32_t vertex_count = 0;  // lets tables built on the resident map check a paged one
  double area = 0;            // walkable surface, m²
};

// Map-wide figures derived from every tile, kept so that a paged map need not load its tiles
// to answer them.
struct MapDigest {
  std::vector<TileSummary> tiles;  // by tile index
  // Per area: the smallest off-mesh link cost (relative to the area's map cost) per metre of
  // link displacement; INFINITY when no link has that area. Keeps A* admissible with links.
  std::array<float, kMaxAreas> link_cost_per_metre;
  // Bit a set when some polygon or off-mesh link has area a: heuristics need only look at
  // these areas' costs.
  uint64_t areas_present = 0;
  MapDigest() { link_cost_per_metre.fill(std::numeric_limits<float>::infinity()); }
};

// Appends `tile` (the next tile by index) to `digest`; `info` gives the area costs.
void AddTileToDigest(const MapInfo& info, const TileView& tile, MapDigest* digest);

struct SearchTables;
class TileSource;

// A loaded map, either resident (every tile in memory, pointing into bytes the map owns or
// shares) or paged (metadata and tile summaries only; tiles come from a TileSource on demand).
// Pure data: it never builds anything on use. Search tables (search_tables.h) are built from a
// map in an explicit step and attached as a new NavMap that shares the tiles.
class NavMap {
 public:
  // Resident. `tiles[i].index` must be i; tiles must lie inside the grid of `info`. Every
  // tile starts at `generation` (poly_ref.h).
  NavMap(MapInfo info, std::vector<TileView> tiles, std::shared_ptr<const void> storage,
         uint32_t generation = kFirstGeneration);
  // Resident, tile i at generations[i] (one per tile): a map version whose changed tiles moved
  // to a later generation than the map it was made from (obstacle carving).
  NavMap(MapInfo info, std::vector<TileView> tiles, std::shared_ptr<const void> storage,
         std::vector<uint32_t> generations);
  // The carving constructor (obstacles/carve_map.h): as above, with `digest` computed by the
  // caller (it must be what AddTileToDigest gives for `tiles` in order; a carved version
  // gathers it from parts kept per tile). The map is carved().
  NavMap(MapInfo info, std::vector<TileView> tiles, std::shared_ptr<const void> storage,
         std::vector<uint32_t> generations, MapDigest digest);
  // Paged. `digest` must describe exactly the tiles `source` serves.
  NavMap(MapInfo info, MapDigest digest, std::shared_ptr<const TileSource> source,
         uint32_t generation = kFirstGeneration);
  // `map` with `tables` attached (built on `map` or on the same map resident, see
  // SearchTables::Build), shared by every query; tiles, storage and generations are shared.
  NavMap(const NavMap& map, std::shared_ptr<const SearchTables> tables);
  ~NavMap();

  const MapInfo& info() const { return info_; }
  uint32_t tile_count() const { return static_cast<uint32_t>(digest_.tiles.size()); }
  const TileSummary& summary(uint32_t i) const { return digest_.tiles[i]; }
  const MapDigest& digest() const { return digest_; }
  // Whether obstacles were cut into this map (made by the carving constructor; kept when
  // search tables are attached). A layer that cuts nothing gives back the base map: not carved.
  bool carved() const { return carved_; }
  // Per tile, the dense global index of its first polygon, then the polygon total (tiles + 1
  // entries): the numbering of every per-polygon table of the map.
  std::vector<uint32_t> PolygonBases() const;
  // The same for vertices (tile-local copies each count): where each tile's rows start in a
  // per-vertex table of the map, resident or paged.
  std::vector<uint32_t> VertexBases() const;
  // Index of the tile covering grid cell (x, z), or -1 when the cell has no walkable surface.
  int32_t TileIndexAt(int32_t x, int32_t z) const;

  // Generation of tile `tile`'s polygons (< tile count): a reference carrying another one was
  // handed out before the map was reloaded or the tile changed.
  uint32_t generation(uint32_t tile) const { return generations_[tile]; }
  // The reference callers outside core hold for polygon `p` of this map.
  PolyRef Ref(PolyIndex p) const { return PolyRef(p.tile, p.poly, generations_[p.tile]); }

  // Whether tiles are loaded on demand; then tile(), tiles() and TileAt() must not be used:
  // queries go through source().
  bool paged() const { return source_ != nullptr; }
  const TileSource* source() const { return source_.get(); }

  // Resident maps only.
  const TileView& tile(uint32_t i) const { return tiles_[i]; }
  std::span<const TileView> tiles() const { return tiles_; }
  // Tile covering grid cell (x, z), or nullptr when the cell has no walkable surface.
  const TileView* TileAt(int32_t x, int32_t z) const;

  // The search tables attached to this map, or nullptr: queries then search without them.
  const SearchTables* search_tables() const { return tables_.get(); }
  // The same, shared: to attach them to another version of this map (search_tables.h).
  const std::shared_ptr<const SearchTables>& shared_search_tables() const { return tables_; }

 private:
  void BuildGrid();

  MapInfo info_;
  MapDigest digest_;
  std::vector<TileView> tiles_;        // resident maps
  std::vector<int32_t> grid_;          // grid cell -> tile index or -1, built on construction
  std::vector<uint32_t> generations_;  // per tile
  std::shared_ptr<const void> storage_;
  std::shared_ptr<const TileSource> source_;  // paged maps
  std::shared_ptr<const SearchTables> tables_;
  bool carved_ = false;
};

}  // namespace waymesh
