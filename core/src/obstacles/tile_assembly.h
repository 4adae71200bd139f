#pragma once
// Turning carved tiles (pieces plus untouched polygons, with T-junction points inserted) into
// TileViews: edge matching inside and across tiles, detail triangles, BV tree, off-mesh links.
// Every built tile owns its arrays (TileState), so a layer version shares unchanged tiles with
// the previous one and old versions are freed tile by tile.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "carve_pieces.h"
#include "map_islands.h"
#include "tile_digest.h"
#include "waymesh/core/nav_map.h"
#include "waymesh/core/tile_arrays.h"

namespace waymesh::obstacles {

inline constexpr uint32_t kCutPolygon = 0xFFFFFFFFu;

// One polygon's pieces (possibly none), immutable: versions and tiles whose cut or merge of a
// polygon stays the same share them instead of copying every corner.
using SharedPieces = std::shared_ptr<const std::vector<Piece>>;
// One tile's cut polygons (base polygon -> its pieces).
using TileCut = absl::flat_hash_map<uint32_t, SharedPieces>;

// How a carved tile numbers its polygons.
struct TileNumbering {
  struct Slot {
    uint32_t origin;  // base polygon
    int32_t piece;    // index among its pieces, or -1 for the untouched base polygon
  };
  std::vector<uint32_t> new_index;  // base polygon -> new index, kCutPolygon when cut
  std::vector<Slot> slots;          // new index -> what it holds
  absl::flat_hash_map<uint32_t, std::vector<uint32_t>> pieces_of;  // cut polygon -> new indices
};

struct WorkPoly {
  uint32_t origin = 0;  // base polygon of the same tile
  bool piece = false;   // a piece of a cut polygon (else the base polygon, maybe with T points)
  // The base polygon as it is, with neighbours renumbered (tile_splice.h): `corners` stays
  // empty, the base tile has them.
  bool spliced = false;
  uint8_t area = 0;
  uint16_t flags = 0;
  // A piece's corners are its merged piece's (not copied: the tile state's `merged` keeps them
  // alive as long as the work tile); an untouched polygon's are `own_corners`.
  std::span<const PieceCorner> corners;
  std::vector<PieceCorner> own_corners;
  std::vector<uint32_t> inserted_after;  // untouched: per base corner, points inserted after it
};

struct WorkTile {
  uint32_t index = 0;
  std::vector<WorkPoly> polys;  // in the new numbering
};

// A tile that differs from the base tile in some map version: what the next version needs to
// share it or to build its neighbours, and the arrays its view points into. Immutable once
// published; shared by every version in which it stays the same.
struct TileState {
  TileCut merged;  // cut polygons' pieces, points inserted, merged
  std::shared_ptr<const PointsOnLine> merge_points;  // the points `merged` was made with
  std::optional<TileNumbering> numbering;            // when some polygon is cut
  WorkTile work;
  TileArrays arrays;
  TileView view;  // poly_island: the ids of the version that built it
  TileComponents components;
  TileDigest digest;  // its part of the map digest
  // Per polygon, its surface area (m², as summed into area_prefix): a polygon kept from this
  // state by the next version's build takes it instead of summing its triangles again.
  std::vector<double> surface;
};

// A built tile's polygons that are the same as in the previous version's state of the tile
// (same base polygon, corners, area id and flags, so the same triangles), both ways
// (kNotKept: not the same). previous_splice.h finds them.
struct KeptPolygons {
  static constexpr uint32_t kNotKept = 0xFFFFFFFFu;
  const TileState* previous = nullptr;
  std::vector<uint32_t> old_of_new;
  std::vector<uint32_t> new_of_old;
  // Per base polygon: whether an edge of its polygons is matched (some edge did not keep its
  // link). An unchanged neighbour's polygons facing only base polygons where none is are not
  // matched at all. Empty: every one is.
  std::vector<bool> matched_origin;
};

class TileAssembler {
 public:
  // Where a tile's numbering (nullptr: identity, nothing cut) and work tile (nullptr: the base
  // tile) come from, for tiles not added: the version being built or the previous one.
  using NumberingOf = std::function<const TileNumbering*(uint32_t)>;
  using WorkOf = std::function<const WorkTile*(uint32_t)>;
  TileAssembler(const NavMap& base, const BaseComponents& components, NumberingOf numbering,
                WorkOf work);
  ~TileAssembler();

  // Where the previous version's tiles come from: `previous(t)` is its state of a tile being
  // built (nullptr: none, e.g. the base tile), `unchanged(t)` whether a tile not built has the
  // same polygons as there. A built polygon that is the same as in the previous state keeps
  // its links to polygons that are also the same, and its triangles.
  using PreviousOf = std::function<const TileState*(uint32_t)>;
  using UnchangedOf = std::function<bool(uint32_t)>;
  void FollowPrevious(PreviousOf previous, UnchangedOf unchanged);

  // A tile to build (`build`) or one whose edges the built ones match against (an unchanged
  // neighbour). `work` must outlive the assembler.
  absl::Status AddTile(const WorkTile* work, bool build);
  // Matches edges, then builds every tile added with `build` into `out(tile)` (arrays, view;
  // island ids left 0).
  void Build(const std::function<TileState*(uint32_t)>& out);

 private:
  struct EdgeSide;
  void FindKept(const std::function<TileState*(uint32_t)>& out);
  // Polygon `old_index` of the previous version's tile `tile`, in this one (nullopt: not kept).
  std::optional<uint32_t> KeptIndex(uint32_t tile, uint32_t old_index) const;
  void FindMatchedOrigins(KeptPolygons* kept, const WorkTile& work) const;
  // Whether base polygon `poly` of a tile not built faces, across a seam, a base polygon of a
  // built tile some of whose edges are matched.
  bool FacesMatchedOrigin(uint32_t tile, uint32_t poly,
                          const absl::flat_hash_set<uint32_t>& built) const;
  // Sets *link when corner c of kept polygon p keeps its previous link.
  bool KeepLink(const KeptPolygons& kept, uint32_t p, uint32_t c,
                std::optional<PolyIndex>* link) const;
  void MatchEdges();
  void LinkSpliced(const TileView& tile, const WorkPoly& poly,
                   std::optional<PolyIndex>* links) const;
  std::optional<PolyIndex> Resolve(PolyIndex base_target, Vec3 point) const;
  void BuildArrays(const WorkTile& work, TileState* state) const;

  const NavMap& base_;
  const BaseComponents& components_;
  // numbering_(tile), asked once per tile: it is fixed while the assembler lives, and asking
  // it per corner of every spliced polygon was a tenth of an update on the town.
  const TileNumbering* NumberingFor(uint32_t tile) const;
  NumberingOf numbering_;
  mutable std::vector<const TileNumbering*> numbering_memo_;  // per tile
  mutable std::vector<bool> numbering_known_;                 // per tile
  WorkOf work_of_;
  absl::flat_hash_map<uint32_t, const WorkTile*> work_;
  std::vector<uint32_t> build_;
  // Per built tile, per polygon, per corner: the neighbour across that corner's edge, or
  // nullopt; flat, polygon p's corners from first[p].
  struct TileLinks {
    std::vector<uint32_t> first;
    std::vector<std::optional<PolyIndex>> across;
    std::optional<PolyIndex>& at(uint32_t p, uint32_t c) { return across[first[p] + c]; }
    const std::optional<PolyIndex>& at(uint32_t p, uint32_t c) const {
      return across[first[p] + c];
    }
  };
  absl::flat_hash_map<uint32_t, TileLinks> links_;
  PreviousOf previous_;
  UnchangedOf unchanged_;
  absl::flat_hash_map<uint32_t, KeptPolygons> kept_;  // per built tile
  // Asked per corner of every kept polygon, so by tile index: kept_'s entry (nullptr: not
  // built), and for a tile not built whether it is unchanged (0: not asked yet, 1: yes, 2: no).
  std::vector<const KeptPolygons*> kept_of_tile_;
  mutable std::vector<uint8_t> unchanged_memo_;
};

// Whether a reference into `a`'s polygons means the same polygon, with the same edges and
// links, in `b` (island ids may differ).
bool SamePolygons(const TileView& a, const TileView& b);

}  // namespace waymesh::obstacles
