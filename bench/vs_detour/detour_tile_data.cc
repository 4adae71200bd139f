#include "vs_detour/detour_tile_data.h"

#include <DetourAlloc.h>
#include <DetourNavMesh.h>
#include <DetourNavMeshBuilder.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "vs_detour/detour_detail.h"
#include "vs_detour/polygon_id.h"
#include "vs_detour/vertex_key.h"

namespace waymesh::bench {

void DetourFree::operator()(unsigned char* data) const { dtFree(data); }

namespace {

constexpr uint16_t kNoNeighbour = 0xffff;  // Recast's null index: a wall (border) edge
constexpr uint16_t kWalkableFlag = 1;      // Detour's default filter needs a flag bit set
// Quantized coordinates stay below this so Detour's BV query box (which adds 1 before its
// 16-bit store) never wraps.
constexpr double kMaxQuantSteps = 65000.0;
constexpr double kSmallestStep = 1.0 / (1 << 20);  // metres

// Smallest power of two >= `v`: integer and dyadic coordinates then quantize exactly.
float PowerOfTwoStep(double v) {
  return static_cast<float>(std::exp2(std::ceil(std::log2(std::max(v, kSmallestStep)))));
}

using DetourCorners = std::array<uint8_t, kMaxPieceCorners>;

// Detour winds polygons the other way round (its inside tests expect TriArea2XZ < 0), so a
// piece's corners are reversed, keeping the first corner first.
DetourCorners DetourOrder(const ConvexPiece& piece) {
  DetourCorners d{};
  for (int k = 0; k < piece.count; ++k) d[k] = piece.corners[(piece.count - k) % piece.count];
  return d;
}

// The piece of polygon `id` whose boundary runs from corner `a` to corner `b` in polygon
// order.
uint32_t PieceWithEdge(const DetourPartition& partition, PolygonId id, uint32_t a, uint32_t b) {
  const std::vector<uint32_t>& first = partition.first_piece[id.tile];
  for (uint32_t g = first[id.poly]; g < first[id.poly + 1]; ++g) {
    const ConvexPiece& pc = partition.pieces[g].piece;
    for (int k = 0; k < pc.count; ++k) {
      if (pc.corners[k] == a && pc.corners[(k + 1) % pc.count] == b) return g;
    }
  }
  return first[id.poly];  // unreachable: every edge and diagonal of a split is in a piece
}

// Edge `edge` of polygon `p` in `from`, found in polygon `q` of `to` as the same two corners in
// the opposite direction; when the mesh is not conforming there, the nearest edge.
struct EdgeMatch {
  uint32_t edge = 0;
  bool exact = false;
};
EdgeMatch MatchingEdge(const TileView& from, uint32_t p, uint32_t edge, const TileView& to,
                       uint32_t q) {
  const uint32_t n = from.corner_count(p);
  const Vec3 a = from.corner(p, edge);
  const Vec3 b = from.corner(p, (edge + 1) % n);
  const Vec3 mid = (a + b) * 0.5f;
  const uint32_t m = to.corner_count(q);
  EdgeMatch best;
  float best_distance = std::numeric_limits<float>::max();
  for (uint32_t j = 0; j < m; ++j) {
    const Vec3 c = to.corner(q, j);
    const Vec3 d = to.corner(q, (j + 1) % m);
    if (c == b && d == a) return {j, true};
    const float distance = Distance((c + d) * 0.5f, mid);
    if (distance < best_distance) best = {j, false}, best_distance = distance;
  }
  return best;
}

// Collects and emits one Detour tile's arrays for dtCreateNavMeshData.
class TileBuilder {
 public:
  TileBuilder(const NavMap& map, const DetourPartition& partition, uint32_t tile)
      : map_(map), partition_(partition), tile_(tile) {}

  absl::StatusOr<DetourTileData> Build();

 private:
  void CollectVertices();
  void ChooseQuantization();
  void EmitPolygon(uint32_t piece);
  uint16_t Neighbour(uint32_t piece, uint32_t a, uint32_t b, uint8_t edge);
  void EmitDetail(const PieceSource& src, const DetourCorners& order, const uint16_t* verts);
  void EmitLinks();
  absl::StatusOr<DetourTileData> Create();

  const NavMap& map_;
  const DetourPartition& partition_;
  const uint32_t tile_;

  absl::flat_hash_map<VertexKey, uint16_t> vertex_index_;
  std::vector<Vec3> positions_;
  Aabb bounds_;
  float bmin_[3] = {}, bmax_[3] = {};
  float cs_ = 1, ch_ = 1;

  std::vector<uint16_t> verts_;
  std::vector<uint16_t> polys_;
  std::vector<uint16_t> poly_flags_;
  std::vector<uint8_t> poly_areas_;
  std::vector<uint32_t> detail_meshes_;
  std::vector<float> detail_verts_;
  std::vector<uint8_t> detail_tris_;
  std::vector<float> link_verts_, link_radius_;
  std::vector<uint16_t> link_flags_;
  std::vector<uint8_t> link_areas_, link_dirs_;
  std::vector<uint32_t> link_ids_;
  DetourTileData out_;
};

void TileBuilder::CollectVertices() {
  for (uint32_t g = partition_.tile_first_piece[tile_]; g < partition_.tile_first_piece[tile_ + 1];
       ++g) {
    const PieceSource& src = partition_.pieces[g];
    const TileView& tile = map_.tile(src.tile);
    for (int k = 0; k < src.piece.count; ++k) {
      const Vec3 v = tile.corner(src.poly, src.piece.corners[k]);
      if (vertex_index_.try_emplace(KeyOf(v), uint16_t(positions_.size())).second) {
        positions_.push_back(v);
        bounds_.Extend(v);
      }
    }
  }
  for (const LinkSource& link : partition_.tile_links[tile_]) bounds_.Extend(link.link->start);
}

void TileBuilder::ChooseQuantization() {
  const double extent =
      std::max({double(bounds_.max.x) - bounds_.min.x, double(bounds_.max.y) - bounds_.min.y,
                double(bounds_.max.z) - bounds_.min.z});
  cs_ = PowerOfTwoStep(extent / kMaxQuantSteps);
  ch_ = cs_;  // Detour's BV tree quantizes heights with cs as well
  const float lo[3] = {bounds_.min.x, bounds_.min.y, bounds_.min.z};
  const float hi[3] = {bounds_.max.x, bounds_.max.y, bounds_.max.z};
  for (int i = 0; i < 3; ++i) {
    bmin_[i] = std::floor(lo[i] / cs_) * cs_;
    bmax_[i] = hi[i] + cs_;  // off-mesh starts must lie strictly inside
  }
  verts_.reserve(positions_.size() * 3);
  for (const Vec3& v : positions_) {
    const float p[3] = {v.x, v.y, v.z};
    for (int i = 0; i < 3; ++i) {
      const long q = std::lround((p[i] - bmin_[i]) / cs_);
      verts_.push_back(static_cast<uint16_t>(std::clamp<long>(q, 0, 0xffff)));
      const float back = bmin_[i] + static_cast<float>(verts_.back()) * cs_;
      out_.max_quantization_error =
          std::max(out_.max_quantization_error, double(std::fabs(back - p[i])));
    }
  }
}

uint16_t TileBuilder::Neighbour(uint32_t piece, uint32_t a, uint32_t b, uint8_t edge) {
  const PieceSource& src = partition_.pieces[piece];
  const TileView& tile = map_.tile(src.tile);
  const uint32_t n = tile.corner_count(src.poly);
  uint32_t target = 0;
  if ((b + 1) % n != a) {  // a diagonal: the polygon's other piece along it, same tile
    target = PieceWithEdge(partition_, {src.tile, src.poly}, a, b);
  } else {
    const std::optional<PolygonId> other = NeighbourAcross(tile, src.poly, b);
    if (!other) return kNoNeighbour;
    const TileView& other_tile = map_.tile(other->tile);
    const EdgeMatch match = MatchingEdge(tile, src.poly, b, other_tile, other->poly);
    if (!match.exact) ++out_.inexact_portals;
    const uint32_t m = other_tile.corner_count(other->poly);
    target = PieceWithEdge(partition_, *other, match.edge, (match.edge + 1) % m);
  }
  ++out_.connected_edges;
  if (partition_.piece_tile[target] == tile_) return uint16_t(partition_.IndexInTile(target));
  out_.portals.push_back({partition_.IndexInTile(piece), edge, target});
  return kNoNeighbour;
}

void TileBuilder::EmitPolygon(uint32_t piece) {
  const PieceSource& src = partition_.pieces[piece];
  const TileView& tile = map_.tile(src.tile);
  const DetourCorners order = DetourOrder(src.piece);
  const int m = src.piece.count;
  const size_t base = polys_.size();
  polys_.resize(base + 2 * kMaxPieceCorners, kNoNeighbour);
  for (int k = 0; k < m; ++k) {
    const uint32_t a = order[k], b = order[(k + 1) % m];
    polys_[base + k] = vertex_index_.at(KeyOf(tile.corner(src.poly, a)));
    polys_[base + kMaxPieceCorners + k] = Neighbour(piece, a, b, uint8_t(k));
  }
  int64_t twice_area = 0;  // exact, on the quantized grid
  for (int k = 0; k < m; ++k) {
    const uint16_t* a = &verts_[polys_[base + k] * 3];
    const uint16_t* b = &verts_[polys_[base + (k + 1) % m] * 3];
    twice_area += int64_t(a[0]) * b[2] - int64_t(b[0]) * a[2];
  }
  if (twice_area == 0) ++out_.zero_area_polygons;
  poly_flags_.push_back(kWalkableFlag);
  poly_areas_.push_back(tile.poly_area[src.poly]);
  EmitDetail(src, order, &polys_[base]);
}

void TileBuilder::EmitDetail(const PieceSource& src, const DetourCorners& order,
                             const uint16_t* verts) {
  const int m = src.piece.count;
  detail_meshes_.push_back(uint32_t(detail_verts_.size() / 3));
  detail_meshes_.push_back(uint32_t(m));
  detail_meshes_.push_back(uint32_t(detail_tris_.size() / 4));
  for (int k = 0; k < m; ++k) {
    for (int i = 0; i < 3; ++i) detail_verts_.push_back(bmin_[i] + verts_[verts[k] * 3 + i] * cs_);
  }
  const TileView& tile = map_.tile(src.tile);
  const std::span<const DetailTri> source =
      tile.detail_tris.empty() ? std::span<const DetailTri>() : tile.detail(src.poly);
  const int count = AppendDetailTriangles(std::span(order.data(), m), source, &detail_tris_);
  detail_meshes_.push_back(uint32_t(count));
}

void TileBuilder::EmitLinks() {
  for (const LinkSource& source : partition_.tile_links[tile_]) {
    const OffMeshLink& link = *source.link;
    link_verts_.insert(link_verts_.end(), {link.start.x, link.start.y, link.start.z, link.end.x,
                                           link.end.y, link.end.z});
    link_radius_.push_back(link.radius);
    link_flags_.push_back(kWalkableFlag);
    link_areas_.push_back(link.area);
    link_dirs_.push_back(link.bidirectional ? DT_OFFMESH_CON_BIDIR : 0);
    link_ids_.push_back(link.id);
  }
}

absl::StatusOr<DetourTileData> TileBuilder::Create() {
  const AgentSettings& agent = map_.info().agent;
  dtNavMeshCreateParams params;
  std::memset(&params, 0, sizeof(params));
  params.verts = verts_.data();
  params.vertCount = int(positions_.size());
  params.polys = polys_.data();
  params.polyFlags = poly_flags_.data();
  params.polyAreas = poly_areas_.data();
  params.polyCount = int(poly_flags_.size());
  params.nvp = kMaxPieceCorners;
  params.detailMeshes = detail_meshes_.data();
  params.detailVerts = detail_verts_.data();
  params.detailVertsCount = int(detail_verts_.size() / 3);
  params.detailTris = detail_tris_.data();
  params.detailTriCount = int(detail_tris_.size() / 4);
  params.offMeshConVerts = link_verts_.data();
  params.offMeshConRad = link_radius_.data();
  params.offMeshConFlags = link_flags_.data();
  params.offMeshConAreas = link_areas_.data();
  params.offMeshConDir = link_dirs_.data();
  params.offMeshConUserID = link_ids_.data();
  params.offMeshConCount = int(link_ids_.size());
  params.userId = tile_;
  params.tileLayer = int(tile_);
  std::copy(bmin_, bmin_ + 3, params.bmin);
  std::copy(bmax_, bmax_ + 3, params.bmax);
  params.walkableHeight = agent.height;
  params.walkableRadius = agent.radius;
  params.walkableClimb = agent.step_height;
  params.cs = cs_;
  params.ch = ch_;
  params.buildBvTree = true;
  unsigned char* data = nullptr;
  if (!dtCreateNavMeshData(&params, &data, &out_.size)) {
    return absl::InternalError(absl::StrCat("dtCreateNavMeshData failed for Detour tile ", tile_,
                                            " (", params.polyCount, " polygons, ", params.vertCount,
                                            " vertices)"));
  }
  out_.data.reset(data);
  out_.polys = uint32_t(params.polyCount);
  out_.off_mesh_links = uint32_t(params.offMeshConCount);
  return std::move(out_);
}

absl::StatusOr<DetourTileData> TileBuilder::Build() {
  CollectVertices();
  if (positions_.size() > kMaxDetourTileVerts) {
    return absl::ResourceExhaustedError(
        absl::StrCat("Detour tile ", tile_, " has ", positions_.size(), " vertices"));
  }
  ChooseQuantization();
  for (uint32_t g = partition_.tile_first_piece[tile_]; g < partition_.tile_first_piece[tile_ + 1];
       ++g) {
    EmitPolygon(g);
  }
  EmitLinks();
  return Create();
}

}  // namespace

absl::StatusOr<DetourTileData> BuildDetourTile(const NavMap& map, const DetourPartition& partition,
                                               uint32_t detour_tile) {
  return TileBuilder(map, partition, detour_tile).Build();
}

}  // namespace waymesh::bench
