#pragma once
// A uniform plan-view grid over the agents' positions, rebuilt each tick by a counting sort
// (two passes, no allocation once its arrays have grown), searched ring by ring outwards so
// that the nearest agents are found without scanning a whole neighbourhood of a dense crowd.

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "crowd/agent.h"

namespace waymesh::crowd::internal {

// An agent as the grid holds it: what a nearest-neighbour search reads, side by side in cell
// order so that a search walks memory in a line.
struct GridItem {
  V2 pos;
  float y;
  AgentId id;
  uint32_t index;  // into the snapshot the grid was built from
};

class NeighbourGrid {
 public:
  // Sorts every agent of `agents` that others avoid into square cells. The cell is about the
  // agents' mean spacing (an agent or so a cell) within [min_cell, max_cell] metres, and grows
  // when they spread so far that the grid would hold more than a few million cells.
  void Build(std::span<const AgentSnap> agents, float min_cell, float max_cell);

  // Calls fn(item) for every agent in the cells at Chebyshev distance `ring` (in cells) from
  // the cell of `pos`: ring 0 is that cell, ring 1 the eight round it, and so on.
  template <typename Fn>
  void ForEachInRing(V2 pos, int32_t ring, Fn&& fn) const {
    if (items_.empty()) return;
    const int32_t cx = CellX(pos.x), cz = CellZ(pos.z);
    const int32_t z0 = std::max(cz - ring, 0), z1 = std::min(cz + ring, int32_t(height_) - 1);
    for (int32_t z = z0; z <= z1; ++z) {
      if (z == cz - ring || z == cz + ring) {
        VisitRun(z, cx - ring, cx + ring, fn);  // a full row of the ring
      } else {
        VisitRun(z, cx - ring, cx - ring, fn);  // its two sides
        if (ring > 0) VisitRun(z, cx + ring, cx + ring, fn);
      }
    }
  }
  // Appends the snapshot index of every agent the grid holds, cell by cell (row-major).
  void AppendInCellOrder(std::vector<uint32_t>* out) const;
  // Distance (metres) from `pos` to the nearest edge of its cell: any agent in ring r >= 1 or
  // further out is at least EdgeDistance(pos) + (r - 1) * cell() away.
  float EdgeDistance(V2 pos) const;
  float cell() const { return cell_; }
  // Rings beyond this hold no cell.
  int32_t max_ring() const { return int32_t(std::max(width_, height_)); }

 private:
  // Agents of the cells x0..x1 (clipped to the grid) of row z.
  template <typename Fn>
  void VisitRun(int32_t z, int32_t x0, int32_t x1, Fn& fn) const {
    x0 = std::max(x0, 0);
    x1 = std::min(x1, int32_t(width_) - 1);
    if (x0 > x1) return;
    const uint32_t row = uint32_t(z) * width_;
    for (uint32_t c = cell_start_[row + uint32_t(x0)], e = cell_start_[row + uint32_t(x1) + 1];
         c < e; ++c) {
      fn(items_[c]);
    }
  }
  int32_t CellX(float x) const { return Clamp((x - origin_.x) * inv_cell_, width_); }
  int32_t CellZ(float z) const { return Clamp((z - origin_.z) * inv_cell_, height_); }
  static int32_t Clamp(float v, uint32_t count);

  V2 origin_;
  float cell_ = 1;
  float inv_cell_ = 1;
  uint32_t width_ = 0, height_ = 0;
  std::vector<uint32_t> cell_start_;  // width * height + 1, row-major (z rows of x cells)
  std::vector<uint32_t> cell_of_;     // per agent, during Build (kNoCell: not held)
  std::vector<GridItem> items_;       // agents grouped by cell
};

}  // namespace waymesh::crowd::internal
