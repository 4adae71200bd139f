#pragma once
// A uniform plan-view (X–Z) grid over boxes, in CSR form, for "what is near this point"
// queries (boundary edges for T-junctions, polygons for off-mesh links). The cell size grows
// until the grid holds a bounded number of cells and entries, so one huge box among many tiny
// ones cannot blow up memory.

#include <cstdint>
#include <span>
#include <vector>

namespace waymesh::repair {

struct PlanBox {
  float min_x, min_z, max_x, max_z;
};

class PlanGrid {
 public:
  // Indexes `boxes` (item i = boxes[i]); `cell_hint` is the preferred cell size in metres.
  void Build(std::span<const PlanBox> boxes, double cell_hint);
  // Items whose box overlaps the cell containing (x, z); empty outside the grid.
  std::span<const uint32_t> ItemsAt(double x, double z) const;
  // Calls visit(item) for items whose cells overlap `box`; an item may be visited repeatedly.
  template <typename Visit>
  void ForEachNear(const PlanBox& box, Visit&& visit) const {
    if (width_ == 0) return;
    const uint32_t x0 = ClampX(box.min_x), x1 = ClampX(box.max_x);
    const uint32_t z0 = ClampZ(box.min_z), z1 = ClampZ(box.max_z);
    for (uint32_t z = z0; z <= z1; ++z) {
      for (uint32_t x = x0; x <= x1; ++x) {
        const uint32_t c = z * width_ + x;
        for (uint32_t i = cell_start_[c]; i < cell_start_[c + 1]; ++i) visit(items_[i]);
      }
    }
  }

 private:
  uint64_t CountEntries(std::span<const PlanBox> boxes, double cell) const;
  uint32_t ClampX(double x) const;
  uint32_t ClampZ(double z) const;

  double origin_x_ = 0, origin_z_ = 0, inv_cell_ = 1;
  uint32_t width_ = 0, height_ = 0;
  std::vector<uint32_t> cell_start_;
  std::vector<uint32_t> items_;
};

}  // namespace waymesh::repair
