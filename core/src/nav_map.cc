#include "waymesh/core/nav_map.h"

#include <algorithm>
#include <cmath>

#include "waymesh/core/search_tables.h"
#include "waymesh/core/tile_source.h"

namespace waymesh {

void AddTileToDigest(const MapInfo& info, const TileView& tile, MapDigest* digest) {
  TileSummary s;
  s.grid_x = tile.grid_x;
  s.grid_z = tile.grid_z;
  s.bounds = tile.bounds;
  s.poly_count = tile.poly_count();
  s.vertex_count = uint32_t(tile.vertices.size());
  s.area = tile.area_prefix.empty() ? 0.0 : std::max(double(tile.area_prefix.back()), 0.0);
  digest->tiles.push_back(s);
  for (const uint8_t area : tile.poly_area) digest->areas_present |= uint64_t{1} << (area & 63);
  for (const OffMeshLink& link : tile.off_mesh_links) {
    digest->areas_present |= uint64_t{1} << (link.area & 63);
    const float d = Distance(link.start, link.end);
    if (!(d > 0)) continue;
    const int a = link.area & (kMaxAreas - 1);
    const float c = info.areas[a].cost;
    const float inv_cost = (std::isfinite(c) && c > 0) ? 1.0f / c : 1.0f;
    const float per_metre = std::max(link.cost, 0.0f) * inv_cost / d;
    digest->link_cost_per_metre[a] = std::min(digest->link_cost_per_metre[a], per_metre);
  }
}

NavMap::NavMap(MapInfo info, std::vector<TileView> tiles, std::shared_ptr<const void> storage,
               uint32_t generation)
    : info_(std::move(info)), tiles_(std::move(tiles)), storage_(std::move(storage)) {
  for (const TileView& t : tiles_) AddTileToDigest(info_, t, &digest_);
  generations_.assign(tiles_.size(), generation);
  BuildGrid();
}

NavMap::NavMap(MapInfo info, std::vector<TileView> tiles, std::shared_ptr<const void> storage,
               std::vector<uint32_t> generations)
    : info_(std::move(info)),
      tiles_(std::move(tiles)),
      generations_(std::move(generations)),
      storage_(std::move(storage)) {
  for (const TileView& t : tiles_) AddTileToDigest(info_, t, &digest_);
  generations_.resize(tiles_.size(), kFirstGeneration);
  BuildGrid();
}

NavMap::NavMap(MapInfo info, std::vector<TileView> tiles, std::shared_ptr<const void> storage,
               std::vector<uint32_t> generations, MapDigest digest)
    : info_(std::move(info)),
      digest_(std::move(digest)),
      tiles_(std::move(tiles)),
      generations_(std::move(generations)),
      storage_(std::move(storage)),
      carved_(true) {
  generations_.resize(tiles_.size(), kFirstGeneration);
  BuildGrid();
}

NavMap::NavMap(MapInfo info, MapDigest digest, std::shared_ptr<const TileSource> source,
               uint32_t generation)
    : info_(std::move(info)), digest_(std::move(digest)), source_(std::move(source)) {
  generations_.assign(digest_.tiles.size(), generation);
  BuildGrid();
}

NavMap::NavMap(const NavMap& map, std::shared_ptr<const SearchTables> tables) : NavMap(map) {
  tables_ = std::move(tables);
}

NavMap::~NavMap() = default;

void NavMap::BuildGrid() {
  grid_.assign(size_t{info_.grid_width} * info_.grid_height, -1);
  for (uint32_t i = 0; i < digest_.tiles.size(); ++i) {
    const TileSummary& t = digest_.tiles[i];
    if (t.grid_x >= 0 && t.grid_z >= 0 && uint32_t(t.grid_x) < info_.grid_width &&
        uint32_t(t.grid_z) < info_.grid_height) {
      grid_[size_t(t.grid_z) * info_.grid_width + t.grid_x] = int32_t(i);
    }
  }
}

std::vector<uint32_t> NavMap::PolygonBases() const {
  std::vector<uint32_t> base{0};
  for (const TileSummary& t : digest_.tiles) base.push_back(base.back() + t.poly_count);
  return base;
}

std::vector<uint32_t> NavMap::VertexBases() const {
  std::vector<uint32_t> base{0};
  for (const TileSummary& t : digest_.tiles) base.push_back(base.back() + t.vertex_count);
  return base;
}

int32_t NavMap::TileIndexAt(int32_t x, int32_t z) const {
  if (x < 0 || z < 0 || uint32_t(x) >= info_.grid_width || uint32_t(z) >= info_.grid_height) {
    return -1;
  }
  return grid_[size_t(z) * info_.grid_width + x];
}

const TileView* NavMap::TileAt(int32_t x, int32_t z) const {
  const int32_t i = paged() ? -1 : TileIndexAt(x, z);
  return i < 0 ? nullptr : &tiles_[i];
}

}  // namespace waymesh
