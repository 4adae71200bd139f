#include "waymesh/core/bv_tree_builder.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "waymesh/core/tolerances.h"

namespace waymesh {
namespace {

constexpr double kQuantMax = std::numeric_limits<uint16_t>::max();

float Axis(Vec3 v, int axis) { return axis == 0 ? v.x : axis == 1 ? v.y : v.z; }

uint16_t QuantizeDown(float v, float origin, float factor) {
  double q = std::floor((double(v) - double(origin)) * double(factor));
  return static_cast<uint16_t>(std::clamp(q, 0.0, kQuantMax));
}

uint16_t QuantizeUp(float v, float origin, float factor) {
  double q = std::ceil((double(v) - double(origin)) * double(factor));
  return static_cast<uint16_t>(std::clamp(q, 0.0, kQuantMax));
}

class Builder {
 public:
  // Without centroids, items keep their order and ranges are halved.
  Builder(std::span<const Aabb> boxes, std::span<const Vec3> centroids, const Aabb& tile_bounds,
          BvTree* tree)
      : boxes_(boxes), centroids_(centroids), origin_(tile_bounds.min), tree_(tree) {}

  // Appends the subtree over tree_->order[begin, end) and returns its node count.
  uint32_t Build(uint32_t begin, uint32_t end) {
    const size_t node_index = tree_->nodes.size();
    tree_->nodes.push_back(Quantize(RangeBounds(begin, end)));
    const uint32_t count = end - begin;
    if (count <= uint32_t(kBvMaxLeafSize)) {
      tree_->nodes[node_index].data = (uint32_t(count - 1) << kBvCountShift) | begin;
      return 1;
    }
    if (!centroids_.empty()) SplitAtMedian(begin, end, LongestAxis(RangeBounds(begin, end)));
    const uint32_t mid = begin + count / 2;
    uint32_t escape = 1 + Build(begin, mid);
    escape += Build(mid, end);
    tree_->nodes[node_index].data = kBvInternalBit | escape;
    return escape;
  }

  // The same tree when items keep their order, with each node's box the union of its
  // children's, so every item is read once rather than once per level (min and max are exact,
  // so the boxes are the same). Sets *nodes to the subtree's node count; returns its box.
  Aabb BuildInOrder(uint32_t begin, uint32_t end, uint32_t* nodes) {
    const size_t node_index = tree_->nodes.size();
    tree_->nodes.emplace_back();
    const uint32_t count = end - begin;
    if (count <= uint32_t(kBvMaxLeafSize)) {
      const Aabb box = RangeBounds(begin, end);
      tree_->nodes[node_index] = Quantize(box);
      tree_->nodes[node_index].data = (uint32_t(count - 1) << kBvCountShift) | begin;
      *nodes = 1;
      return box;
    }
    const uint32_t mid = begin + count / 2;
    uint32_t left = 0, right = 0;
    Aabb box = BuildInOrder(begin, mid, &left);
    const Aabb right_box = BuildInOrder(mid, end, &right);
    box.Extend(right_box.min);
    box.Extend(right_box.max);
    *nodes = 1 + left + right;
    tree_->nodes[node_index] = Quantize(box);
    tree_->nodes[node_index].data = kBvInternalBit | *nodes;
    return box;
  }

 private:
  Aabb RangeBounds(uint32_t begin, uint32_t end) const {
    Aabb box;
    for (uint32_t k = begin; k < end; ++k) {
      box.Extend(boxes_[tree_->order[k]].min);
      box.Extend(boxes_[tree_->order[k]].max);
    }
    return box;
  }

  static int LongestAxis(const Aabb& box) {
    Vec3 e = box.max - box.min;
    if (e.x >= e.y && e.x >= e.z) return 0;
    return e.y >= e.z ? 1 : 2;
  }

  // Ties broken by item index so the order does not depend on the sort implementation.
  void SplitAtMedian(uint32_t begin, uint32_t end, int axis) {
    auto less = [&](uint32_t a, uint32_t b) {
      float ca = Axis(centroids_[a], axis), cb = Axis(centroids_[b], axis);
      return ca < cb || (ca == cb && a < b);
    };
    auto first = tree_->order.begin();
    std::nth_element(first + begin, first + begin + (end - begin) / 2, first + end, less);
  }

  BvNode Quantize(const Aabb& box) const {
    const float f = tree_->quant_factor;
    BvNode n{};
    n.min[0] = QuantizeDown(box.min.x, origin_.x, f);
    n.min[1] = QuantizeDown(box.min.y, origin_.y, f);
    n.min[2] = QuantizeDown(box.min.z, origin_.z, f);
    n.max[0] = QuantizeUp(box.max.x, origin_.x, f);
    n.max[1] = QuantizeUp(box.max.y, origin_.y, f);
    n.max[2] = QuantizeUp(box.max.z, origin_.z, f);
    return n;
  }

  std::span<const Aabb> boxes_;
  std::span<const Vec3> centroids_;
  Vec3 origin_;
  BvTree* tree_;
};

}  // namespace

float BvQuantFactor(const Aabb& tile_bounds) {
  // In double, as the quantizer subtracts, so the far corner is measured the same way.
  const Vec3 lo = tile_bounds.min, hi = tile_bounds.max;
  double extent = std::max({double(hi.x) - lo.x, double(hi.y) - lo.y, double(hi.z) - lo.z});
  if (!(extent >= tol::kMinBvQuantExtent) || !std::isfinite(extent)) return 1.0f;
  float factor = static_cast<float>(kQuantMax / extent);
  // Float rounding may push the far corner just past 65535: step down until it fits.
  while (extent * double(factor) > kQuantMax) factor = std::nextafter(factor, 0.0f);
  return factor;
}

BvTree BuildBvTreeInOrder(std::span<const Aabb> boxes, const Aabb& tile_bounds) {
  return BuildBvTree(boxes, {}, tile_bounds);
}

BvTree BuildBvTree(std::span<const Aabb> boxes, std::span<const Vec3> centroids,
                   const Aabb& tile_bounds) {
  BvTree tree;
  tree.quant_factor = BvQuantFactor(tile_bounds);
  tree.order.resize(boxes.size());
  std::iota(tree.order.begin(), tree.order.end(), 0u);
  if (boxes.empty()) return tree;
  // A binary tree with leaves of at least kBvMaxLeafSize / 2 items.
  tree.nodes.reserve(2 * (boxes.size() / (kBvMaxLeafSize / 2) + 1));
  Builder builder(boxes, centroids, tile_bounds, &tree);
  if (centroids.empty()) {
    uint32_t nodes = 0;
    builder.BuildInOrder(0, uint32_t(boxes.size()), &nodes);
  } else {
    builder.Build(0, uint32_t(boxes.size()));
  }
  return tree;
}

}  // namespace waymesh
