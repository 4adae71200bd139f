#include "waymesh/core/obstacles/carve_map.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <optional>
#include <tuple>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_format.h"
#include "carve_pieces.h"
#include "map_islands.h"
#include "poly_geometry.h"
#include "tile_assembly.h"
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
// Relative cross product (sine of the turn) above which a merged piece's corner is reflex.
constexpr double kReflexSine = 1e-7;

using PointsOnLine = absl::flat_hash_map<LineKey, std::vector<Vec3>>;
// One tile's cut polygons (base polygon -> its pieces, possibly none), before T-junction points
// are inserted and pieces merged.
using TileCut = absl::flat_hash_map<uint32_t, std::vector<Piece>>;

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

double TurnSine(Vec3 a, Vec3 b, Vec3 c) {
  const double ux = double(b.x) - a.x, uz = double(b.z) - a.z;
  const double vx = double(c.x) - b.x, vz = double(c.z) - b.z;
  const double len = std::sqrt((ux * ux + uz * uz) * (vx * vx + vz * vz));
  return len > 0 ? (ux * vz - uz * vx) / len : 0;
}

bool Convex(const std::vector<PieceCorner>& c) {
  const size_t n = c.size();
  for (size_t i = 0; i < n; ++i) {
    if (TurnSine(c[i].pos, c[(i + 1) % n].pos, c[(i + 2) % n].pos) < -kReflexSine) return false;
  }
  return true;
}

// Pieces sharing several consecutive edges leave, merged across one of them, the others as a
// spike out and back (P, T, P): drops T and the second P, keeping the outgoing edge's line.
void RemoveSpikes(std::vector<PieceCorner>* c) {
  for (bool again = true; again && c->size() >= 3;) {
    again = false;
    const size_t n = c->size();
    for (size_t k = 0; k < n; ++k) {
      const size_t prev = (k + n - 1) % n, next = (k + 1) % n;
      if ((*c)[prev].pos != (*c)[next].pos) continue;
      (*c)[prev].next = (*c)[next].next;
      (*c)[prev].base_edge = (*c)[next].base_edge;
      // Erase the higher index first so the lower stays valid.
      const size_t hi = std::max(k, next), lo = std::min(k, next);
      c->erase(c->begin() + hi);
      c->erase(c->begin() + lo);
      again = true;
      break;
    }
  }
}

// The union of a and b across their shared edge a[i] -> a[i+1] == b[j+1] <- b[j], or nullopt.
std::optional<Piece> MergeAcross(const Piece& a, size_t i, const Piece& b, size_t j) {
  const size_t na = a.corners.size(), nb = b.corners.size();
  if (na + nb - 2 > size_t(tol::kMaxVertsPerPolyLimit)) return std::nullopt;
  Piece m;
  m.area = a.area;
  for (size_t k = 1; k < na; ++k) m.corners.push_back(a.corners[(i + k) % na]);
  m.corners.push_back(b.corners[(j + 1) % nb]);  // a[i]'s position, b's edge onwards
  for (size_t k = 2; k < nb; ++k) m.corners.push_back(b.corners[(j + k) % nb]);
  RemoveSpikes(&m.corners);
  if (m.corners.size() < 3 || !Convex(m.corners)) return std::nullopt;
  return m;
}

// Greedy merging of pieces of one polygon with the same area while the union stays convex
// (Hertel-Mehlhorn style): cutting by every footprint edge leaves many slivers.
void MergePieces(std::vector<Piece>* pieces) {
  bool merged = true;
  while (merged) {
    merged = false;
    for (size_t x = 0; x < pieces->size() && !merged; ++x) {
      for (size_t y = x + 1; y < pieces->size() && !merged; ++y) {
        const Piece &a = (*pieces)[x], &b = (*pieces)[y];
        if (a.area != b.area) continue;
        const size_t na = a.corners.size(), nb = b.corners.size();
        for (size_t i = 0; i < na && !merged; ++i) {
          for (size_t j = 0; j < nb && !merged; ++j) {
            if (a.corners[i].pos != b.corners[(j + 1) % nb].pos ||
                a.corners[(i + 1) % na].pos != b.corners[j].pos) {
              continue;
            }
            if (std::optional<Piece> m = MergeAcross(a, i, b, j)) {
              (*pieces)[x] = std::move(*m);
              pieces->erase(pieces->begin() + y);
              merged = true;
            }
          }
        }
      }
    }
  }
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

// What a layer version keeps for the next: each tile's cut polygons (null: none cut).
struct CutCache {
  std::vector<std::shared_ptr<const TileCut>> tiles;
};

// Cuts, stitches and renumbers; see carve_map.h for the contract.
class Carver {
 public:
  Carver(const CarveBase& base, std::vector<Footprint> footprints)
      : prepared_(base), base_(base.map()), footprints_(std::move(footprints)) {}

  // Incremental: tiles not in `recut` take their cut polygons from `previous` instead of being
  // cut again (their footprints did not change).
  // Generations follow `previous_map` (see TileAssembler::Publish).
  void ReuseCuts(const CutCache* previous, const absl::flat_hash_set<uint32_t>* recut,
                 const NavMap* previous_map, std::vector<uint32_t>* last_generation) {
    previous_ = previous;
    recut_ = recut;
    previous_map_ = previous_map;
    last_generation_ = last_generation;
  }
  // The cut polygons of this carve, for the next incremental one (valid after Run).
  std::shared_ptr<const CutCache> cuts() const { return cuts_out_; }

  absl::StatusOr<std::shared_ptr<const NavMap>> Run() {
    CutTiles();
    if (cut_.empty()) return base_;
    for (auto& [tile, polys] : cut_) {
      for (auto& [poly, pieces] : polys) CollectLinePoints(pieces, &points_);
    }
    for (auto& [tile, polys] : cut_) {
      for (auto& [poly, pieces] : polys) {
        for (Piece& piece : pieces) InsertLinePoints(points_, &piece.corners, nullptr);
        MergePieces(&pieces);
      }
      Number(tile);
    }
    FindDirtyTiles();
    TileAssembler assembler(base_, prepared_.components(), numbering_);
    for (const uint32_t t : dirty_) {
      absl::Status s = assembler.AddTile(t, BuildWorkTile(t));
      if (!s.ok()) return s;
    }
    return assembler.Publish(previous_map_, last_generation_);
  }

 private:
  void CutTiles() {
    const auto by_tile = FootprintsByTile(*base_, footprints_);
    std::vector<uint32_t> tiles;
    for (const auto& [t, fs] : by_tile) tiles.push_back(t);
    std::sort(tiles.begin(), tiles.end());
    std::vector<Piece> pieces;
    auto out = std::make_shared<CutCache>();
    out->tiles.resize(base_->tile_count());
    for (const uint32_t t : tiles) {
      if (previous_ != nullptr && !recut_->contains(t)) {
        if (const auto& kept = previous_->tiles[t]) {
          cut_[t] = *kept;
          out->tiles[t] = kept;
        }
        continue;
      }
      std::vector<uint32_t> fs = by_tile.at(t);
      std::sort(fs.begin(), fs.end());
      const TileView& tile = base_->tile(t);
      for (uint32_t p = 0; p < tile.poly_count(); ++p) {
        if (CutPolygon(tile, p, footprints_, fs, &pieces)) cut_[t][p] = std::move(pieces);
      }
      if (const auto it = cut_.find(t); it != cut_.end()) {
        out->tiles[t] = std::make_shared<const TileCut>(it->second);
      }
    }
    cuts_out_ = std::move(out);
  }

  // Untouched polygons keep their index; a cut polygon's first piece takes its index, further
  // pieces go to the end, and a polygon cut away entirely leaves a hole the last polygon fills.
  void Number(uint32_t t) {
    const TileView& tile = base_->tile(t);
    TileNumbering& num = numbering_[t];
    num.new_index.assign(tile.poly_count(), kCutPolygon);
    num.slots.clear();
    for (uint32_t p = 0; p < tile.poly_count(); ++p) {
      num.new_index[p] = p;
      num.slots.push_back({p, -1});
    }
    const auto& cut = cut_.at(t);
    // In polygon order, not the hash map's: the numbering must not depend on it.
    std::vector<uint32_t> cut_polys;
    for (const auto& [p, pieces] : cut) cut_polys.push_back(p);
    std::sort(cut_polys.begin(), cut_polys.end());
    std::vector<uint32_t> holes;
    for (const uint32_t p : cut_polys) {
      const std::vector<Piece>& pieces = cut.at(p);
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
      if (num.slots[s].piece >= 0) {
        num.pieces_of[num.slots[s].origin].push_back(s);
      }
    }
  }

  bool Changed(PolyIndex target) const {
    const auto it = numbering_.find(target.tile);
    return it != numbering_.end() && it->second.new_index[target.poly] != target.poly;
  }

  // Carved tiles, and every tile with a link into a polygon that was cut or moved.
  void FindDirtyTiles() {
    for (const auto& [t, num] : numbering_) dirty_.push_back(t);
    for (const TileView& tile : base_->tiles()) {
      if (numbering_.contains(tile.index)) continue;
      bool dirty = false;
      for (const PolyIndex& l : tile.cross_links) dirty = dirty || Changed(l);
      for (const OffMeshLink& l : tile.off_mesh_links) {
        dirty = dirty || Changed({l.end_tile, l.end_poly});
      }
      if (dirty) dirty_.push_back(tile.index);
    }
    std::sort(dirty_.begin(), dirty_.end());
  }

  const Piece& PieceAt(uint32_t t, const TileNumbering::Slot& s) const {
    return cut_.at(t).at(s.origin)[s.piece];
  }

  WorkTile BuildWorkTile(uint32_t t) {
    const TileView& tile = base_->tile(t);
    WorkTile w;
    w.index = t;
    const auto num = numbering_.find(t);
    const uint32_t count = num == numbering_.end() ? tile.poly_count() : num->second.slots.size();
    for (uint32_t s = 0; s < count; ++s) {
      const TileNumbering::Slot slot =
          num == numbering_.end() ? TileNumbering::Slot{s, -1} : num->second.slots[s];
      WorkPoly& wp = w.polys.emplace_back();
      wp.origin = slot.origin;
      wp.flags = tile.poly_flags[slot.origin];
      if (slot.piece >= 0) {
        const Piece& piece = PieceAt(t, slot);
        wp.piece = true;
        wp.area = piece.area;
        wp.corners = piece.corners;
        continue;
      }
      wp.area = tile.poly_area[slot.origin];
      const uint32_t n = tile.corner_count(slot.origin);
      for (uint32_t i = 0; i < n; ++i) {
        const Vec3 a = tile.corner(slot.origin, i), b = tile.corner(slot.origin, (i + 1) % n);
        wp.corners.push_back({a, BaseEdgeKey(a, b), int32_t(i)});
      }
      InsertLinePoints(points_, &wp.corners, &wp.inserted_after);
    }
    return w;
  }

  const CarveBase& prepared_;
  std::shared_ptr<const NavMap> base_;
  std::vector<Footprint> footprints_;
  // tile -> base polygon -> its pieces (possibly none), for every polygon an obstacle cut.
  absl::flat_hash_map<uint32_t, TileCut> cut_;
  const CutCache* previous_ = nullptr;
  const absl::flat_hash_set<uint32_t>* recut_ = nullptr;
  const NavMap* previous_map_ = nullptr;
  std::vector<uint32_t>* last_generation_ = nullptr;
  std::shared_ptr<const CutCache> cuts_out_;
  absl::flat_hash_map<uint32_t, TileNumbering> numbering_;  // carved tiles
  std::vector<uint32_t> dirty_;
  PointsOnLine points_;
};

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
  return obstacles::Carver(base, std::move(footprints)).Run();
}

std::shared_ptr<const CarvedLayer> CarvedLayer::Empty(std::shared_ptr<const CarveBase> base) {
  std::shared_ptr<CarvedLayer> layer(new CarvedLayer());
  layer->map_ = base->map();
  layer->base_ = std::move(base);
  auto cuts = std::make_shared<obstacles::CutCache>();
  cuts->tiles.resize(layer->map_->tile_count());
  layer->cuts_ = std::move(cuts);
  for (uint32_t t = 0; t < layer->map_->tile_count(); ++t) {
    layer->last_generation_.push_back(layer->map_->generation(t));
  }
  return layer;
}

CarvedLayer::~CarvedLayer() = default;

std::vector<Obstacle> CarvedLayer::obstacles() const {
  std::vector<Obstacle> out;
  for (const auto& [id, o] : obstacles_) out.push_back(o);
  return out;
}

absl::StatusOr<std::shared_ptr<const CarvedLayer>> ApplyObstacleChanges(
    const CarvedLayer& previous, std::span<const Obstacle> upserts,
    std::span<const std::string> removals) {
  const AgentSettings& agent = previous.map_->info().agent;
  std::shared_ptr<CarvedLayer> next(new CarvedLayer());
  next->base_ = previous.base_;
  next->obstacles_ = previous.obstacles_;
  // The old and new footprints of every changed obstacle: the tiles they reach are re-cut.
  std::vector<Footprint> changed;
  absl::flat_hash_set<std::string_view> seen;
  for (const Obstacle& o : upserts) {
    if (absl::Status s = ValidateObstacle(o); !s.ok()) return s;
    if (!seen.insert(o.id).second) {
      return absl::InvalidArgumentError(
          absl::StrFormat("obstacle \"%s\" is changed twice in one update", o.id));
    }
    if (const auto it = previous.obstacles_.find(o.id); it != previous.obstacles_.end()) {
      changed.push_back(ObstacleFootprint(it->second, agent));
    }
    changed.push_back(ObstacleFootprint(o, agent));
    next->obstacles_[o.id] = o;
  }
  for (const std::string& id : removals) {
    if (!seen.insert(id).second) {
      return absl::InvalidArgumentError(
          absl::StrFormat("obstacle \"%s\" is changed twice in one update", id));
    }
    const auto it = previous.obstacles_.find(id);
    if (it == previous.obstacles_.end()) {
      return absl::NotFoundError(absl::StrFormat("no obstacle \"%s\" in the layer", id));
    }
    changed.push_back(ObstacleFootprint(it->second, agent));
    next->obstacles_.erase(id);
  }
  absl::flat_hash_set<uint32_t> recut;
  for (const auto& [t, fs] : obstacles::FootprintsByTile(*previous.base_->map(), changed)) {
    recut.insert(t);
  }
  std::vector<Footprint> footprints;
  footprints.reserve(next->obstacles_.size());
  for (const auto& [id, o] : next->obstacles_) footprints.push_back(ObstacleFootprint(o, agent));
  if (footprints.empty()) {
    next->map_ = next->base_->map();
    next->last_generation_ = previous.last_generation_;
    auto cuts = std::make_shared<obstacles::CutCache>();
    cuts->tiles.resize(next->map_->tile_count());
    next->cuts_ = std::move(cuts);
    return next;
  }
  obstacles::Carver carver(*next->base_, std::move(footprints));
  next->last_generation_ = previous.last_generation_;
  carver.ReuseCuts(previous.cuts_.get(), &recut, previous.map_.get(), &next->last_generation_);
  absl::StatusOr<std::shared_ptr<const NavMap>> map = carver.Run();
  if (!map.ok()) return map.status();
  next->map_ = *std::move(map);
  next->cuts_ = carver.cuts();
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
