// CompileMap: RepairedMesh -> `.wmesh` bytes (header block, then tiles; docs/map-format.md);
// CompileNavMap: the same from a map already in memory.

#include <cstring>

#include "absl/strings/str_cat.h"
#include "compile_input_check.h"
#include "header_seal.h"
#include "map_strings.h"
#include "tile_plan.h"
#include "tile_writer.h"
#include "waymesh/format/map_file.h"
#include "waymesh/format/map_tiles.h"
#include "wmesh_layout.h"

namespace waymesh {
namespace {

// Map name, source hash, build tool version, then the area names, each as u16 length + bytes.
std::string EncodeStrings(const MapInfo& info) {
  std::string out;
  auto put = [&out](const std::string& s) {
    const uint16_t n = uint16_t(s.size());
    out.append(reinterpret_cast<const char*>(&n), sizeof n);
    out.append(s);
  };
  for (int i = 0; i < int(wmesh::kStringCount); ++i) put(wmesh::MapString(info, i));
  return out;
}

wmesh::FileHeader MakeHeader(const MapInfo& info, uint32_t tiles, uint32_t strings_bytes,
                             uint32_t header_bytes) {
  wmesh::FileHeader h{};
  std::memcpy(h.magic, wmesh::kMagic, sizeof h.magic);
  h.version = wmesh::kPlainFormatVersion;  // AppendExactLandmarkSection raises it
  h.header_bytes = header_bytes;
  h.tile_count = tiles;
  h.island_count = uint32_t(info.islands.size());
  h.strings_bytes = strings_bytes;
  h.agent_radius = info.agent.radius;
  h.agent_height = info.agent.height;
  h.agent_max_slope_deg = info.agent.max_slope_deg;
  h.agent_step_height = info.agent.step_height;
  h.agent_voxel_size = info.agent.voxel_size;
  h.tile_size = info.tile_size;
  h.grid_origin = info.grid_origin;
  h.grid_width = info.grid_width;
  h.grid_height = info.grid_height;
  h.max_tile_overhang = info.max_tile_overhang;
  h.bounds = info.bounds;
  h.vertex_count = info.vertex_count;
  h.polygon_count = info.polygon_count;
  h.off_mesh_link_count = info.off_mesh_link_count;
  h.walkable_area = info.walkable_area;
  h.repairs_welded = info.repairs.welded;
  h.repairs_t_junctions = info.repairs.t_junctions;
  h.repairs_non_manifold = info.repairs.non_manifold;
  h.repairs_degenerate = info.repairs.degenerate;
  return h;
}

template <typename T>
void PutAt(std::string* out, uint64_t offset, const T& value) {
  std::memcpy(out->data() + offset, &value, sizeof value);
}

// Fills the header block [0, header_bytes) of `out`, whose tiles are already written.
void WriteHeaderBlock(const MapInfo& info, const std::vector<wmesh::TileRecord>& dir,
                      const std::string& strings, uint32_t header_bytes, std::string* out) {
  wmesh::FileHeader h =
      MakeHeader(info, uint32_t(dir.size()), uint32_t(strings.size()), header_bytes);
  h.file_bytes = out->size();
  for (int a = 0; a < kMaxAreas; ++a) {
    wmesh::AreaRecord r{};
    r.cost = info.areas[a].cost;
    r.used = info.areas[a].used ? 1 : 0;
    PutAt(out, wmesh::kAreaTableOffset + a * sizeof r, r);
  }
  for (size_t i = 0; i < info.islands.size(); ++i) {
    wmesh::IslandRecord r{};
    r.polygons = info.islands[i].polygons;
    r.group = info.islands[i].group;
    r.area = info.islands[i].area;
    PutAt(out, wmesh::kIslandTableOffset + i * sizeof r, r);
  }
  const uint64_t dir_at = wmesh::TileDirectoryOffset(info.islands.size());
  for (size_t t = 0; t < dir.size(); ++t) PutAt(out, dir_at + t * sizeof dir[t], dir[t]);
  std::memcpy(out->data() + wmesh::StringsOffset(info.islands.size(), dir.size()), strings.data(),
              strings.size());
  wmesh::SealFileHeader(h, out);
}

}  // namespace

absl::StatusOr<std::string> CompileMap(const RepairedMesh& mesh,
                                       std::vector<PolyIndex>* placement) {
  if (absl::Status s = CheckCompileInput(mesh); !s.ok()) return s;
  std::vector<TilePlan> plans = PlanTiles(mesh, placement);
  for (const TilePlan& plan : plans) {
    if (plan.polys.size() > wmesh::kMaxTilePolygons) {
      return absl::InvalidArgumentError(
          absl::StrCat("CompileMap: grid cell ", plan.cell, " has ", plan.polys.size(),
                       " polygons, more than a tile can hold (", wmesh::kMaxTilePolygons,
                       "); use smaller tiles"));
    }
  }
  const std::string strings = EncodeStrings(mesh.info);
  const uint64_t header_bytes =
      wmesh::HeaderBlockBytes(mesh.info.islands.size(), plans.size(), strings.size());
  if (header_bytes > UINT32_MAX) return absl::InvalidArgumentError("CompileMap: header too big");

  std::string out(header_bytes, '\0');
  std::vector<wmesh::TileRecord> dir;
  dir.reserve(plans.size());
  TileWriterScratch scratch;
  for (uint32_t t = 0; t < plans.size(); ++t) {
    absl::StatusOr<wmesh::TileRecord> r = WriteTile(mesh, plans[t], t, *placement, &scratch, &out);
    if (!r.ok()) return r.status();
    dir.push_back(*r);
  }
  // The counts describe the file as written, whatever the pipeline left in `info`.
  MapInfo info = mesh.info;
  info.vertex_count = mesh.vertices.size();
  info.polygon_count = mesh.polygon_count();
  info.off_mesh_link_count = mesh.links.size();
  WriteHeaderBlock(info, dir, strings, uint32_t(header_bytes), &out);
  return out;
}

absl::StatusOr<std::string> CompileNavMap(const NavMap& map) {
  if (map.paged()) return absl::FailedPreconditionError("CompileNavMap needs a resident map");
  const MapInfo& info = map.info();
  const std::string strings = EncodeStrings(info);
  const uint64_t header_bytes =
      wmesh::HeaderBlockBytes(info.islands.size(), map.tile_count(), strings.size());
  if (header_bytes > UINT32_MAX) return absl::InvalidArgumentError("CompileNavMap: header too big");
  std::string out(header_bytes, '\0');
  std::vector<wmesh::TileRecord> dir;
  dir.reserve(map.tile_count());
  for (uint32_t t = 0; t < map.tile_count(); ++t) {
    absl::StatusOr<wmesh::TileRecord> r = WriteTileView(map.tile(t), &out);
    if (!r.ok()) return r.status();
    dir.push_back(*r);
  }
  WriteHeaderBlock(info, dir, strings, uint32_t(header_bytes), &out);
  return out;
}

absl::StatusOr<std::string> CompileMap(const RepairedMesh& mesh) {
  std::vector<PolyIndex> placement;
  return CompileMap(mesh, &placement);
}

}  // namespace waymesh
