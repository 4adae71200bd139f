#pragma once
// The interval search's open nodes by the polygon they lead into, so that a successor finds
// the open node it may join (same root, same entry edge) without hashing: a stamped head per
// polygon (QueryContext::Global) starts a short list, and forgetting every list is one
// increment of the stamp.

#include <algorithm>
#include <cstdint>
#include <vector>

namespace waymesh::internal::exact {

class OpenIntervals {
 public:
  static constexpr uint32_t kEnd = 0xFFFFFFFFu;

  // Starts a query on a map of `polygon_count` polygons: every list is empty.
  void Begin(uint32_t polygon_count) {
    links_.clear();
    if (heads_.size() < polygon_count) heads_.resize(polygon_count);
    if (++stamp_ == 0) {  // once every 2^32 queries: old stamps could look current
      std::fill(heads_.begin(), heads_.end(), Head{});
      stamp_ = 1;
    }
  }

  // The first open node of polygon `global` that `match(node)` accepts, or kEnd.
  template <typename Match>
  uint32_t Find(uint32_t global, Match match) const {
    for (uint32_t l = First(global); l != kEnd; l = links_[l].next) {
      if (match(links_[l].node)) return links_[l].node;
    }
    return kEnd;
  }

  void Add(uint32_t global, uint32_t node) {
    links_.push_back(Link{node, First(global)});
    heads_[global] = Head{stamp_, uint32_t(links_.size() - 1)};
  }

  // Takes `node` off polygon `global`'s list (nothing when it is not there).
  void Remove(uint32_t global, uint32_t node) {
    uint32_t* at = &heads_[global].first;
    if (heads_[global].stamp != stamp_) return;
    while (*at != kEnd && links_[*at].node != node) at = &links_[*at].next;
    if (*at != kEnd) *at = links_[*at].next;
  }

 private:
  struct Head {
    uint32_t stamp = 0;
    uint32_t first = kEnd;
  };
  struct Link {
    uint32_t node;
    uint32_t next;
  };

  uint32_t First(uint32_t global) const {
    return heads_[global].stamp == stamp_ ? heads_[global].first : kEnd;
  }

  std::vector<Head> heads_;
  std::vector<Link> links_;
  uint32_t stamp_ = 0;
};

}  // namespace waymesh::internal::exact
