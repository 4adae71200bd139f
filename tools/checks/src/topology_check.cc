#include "topology_check.h"

#include <algorithm>
#include <array>
#include <bit>
#include <string>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "waymesh/format/finding_place.h"
#include "waymesh/mesh/repair_geometry.h"

namespace waymesh {
namespace {

// Exact position identity: the float bits, with -0 folded into +0.
using PositionKey = std::array<uint32_t, 3>;

PositionKey KeyOf(Vec3 p) {
  return {std::bit_cast<uint32_t>(p.x + 0.0f), std::bit_cast<uint32_t>(p.y + 0.0f),
          std::bit_cast<uint32_t>(p.z + 0.0f)};
}

// One polygon edge, keyed by its two end positions in a canonical order.
struct EdgeRecord {
  PositionKey lo, hi;
  uint32_t tile, poly, edge;
  bool forward;  // the polygon walks the edge lo -> hi
  bool wall;
};

class TopologyChecker {
 public:
  explicit TopologyChecker(const NavMap& map) : map_(map) {}

  std::vector<MapFinding> Run() {
    CollectEdges();
    CheckEdgeGroups();
    return std::move(findings_);
  }

 private:
  void Add(std::string_view check, std::string message) {
    findings_.push_back({std::string(check), std::move(message)});
  }

  static Vec3 EdgeStart(const TileView& t, uint32_t p, uint32_t i) { return t.corner(p, i); }
  static Vec3 EdgeEnd(const TileView& t, uint32_t p, uint32_t i) {
    return t.corner(p, (i + 1) % t.corner_count(p));
  }

  std::string EdgeText(const EdgeRecord& e) const {
    return EdgePlace(map_.tile(e.tile), e.poly, e.edge);
  }

  void CollectEdges() {
    for (const TileView& t : map_.tiles()) {
      for (uint32_t p = 0; p < t.poly_count(); ++p) {
        for (uint32_t i = 0, n = t.corner_count(p); i < n; ++i) {
          const PositionKey a = KeyOf(EdgeStart(t, p, i)), b = KeyOf(EdgeEnd(t, p, i));
          const bool forward = a < b;
          edges_.push_back({forward ? a : b, forward ? b : a, t.index, p, i, forward,
                            t.poly_neighbors[t.poly_start[p] + i] == kWall});
        }
      }
    }
    std::sort(edges_.begin(), edges_.end(), [](const EdgeRecord& x, const EdgeRecord& y) {
      return std::tie(x.lo, x.hi, x.tile, x.poly, x.edge) <
             std::tie(y.lo, y.hi, y.tile, y.poly, y.edge);
    });
  }

  void CheckEdgeGroups() {
    for (size_t i = 0; i < edges_.size();) {
      size_t j = i + 1;
      while (j < edges_.size() && edges_[j].lo == edges_[i].lo && edges_[j].hi == edges_[i].hi) {
        ++j;
      }
      CheckGroup(std::span<const EdgeRecord>(edges_).subspan(i, j - i));
      i = j;
    }
  }

  void CheckGroup(std::span<const EdgeRecord> group) {
    if (group.size() > 2) {
      std::string sides;
      for (const EdgeRecord& e : group) {
        absl::StrAppend(&sides, sides.empty() ? "" : "; ", PolygonPlace(map_.tile(e.tile), e.poly));
      }
      Add(kCheckNonManifold, absl::StrCat(EdgeText(group[0]), ": edge shared by ", group.size(),
                                          " polygons (", sides, ")"));
      return;
    }
    if (group.size() != 2) return;
    const EdgeRecord &a = group[0], &b = group[1];
    if (a.forward == b.forward) {
      Add(kCheckNonManifold,
          absl::StrCat(EdgeText(a), ": ", PolygonPlace(map_.tile(b.tile), b.poly),
                       " lies on the same side of this edge (overlapping or flipped polygons)"));
      return;
    }
    if (a.wall || b.wall) {
      const EdgeRecord& wall = a.wall ? a : b;
      const EdgeRecord& other = a.wall ? b : a;
      Add(kCheckOpenSeam,
          absl::StrCat(EdgeText(wall), ": marked wall, but ", EdgeText(other),
                       " is the same edge reversed: the polygons touch but are not linked"));
    }
  }

  const NavMap& map_;
  std::vector<EdgeRecord> edges_;
  std::vector<MapFinding> findings_;
};

}  // namespace

std::vector<MapFinding> CheckTopology(const NavMap& map) { return TopologyChecker(map).Run(); }

}  // namespace waymesh
