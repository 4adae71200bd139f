#include "waymesh/server/query_cache.h"

#include <algorithm>
#include <utility>

namespace waymesh::server {

QueryCache::QueryCache(NavQueryOptions options, size_t capacity)
    : options_(options), capacity_(std::max<size_t>(1, capacity)) {
  entries_.reserve(capacity_);
}

NavQuery& QueryCache::For(std::string_view map_id, uint64_t version,
                          std::shared_ptr<const NavMap> map) {
  ++clock_;
  for (auto it = entries_.begin(); it != entries_.end(); ++it) {
    if (it->map_id != map_id) continue;
    if (it->version == version) {
      it->last_use = clock_;
      return *it->query;
    }
    // Another version of this map (reloaded, or an obstacle layer's next version): the query
    // object moves to it, so the old version is let go and no buffers are built again.
    it->version = version;
    it->last_use = clock_;
    ++rebinds_;
    it->query->Rebind(std::move(map));
    return *it->query;
  }
  if (entries_.size() >= capacity_) {
    entries_.erase(
        std::min_element(entries_.begin(), entries_.end(),
                         [](const Entry& a, const Entry& b) { return a.last_use < b.last_use; }));
  }
  ++builds_;
  entries_.push_back(
      {std::string(map_id), version, clock_, std::make_unique<NavQuery>(std::move(map), options_)});
  return *entries_.back().query;
}

}  // namespace waymesh::server
