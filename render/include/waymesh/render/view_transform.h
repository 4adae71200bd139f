#pragma once
// Top-down projection of map coordinates onto the picture: X to the right, Z up the page (the
// view from above in Unity's Y-up frame), one scale for both axes so shapes keep their aspect.

#include "waymesh/core/vec3.h"
#include "waymesh/render/scene.h"

namespace waymesh::render {

// Map X–Z metres to picture pixels at one fixed scale.
class ViewTransform {
 public:
  // Fits the X–Z extent of `bounds` into a map area `width` px wide with `margin` px around it;
  // the height follows the aspect, and both shrink when it would exceed `max_height`.
  static ViewTransform Fit(const Aabb& bounds, int width, int max_height, float margin);

  Point2 ToPixel(Vec3 p) const {
    return {float(margin_ + (double(p.x) - min_x_) * scale_),
            float(margin_ + (max_z_ - double(p.z)) * scale_)};
  }
  int width() const { return width_; }     // px, margins included
  int height() const { return height_; }   // px, margins included
  double scale() const { return scale_; }  // px per metre

 private:
  double min_x_ = 0, max_z_ = 0, scale_ = 1, margin_ = 0;
  int width_ = 0, height_ = 0;
};

}  // namespace waymesh::render
