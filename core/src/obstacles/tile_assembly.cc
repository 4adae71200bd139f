#include "tile_assembly.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <numeric>
#include <tuple>

#include "absl/container/flat_hash_set.h"
#include "absl/hash/hash.h"
#include "absl/strings/str_format.h"
#include "map_islands.h"
#include "poly_geometry.h"
#include "previous_splice.h"
#include "surface_area.h"
#include "tile_splice.h"
#include "waymesh/core/bv_tree_builder.h"
#include "waymesh/core/tolerances.h"
#include "word_hash.h"

namespace waymesh::obstacles {
namespace {

// Plan tolerance (metres) for finding the piece that holds an off-mesh link end.
constexpr double kLinkEndInPiece = 1e-3;
// An ear of a piece's triangulation must turn by more than this (m², twice the plan area).
constexpr double kMinEarArea2 = 1e-12;

using MatchKey = std::array<uint32_t, 13>;
struct MatchKeyHash {
  size_t operator()(const MatchKey& k) const { return absl::HashOf(HashWords(k)); }
};

MatchKey MatchKeyOf(const LineKey& line, Vec3 a, Vec3 b) {
  if (std::tuple(b.x, b.y, b.z) < std::tuple(a.x, a.y, a.z)) std::swap(a, b);
  MatchKey k;
  std::copy(line.words.begin(), line.words.end(), k.begin());
  const float f[6] = {a.x, a.y, a.z, b.x, b.y, b.z};
  for (int i = 0; i < 6; ++i) k[7 + i] = std::bit_cast<uint32_t>(f[i]);
  return k;
}

bool InTriangleOrOn(Vec3 a, Vec3 b, Vec3 c, Vec3 p) {
  return internal::Area2XZ(a, b, p) >= 0 && internal::Area2XZ(b, c, p) >= 0 &&
         internal::Area2XZ(c, a, p) >= 0;
}

// Ear clipping that never makes a zero-area triangle (pieces have collinear T-junction
// corners, which a fan would turn into flat triangles).
std::vector<DetailTri> Triangulate(std::span<const PieceCorner> corners) {
  std::vector<uint8_t> left(corners.size());
  for (size_t i = 0; i < left.size(); ++i) left[i] = uint8_t(i);
  std::vector<DetailTri> tris;
  while (left.size() > 3) {
    const size_t n = left.size();
    size_t ear = n;
    for (size_t i = 0; i < n && ear == n; ++i) {
      const uint8_t a = left[(i + n - 1) % n], b = left[i], c = left[(i + 1) % n];
      const Vec3 pa = corners[a].pos, pb = corners[b].pos, pc = corners[c].pos;
      if (internal::Area2XZ(pa, pb, pc) <= kMinEarArea2) continue;
      bool clear = true;
      for (const uint8_t o : left) {
        if (o == a || o == b || o == c) continue;
        if (InTriangleOrOn(pa, pb, pc, corners[o].pos)) clear = false;
      }
      if (clear) ear = i;
    }
    if (ear == n) ear = 0;  // numerically flat everywhere: any ear keeps the count right
    tris.push_back({left[(ear + n - 1) % n], left[ear], left[(ear + 1) % n], 0});
    left.erase(left.begin() + ear);
  }
  tris.push_back({left[0], left[1], left[2], 0});
  return tris;
}

// The base polygon's detail triangles with the inserted corners: a triangle on a boundary edge
// that received points becomes a fan from its third corner over them (repeatedly, as a
// triangle may have several such edges), so the surface stays exactly the base one.
std::vector<DetailTri> SplitDetail(const TileView& tile, const WorkPoly& w) {
  const uint32_t n = tile.corner_count(w.origin);
  std::vector<uint32_t> new_of(n + 1);
  for (uint32_t i = 0; i < n; ++i) new_of[i + 1] = new_of[i] + 1 + w.inserted_after[i];
  const uint32_t total = new_of[n];
  std::vector<int32_t> old_of(total, -1);
  for (uint32_t i = 0; i < n; ++i) old_of[new_of[i]] = int32_t(i);
  // The new corners from old corner x to the next old corner, when points were inserted there.
  const auto chain = [&](uint32_t x, uint32_t y, std::vector<uint32_t>* out) {
    if (old_of[x] < 0 || old_of[y] < 0) return false;
    const uint32_t i = uint32_t(old_of[x]);
    if (uint32_t(old_of[y]) != (i + 1) % n || w.inserted_after[i] == 0) return false;
    out->clear();
    for (uint32_t k = 0; k <= w.inserted_after[i]; ++k) out->push_back(new_of[i] + k);
    out->push_back(y);
    return true;
  };
  std::vector<DetailTri> todo, out;
  for (const DetailTri& t : tile.detail(w.origin)) {
    todo.push_back({uint8_t(new_of[t.a]), uint8_t(new_of[t.b]), uint8_t(new_of[t.c]), 0});
  }
  std::vector<uint32_t> run;
  while (!todo.empty()) {
    const DetailTri t = todo.back();
    todo.pop_back();
    const uint8_t v[3] = {t.a, t.b, t.c};
    bool split = false;
    for (int r = 0; r < 3 && !split; ++r) {
      const uint32_t x = v[r], y = v[(r + 1) % 3], z = v[(r + 2) % 3];
      if (chain(x, y, &run)) {
        split = true;
      } else if (chain(y, x, &run)) {
        std::reverse(run.begin(), run.end());
        split = true;
      }
      if (!split) continue;
      for (size_t k = 0; k + 1 < run.size(); ++k) {
        todo.push_back({uint8_t(run[k]), uint8_t(run[k + 1]), uint8_t(z), 0});
      }
    }
    if (!split) out.push_back(t);
  }
  return out;
}

bool PieceHolds(const WorkPoly& w, Vec3 p) {
  const size_t n = w.corners.size();
  for (size_t i = 0; i < n; ++i) {
    const Vec3 a = w.corners[i].pos, b = w.corners[(i + 1) % n].pos;
    const double len = std::hypot(double(b.x) - a.x, double(b.z) - a.z);
    if (len > 0 && internal::Area2XZ(a, b, p) / len < -kLinkEndInPiece) return false;
  }
  return true;
}

}  // namespace

struct TileAssembler::EdgeSide {
  uint32_t tile, poly, corner;
  PolyIndex origin;                  // base polygon
  std::optional<PolyIndex> base_nb;  // base neighbour across the base edge it lies on
  bool cut_line;
};

TileAssembler::TileAssembler(const NavMap& base, const BaseComponents& components,
                             NumberingOf numbering, WorkOf work)
    : base_(base),
      components_(components),
      numbering_(std::move(numbering)),
      numbering_memo_(base.tile_count(), nullptr),
      numbering_known_(base.tile_count(), false),
      work_of_(std::move(work)) {}

TileAssembler::~TileAssembler() = default;

void TileAssembler::FollowPrevious(PreviousOf previous, UnchangedOf unchanged) {
  previous_ = std::move(previous);
  unchanged_ = std::move(unchanged);
}

void TileAssembler::FindKept(const std::function<TileState*(uint32_t)>& out) {
  for (const uint32_t t : build_) {
    const TileState* previous = previous_ ? previous_(t) : nullptr;
    kept_[t] = previous == nullptr ? KeptPolygons{} : FindKeptPolygons(*out(t), *previous);
  }
  kept_of_tile_.assign(base_.tile_count(), nullptr);
  unchanged_memo_.assign(base_.tile_count(), 0);
  for (const auto& [t, kept] : kept_) kept_of_tile_[t] = &kept;
  // Which edges keep their links is known once every built tile's kept polygons are.
  for (auto& [t, kept] : kept_) FindMatchedOrigins(&kept, *work_.at(t));
}

void TileAssembler::FindMatchedOrigins(KeptPolygons* kept, const WorkTile& work) const {
  if (kept->previous == nullptr) return;
  kept->matched_origin.assign(base_.tile(work.index).poly_count(), false);
  for (uint32_t p = 0; p < work.polys.size(); ++p) {
    const WorkPoly& wp = work.polys[p];
    if (wp.spliced) continue;  // linked through the numbering, never matched
    bool matched = kept->old_of_new[p] == KeptPolygons::kNotKept;
    std::optional<PolyIndex> unused;
    for (uint32_t c = 0; c < wp.corners.size() && !matched; ++c) {
      matched = !KeepLink(*kept, p, c, &unused);
    }
    if (matched) kept->matched_origin[wp.origin] = true;
  }
}

bool TileAssembler::FacesMatchedOrigin(uint32_t tile, uint32_t poly,
                                       const absl::flat_hash_set<uint32_t>& built) const {
  const TileView& bt = base_.tile(tile);
  for (uint32_t c = bt.poly_start[poly]; c < bt.poly_start[poly + 1]; ++c) {
    const std::optional<PolyIndex> across = bt.across(c);
    if (!across || across->tile == tile || !built.contains(across->tile)) continue;
    const KeptPolygons* kept = kept_of_tile_[across->tile];
    if (kept == nullptr || kept->matched_origin.empty() || kept->matched_origin[across->poly]) {
      return true;
    }
  }
  return false;
}

std::optional<uint32_t> TileAssembler::KeptIndex(uint32_t tile, uint32_t old_index) const {
  if (const KeptPolygons* kept = kept_of_tile_[tile]) {
    const std::vector<uint32_t>& now = kept->new_of_old;
    if (old_index >= now.size() || now[old_index] == KeptPolygons::kNotKept) return std::nullopt;
    return now[old_index];
  }
  if (unchanged_memo_[tile] == 0) unchanged_memo_[tile] = unchanged_ && unchanged_(tile) ? 1 : 2;
  if (unchanged_memo_[tile] == 1) return old_index;
  return std::nullopt;
}

const TileNumbering* TileAssembler::NumberingFor(uint32_t tile) const {
  if (!numbering_known_[tile]) {
    numbering_memo_[tile] = numbering_(tile);
    numbering_known_[tile] = true;
  }
  return numbering_memo_[tile];
}

absl::Status TileAssembler::AddTile(const WorkTile* work, bool build) {
  for (const WorkPoly& w : work->polys) {
    if (w.corners.size() > size_t(tol::kMaxVertsPerPolyLimit)) {
      return absl::FailedPreconditionError(absl::StrFormat(
          "carving would give polygon %d of tile %d %d corners (the limit is %d)", w.origin,
          work->index, int(w.corners.size()), tol::kMaxVertsPerPolyLimit));
    }
  }
  work_[work->index] = work;
  if (build) build_.push_back(work->index);
  return absl::OkStatus();
}

// Where a link to `base_target` now points; nullopt when that polygon was cut and no piece
// holds `point` (the link's end is under a block).
std::optional<PolyIndex> TileAssembler::Resolve(PolyIndex base_target, Vec3 point) const {
  const TileNumbering* num = NumberingFor(base_target.tile);
  if (num == nullptr) return base_target;
  const uint32_t index = num->new_index[base_target.poly];
  if (index != kCutPolygon) return PolyIndex{base_target.tile, index};
  const auto pieces = num->pieces_of.find(base_target.poly);
  if (pieces == num->pieces_of.end()) return std::nullopt;
  const auto added = work_.find(base_target.tile);
  const WorkTile& w = added != work_.end() ? *added->second : *work_of_(base_target.tile);
  for (const uint32_t p : pieces->second) {
    if (PieceHolds(w.polys[p], point)) return PolyIndex{base_target.tile, p};
  }
  return std::nullopt;
}

// Every edge of a piece, and every edge of an untouched polygon facing a cut one, is matched
// with the edge of identical end positions on the same line (same base edge between base
// neighbours, or the same cut line inside one base polygon); other edges keep their base link.
// Edges of added neighbours that are not built take part so that built edges find them.
void TileAssembler::MatchEdges() {
  // Unmatched edges by key, in the order they were met: a list threaded through `sides` (an
  // allocation per key would dominate the matching).
  constexpr uint32_t kEnd = UINT32_MAX;
  struct OpenList {
    uint32_t first = kEnd, last = kEnd;
  };
  absl::flat_hash_map<MatchKey, OpenList, MatchKeyHash> open;
  std::vector<EdgeSide> sides;
  std::vector<uint32_t> next_side;
  std::vector<bool> matched_side;
  std::vector<uint32_t> order;
  for (const auto& [t, w] : work_) order.push_back(t);
  std::sort(order.begin(), order.end());
  const absl::flat_hash_set<uint32_t> built(build_.begin(), build_.end());
  for (const uint32_t t : order) {
    const WorkTile& w = *work_.at(t);
    const TileView& bt = base_.tile(t);
    // An unchanged neighbour's edges matter only where they face a built tile across a seam
    // (cut lines never leave their base polygon).
    const bool context = !built.contains(t);
    // Links are kept for built tiles only (a context tile's are already in its view).
    TileLinks scratch;
    TileLinks& links = context ? scratch : links_[t];
    if (!context) {
      links.first.assign(1, 0);
      links.first.reserve(w.polys.size() + 1);
      for (const WorkPoly& wp : w.polys) {
        const uint32_t corners = wp.spliced ? bt.corner_count(wp.origin) : wp.corners.size();
        links.first.push_back(links.first.back() + corners);
      }
      links.across.assign(links.first.back(), std::nullopt);
    }
    std::vector<uint32_t> polys;
    if (context) {
      // Only polygons of base polygons on a seam can face a built tile.
      const TileNumbering* num = NumberingFor(t);
      for (const uint32_t o : components_.seam_polys[t]) {
        if (!FacesMatchedOrigin(t, o, built)) continue;
        const uint32_t index = num == nullptr ? o : num->new_index[o];
        if (index != kCutPolygon) {
          polys.push_back(index);
        } else if (const auto pieces = num->pieces_of.find(o); pieces != num->pieces_of.end()) {
          polys.insert(polys.end(), pieces->second.begin(), pieces->second.end());
        }
      }
      std::sort(polys.begin(), polys.end());
    } else {
      polys.resize(w.polys.size());
      std::iota(polys.begin(), polys.end(), 0);
    }
    const KeptPolygons* tile_kept = context ? nullptr : kept_of_tile_[t];
    if (tile_kept != nullptr && tile_kept->previous == nullptr) tile_kept = nullptr;
    WorkPoly unspliced;
    const PointsOnLine none;
    const EdgeLinePoints no_points(none);
    for (const uint32_t p : polys) {
      const WorkPoly* polygon = &w.polys[p];
      if (polygon->spliced) {
        if (!context) {
          LinkSpliced(bt, *polygon, &links.at(p, 0));
          continue;
        }
        // Spliced when a previous version built it: a cut across it since then would have
        // rebuilt its tile (it links into a changed polygon), so it faces none and has nothing
        // to match. Should it face one, its corners are matched as they were.
        const auto numbering_of = [this](uint32_t n) { return NumberingFor(n); };
        if (SplicesUntouched(bt, polygon->origin, no_points, NumberingFor(t), numbering_of)) {
          continue;
        }
        unspliced = *polygon;
        unspliced.spliced = false;
        unspliced.own_corners = BaseCorners(bt, polygon->origin);
        unspliced.corners = unspliced.own_corners;
        unspliced.inserted_after.assign(unspliced.corners.size(), 0);
        polygon = &unspliced;
      }
      const WorkPoly& wp = *polygon;
      const size_t n = wp.corners.size();
      const KeptPolygons* kept =
          tile_kept != nullptr && tile_kept->old_of_new[p] != KeptPolygons::kNotKept ? tile_kept
                                                                                     : nullptr;
      for (uint32_t c = 0; c < n; ++c) {
        if (kept != nullptr && KeepLink(*kept, p, c, &links.at(p, c))) continue;
        const PieceCorner& pc = wp.corners[c];
        std::optional<PolyIndex> base_nb;
        if (pc.base_edge >= 0) base_nb = bt.across(bt.poly_start[wp.origin] + pc.base_edge);
        if (context && !(base_nb && base_nb->tile != t && built.contains(base_nb->tile))) {
          continue;
        }
        if (!wp.piece && base_nb) {
          const TileNumbering* num = NumberingFor(base_nb->tile);
          const bool nb_cut = num != nullptr && num->new_index[base_nb->poly] == kCutPolygon;
          if (!nb_cut) {
            if (!context) links.at(p, c) = Resolve(*base_nb, pc.pos);
            continue;
          }
        }
        if (!wp.piece && !base_nb) continue;  // a wall stays a wall
        const MatchKey key = MatchKeyOf(pc.next, pc.pos, wp.corners[(c + 1) % n].pos);
        const EdgeSide side{t, p, c, {t, wp.origin}, base_nb, pc.next.kind() == LineKey::kCutLine};
        OpenList& list = open[key];
        bool matched = false;
        for (uint32_t k = list.first; k != kEnd && !matched; k = next_side[k]) {
          if (matched_side[k]) continue;
          const EdgeSide& o = sides[k];
          const bool fits = side.cut_line ? (o.tile != t || o.poly != p)
                                          : (o.base_nb == side.origin && side.base_nb == o.origin);
          if (!fits) continue;
          if (!context) links.at(p, c) = PolyIndex{o.tile, o.poly};
          if (const auto other = links_.find(o.tile); other != links_.end()) {
            other->second.at(o.poly, o.corner) = PolyIndex{t, p};
          }
          matched_side[k] = true;
          matched = true;
        }
        if (matched) continue;
        const uint32_t k = uint32_t(sides.size());
        sides.push_back(side);
        next_side.push_back(kEnd);
        matched_side.push_back(false);
        if (list.last == kEnd) {
          list.first = k;
        } else {
          next_side[list.last] = k;
        }
        list.last = k;
      }
    }
  }
}

// A spliced polygon links where its base polygon does, through the numbering of the tiles
// across (no polygon across is cut, so no point is needed to find a piece).
void TileAssembler::LinkSpliced(const TileView& tile, const WorkPoly& poly,
                                std::optional<PolyIndex>* links) const {
  const uint32_t start = tile.poly_start[poly.origin];
  const uint32_t n = tile.corner_count(poly.origin);
  for (uint32_t c = 0; c < n; ++c) {
    const std::optional<PolyIndex> base_nb = tile.across(start + c);
    links[c] = base_nb ? Resolve(*base_nb, tile.corner(poly.origin, c)) : std::nullopt;
  }
}

// A kept polygon's edge whose neighbour in the previous version is kept too links to it again:
// both are the same polygons, so matching would pair the same two edges.
bool TileAssembler::KeepLink(const KeptPolygons& kept, uint32_t p, uint32_t c,
                             std::optional<PolyIndex>* link) const {
  const TileView& before = kept.previous->view;
  const std::optional<PolyIndex> across = before.across(before.poly_start[kept.old_of_new[p]] + c);
  if (!across) return false;
  const std::optional<uint32_t> now = KeptIndex(across->tile, across->poly);
  if (!now) return false;
  *link = PolyIndex{across->tile, *now};
  return true;
}

void TileAssembler::Build(const std::function<TileState*(uint32_t)>& out) {
  FindKept(out);
  MatchEdges();
  std::sort(build_.begin(), build_.end());
  for (const uint32_t t : build_) BuildArrays(*work_.at(t), out(t));
}

void TileAssembler::BuildArrays(const WorkTile& w, TileState* state) const {
  const TileView& bt = base_.tile(w.index);
  TileArrays& a = state->arrays;
  a.vertices.assign(bt.vertices.begin(), bt.vertices.end());
  // A corner takes the first vertex at its position: a base one, else one added before.
  const BaseVertexIndex& base_vertices = components_.vertices[w.index];
  absl::flat_hash_map<std::tuple<float, float, float>, uint32_t> added_vertex;
  const auto& links = links_.at(w.index);
  const size_t poly_count = w.polys.size(), corner_count = links.across.size();
  a.poly_verts.reserve(corner_count);
  a.poly_neighbors.reserve(corner_count);
  a.detail_tris.reserve(corner_count);  // fewer: n - 2 per polygon, more where split
  a.poly_start.reserve(poly_count + 1);
  a.area_prefix.reserve(poly_count + 1);
  a.poly_area.reserve(poly_count);
  a.poly_flags.reserve(poly_count);
  a.poly_origin.reserve(poly_count);
  const auto kept_it = kept_.find(w.index);
  const KeptPolygons* kept = kept_it == kept_.end() ? nullptr : &kept_it->second;
  if (kept != nullptr && kept->previous == nullptr) kept = nullptr;
  state->surface.clear();
  state->surface.reserve(poly_count);
  double area_sum = 0;
  std::vector<Aabb> boxes;
  boxes.reserve(poly_count);
  Aabb bounds;
  std::vector<Vec3> pts;  // the polygon's corners, reused
  std::vector<DetailTri> tris;
  for (uint32_t p = 0; p < poly_count; ++p) {
    const WorkPoly& wp = w.polys[p];
    const uint32_t base_start = bt.poly_start[wp.origin];
    const uint32_t n = links.first[p + 1] - links.first[p];
    pts.clear();
    Aabb box;
    const uint32_t old = kept == nullptr ? KeptPolygons::kNotKept : kept->old_of_new[p];
    // A kept polygon's corners are at the vertices they had: a base vertex then (found by
    // position) is the same one now, and one added then is added again.
    const uint32_t* old_verts =
        old == KeptPolygons::kNotKept
            ? nullptr
            : &kept->previous->view.poly_verts[kept->previous->view.poly_start[old]];
    const uint32_t base_count = uint32_t(bt.vertices.size());
    for (uint32_t c = 0; c < n; ++c) {
      const uint32_t base_vertex = wp.spliced ? bt.poly_verts[base_start + c] : 0;
      const Vec3 v = wp.spliced ? bt.vertices[base_vertex] : wp.corners[c].pos;
      std::optional<uint32_t> at_base;
      if (!wp.spliced) {
        at_base = old_verts == nullptr        ? base_vertices.Find(v)
                  : old_verts[c] < base_count ? std::optional<uint32_t>(old_verts[c])
                                              : std::nullopt;
      }
      if (wp.spliced) {
        a.poly_verts.push_back(base_vertices.FirstAt(base_vertex));
      } else if (at_base) {
        a.poly_verts.push_back(*at_base);
      } else {
        const auto [it, added] =
            added_vertex.try_emplace(std::tuple(v.x, v.y, v.z), uint32_t(a.vertices.size()));
        if (added) a.vertices.push_back(v);
        a.poly_verts.push_back(it->second);
      }
      pts.push_back(v);
      box.Extend(v);
      const std::optional<PolyIndex> nb = links.at(p, c);
      if (!nb) {
        a.poly_neighbors.push_back(kWall);
      } else if (nb->tile == w.index) {
        a.poly_neighbors.push_back(nb->poly);
      } else {
        a.poly_neighbors.push_back(kCrossTileBit | uint32_t(a.cross_links.size()));
        a.cross_links.push_back(*nb);
      }
    }
    a.poly_start.push_back(uint32_t(a.poly_verts.size()));
    const bool unchanged = wp.spliced || (!wp.piece && pts.size() == bt.corner_count(wp.origin));
    double surface;
    if (unchanged) {
      tris.assign(bt.detail(wp.origin).begin(), bt.detail(wp.origin).end());
    } else if (old != KeptPolygons::kNotKept) {
      const std::span<const DetailTri> before = kept->previous->view.detail(old);
      tris.assign(before.begin(), before.end());
    } else {
      tris = wp.piece ? Triangulate(wp.corners) : SplitDetail(bt, wp);
    }
    if (wp.spliced) {
      surface = components_.surface_area[w.index][wp.origin];
    } else if (old != KeptPolygons::kNotKept) {
      surface = kept->previous->surface[old];
    } else {
      surface = SurfaceArea(pts, tris);
    }
    state->surface.push_back(surface);
    area_sum += surface;
    a.detail_tris.insert(a.detail_tris.end(), tris.begin(), tris.end());
    a.area_prefix.push_back(float(area_sum));
    a.poly_area.push_back(wp.area);
    a.poly_flags.push_back(wp.flags);
    a.poly_origin.push_back(wp.origin);
    boxes.push_back(box);
    bounds.Extend(box.min);
    bounds.Extend(box.max);
  }
  a.poly_island.assign(w.polys.size(), 0);  // filled when islands are known
  for (const OffMeshLink& l : bt.off_mesh_links) {
    const auto from = Resolve({w.index, l.start_poly}, l.start);
    const auto to = Resolve({l.end_tile, l.end_poly}, l.end);
    if (!from || !to) continue;
    OffMeshLink moved = l;
    moved.start_poly = from->poly;
    moved.end_tile = to->tile;
    moved.end_poly = to->poly;
    a.off_mesh_links.push_back(moved);
  }
  std::stable_sort(a.off_mesh_links.begin(), a.off_mesh_links.end(),
                   [](const OffMeshLink& x, const OffMeshLink& y) {
                     return std::tie(x.start_poly, x.id) < std::tie(y.start_poly, y.id);
                   });
  if (bounds.Empty()) bounds = bt.bounds;
  BvTree tree = BuildBvTreeInOrder(boxes, bounds);
  a.bv_nodes = std::move(tree.nodes);

  TileView& v = state->view;
  v = bt;
  v.bounds = bounds;
  v.bv_quant_factor = tree.quant_factor;
  a.PointViewAt(&v);
}

namespace {

template <typename T>
bool SameBytes(std::span<const T> a, std::span<const T> b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size_bytes()) == 0);
}

}  // namespace

bool SamePolygons(const TileView& a, const TileView& b) {
  return SameBytes(a.vertices, b.vertices) && SameBytes(a.poly_start, b.poly_start) &&
         SameBytes(a.poly_verts, b.poly_verts) && SameBytes(a.poly_neighbors, b.poly_neighbors) &&
         SameBytes(a.poly_area, b.poly_area) && SameBytes(a.poly_flags, b.poly_flags) &&
         SameBytes(a.cross_links, b.cross_links) && SameBytes(a.off_mesh_links, b.off_mesh_links);
}

}  // namespace waymesh::obstacles
