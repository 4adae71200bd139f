#include "duplicate_filter.h"

#include <algorithm>

#include "absl/container/flat_hash_set.h"

namespace waymesh::repair {

uint64_t DropDuplicateTriangles(TriangleSoup* soup) {
  absl::flat_hash_set<Tri> seen;
  seen.reserve(soup->tris.size());
  return soup->Filter([&seen](Tri& t) {
    Tri key = t;
    std::sort(key.begin(), key.end());  // the same corners in any order and winding
    return seen.insert(key).second;
  });
}

}  // namespace waymesh::repair
