#include "crowd/neighbour_grid.h"

#include <algorithm>
#include <cmath>

namespace waymesh::crowd::internal {
namespace {

// Most cells of one grid (4 bytes each): a crowd spread over a huge map gets larger cells.
constexpr double kMaxCells = 4'000'000;
// Cells are about this many mean agent spacings wide: an agent or so each, sparse or dense
// (measured: fewer instructions per nearest-neighbour search than 1.5 or 2).
constexpr double kSpacingsPerCell = 1;
// Smallest cell (metres), whatever the agents' sizes.
constexpr double kMinCell = 0.05;

}  // namespace

int32_t NeighbourGrid::Clamp(float v, uint32_t count) {
  // Also maps NaN to cell 0 (comparisons with NaN are false).
  if (!(v > 0)) return 0;
  if (v >= float(count - 1)) return int32_t(count - 1);
  return int32_t(v);
}

float NeighbourGrid::EdgeDistance(V2 pos) const {
  const float fx = pos.x - (origin_.x + float(CellX(pos.x)) * cell_);
  const float fz = pos.z - (origin_.z + float(CellZ(pos.z)) * cell_);
  return std::max(0.0f, std::min({fx, cell_ - fx, fz, cell_ - fz}));
}

void NeighbourGrid::AppendInCellOrder(std::vector<uint32_t>* out) const {
  for (const GridItem& item : items_) out->push_back(item.index);
}

void NeighbourGrid::Build(std::span<const AgentSnap> agents, float min_cell, float max_cell) {
  items_.clear();
  size_t held = 0;
  V2 lo{INFINITY, INFINITY}, hi{-INFINITY, -INFINITY};
  for (const AgentSnap& a : agents) {
    if (!a.avoids) continue;
    ++held;
    lo = {std::min(lo.x, a.pos.x), std::min(lo.z, a.pos.z)};
    hi = {std::max(hi.x, a.pos.x), std::max(hi.z, a.pos.z)};
  }
  if (held == 0) return;
  const double span_x = double(hi.x) - lo.x, span_z = double(hi.z) - lo.z;
  const double spacing = std::sqrt(std::max(span_x, 1.0) * std::max(span_z, 1.0) / held);
  double size = std::clamp(kSpacingsPerCell * spacing, double(min_cell), double(max_cell));
  size = std::max(size, kMinCell);
  while ((span_x / size + 1) * (span_z / size + 1) > kMaxCells) size *= 2;
  origin_ = lo;
  cell_ = float(size);
  inv_cell_ = float(1.0 / size);
  width_ = uint32_t(span_x / size) + 1;
  height_ = uint32_t(span_z / size) + 1;
  const size_t cells = size_t(width_) * height_;
  cell_start_.assign(cells + 1, 0);
  cell_of_.resize(agents.size());
  for (size_t i = 0; i < agents.size(); ++i) {
    if (!agents[i].avoids) continue;
    const uint32_t c = uint32_t(CellZ(agents[i].pos.z)) * width_ + uint32_t(CellX(agents[i].pos.x));
    cell_of_[i] = c;
    ++cell_start_[c];
  }
  // Inclusive prefix sums: cell_start_[c] is the end of cell c until the fill below walks it
  // back to the cell's start.
  for (size_t c = 1; c < cells; ++c) cell_start_[c] += cell_start_[c - 1];
  cell_start_[cells] = uint32_t(held);
  items_.resize(held);
  // Fill from the back so that each cell keeps its agents in index order.
  for (size_t i = agents.size(); i-- > 0;) {
    const AgentSnap& a = agents[i];
    if (!a.avoids) continue;
    items_[--cell_start_[cell_of_[i]]] = GridItem{a.pos, a.y, a.id, uint32_t(i)};
  }
}

}  // namespace waymesh::crowd::internal
