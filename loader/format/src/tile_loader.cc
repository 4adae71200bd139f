// LoadTileView: validating one tile's bytes and pointing a TileView into them. Every check is a
// linear pass over one array, so loading costs about as much as checksumming.

#include <cmath>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "crc32.h"
#include "format_error.h"
#include "waymesh/format/map_tiles.h"
#include "waymesh/mesh/tolerances.h"
#include "wmesh_layout.h"

namespace waymesh {
namespace {

constexpr size_t kNone = SIZE_MAX;

// Whether bad(i) holds for any i in [0, n). Fixed-size blocks without early exit let the
// compiler vectorize even at -O2 (no epilogue loop needed), keeping loads near memory speed.
template <typename Bad>
bool AnyBad(size_t n, Bad bad) {
  constexpr size_t kBlock = 16;
  uint32_t any = 0;
  size_t i = 0;
  for (; i + kBlock <= n; i += kBlock) {
    for (size_t k = 0; k < kBlock; ++k) any |= uint32_t(bad(i + k));
  }
  for (; i < n; ++i) any |= uint32_t(bad(i));
  return any != 0;
}

// Index of the first item for which `bad` holds, or kNone; only a failing array is scanned twice.
template <typename T, typename Bad>
size_t FindBad(std::span<const T> items, Bad bad) {
  const T* x = items.data();
  if (!AnyBad(items.size(), [x, &bad](size_t i) { return bad(x[i]); })) return kNone;
  for (size_t i = 0; i < items.size(); ++i) {
    if (bad(x[i])) return i;
  }
  return kNone;
}

// Reports failures as "tile T at offset O: <array>[i] at offset A: <what>".
class TileChecker {
 public:
  TileChecker(const MapDirectory& dir, uint32_t index, std::span<const std::byte> bytes)
      : dir_(dir), index_(index), entry_(dir.tiles[index]), bytes_(bytes) {}

  absl::StatusOr<TileView> Run();

 private:
  absl::Status Fail(uint64_t local_offset, absl::string_view what) const {
    return wmesh::BadFormat(
        entry_.offset + local_offset,
        absl::StrCat("tile ", index_, " at offset ", entry_.offset, ": ", what));
  }
  template <typename T>
  absl::Status FailAt(absl::string_view array, uint64_t array_offset, size_t i,
                      absl::string_view what) const {
    return wmesh::BadFormat(entry_.offset + array_offset + i * sizeof(T),
                            absl::StrCat("tile ", index_, " at offset ", entry_.offset, ": ", array,
                                         "[", i, "]: ", what));
  }
  template <typename T>
  std::span<const T> Array(uint64_t offset, uint64_t count) const {
    return {reinterpret_cast<const T*>(bytes_.data() + offset), size_t(count)};
  }

  absl::Status CheckBytes() const;
  absl::Status CheckHeader();
  void PointArrays();  // after CheckHeader: spans at the layout's offsets
  absl::Status CheckVertices() const;
  absl::Status CheckPolygons() const;
  absl::Status CheckNeighbors() const;
  absl::Status CheckPerPolygon() const;
  absl::Status CheckDetail() const;
  bool AnyBadDetail() const;  // fast pass of CheckDetail
  absl::Status CheckBvTree() const;
  absl::Status CheckCrossLinks() const;
  absl::Status CheckOffMeshLinks() const;

  const MapDirectory& dir_;
  const uint32_t index_;
  const MapTileEntry& entry_;
  std::span<const std::byte> bytes_;
  wmesh::TileHeader h_;
  wmesh::TileLayout l_;
  TileView v_;
};

absl::Status TileChecker::CheckBytes() const {
  auto where = [this] { return absl::StrCat("tile ", index_, " at offset ", entry_.offset, ": "); };
  if (bytes_.size() != entry_.bytes) {
    return wmesh::DataLoss(entry_.offset, absl::StrCat(where(), "has ", bytes_.size(),
                                                       " bytes but the directory says ",
                                                       entry_.bytes, " (file truncated?)"));
  }
  if (bytes_.size() < sizeof(wmesh::TileHeader)) {
    return wmesh::DataLoss(entry_.offset, where() + "smaller than a tile header");
  }
  if (reinterpret_cast<uintptr_t>(bytes_.data()) % wmesh::kTileMinAlignment != 0) {
    return wmesh::BadFormat(entry_.offset, absl::StrCat(where(), "bytes in memory are not ",
                                                        wmesh::kTileMinAlignment, "-byte aligned"));
  }
  const uint32_t crc = Crc32(bytes_);
  if (crc != entry_.crc32) {
    return wmesh::DataLoss(entry_.offset, where() + wmesh::CrcMismatch(entry_.crc32, crc));
  }
  return absl::OkStatus();
}

absl::Status TileChecker::CheckHeader() {
  std::memcpy(&h_, bytes_.data(), sizeof h_);
  if (std::memcmp(h_.magic, wmesh::kTileMagic, sizeof h_.magic) != 0) {
    return Fail(0, "bad tile magic");
  }
  if (h_.tile_index != index_ || h_.grid_x != entry_.grid_x || h_.grid_z != entry_.grid_z ||
      h_.poly_count != entry_.poly_count || h_.vertex_count != entry_.vertex_count ||
      std::memcmp(&h_.bounds, &entry_.bounds, sizeof h_.bounds) != 0) {
    return Fail(offsetof(wmesh::TileHeader, tile_index),
                "tile header disagrees with the directory (index, grid cell, counts or bounds)");
  }
  if (h_.reserved[0] != 0 || h_.reserved[1] != 0 || h_.reserved[2] != 0) {
    return Fail(offsetof(wmesh::TileHeader, reserved), "reserved bytes are not zero");
  }
  if (!std::isfinite(h_.bv_quant_factor) || !(h_.bv_quant_factor > 0)) {
    return Fail(offsetof(wmesh::TileHeader, bv_quant_factor), "bv_quant_factor not positive");
  }
  const uint64_t polys = h_.poly_count;
  if (h_.corner_count < 3 * polys ||
      h_.corner_count > uint64_t{tol::kMaxVertsPerPolyLimit} * polys ||
      h_.cross_link_count > wmesh::kMaxTileIndex) {
    return Fail(offsetof(wmesh::TileHeader, corner_count),
                absl::StrCat(h_.corner_count, " corners for ", polys, " polygons (3 to ",
                             tol::kMaxVertsPerPolyLimit, " each) or ", h_.cross_link_count,
                             " cross links"));
  }
  l_ = wmesh::ComputeTileLayout(h_);
  if (l_.total != bytes_.size()) {
    return Fail(
        offsetof(wmesh::TileHeader, vertex_count),
        absl::StrCat("counts describe a tile of ", l_.total, " bytes but it has ", bytes_.size()));
  }
  PointArrays();
  return absl::OkStatus();
}

void TileChecker::PointArrays() {
  const uint64_t polys = h_.poly_count;
  v_.index = index_;
  v_.grid_x = h_.grid_x;
  v_.grid_z = h_.grid_z;
  v_.bounds = h_.bounds;
  v_.bv_quant_factor = h_.bv_quant_factor;
  v_.vertices = Array<Vec3>(l_.vertices, h_.vertex_count);
  v_.poly_start = Array<uint32_t>(l_.poly_start, polys + 1);
  v_.poly_verts = Array<uint32_t>(l_.poly_verts, h_.corner_count);
  v_.poly_neighbors = Array<uint32_t>(l_.poly_neighbors, h_.corner_count);
  v_.poly_island = Array<uint32_t>(l_.poly_island, polys);
  v_.area_prefix = Array<float>(l_.area_prefix, polys + 1);
  v_.bv_nodes = Array<BvNode>(l_.bv_nodes, h_.bv_node_count);
  v_.cross_links = Array<PolyIndex>(l_.cross_links, h_.cross_link_count);
  v_.off_mesh_links = Array<OffMeshLink>(l_.off_mesh_links, h_.off_mesh_link_count);
  v_.detail_tris = Array<DetailTri>(l_.detail_tris, l_.detail_tri_count);
  v_.poly_flags = Array<uint16_t>(l_.poly_flags, polys);
  v_.poly_area = Array<uint8_t>(l_.poly_area, polys);
}

absl::Status TileChecker::CheckVertices() const {
  // Non-finite floats have an all-ones exponent: one mask test per coordinate.
  const std::span<const uint32_t> words(reinterpret_cast<const uint32_t*>(v_.vertices.data()),
                                        v_.vertices.size() * 3);
  const size_t i = FindBad(words, [](uint32_t w) { return (w & 0x7f800000u) == 0x7f800000u; });
  if (i == kNone) return absl::OkStatus();
  return FailAt<Vec3>("vertices", l_.vertices, i / 3, "coordinate not finite");
}

absl::Status TileChecker::CheckPolygons() const {
  const std::span<const uint32_t> start = v_.poly_start;
  if (start[0] != 0) return FailAt<uint32_t>("poly_start", l_.poly_start, 0, "must be 0");
  // n - 3 wraps for n < 3 (and n wraps when poly_start decreases): one unsigned compare.
  constexpr uint32_t kSpan = tol::kMaxVertsPerPolyLimit - 3;
  const uint32_t* st = start.data();
  const bool any =
      AnyBad(start.size() - 1, [st](size_t p) { return st[p + 1] - st[p] - 3 > kSpan; });
  for (size_t p = 0; any && p + 1 < start.size(); ++p) {
    if (start[p + 1] - start[p] - 3 > kSpan) {
      return FailAt<uint32_t>(
          "poly_start", l_.poly_start, p + 1,
          absl::StrCat("polygon ", p, " would have ", int64_t{start[p + 1]} - start[p],
                       " corners (3 to ", tol::kMaxVertsPerPolyLimit, ")"));
    }
  }
  if (start.back() != h_.corner_count) {
    return FailAt<uint32_t>(
        "poly_start", l_.poly_start, start.size() - 1,
        absl::StrCat("ends at ", start.back(), ", not at the corner count ", h_.corner_count));
  }
  const uint32_t vertices = h_.vertex_count;
  const size_t c = FindBad(v_.poly_verts, [vertices](uint32_t v) { return v >= vertices; });
  if (c != kNone) {
    return FailAt<uint32_t>(
        "poly_verts", l_.poly_verts, c,
        absl::StrCat("vertex ", v_.poly_verts[c], " >= vertex count ", vertices));
  }
  return absl::OkStatus();
}

absl::Status TileChecker::CheckNeighbors() const {
  const uint32_t polys = h_.poly_count, links = h_.cross_link_count;
  const size_t c = FindBad(v_.poly_neighbors, [polys, links](uint32_t n) {
    const uint32_t limit = (n & kCrossTileBit) ? links : polys;
    return (n != kWall) & ((n & ~kCrossTileBit) >= limit);
  });
  if (c == kNone) return absl::OkStatus();
  const uint32_t n = v_.poly_neighbors[c];
  const bool cross = n & kCrossTileBit;
  return FailAt<uint32_t>(
      "poly_neighbors", l_.poly_neighbors, c,
      absl::StrCat(cross ? "cross link " : "polygon ", n & ~kCrossTileBit,
                   " >= ", cross ? "cross link count " : "polygon count ", cross ? links : polys));
}

absl::Status TileChecker::CheckPerPolygon() const {
  const uint32_t islands = uint32_t(dir_.info.islands.size());
  if (size_t p = FindBad(v_.poly_island, [islands](uint32_t i) { return i >= islands; });
      p != kNone) {
    return FailAt<uint32_t>(
        "poly_island", l_.poly_island, p,
        absl::StrCat("island ", v_.poly_island[p], " >= island count ", islands));
  }
  if (size_t p = FindBad(v_.poly_area, [](uint8_t a) { return a >= kMaxAreas; }); p != kNone) {
    return FailAt<uint8_t>("poly_area", l_.poly_area, p,
                           absl::StrCat("area ", v_.poly_area[p], " >= ", kMaxAreas));
  }
  const std::span<const float> prefix = v_.area_prefix;
  if (prefix[0] != 0.0f) return FailAt<float>("area_prefix", l_.area_prefix, 0, "must be 0");
  // Written so that NaN fails too; a finite last sum bounds all earlier ones.
  bool any = false;
  for (size_t i = 1; i < prefix.size(); ++i) any |= !(prefix[i] >= prefix[i - 1]);
  for (size_t i = 1; any && i < prefix.size(); ++i) {
    if (!(prefix[i] >= prefix[i - 1])) {
      return FailAt<float>("area_prefix", l_.area_prefix, i, "not finite or decreasing");
    }
  }
  if (!std::isfinite(prefix.back())) {
    return FailAt<float>("area_prefix", l_.area_prefix, prefix.size() - 1, "not finite");
  }
  return absl::OkStatus();
}

bool TileChecker::AnyBadDetail() const {
  const DetailTri* tri = v_.detail_tris.data();
  if (h_.corner_count == 3 * uint64_t{h_.poly_count}) {  // all triangles: one each, corners < 3
    return AnyBad(v_.detail_tris.size(), [tri](size_t i) {
      return (std::max({tri[i].a, tri[i].b, tri[i].c}) >= 3) | (tri[i].pad != 0);
    });
  }
  const std::span<const uint32_t> start = v_.poly_start;
  bool any = false;
  for (size_t p = 0; p + 1 < start.size(); ++p) {
    const uint32_t n = start[p + 1] - start[p];
    for (uint32_t t = 0; t < n - 2; ++t, ++tri) {
      any |= (std::max({tri->a, tri->b, tri->c}) >= n) | (tri->pad != 0);
    }
  }
  return any;
}

absl::Status TileChecker::CheckDetail() const {
  if (!AnyBadDetail()) return absl::OkStatus();
  const std::span<const uint32_t> start = v_.poly_start;
  const DetailTri* tri = v_.detail_tris.data();
  for (size_t p = 0; p + 1 < start.size(); ++p) {
    const uint32_t n = start[p + 1] - start[p];
    for (uint32_t t = 0; t < n - 2; ++t, ++tri) {
      if (tri->a >= n || tri->b >= n || tri->c >= n || tri->pad != 0) {
        return FailAt<DetailTri>(
            "detail_tris", l_.detail_tris, tri - v_.detail_tris.data(),
            absl::StrCat("corner index >= ", n, " corners of polygon ", p, " (or pad not zero)"));
      }
    }
  }
  return absl::OkStatus();
}

// The nodes must form one binary tree in depth-first order whose leaves, in order, hold every
// polygon exactly once: then Detour-style traversal (i += escape) stays in bounds.
absl::Status TileChecker::CheckBvTree() const {
  const std::span<const BvNode> nodes = v_.bv_nodes;
  const uint64_t count = nodes.size();
  auto escape = [&](uint64_t i) -> uint64_t {
    return (nodes[i].data & kBvInternalBit) ? nodes[i].data & ~kBvInternalBit : 1;
  };
  if (count == 0 || escape(0) != count) {
    return Fail(l_.bv_nodes, absl::StrCat("bv root does not span the ", count, " nodes"));
  }
  uint64_t next_poly = 0;
  for (uint64_t i = 0; i < count; ++i) {
    const BvNode& n = nodes[i];
    if (n.min[0] > n.max[0] || n.min[1] > n.max[1] || n.min[2] > n.max[2]) {
      return FailAt<BvNode>("bv_nodes", l_.bv_nodes, i, "min > max");
    }
    if (n.data & kBvInternalBit) {
      const uint64_t end = i + escape(i);
      // Children: i + 1 and the node right after the left subtree; they must tile [i+1, end).
      const bool fits = escape(i) >= 3 && end <= count;
      const uint64_t right = fits ? i + 1 + escape(i + 1) : end;
      if (!fits || right >= end || right + escape(right) != end) {
        return FailAt<BvNode>("bv_nodes", l_.bv_nodes, i,
                              absl::StrCat("escape ", escape(i), " does not close a subtree"));
      }
    } else {
      const uint64_t first = n.data & kBvFirstMask, size = (n.data >> kBvCountShift) + 1;
      if (first != next_poly || size > uint64_t(kBvMaxLeafSize) || first + size > h_.poly_count) {
        return FailAt<BvNode>("bv_nodes", l_.bv_nodes, i,
                              absl::StrCat("leaf holds polygons [", first, ", ", first + size,
                                           "), expected to start at ", next_poly));
      }
      next_poly = first + size;
    }
  }
  if (next_poly != h_.poly_count) {
    return Fail(l_.bv_nodes,
                absl::StrCat("bv leaves hold ", next_poly, " of ", h_.poly_count, " polygons"));
  }
  return absl::OkStatus();
}

absl::Status TileChecker::CheckCrossLinks() const {
  for (size_t i = 0; i < v_.cross_links.size(); ++i) {
    const PolyIndex& c = v_.cross_links[i];
    if (c.tile >= dir_.tiles.size() || c.tile == index_ ||
        c.poly >= dir_.tiles[c.tile].poly_count) {
      return FailAt<PolyIndex>(
          "cross_links", l_.cross_links, i,
          absl::StrCat("tile ", c.tile, " polygon ", c.poly, " is not a polygon of another tile"));
    }
  }
  return absl::OkStatus();
}

absl::Status TileChecker::CheckOffMeshLinks() const {
  uint32_t previous_start = 0;
  for (size_t i = 0; i < v_.off_mesh_links.size(); ++i) {
    const OffMeshLink& k = v_.off_mesh_links[i];
    absl::string_view what;
    if (k.start_poly >= h_.poly_count || k.start_poly < previous_start) {
      what = "start_poly out of range or links not sorted by it";
    } else if (k.end_tile >= dir_.tiles.size() || k.end_poly >= dir_.tiles[k.end_tile].poly_count) {
      what = "end (tile, polygon) out of range";
    } else if (k.area >= kMaxAreas || k.bidirectional > 1 || k.pad != 0) {
      what = "area >= 64, bidirectional not 0/1 or pad not zero";
    } else if (!IsFinite(k.start) || !IsFinite(k.end) || !(k.radius >= 0) || !(k.cost >= 0) ||
               !std::isfinite(k.radius) || !std::isfinite(k.cost)) {
      what = "position, radius or cost not finite and non-negative";
    }
    if (!what.empty()) return FailAt<OffMeshLink>("off_mesh_links", l_.off_mesh_links, i, what);
    previous_start = k.start_poly;
  }
  return absl::OkStatus();
}

absl::StatusOr<TileView> TileChecker::Run() {
  absl::Status s = CheckBytes();
  if (s.ok()) s = CheckHeader();
  if (s.ok()) s = CheckVertices();
  if (s.ok()) s = CheckPolygons();
  if (s.ok()) s = CheckNeighbors();
  if (s.ok()) s = CheckPerPolygon();
  if (s.ok()) s = CheckDetail();
  if (s.ok()) s = CheckBvTree();
  if (s.ok()) s = CheckCrossLinks();
  if (s.ok()) s = CheckOffMeshLinks();
  if (!s.ok()) return s;
  return v_;
}

}  // namespace

absl::StatusOr<TileView> LoadTileView(const MapDirectory& dir, uint32_t index,
                                      std::span<const std::byte> tile_bytes) {
  if (index >= dir.tiles.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("tile ", index, " requested but the map has ", dir.tiles.size(), " tiles"));
  }
  return TileChecker(dir, index, tile_bytes).Run();
}

}  // namespace waymesh
