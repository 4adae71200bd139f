// ReadPlanTwinSection and AppendPlanTwinSection: the optional plan twin of a `.wmesh` file
// (docs/map-format.md, "Plan twin section"): the cover, then the twin as a `.wmesh` image of
// its own, which is read with the same checks as any map.

#include <bit>
#include <cstring>
#include <tuple>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "crc32.h"
#include "format_error.h"
#include "header_seal.h"
#include "map_view_loader.h"
#include "waymesh/format/map_structure.h"
#include "waymesh/format/map_tiles.h"
#include "wmesh_layout.h"

namespace waymesh {
namespace {

// Every message names the section and the file offset of the failing part.
absl::Status BadTwinSection(const MapDirectory& dir, uint64_t at, absl::string_view what) {
  return wmesh::BadFormat(dir.plan_twin.offset + at, absl::StrCat("plan twin section: ", what));
}

// The section header's own fields, before the counts are used to place anything.
absl::Status CheckTwinHeader(const MapDirectory& dir, const wmesh::PlanTwinHeader& h,
                             uint64_t section_bytes) {
  if (std::memcmp(h.magic, wmesh::kPlanTwinMagic, sizeof h.magic) != 0) {
    return BadTwinSection(dir, 0, "bad magic (expected \"WTWN\")");
  }
  if (h.version != wmesh::kPlanTwinVersion) {
    return BadTwinSection(dir, offsetof(wmesh::PlanTwinHeader, version),
                          absl::StrCat("unsupported section version ", h.version,
                                       " (this build reads version ", wmesh::kPlanTwinVersion,
                                       ")"));
  }
  if (h.reserved != 0) {
    return BadTwinSection(dir, offsetof(wmesh::PlanTwinHeader, reserved),
                          "reserved bytes are not zero");
  }
  if (h.map_polygons != dir.info.polygon_count) {
    return BadTwinSection(dir, offsetof(wmesh::PlanTwinHeader, map_polygons),
                          absl::StrCat("built for ", h.map_polygons, " polygons, but the map has ",
                                       dir.info.polygon_count, ": not this map's twin"));
  }
  // Bounded by the section before any layout arithmetic: nothing below can overflow.
  if (h.cover_count > section_bytes / sizeof(PolyIndex) || h.cover_count >= UINT32_MAX ||
      h.twin_bytes > section_bytes || h.twin_bytes % wmesh::kAlignment != 0) {
    return BadTwinSection(dir, offsetof(wmesh::PlanTwinHeader, cover_count),
                          absl::StrCat(h.cover_count, " cover entries and a ", h.twin_bytes,
                                       "-byte twin do not fit a section of ", section_bytes,
                                       " bytes"));
  }
  return absl::OkStatus();
}

// The twin's `.wmesh` image, read as any map is (a version 1 file: no sections of its own).
absl::StatusOr<std::shared_ptr<const NavMap>> ReadTwinImage(const MapDirectory& dir, uint64_t at,
                                                           std::span<const std::byte> image,
                                                           std::shared_ptr<const void> storage) {
  uint32_t version = 0;
  if (image.size() >= 12) std::memcpy(&version, image.data() + 8, sizeof version);
  if (version != wmesh::kPlainFormatVersion) {
    return BadTwinSection(dir, at, "the twin's image is not a version 1 map");
  }
  absl::StatusOr<std::shared_ptr<const NavMap>> twin =
      LoadMapViewUnchecked(image, std::move(storage));
  absl::Status s = twin.ok() ? MapStructureStatus(**twin) : twin.status();
  if (s.ok()) return twin;
  return absl::Status(s.code(), absl::StrCat("offset ", dir.plan_twin.offset + at,
                                             ": plan twin section: the twin's image: ",
                                             s.message()));
}

// The twin lies on the map's tile grid and every corner of it is a vertex of the map's tile,
// bit for bit (what its exact landmark rows are read through).
absl::Status CheckTwinOnMap(const MapDirectory& dir, uint64_t at, const NavMap& map,
                            const NavMap& twin) {
  if (twin.tile_count() != map.tile_count()) {
    return BadTwinSection(dir, at,
                          absl::StrCat("the twin has ", twin.tile_count(), " tiles, the map ",
                                       map.tile_count()));
  }
  const auto key = [](Vec3 v) {
    return std::tuple(std::bit_cast<uint32_t>(v.x), std::bit_cast<uint32_t>(v.y),
                      std::bit_cast<uint32_t>(v.z));
  };
  absl::flat_hash_set<std::tuple<uint32_t, uint32_t, uint32_t>> vertices;
  for (uint32_t t = 0; t < map.tile_count(); ++t) {
    const TileView &m = map.tile(t), &w = twin.tile(t);
    if (m.grid_x != w.grid_x || m.grid_z != w.grid_z) {
      return BadTwinSection(dir, at,
                            absl::StrCat("twin tile ", t, " is not in the map tile's cell"));
    }
    vertices.clear();
    for (const Vec3 v : m.vertices) vertices.insert(key(v));
    for (uint32_t v = 0; v < w.vertices.size(); ++v) {
      if (!vertices.contains(key(w.vertices[v]))) {
        return BadTwinSection(dir, at, absl::StrCat("twin tile ", t, " vertex ", v,
                                                    " is not a vertex of the map's tile"));
      }
    }
  }
  return absl::OkStatus();
}

// The cover: CSR over the map's polygons, each entry a twin polygon of the map polygon's tile.
absl::Status CheckCover(const MapDirectory& dir, const wmesh::PlanTwinLayout& l,
                        const NavMap& map, const NavMap& twin, const PlanTwin& out) {
  const std::vector<uint32_t> bases = map.PolygonBases();
  if (out.cover_start.front() != 0 || out.cover_start.back() != out.cover.size()) {
    return BadTwinSection(dir, l.cover_start,
                          absl::StrCat("cover_start must run from 0 to the ", out.cover.size(),
                                       " cover entries"));
  }
  // Non-decreasing from 0 to the entries' count, so every range below lies in the cover.
  for (size_t g = 0; g + 1 < out.cover_start.size(); ++g) {
    if (out.cover_start[g] > out.cover_start[g + 1]) {
      return BadTwinSection(dir, l.cover_start + 4 * uint64_t{g + 1},
                            absl::StrCat("cover_start decreases at polygon ", g));
    }
  }
  for (uint32_t t = 0; t < map.tile_count(); ++t) {
    for (uint32_t g = bases[t]; g < bases[t + 1]; ++g) {
      for (uint32_t i = out.cover_start[g]; i < out.cover_start[g + 1]; ++i) {
        const PolyIndex c = out.cover[i];
        if (c.tile != t || c.poly >= twin.tile(t).poly_count()) {
          return BadTwinSection(dir, l.cover + 8 * uint64_t{i},
                                absl::StrCat("cover entry ", i, " (tile ", c.tile, ", polygon ",
                                             c.poly, ") is not a twin polygon of tile ", t));
        }
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<PlanTwin> ReadPlanTwinSection(const MapDirectory& dir, const NavMap& map,
                                             std::span<const std::byte> bytes,
                                             std::shared_ptr<const void> storage) {
  const MapSectionEntry& entry = dir.plan_twin;
  if (bytes.size() != entry.bytes || bytes.size() < sizeof(wmesh::PlanTwinHeader)) {
    return BadTwinSection(dir, 0,
                          absl::StrCat(bytes.size(), " bytes, but the header says ", entry.bytes));
  }
  wmesh::PlanTwinHeader h;
  std::memcpy(&h, bytes.data(), sizeof h);
  if (const uint32_t crc = Crc32(bytes.subspan(wmesh::kPlanTwinCrcStart)); crc != h.crc) {
    return wmesh::DataLoss(entry.offset,
                           absl::StrCat("plan twin section ", wmesh::CrcMismatch(h.crc, crc)));
  }
  if (absl::Status s = CheckTwinHeader(dir, h, bytes.size()); !s.ok()) return s;
  const wmesh::PlanTwinLayout l =
      wmesh::ComputePlanTwinLayout(h.map_polygons, h.cover_count, h.twin_bytes);
  if (l.total != bytes.size()) {
    return BadTwinSection(dir, 0,
                          absl::StrCat(bytes.size(), " bytes, but its counts take ", l.total));
  }
  const uint64_t starts_end = l.cover_start + (h.map_polygons + 1) * sizeof(uint32_t);
  const uint64_t cover_end = l.cover + h.cover_count * sizeof(PolyIndex);
  if (!wmesh::AllZero(bytes.subspan(starts_end, l.cover - starts_end)) ||
      !wmesh::AllZero(bytes.subspan(cover_end, l.twin - cover_end))) {
    return BadTwinSection(dir, starts_end, "padding is not zero");
  }
  PlanTwin out;
  out.cover_start.resize(h.map_polygons + 1);
  std::memcpy(out.cover_start.data(), bytes.data() + l.cover_start,
              out.cover_start.size() * sizeof(uint32_t));
  out.cover.resize(h.cover_count);
  std::memcpy(out.cover.data(), bytes.data() + l.cover, out.cover.size() * sizeof(PolyIndex));
  absl::StatusOr<std::shared_ptr<const NavMap>> twin =
      ReadTwinImage(dir, l.twin, bytes.subspan(l.twin, h.twin_bytes), std::move(storage));
  if (!twin.ok()) return twin.status();
  if (absl::Status s = CheckTwinOnMap(dir, l.twin, map, **twin); !s.ok()) return s;
  if (absl::Status s = CheckCover(dir, l, map, **twin, out); !s.ok()) return s;
  out.report = {h.map_polygons, (*twin)->info().polygon_count, h.vertices_removed};
  out.map = *std::move(twin);
  return out;
}

absl::Status AppendPlanTwinSection(const PlanTwin& twin, std::string* bytes) {
  wmesh::FileHeader fh;
  std::memcpy(&fh, bytes->data(), sizeof fh);
  if (fh.version == wmesh::kFormatVersion) {
    return absl::FailedPreconditionError("the map already has a plan twin section");
  }
  absl::StatusOr<std::string> image = CompileNavMap(*twin.map);
  if (!image.ok()) return image.status();
  const wmesh::PlanTwinLayout l =
      wmesh::ComputePlanTwinLayout(twin.report.polygons_before, twin.cover.size(), image->size());
  if (l.total > UINT32_MAX) {
    return absl::InvalidArgumentError(
        absl::StrCat("plan twin section of ", l.total, " bytes exceeds the format's 4 GiB"));
  }
  std::string section(l.total, '\0');
  wmesh::PlanTwinHeader h{};
  std::memcpy(h.magic, wmesh::kPlanTwinMagic, sizeof h.magic);
  h.version = wmesh::kPlanTwinVersion;
  h.map_polygons = twin.report.polygons_before;
  h.cover_count = twin.cover.size();
  h.vertices_removed = twin.report.vertices_removed;
  h.twin_bytes = image->size();
  std::memcpy(section.data() + l.cover_start, twin.cover_start.data(),
              twin.cover_start.size() * sizeof(uint32_t));
  std::memcpy(section.data() + l.cover, twin.cover.data(), twin.cover.size() * sizeof(PolyIndex));
  std::memcpy(section.data() + l.twin, image->data(), image->size());
  std::memcpy(section.data(), &h, sizeof h);
  h.crc = Crc32(std::as_bytes(std::span(section)).subspan(wmesh::kPlanTwinCrcStart));
  std::memcpy(section.data() + offsetof(wmesh::PlanTwinHeader, crc), &h.crc, sizeof h.crc);

  fh.version = wmesh::kFormatVersion;
  bytes->append(section);
  fh.file_bytes = bytes->size();
  wmesh::SealFileHeader(fh, bytes);
  return absl::OkStatus();
}

}  // namespace waymesh
