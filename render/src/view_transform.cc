#include "waymesh/render/view_transform.h"

#include <algorithm>
#include <cmath>

namespace waymesh::render {

ViewTransform ViewTransform::Fit(const Aabb& bounds, int width, int max_height, float margin) {
  ViewTransform v;
  // A point-sized or empty map still gets a sensible square metre of canvas.
  const bool empty = bounds.Empty();
  const double min_x = empty ? 0 : bounds.min.x, max_x = empty ? 1 : bounds.max.x;
  const double min_z = empty ? 0 : bounds.min.z, max_z = empty ? 1 : bounds.max.z;
  const double extent_x = std::max(max_x - min_x, 1e-3);
  const double extent_z = std::max(max_z - min_z, 1e-3);
  const double inner_w = std::max(1.0, width - 2.0 * margin);
  const double inner_h_max = std::max(1.0, max_height - 2.0 * margin);
  v.scale_ = std::min(inner_w / extent_x, inner_h_max / extent_z);
  v.margin_ = margin;
  v.min_x_ = min_x;
  v.max_z_ = max_z;
  v.width_ = width;
  // The tolerance keeps 509.9999999 px from rounding up to a spare row.
  v.height_ = std::min(max_height, int(std::ceil(extent_z * v.scale_ + 2.0 * margin - 1e-6)));
  return v;
}

}  // namespace waymesh::render
