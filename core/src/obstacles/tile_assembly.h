#pragma once
// Turning carved tiles (pieces plus untouched polygons, with T-junction points inserted) into
// TileViews: edge matching inside and across tiles, detail triangles, BV tree, off-mesh links,
// islands, and the new NavMap that shares every other tile with the base.

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "carve_pieces.h"
#include "map_islands.h"
#include "waymesh/core/nav_map.h"

namespace waymesh::obstacles {

inline constexpr uint32_t kCutPolygon = 0xFFFFFFFFu;

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
  uint8_t area = 0;
  uint16_t flags = 0;
  std::vector<PieceCorner> corners;
  std::vector<uint32_t> inserted_after;  // untouched: per base corner, points inserted after it
};

struct WorkTile {
  uint32_t index = 0;
  std::vector<WorkPoly> polys;  // in the new numbering
};

class TileAssembler {
 public:
  // `numbering`: how the carved tiles number their polygons (must outlive the assembler).
  TileAssembler(std::shared_ptr<const NavMap> base, const BaseComponents& components,
                const absl::flat_hash_map<uint32_t, TileNumbering>& numbering);
  ~TileAssembler();

  // Every changed tile (carved, or linking into a cut or moved polygon) is added once, then
  // Publish makes the map.
  absl::Status AddTile(uint32_t tile, WorkTile work);
  // Publish makes the map. With `previous` (a layer's last version), a tile keeps its generation
  // in `previous` when its polygons and links are the same, a base tile its base generation, and
  // any other tile takes the generation after `last_generation[t]` (the last one that tile had
  // in any version of the layer; updated), so a reference into an older version is stale.
  absl::StatusOr<std::shared_ptr<const NavMap>> Publish(
      const NavMap* previous = nullptr, std::vector<uint32_t>* last_generation = nullptr);

 private:
  struct EdgeSide;
  struct Storage;
  void MatchEdges();
  std::optional<PolyIndex> Resolve(PolyIndex base_target, Vec3 point) const;
  void BuildArrays(const WorkTile& work);

  const NavMap& base_;
  const BaseComponents& components_;
  const absl::flat_hash_map<uint32_t, TileNumbering>& numbering_;
  absl::flat_hash_map<uint32_t, WorkTile> work_;
  // Per tile, per polygon, per corner: the neighbour across that corner's edge, or nullopt.
  absl::flat_hash_map<uint32_t, std::vector<std::vector<std::optional<PolyIndex>>>> links_;
  std::shared_ptr<Storage> storage_;
  std::vector<TileView> tiles_;
};

}  // namespace waymesh::obstacles
