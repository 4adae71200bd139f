#include "plan_grid.h"

#include <algorithm>
#include <cmath>

namespace waymesh::repair {
namespace {

// Budgets relative to the item count: cells <= 2n + 64, entries <= 8n + 64.
constexpr uint64_t kCellsPerItem = 2;
constexpr uint64_t kEntriesPerItem = 8;
constexpr uint64_t kBudgetSlack = 64;

}  // namespace

uint32_t PlanGrid::ClampX(double x) const {
  const double c = std::floor((x - origin_x_) * inv_cell_);
  return uint32_t(std::clamp(c, 0.0, double(width_ - 1)));
}

uint32_t PlanGrid::ClampZ(double z) const {
  const double c = std::floor((z - origin_z_) * inv_cell_);
  return uint32_t(std::clamp(c, 0.0, double(height_ - 1)));
}

uint64_t PlanGrid::CountEntries(std::span<const PlanBox> boxes, double cell) const {
  uint64_t total = 0;
  for (const PlanBox& b : boxes) {
    const double nx =
        std::floor((b.max_x - origin_x_) / cell) - std::floor((b.min_x - origin_x_) / cell) + 1;
    const double nz =
        std::floor((b.max_z - origin_z_) / cell) - std::floor((b.min_z - origin_z_) / cell) + 1;
    total += uint64_t(nx * nz);
  }
  return total;
}

void PlanGrid::Build(std::span<const PlanBox> boxes, double cell_hint) {
  width_ = height_ = 0;
  cell_start_.clear();
  items_.clear();
  if (boxes.empty()) return;
  double min_x = boxes[0].min_x, min_z = boxes[0].min_z;
  double max_x = boxes[0].max_x, max_z = boxes[0].max_z;
  for (const PlanBox& b : boxes) {
    min_x = std::min<double>(min_x, b.min_x);
    min_z = std::min<double>(min_z, b.min_z);
    max_x = std::max<double>(max_x, b.max_x);
    max_z = std::max<double>(max_z, b.max_z);
  }
  origin_x_ = min_x;
  origin_z_ = min_z;
  const double extent = std::max({max_x - min_x, max_z - min_z, 1e-3});
  const uint64_t n = boxes.size();
  const uint64_t max_cells = kCellsPerItem * n + kBudgetSlack;
  double cell = std::max({cell_hint, extent / std::sqrt(double(max_cells)), 1e-3});
  // Doubling ends at one cell, where every box has exactly one entry.
  while (cell < 2 * extent && CountEntries(boxes, cell) > kEntriesPerItem * n + kBudgetSlack) {
    cell *= 2;
  }
  inv_cell_ = 1.0 / cell;
  width_ = uint32_t(std::floor((max_x - min_x) * inv_cell_)) + 1;
  height_ = uint32_t(std::floor((max_z - min_z) * inv_cell_)) + 1;
  cell_start_.assign(uint64_t{width_} * height_ + 1, 0);
  auto for_cells = [&](const PlanBox& b, auto&& f) {
    const uint32_t x0 = ClampX(b.min_x), x1 = ClampX(b.max_x);
    const uint32_t z0 = ClampZ(b.min_z), z1 = ClampZ(b.max_z);
    for (uint32_t z = z0; z <= z1; ++z) {
      for (uint32_t x = x0; x <= x1; ++x) f(z * width_ + x);
    }
  };
  for (const PlanBox& b : boxes) for_cells(b, [&](uint32_t c) { ++cell_start_[c + 1]; });
  for (size_t c = 1; c < cell_start_.size(); ++c) cell_start_[c] += cell_start_[c - 1];
  items_.resize(cell_start_.back());
  std::vector<uint32_t> fill(cell_start_.begin(), cell_start_.end() - 1);
  for (uint32_t i = 0; i < boxes.size(); ++i) {
    for_cells(boxes[i], [&](uint32_t c) { items_[fill[c]++] = i; });
  }
}

std::span<const uint32_t> PlanGrid::ItemsAt(double x, double z) const {
  if (width_ == 0) return {};
  const double fx = std::floor((x - origin_x_) * inv_cell_);
  const double fz = std::floor((z - origin_z_) * inv_cell_);
  if (fx < 0 || fz < 0 || fx >= width_ || fz >= height_) return {};
  const uint32_t c = uint32_t(fz) * width_ + uint32_t(fx);
  return std::span<const uint32_t>(items_).subspan(cell_start_[c],
                                                   cell_start_[c + 1] - cell_start_[c]);
}

}  // namespace waymesh::repair
