#include "waymesh/core/obstacles/carve_map.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <numeric>
#include <optional>
#include <tuple>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_format.h"
#include "carve_pieces.h"
#include "layer_obstacles.h"
#include "map_islands.h"
#include "piece_merge.h"
#include "poly_geometry.h"
#include "tile_assembly.h"
#include "tile_splice.h"
#include "waymesh/core/obstacles/carved_layer.h"
#include "waymesh/core/obstacles/footprint.h"
#include "waymesh/core/tolerances.h"

namespace waymesh {
namespace obstacles {
namespace {

// A point counts as strictly inside an edge when its parameter along it is at least this far
// from either end (fraction of the edge): T-junction points are inserted there.
constexpr double kInsideEdgeParam = 1e-9;
// A point whose squared plan distance to a line exceeds this (m²) is not on it (guards the
// insertion of points of one line into a collinear edge of another floor's polygon).
constexpr double kOnLineSq = 1e-8;

std::tuple<float, float, float> Order(Vec3 v) { return {v.x, v.y, v.z}; }

// Adds every piece corner to the lines of the two edges it joins.
void CollectLinePoints(const std::vector<Piece>& pieces, PointsOnLine* points) {
  for (const Piece& piece : pieces) {
    const size_t n = piece.corners.size();
    for (size_t i = 0; i < n; ++i) {
      const PieceCorner& c = piece.corners[i];
      (*points)[c.next].push_back(c.pos);
      (*points)[piece.corners[(i + n - 1) % n].next].push_back(c.pos);
    }
  }
}

// Inserts, into every edge, the points of its line lying strictly between its ends (a
// neighbour's corner there), so that both sides of every edge have the same corners.
// `inserted` (optional) counts, per corner before insertion, the points inserted after it.
void InsertLinePoints(const PointsOnLine& points, std::vector<PieceCorner>* corners,
                      std::vector<uint32_t>* inserted) {
  std::vector<PieceCorner> out;
  const size_t n = corners->size();
  if (inserted) inserted->assign(n, 0);
  for (size_t i = 0; i < n; ++i) {
    const PieceCorner& c = (*corners)[i];
    out.push_back(c);
    const auto it = points.find(c.next);
    if (it == points.end()) continue;
    const Vec3 a = c.pos, b = (*corners)[(i + 1) % n].pos;
    const double dx = double(b.x) - a.x, dz = double(b.z) - a.z, len_sq = dx * dx + dz * dz;
    if (!(len_sq > 0)) continue;
    std::vector<std::pair<double, Vec3>> on;
    for (const Vec3 v : it->second) {
      if (v == a || v == b) continue;
      const double t = ((double(v.x) - a.x) * dx + (double(v.z) - a.z) * dz) / len_sq;
      if (t <= kInsideEdgeParam || t >= 1 - kInsideEdgeParam) continue;
      const double ex = a.x + t * dx - v.x, ez = a.z + t * dz - v.z;
      if (ex * ex + ez * ez > kOnLineSq) continue;
      on.push_back({t, v});
    }
    std::sort(on.begin(), on.end(), [](const auto& p, const auto& q) {
      return p.first < q.first || (p.first == q.first && Order(p.second) < Order(q.second));
    });
    for (size_t k = 0; k < on.size(); ++k) {
      if (k > 0 && on[k].second == on[k - 1].second) continue;
      out.push_back({on[k].second, c.next, c.base_edge});
      if (inserted) ++(*inserted)[i];
    }
  }
  corners->swap(out);
}

// Which tiles each footprint may reach: the grid cells under its bounds, widened by how far
// polygons reach outside their cell.
absl::flat_hash_map<uint32_t, std::vector<uint32_t>> FootprintsByTile(
    const NavMap& map, const std::vector<Footprint>& footprints) {
  absl::flat_hash_map<uint32_t, std::vector<uint32_t>> by_tile;
  const MapInfo& info = map.info();
  const double reach = info.max_tile_overhang;
  for (uint32_t f = 0; f < footprints.size(); ++f) {
    double x0 = INFINITY, x1 = -INFINITY, z0 = INFINITY, z1 = -INFINITY;
    for (const PlanPoint& q : footprints[f].outline) {
      x0 = std::min(x0, q.x), x1 = std::max(x1, q.x);
      z0 = std::min(z0, q.z), z1 = std::max(z1, q.z);
    }
    const auto cell = [&](double v, double origin) {
      return int64_t(std::floor((v - origin) / info.tile_size));
    };
    const int64_t cx0 = std::max<int64_t>(0, cell(x0 - reach, info.grid_origin.x));
    const int64_t cx1 =
        std::min<int64_t>(int64_t(info.grid_width) - 1, cell(x1 + reach, info.grid_origin.x));
    const int64_t cz0 = std::max<int64_t>(0, cell(z0 - reach, info.grid_origin.z));
    const int64_t cz1 =
        std::min<int64_t>(int64_t(info.grid_height) - 1, cell(z1 + reach, info.grid_origin.z));
    for (int64_t z = cz0; z <= cz1; ++z) {
      for (int64_t x = cx0; x <= cx1; ++x) {
        const int32_t t = map.TileIndexAt(int32_t(x), int32_t(z));
        if (t >= 0) by_tile[uint32_t(t)].push_back(f);
      }
    }
  }
  return by_tile;
}

}  // namespace

// A base edge between a tile and the next: the corners the tile's pieces put on it (sorted,
// unique) and the tile across.
struct SeamPoints {
  std::vector<Vec3> points;
  uint32_t across = 0;
};

// Per seam edge of a tile's cut (by line), the corners its pieces put there.
using TileSeams = absl::flat_hash_map<LineKey, SeamPoints>;

// A layer version's tiles: the NavMap's storage, and what the next version reuses. Every tile
// is owned through its own pointer, so versions share unchanged tiles and free the others
// independently.
struct LayerTiles {
  std::shared_ptr<const NavMap> base;                // the base tiles' bytes
  std::vector<std::shared_ptr<const TileCut>> cuts;  // per tile (null: nothing cut)
  // Per tile with a cut, its seam edges' points: what its neighbours' points need of it
  // (kept with the cut, so that a neighbour's points do not read all its pieces).
  std::vector<std::shared_ptr<const TileSeams>> seams;
  // Per tile with a cut, the points on its lines (PointsFor) as last gathered: they change only
  // in a version that re-merges the tile, so a tile built without re-merging reads them here.
  std::vector<std::shared_ptr<const PointsOnLine>> points;
  std::vector<std::shared_ptr<const TileState>> states;  // per tile (null: the base tile)
  // Per tile, island ids replacing its view's own (null: the view's hold).
  std::vector<std::shared_ptr<const std::vector<uint32_t>>> islands;
  size_t rebuilt = 0;  // tiles built for this version
};

namespace {

// Whether two versions' pieces of a polygon are the same for everything outside it. A cut
// line's key names its footprint by number in that version's cut, which may differ; cut lines
// never leave their polygon, so only their kind is compared.
bool SameCorners(const std::vector<PieceCorner>& a, const std::vector<PieceCorner>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    const bool same_line = a[i].next.kind() == LineKey::kCutLine
                               ? b[i].next.kind() == LineKey::kCutLine
                               : a[i].next == b[i].next;
    if (a[i].pos != b[i].pos || !same_line || a[i].base_edge != b[i].base_edge) return false;
  }
  return true;
}

bool SameBits(Vec3 a, Vec3 b) { return std::memcmp(&a, &b, sizeof(Vec3)) == 0; }

bool SameBits(std::span<const Vec3> a, std::span<const Vec3> b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(Vec3)) == 0);
}

// Whether two cuts of a polygon are the same bits, cut lines' keys included.
bool IdenticalPieces(const std::vector<Piece>& a, const std::vector<Piece>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    const std::vector<PieceCorner>& x = a[i].corners;
    const std::vector<PieceCorner>& y = b[i].corners;
    if (a[i].area != b[i].area || x.size() != y.size()) return false;
    for (size_t k = 0; k < x.size(); ++k) {
      if (!SameBits(x[k].pos, y[k].pos) || x[k].next != y[k].next ||
          x[k].base_edge != y[k].base_edge) {
        return false;
      }
    }
  }
  return true;
}

bool SamePieces(const std::vector<Piece>& a, const std::vector<Piece>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].area != b[i].area || !SameCorners(a[i].corners, b[i].corners)) return false;
  }
  return true;
}

// The seam edges' points of `cut` in `tile`: the next tile's merged pieces depend on nothing
// else of this tile's cut.
TileSeams SeamPointsOf(const TileView& tile, const TileCut* cut) {
  TileSeams out;
  if (cut == nullptr) return out;
  for (const auto& [poly, pieces] : *cut) {
    for (const Piece& piece : *pieces) {
      const size_t n = piece.corners.size();
      for (size_t i = 0; i < n; ++i) {
        const PieceCorner& c = piece.corners[i];
        if (c.base_edge < 0) continue;
        const std::optional<PolyIndex> across = tile.across(tile.poly_start[poly] + c.base_edge);
        if (!across || across->tile == tile.index) continue;
        SeamPoints& seam = out[c.next];
        seam.across = across->tile;
        seam.points.push_back(c.pos);
        seam.points.push_back(piece.corners[(i + 1) % n].pos);
      }
    }
  }
  for (auto& [line, seam] : out) {
    std::sort(seam.points.begin(), seam.points.end(),
              [](Vec3 a, Vec3 b) { return Order(a) < Order(b); });
    seam.points.erase(std::unique(seam.points.begin(), seam.points.end()), seam.points.end());
  }
  return out;
}

const SharedPieces* PiecesIn(const TileCut* cut, uint32_t poly) {
  if (cut == nullptr) return nullptr;
  const auto it = cut->find(poly);
  return it == cut->end() ? nullptr : &it->second;
}

bool SameOptionalPieces(const SharedPieces* a, const SharedPieces* b) {
  if ((a == nullptr) != (b == nullptr)) return false;
  return a == nullptr || *a == *b || SamePieces(**a, **b);
}

}  // namespace

// Makes a layer version from the previous one (CarveMap: from no obstacles), rebuilding only
// the tiles whose polygons, points or links can differ: the re-cut tiles, the tiles whose
// merged pieces or numbering changed (a re-cut tile's neighbours receive its corners on their
// shared edges), and the tiles linking into a polygon whose numbering or pieces changed. Every
// other tile is shared with the previous version as it is.
class LayerBuilder {
 public:
  LayerBuilder(const CarveBase& base, std::vector<Footprint> footprints, const LayerTiles& previous)
      : prepared_(base),
        base_(*base.map()),
        footprints_(std::move(footprints)),
        previous_(previous) {}

  // Generations follow `previous_map` (the previous version; nullptr: every built tile takes
  // the generation after its base one), updating `last_generation`.
  void FollowGenerations(const NavMap* previous_map, std::vector<uint32_t>* last_generation) {
    previous_map_ = previous_map;
    last_generation_ = last_generation;
  }

  // The old and new footprints of the changed obstacles: a re-cut tile keeps the previous
  // pieces of every polygon none of them reaches (its cut depends on nothing else).
  void KeepCutsOutside(std::vector<Footprint> changed) {
    changed_ = std::move(changed);
    changed_by_tile_ = FootprintsByTile(base_, changed_);
    for (const Footprint& f : changed_) {
      PlanBounds& b = changed_bounds_.emplace_back();
      for (const PlanPoint& q : f.outline) {
        b.x0 = std::min(b.x0, q.x), b.x1 = std::max(b.x1, q.x);
        b.z0 = std::min(b.z0, q.z), b.z1 = std::max(b.z1, q.z);
      }
    }
    keep_cuts_ = true;
  }

  // `recut`: the tiles to cut again (the others keep their previous cut); nullptr: every tile
  // a footprint reaches.
  absl::StatusOr<std::shared_ptr<const NavMap>> Run(const absl::flat_hash_set<uint32_t>* recut) {
    auto out = std::make_shared<LayerTiles>();
    out->base = prepared_.map();
    out->cuts = previous_.cuts;
    out->seams = previous_.seams;
    out->points = previous_.points;
    out->states = previous_.states;
    out->islands = previous_.islands;
    out_ = out.get();
    const auto by_tile = FootprintsByTile(base_, footprints_);
    std::vector<uint32_t> cut_again;
    if (recut != nullptr) {
      cut_again.assign(recut->begin(), recut->end());
    } else {
      for (const auto& [t, fs] : by_tile) cut_again.push_back(t);
    }
    std::sort(cut_again.begin(), cut_again.end());
    for (const uint32_t t : cut_again) {
      const auto fs = by_tile.find(t);
      out->cuts[t] = fs == by_tile.end() ? nullptr : CutTile(t, fs->second);
    }
    // A tile whose cut stayed the same changes only through its neighbours (below).
    std::erase_if(cut_again, [&](uint32_t t) { return out->cuts[t] == previous_.cuts[t]; });
    for (const uint32_t t : cut_again) {
      out->seams[t] =
          out->cuts[t] == nullptr
              ? nullptr
              : std::make_shared<const TileSeams>(SeamPointsOf(base_.tile(t), out->cuts[t].get()));
    }
    Remerge(cut_again);
    for (const uint32_t t : remerged_) {
      out->points[t] = out->cuts[t] == nullptr ? nullptr : points_.at(t);
    }
    FindRebuilt(cut_again);
    absl::Status built = BuildTiles();
    if (!built.ok()) return built;
    tiles_ = std::move(out);
    return Publish();
  }

  std::shared_ptr<const LayerTiles> tiles() const { return tiles_; }

 private:
  // Tile t cut by footprints `fs`. Incremental: the polygons no changed footprint reaches keep
  // their previous pieces, and when there is no such polygon the previous cut itself is kept.
  std::shared_ptr<const TileCut> CutTile(uint32_t t, std::vector<uint32_t> fs) const {
    std::sort(fs.begin(), fs.end());
    const TileView& tile = base_.tile(t);
    const TileCut* before = keep_cuts_ ? previous_.cuts[t].get() : nullptr;
    std::span<const uint32_t> changed;
    if (const auto it = changed_by_tile_.find(t); it != changed_by_tile_.end()) {
      changed = it->second;
    }
    TileCut cut;
    std::vector<Piece> pieces;
    bool any_reached = !keep_cuts_;
    for (uint32_t p = 0; p < tile.poly_count(); ++p) {
      const SharedPieces* kept = keep_cuts_ ? PiecesIn(before, p) : nullptr;
      // A polygon cut before is cut again only when a changed footprint reaches it. One that
      // was not is cut by the footprints now only if a changed one reaches it (the others
      // did not cut it before), so its cut itself answers, without testing the changed ones.
      if (kept != nullptr) {
        const bool reached =
            ChangedMayReach(tile, p, changed) && CutPolygon(tile, p, changed_, changed, &pieces);
        if (!reached) {
          cut[p] = *kept;
          continue;
        }
        any_reached = true;
      } else if (keep_cuts_ && !ChangedMayReach(tile, p, changed)) {
        continue;  // not cut before, and only a changed footprint can cut it now
      }
      if (CutPolygon(tile, p, footprints_, fs, &pieces)) {
        cut[p] = std::make_shared<const std::vector<Piece>>(std::move(pieces));
        any_reached = true;
      }
    }
    if (!any_reached) return previous_.cuts[t];
    if (cut.empty()) return nullptr;
    return std::make_shared<const TileCut>(std::move(cut));
  }

  // False when no footprint of `changed` overlaps polygon p's plan bounds (CutPolygon would
  // say it reaches nothing), without building the polygon's piece.
  bool ChangedMayReach(const TileView& tile, uint32_t p, std::span<const uint32_t> changed) const {
    double x0 = INFINITY, x1 = -INFINITY, z0 = INFINITY, z1 = -INFINITY;
    for (uint32_t i = 0; i < tile.corner_count(p); ++i) {
      const Vec3 v = tile.corner(p, i);
      x0 = std::min(x0, double(v.x)), x1 = std::max(x1, double(v.x));
      z0 = std::min(z0, double(v.z)), z1 = std::max(z1, double(v.z));
    }
    for (const uint32_t f : changed) {
      const PlanBounds& b = changed_bounds_[f];
      if (x0 <= b.x1 && x1 >= b.x0 && z0 <= b.z1 && z1 >= b.z0) return true;
    }
    return false;
  }

  // PointsFor(t), computed once per version: re-merging and building a tile both need them,
  // and the cuts they come from are final before either starts. A tile not re-merged has the
  // points of the previous version (its cut and its neighbours' seams are the same).
  const std::shared_ptr<const PointsOnLine>& PointsOf(uint32_t t) const {
    auto it = points_.find(t);
    if (it == points_.end()) {
      std::shared_ptr<const PointsOnLine> same =
          remerged_.contains(t) ? nullptr : previous_.points[t];
      if (same == nullptr) same = std::make_shared<const PointsOnLine>(PointsFor(t));
      it = points_.emplace(t, std::move(same)).first;
    }
    return it->second;
  }

  // The points on the lines of tile t's edges: corners of its pieces, and the corners its
  // neighbours' pieces put on the seam edges they share with it.
  PointsOnLine PointsFor(uint32_t t) const {
    PointsOnLine points;
    if (const auto& cut = out_->cuts[t]) {
      // In polygon order: the hash map's order changes with its size, and a polygon keeps its
      // merged pieces from the previous version only when the points on its lines are the
      // same, in the same order (MergedBefore).
      std::vector<std::pair<uint32_t, const std::vector<Piece>*>> polys;
      polys.reserve(cut->size());
      for (const auto& [poly, pieces] : *cut) polys.push_back({poly, pieces.get()});
      std::sort(polys.begin(), polys.end());
      for (const auto& [poly, pieces] : polys) CollectLinePoints(*pieces, &points);
    }
    for (const uint32_t n : prepared_.components().neighbours[t]) {
      if (out_->seams[n] == nullptr) continue;
      for (const auto& [line, seam] : *out_->seams[n]) {
        if (seam.across != t) continue;
        LinePoints& on = points[line];
        on.insert(on.end(), seam.points.begin(), seam.points.end());
      }
    }
    return points;
  }

  // Merged pieces and numbering, again, of the re-cut tiles and of the neighbours whose seam
  // edges with them got other corners; the polygons whose numbering or pieces changed are noted.
  void Remerge(const std::vector<uint32_t>& cut_again) {
    for (const uint32_t t : cut_again) {
      remerged_.insert(t);
      const TileSeams& before = previous_.seams[t] ? *previous_.seams[t] : no_seams_;
      const TileSeams& after = out_->seams[t] ? *out_->seams[t] : no_seams_;
      for (const auto& [line, seam] : before) {
        const auto it = after.find(line);
        if (it == after.end() || it->second.points != seam.points) remerged_.insert(seam.across);
      }
      for (const auto& [line, seam] : after) {
        if (!before.contains(line)) remerged_.insert(seam.across);
      }
    }
    for (const uint32_t t : remerged_) {
      if (out_->cuts[t] == nullptr) continue;
      auto state = std::make_shared<TileState>();
      state->merge_points = PointsOf(t);
      const TileState* before = previous_.states[t].get();
      if (before != nullptr && (!before->numbering || before->merge_points == nullptr)) {
        before = nullptr;
      }
      for (const auto& [poly, pieces] : *out_->cuts[t]) {
        if (const SharedPieces* kept = MergedBefore(t, poly, pieces, before)) {
          state->merged[poly] = *kept;
          continue;
        }
        std::vector<Piece> merged = *pieces;
        for (Piece& piece : merged) InsertLinePoints(*state->merge_points, &piece.corners, nullptr);
        MergePieces(&merged);
        state->merged[poly] = std::make_shared<const std::vector<Piece>>(std::move(merged));
      }
      state->numbering = Number(t, state->merged);
      building_[t] = std::move(state);
    }
    for (const uint32_t t : remerged_) NoteChangedPolygons(t);
  }

  // The previous version's merged pieces of `poly`, when they are what merging `pieces` would
  // give now: its cut pieces are the same, bit for bit, and so are the points on every line
  // their edges lie on (merging depends on nothing else).
  const SharedPieces* MergedBefore(uint32_t t, uint32_t poly, const SharedPieces& pieces,
                                   const TileState* before) const {
    if (before == nullptr) return nullptr;
    const SharedPieces* cut = PiecesIn(previous_.cuts[t].get(), poly);
    const SharedPieces* merged = PiecesIn(&before->merged, poly);
    if (cut == nullptr || merged == nullptr) return nullptr;
    if (*cut != pieces && !IdenticalPieces(**cut, *pieces)) return nullptr;
    const PointsOnLine& now = *points_.at(t);
    const PointsOnLine& then = *before->merge_points;
    for (const Piece& piece : *pieces) {
      for (const PieceCorner& c : piece.corners) {
        const auto a = now.find(c.next), b = then.find(c.next);
        if ((a == now.end()) != (b == then.end())) return nullptr;
        if (a != now.end() && !SameBits(a->second, b->second)) return nullptr;
      }
    }
    return merged;
  }

  void NoteChangedPolygons(uint32_t t) {
    const TileState* before = previous_.states[t].get();
    const TileNumbering* num_before = before && before->numbering ? &*before->numbering : nullptr;
    const auto now = building_.find(t);
    const TileState* after = now == building_.end() ? nullptr : now->second.get();
    const TileNumbering* num_after = after ? &*after->numbering : nullptr;
    if (num_before == nullptr && num_after == nullptr) return;
    const uint32_t n = base_.tile(t).poly_count();
    std::vector<bool> changed(n, false);
    bool any = false;
    for (uint32_t p = 0; p < n; ++p) {
      const uint32_t i0 = num_before ? num_before->new_index[p] : p;
      const uint32_t i1 = num_after ? num_after->new_index[p] : p;
      bool differs = i0 != i1;
      if (!differs && i0 == kCutPolygon) {
        const auto pieces0 = num_before->pieces_of.find(p);
        const auto pieces1 = num_after->pieces_of.find(p);
        differs =
            (pieces0 == num_before->pieces_of.end()) != (pieces1 == num_after->pieces_of.end()) ||
            (pieces0 != num_before->pieces_of.end() && pieces0->second != pieces1->second) ||
            !SameOptionalPieces(PiecesIn(previous_.cuts[t].get(), p),
                                PiecesIn(out_->cuts[t].get(), p)) ||
            !SameOptionalPieces(PiecesIn(&before->merged, p), PiecesIn(&after->merged, p));
      }
      changed[p] = differs;
      any = any || differs;
    }
    if (any) changed_polys_[t] = std::move(changed);
  }

  bool PolygonChanged(uint32_t tile, uint32_t poly) const {
    const auto it = changed_polys_.find(tile);
    return it != changed_polys_.end() && it->second[poly];
  }

  // Re-cut tiles, tiles with a changed polygon, and tiles linking into one.
  void FindRebuilt(const std::vector<uint32_t>& cut_again) {
    absl::flat_hash_set<uint32_t> rebuilt(cut_again.begin(), cut_again.end());
    for (const auto& [t, polys] : changed_polys_) {
      rebuilt.insert(t);
      for (const uint32_t n : prepared_.components().linked_from[t]) {
        if (rebuilt.contains(n)) continue;
        const TileView& tile = base_.tile(n);
        bool links = false;
        for (const PolyIndex& l : tile.cross_links) links = links || PolygonChanged(l.tile, l.poly);
        for (const OffMeshLink& l : tile.off_mesh_links) {
          links = links || PolygonChanged(l.end_tile, l.end_poly);
        }
        if (links) rebuilt.insert(n);
      }
    }
    rebuilt_.assign(rebuilt.begin(), rebuilt.end());
    std::sort(rebuilt_.begin(), rebuilt_.end());
    // Remerged tiles not rebuilt are the same as before.
    for (auto it = building_.begin(); it != building_.end();) {
      if (rebuilt.contains(it->first)) {
        ++it;
      } else {
        building_.erase(it++);
      }
    }
  }

  const TileNumbering* NumberingOf(uint32_t t) const {
    if (const auto it = building_.find(t); it != building_.end()) {
      return it->second->numbering ? &*it->second->numbering : nullptr;
    }
    if (remerged_.contains(t) && out_->cuts[t] == nullptr) return nullptr;
    const TileState* s = previous_.states[t].get();
    return s && s->numbering ? &*s->numbering : nullptr;
  }

  const WorkTile* WorkOf(uint32_t t) const {
    if (const auto it = building_.find(t); it != building_.end()) return &it->second->work;
    const TileState* s = previous_.states[t].get();
    return s ? &s->work : nullptr;
  }

  // Whether a tile with nothing cut links into a polygon that was cut or moved.
  bool LinksIntoMoved(uint32_t t) const {
    const auto moved = [&](uint32_t tile, uint32_t poly) {
      const TileNumbering* num = NumberingOf(tile);
      return num != nullptr && num->new_index[poly] != poly;
    };
    const TileView& tile = base_.tile(t);
    for (const PolyIndex& l : tile.cross_links) {
      if (moved(l.tile, l.poly)) return true;
    }
    for (const OffMeshLink& l : tile.off_mesh_links) {
      if (moved(l.end_tile, l.end_poly)) return true;
    }
    return false;
  }

  absl::Status BuildTiles() {
    std::vector<uint32_t> built;
    for (const uint32_t t : rebuilt_) {
      auto it = building_.find(t);
      if (it == building_.end()) {
        if (out_->cuts[t] == nullptr && !LinksIntoMoved(t)) {
          out_->states[t] = nullptr;
          out_->islands[t] = nullptr;
          continue;
        }
        // Not remerged: its cut and its neighbours' are unchanged, so are its merged pieces.
        auto state = std::make_shared<TileState>();
        const TileState* before = previous_.states[t].get();
        if (out_->cuts[t] != nullptr && before != nullptr && before->numbering) {
          state->merged = before->merged;
          state->merge_points = before->merge_points;
          state->numbering = before->numbering;
        }
        it = building_.emplace(t, std::move(state)).first;
      }
      it->second->work = BuildWorkTile(t, *it->second);
      built.push_back(t);
    }
    TileAssembler assembler(
        base_, prepared_.components(), [this](uint32_t t) { return NumberingOf(t); },
        [this](uint32_t t) { return WorkOf(t); });
    // A tile not built has the polygons of the previous version while its state is the same.
    assembler.FollowPrevious([this](uint32_t t) { return previous_.states[t].get(); },
                             [this](uint32_t t) {
                               return !building_.contains(t) &&
                                      out_->states[t] == previous_.states[t];
                             });
    absl::flat_hash_set<uint32_t> context;
    for (const uint32_t t : built) {
      absl::Status s = assembler.AddTile(&building_.at(t)->work, true);
      if (!s.ok()) return s;
      for (const uint32_t n : prepared_.components().neighbours[t]) {
        if (!building_.contains(n) && out_->states[n] != nullptr) context.insert(n);
      }
    }
    for (const uint32_t n : context) {
      absl::Status s = assembler.AddTile(&out_->states[n]->work, false);
      if (!s.ok()) return s;
    }
    assembler.Build([this](uint32_t t) { return building_.at(t).get(); });
    // A tile is at its base in this version when it is not built and has no state.
    const auto at_base = [this](uint32_t u) {
      return !building_.contains(u) && out_->states[u] == nullptr;
    };
    for (const uint32_t t : built) {
      TileState& state = *building_.at(t);
      state.components = ComponentsOfTile(state.view);
      JoinSeamsIntoBase(prepared_.components().tiles, at_base, &state.components);
      state.digest = DigestOfTile(base_.info(), state.view);
      out_->states[t] = building_.at(t);
      out_->islands[t] = nullptr;
    }
    out_->rebuilt = built.size();
    return absl::OkStatus();
  }

  // Untouched polygons keep their index; a cut polygon's first piece takes its index, further
  // pieces go to the end, and a polygon cut away entirely leaves a hole the last polygon fills.
  TileNumbering Number(uint32_t t, const TileCut& cut) const {
    const TileView& tile = base_.tile(t);
    TileNumbering num;
    num.new_index.assign(tile.poly_count(), kCutPolygon);
    for (uint32_t p = 0; p < tile.poly_count(); ++p) {
      num.new_index[p] = p;
      num.slots.push_back({p, -1});
    }
    // In polygon order, not the hash map's: the numbering must not depend on it.
    std::vector<uint32_t> cut_polys;
    for (const auto& [p, pieces] : cut) cut_polys.push_back(p);
    std::sort(cut_polys.begin(), cut_polys.end());
    std::vector<uint32_t> holes;
    for (const uint32_t p : cut_polys) {
      const std::vector<Piece>& pieces = *cut.at(p);
      num.new_index[p] = kCutPolygon;
      if (pieces.empty()) {
        holes.push_back(p);
        continue;
      }
      num.slots[p] = {p, 0};
      for (int32_t k = 1; k < int32_t(pieces.size()); ++k) num.slots.push_back({p, k});
    }
    std::sort(holes.begin(), holes.end());
    for (auto h = holes.rbegin(); h != holes.rend(); ++h) {
      // Holes descending: the last slot is never a hole still to fill.
      if (*h + 1 != num.slots.size()) {
        num.slots[*h] = num.slots.back();
        if (num.slots[*h].piece < 0) num.new_index[num.slots[*h].origin] = *h;
      }
      num.slots.pop_back();
    }
    for (uint32_t s = 0; s < num.slots.size(); ++s) {
      if (num.slots[s].piece >= 0) num.pieces_of[num.slots[s].origin].push_back(s);
    }
    return num;
  }

  WorkTile BuildWorkTile(uint32_t t, const TileState& state) const {
    const TileView& tile = base_.tile(t);
    const PointsOnLine& points = *PointsOf(t);
    const TileNumbering* num = state.numbering ? &*state.numbering : nullptr;
    const auto numbering_of = [this](uint32_t n) { return NumberingOf(n); };
    const EdgeLinePoints edge_points(points);
    WorkTile w;
    w.index = t;
    const uint32_t count = num == nullptr ? tile.poly_count() : num->slots.size();
    w.polys.reserve(count);
    for (uint32_t s = 0; s < count; ++s) {
      const TileNumbering::Slot slot = num == nullptr ? TileNumbering::Slot{s, -1} : num->slots[s];
      WorkPoly& wp = w.polys.emplace_back();
      wp.origin = slot.origin;
      wp.flags = tile.poly_flags[slot.origin];
      if (slot.piece >= 0) {
        const Piece& piece = (*state.merged.at(slot.origin))[slot.piece];
        wp.piece = true;
        wp.area = piece.area;
        wp.corners = piece.corners;
        continue;
      }
      wp.area = tile.poly_area[slot.origin];
      if (SplicesUntouched(tile, slot.origin, edge_points, num, numbering_of)) {
        wp.spliced = true;
        continue;
      }
      wp.own_corners = BaseCorners(tile, slot.origin);
      InsertLinePoints(points, &wp.own_corners, &wp.inserted_after);
      wp.corners = wp.own_corners;
    }
    return w;
  }

  // Islands over per-tile components, island ids where they changed, counts and generations.
  std::shared_ptr<const NavMap> Publish() {
    LayerTiles& out = *tiles_;
    const uint32_t n = base_.tile_count();
    bool any = false;
    for (uint32_t t = 0; t < n && !any; ++t) any = out.states[t] != nullptr;
    if (!any) {
      out.islands.assign(n, nullptr);
      return prepared_.map();
    }
    std::vector<TileView> views(n);
    std::vector<const TileComponents*> components(n);
    for (uint32_t t = 0; t < n; ++t) {
      const TileState* s = out.states[t].get();
      views[t] = s ? s->view : base_.tile(t);
      if (out.islands[t]) views[t].poly_island = *out.islands[t];
      components[t] = s ? &s->components : &prepared_.components().tiles[t];
    }
    CarvedIslands islands = ComputeIslands(views, components, prepared_.components().tiles);
    for (uint32_t t = 0; t < n; ++t) {
      const TileComponents& tc = *components[t];
      const std::vector<uint32_t>& ids = islands.component_island[t];
      bool same = true;
      for (uint32_t c = 0; c < ids.size() && same; ++c) {
        same = views[t].poly_island[tc.components[c].lowest] == ids[c];
      }
      if (same) continue;
      std::vector<uint32_t> poly_island(views[t].poly_count());
      for (uint32_t p = 0; p < poly_island.size(); ++p) poly_island[p] = ids[tc.component[p]];
      if (const auto it = building_.find(t); it != building_.end()) {
        it->second->arrays.poly_island = std::move(poly_island);
        it->second->view.poly_island = it->second->arrays.poly_island;
        views[t].poly_island = it->second->view.poly_island;
      } else {
        auto shared = std::make_shared<const std::vector<uint32_t>>(std::move(poly_island));
        views[t].poly_island = *shared;
        out.islands[t] = std::move(shared);
      }
    }
    MapInfo info = base_.info();
    info.islands = std::move(islands.islands);
    info.polygon_count = info.vertex_count = info.off_mesh_link_count = 0;
    info.walkable_area = 0;
    std::vector<uint32_t> generations(n);
    MapDigest digest;
    digest.tiles.reserve(n);
    for (const TileView& v : views) {
      info.polygon_count += v.poly_count();
      info.vertex_count += v.vertices.size();
      info.off_mesh_link_count += v.off_mesh_links.size();
      info.walkable_area += v.area_prefix.empty() ? 0.0 : double(v.area_prefix.back());
      generations[v.index] = Generation(v);
      const TileState* s = out.states[v.index].get();
      AppendTileDigest(s ? s->digest : prepared_.components().digests[v.index], &digest);
    }
    return std::make_shared<const NavMap>(std::move(info), std::move(views), tiles_,
                                          std::move(generations), std::move(digest));
  }

  // A base tile has its base generation; a tile shared with the previous version keeps its
  // generation there, as does a rebuilt one whose polygons and links are the same; any other
  // takes one it never had in the layer.
  uint32_t Generation(const TileView& v) {
    const uint32_t t = v.index;
    if (tiles_->states[t] == nullptr) return base_.generation(t);
    if (previous_map_ == nullptr) return NextGeneration(base_.generation(t));
    if (!building_.contains(t) || SamePolygons(v, previous_map_->tile(t))) {
      return previous_map_->generation(t);
    }
    return (*last_generation_)[t] = NextGeneration((*last_generation_)[t]);
  }

  const CarveBase& prepared_;
  const NavMap& base_;
  std::vector<Footprint> footprints_;
  const LayerTiles& previous_;
  const NavMap* previous_map_ = nullptr;
  std::vector<uint32_t>* last_generation_ = nullptr;
  bool keep_cuts_ = false;
  std::vector<Footprint> changed_;
  absl::flat_hash_map<uint32_t, std::vector<uint32_t>> changed_by_tile_;
  struct PlanBounds {
    double x0 = INFINITY, x1 = -INFINITY, z0 = INFINITY, z1 = -INFINITY;
  };
  std::vector<PlanBounds> changed_bounds_;
  LayerTiles* out_ = nullptr;  // being built
  std::shared_ptr<LayerTiles> tiles_;
  absl::flat_hash_set<uint32_t> remerged_;
  // Tiles being built (remerged tiles first; those not rebuilt are dropped).
  absl::flat_hash_map<uint32_t, std::shared_ptr<TileState>> building_;
  absl::flat_hash_map<uint32_t, std::vector<bool>> changed_polys_;
  std::vector<uint32_t> rebuilt_;
  const TileSeams no_seams_;
  // PointsOf's memo.
  mutable absl::flat_hash_map<uint32_t, std::shared_ptr<const PointsOnLine>> points_;
};

std::shared_ptr<const LayerTiles> EmptyLayerTiles(std::shared_ptr<const NavMap> base) {
  auto tiles = std::make_shared<LayerTiles>();
  const uint32_t n = base->tile_count();
  tiles->base = std::move(base);
  tiles->cuts.resize(n);
  tiles->seams.resize(n);
  tiles->points.resize(n);
  tiles->states.resize(n);
  tiles->islands.resize(n);
  return tiles;
}

}  // namespace obstacles

absl::StatusOr<std::shared_ptr<const CarveBase>> CarveBase::Prepare(
    std::shared_ptr<const NavMap> map) {
  if (map->paged()) {
    return absl::FailedPreconditionError(absl::StrFormat(
        "map \"%s\" is paged: obstacles can only be carved into a resident map", map->info().name));
  }
  std::shared_ptr<CarveBase> base(new CarveBase());
  base->components_ =
      std::make_unique<const obstacles::BaseComponents>(obstacles::BuildBaseComponents(*map));
  base->map_ = std::move(map);
  return base;
}

CarveBase::~CarveBase() = default;

absl::StatusOr<std::shared_ptr<const NavMap>> CarveMap(const CarveBase& base,
                                                       std::span<const Obstacle> obstacles) {
  if (obstacles.empty()) return base.map();
  std::vector<Footprint> footprints;
  for (const Obstacle& o : obstacles) {
    if (absl::Status s = ValidateObstacle(o); !s.ok()) return s;
    footprints.push_back(ObstacleFootprint(o, base.map()->info().agent));
  }
  const auto empty = obstacles::EmptyLayerTiles(base.map());
  return obstacles::LayerBuilder(base, std::move(footprints), *empty).Run(nullptr);
}

std::shared_ptr<const CarvedLayer> CarvedLayer::Empty(std::shared_ptr<const CarveBase> base) {
  std::shared_ptr<CarvedLayer> layer(new CarvedLayer());
  layer->map_ = base->map();
  layer->base_ = std::move(base);
  layer->tiles_ = obstacles::EmptyLayerTiles(layer->map_);
  layer->obstacles_ = std::make_shared<const obstacles::LayerObstacles>(layer->map_->tile_count());
  for (uint32_t t = 0; t < layer->map_->tile_count(); ++t) {
    layer->last_generation_.push_back(layer->map_->generation(t));
  }
  return layer;
}

CarvedLayer::~CarvedLayer() = default;

size_t CarvedLayer::obstacle_count() const { return obstacles_->size(); }

std::vector<Obstacle> CarvedLayer::obstacles() const { return obstacles_->All(); }

uint64_t CarvedLayer::obstacle_areas() const { return obstacles_->areas_given(); }

absl::StatusOr<std::shared_ptr<const CarvedLayer>> ApplyObstacleChanges(
    const CarvedLayer& previous, std::span<const Obstacle> upserts,
    std::span<const std::string> removals) {
  const AgentSettings& agent = previous.map_->info().agent;
  std::shared_ptr<CarvedLayer> next(new CarvedLayer());
  next->base_ = previous.base_;
  // Shares the previous version's parts; only those the changed obstacles are in are copied.
  auto layer_obstacles = std::make_shared<obstacles::LayerObstacles>(*previous.obstacles_);
  const NavMap& base = *previous.base_->map();
  // The tiles the old and new footprints of every changed obstacle reach are re-cut.
  absl::flat_hash_set<uint32_t> recut;
  std::vector<Footprint> changed;
  const auto reach = [&](const obstacles::PlacedObstacle& o) {
    recut.insert(o.tiles.begin(), o.tiles.end());
    changed.push_back(o.footprint);
  };
  absl::flat_hash_set<std::string_view> seen;
  for (const Obstacle& o : upserts) {
    if (absl::Status s = ValidateObstacle(o); !s.ok()) return s;
    if (!seen.insert(o.id).second) {
      return absl::InvalidArgumentError(
          absl::StrFormat("obstacle \"%s\" is changed twice in one update", o.id));
    }
    if (const obstacles::PlacedObstacle* before = previous.obstacles_->Find(o.id)) {
      reach(*before);
    }
    auto placed = std::make_shared<obstacles::PlacedObstacle>();
    placed->obstacle = o;
    placed->footprint = ObstacleFootprint(o, agent);
    for (const auto& [t, fs] : obstacles::FootprintsByTile(base, {placed->footprint})) {
      placed->tiles.push_back(t);
    }
    reach(*placed);
    layer_obstacles->Put(std::move(placed));
  }
  for (const std::string& id : removals) {
    if (!seen.insert(id).second) {
      return absl::InvalidArgumentError(
          absl::StrFormat("obstacle \"%s\" is changed twice in one update", id));
    }
    const obstacles::PlacedObstacle* before = previous.obstacles_->Find(id);
    if (before == nullptr) {
      return absl::NotFoundError(absl::StrFormat("no obstacle \"%s\" in the layer", id));
    }
    reach(*before);
    layer_obstacles->Erase(id);
  }
  // Only the footprints reaching a re-cut tile are needed (in id order, as CarveMap takes
  // them; a cut line's footprint number only has to be the same within one tile's cut).
  const std::vector<uint32_t> recut_tiles(recut.begin(), recut.end());
  std::vector<Footprint> footprints;
  for (const obstacles::PlacedObstacle* o : layer_obstacles->Reaching(recut_tiles)) {
    footprints.push_back(o->footprint);
  }
  const bool none_left = layer_obstacles->size() == 0;
  next->obstacles_ = std::move(layer_obstacles);
  next->last_generation_ = previous.last_generation_;
  if (none_left) {
    next->map_ = next->base_->map();
    next->tiles_ = obstacles::EmptyLayerTiles(next->map_);
    return next;
  }
  obstacles::LayerBuilder builder(*next->base_, std::move(footprints), *previous.tiles_);
  builder.FollowGenerations(previous.map_.get(), &next->last_generation_);
  builder.KeepCutsOutside(std::move(changed));
  absl::StatusOr<std::shared_ptr<const NavMap>> map = builder.Run(&recut);
  if (!map.ok()) return map.status();
  next->map_ = *std::move(map);
  next->tiles_ = builder.tiles();
  return next;
}

absl::StatusOr<std::shared_ptr<const NavMap>> CarveMap(std::shared_ptr<const NavMap> base,
                                                       std::span<const Obstacle> obstacles) {
  if (obstacles.empty()) return base;
  absl::StatusOr<std::shared_ptr<const CarveBase>> prepared = CarveBase::Prepare(std::move(base));
  if (!prepared.ok()) return prepared.status();
  return CarveMap(**prepared, obstacles);
}

}  // namespace waymesh
