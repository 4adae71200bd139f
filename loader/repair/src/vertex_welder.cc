#include "vertex_welder.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

#include "absl/container/flat_hash_map.h"
#include "waymesh/mesh/repair_geometry.h"

namespace waymesh::repair {
namespace {

// Plan-view hash grid of representatives. Cells are twice the tolerance wide, so the
// tolerance ball around a point overlaps at most 2 x 2 cells.
class RepresentativeGrid {
 public:
  explicit RepresentativeGrid(float tolerance)
      : tolerance_(tolerance),
        tolerance_sq_(double(tolerance) * tolerance),
        inv_cell_(1.0 / std::max(2.0 * tolerance, 1e-6)) {}

  void Reserve(size_t n) {
    heads_.reserve(n);
    next_.reserve(n);
  }

  // Nearest representative within the tolerance of p, or kUnusedVertex.
  uint32_t FindNear(Vec3 p, std::span<const Vec3> reps) const {
    const int64_t x0 = Cell(double(p.x) - tolerance_), x1 = Cell(double(p.x) + tolerance_);
    const int64_t z0 = Cell(double(p.z) - tolerance_), z1 = Cell(double(p.z) + tolerance_);
    uint32_t best = kUnusedVertex;
    double best_d = tolerance_sq_;
    for (int64_t x = x0; x <= x1; ++x) {
      for (int64_t z = z0; z <= z1; ++z) {
        auto it = heads_.find(Key{x, z});
        if (it == heads_.end()) continue;
        for (uint32_t r = it->second; r != kUnusedVertex; r = next_[r]) {
          const double d = DistanceSq(p, reps[r]);
          if (d <= best_d && (best == kUnusedVertex || d < best_d || r < best)) {
            best = r;
            best_d = d;
          }
        }
      }
    }
    return best;
  }

  // Adds representative `r` (ids are dense and increasing) at p.
  void Insert(uint32_t r, Vec3 p) {
    const Key key{Cell(p.x), Cell(p.z)};
    auto [it, inserted] = heads_.try_emplace(key, r);
    next_.push_back(inserted ? kUnusedVertex : it->second);
    it->second = r;
  }

 private:
  struct Key {
    int64_t x, z;
    friend bool operator==(const Key&, const Key&) = default;
    template <typename H>
    friend H AbslHashValue(H h, const Key& k) {
      return H::combine(std::move(h), k.x, k.z);
    }
  };
  int64_t Cell(double v) const { return int64_t(std::floor(v * inv_cell_)); }

  float tolerance_;
  double tolerance_sq_;
  double inv_cell_;
  absl::flat_hash_map<Key, uint32_t> heads_;
  std::vector<uint32_t> next_;  // representative -> next one in the same cell
};

// Float bits mapped so that unsigned order is numeric order.
uint32_t OrderedBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}

// Used vertices sorted by (x, z, y), then index. Sorting packed keys rather than indices keeps
// the sort in cache.
std::vector<uint32_t> CanonicalOrder(std::span<const Vec3> points, std::span<const uint8_t> used) {
  struct Item {
    uint64_t xz;
    uint32_t y, index;
    bool operator<(const Item& o) const {
      return xz != o.xz ? xz < o.xz : (y != o.y ? y < o.y : index < o.index);
    }
  };
  std::vector<Item> items;
  items.reserve(points.size());
  for (uint32_t i = 0; i < points.size(); ++i) {
    if (!used[i]) continue;
    const Vec3 p = points[i];
    items.push_back({uint64_t{OrderedBits(p.x)} << 32 | OrderedBits(p.z), OrderedBits(p.y), i});
  }
  std::sort(items.begin(), items.end());
  std::vector<uint32_t> order(items.size());
  for (size_t i = 0; i < items.size(); ++i) order[i] = items[i].index;
  return order;
}

}  // namespace

WeldResult WeldVertices(std::span<const Vec3> points, std::span<const uint8_t> used,
                        float tolerance) {
  WeldResult out;
  out.remap.assign(points.size(), kUnusedVertex);
  const std::vector<uint32_t> order = CanonicalOrder(points, used);
  RepresentativeGrid grid(tolerance);
  grid.Reserve(order.size() / 2);
  out.positions.reserve(order.size() / 2);
  for (uint32_t i : order) {
    const Vec3 p = points[i];
    uint32_t rep = kUnusedVertex;
    // Exact duplicates (the common case in per-triangle exports) hit the previous vertex.
    if (!out.positions.empty() && out.positions.back() == p) {
      rep = uint32_t(out.positions.size() - 1);
    } else {
      rep = grid.FindNear(p, out.positions);
    }
    if (rep == kUnusedVertex) {
      rep = uint32_t(out.positions.size());
      out.positions.push_back(p);
      grid.Insert(rep, p);
    } else {
      ++out.welded;
    }
    out.remap[i] = rep;
  }
  return out;
}

}  // namespace waymesh::repair
