#include "waymesh/core/hierarchy/polygon_parts.h"

#include <algorithm>

namespace waymesh {

PolygonParts::PolygonParts(const std::vector<uint16_t>& parts) {
  if (parts.empty()) return;
  if (*std::max_element(parts.begin(), parts.end()) > 0xFF) {
    wide_ = parts;
    return;
  }
  narrow_.assign(parts.begin(), parts.end());
}

}  // namespace waymesh
