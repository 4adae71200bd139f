#pragma once
// A worker's query objects: one NavQuery per map it served recently, on the version it last
// served. Building a NavQuery sizes its node pool and per-map tables, so it is done once per
// map per worker, never per call; a new version of a map (a reload, an obstacle layer's next
// version) rebinds the map's query object, so the old version is freed once no worker holds it.
// Not thread-safe: one per worker thread.

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "waymesh/core/nav_map.h"
#include "waymesh/core/nav_query.h"

namespace waymesh::server {

class QueryCache {
 public:
  // Maps one worker keeps query objects for before dropping the least recently used.
  static constexpr size_t kDefaultCapacity = 8;

  explicit QueryCache(NavQueryOptions options, size_t capacity = kDefaultCapacity);

  // The query object for version `version` of map `map_id`, whose NavMap is `map`; built on
  // first use, rebound from the map's previous version.
  NavQuery& For(std::string_view map_id, uint64_t version, std::shared_ptr<const NavMap> map);

  // Query objects held right now.
  size_t size() const { return entries_.size(); }
  // Query objects built so far (each one a miss).
  uint64_t builds() const { return builds_; }
  // Query objects moved to another version of their map.
  uint64_t rebinds() const { return rebinds_; }

 private:
  struct Entry {
    std::string map_id;
    uint64_t version = 0;
    uint64_t last_use = 0;
    std::unique_ptr<NavQuery> query;
  };

  NavQueryOptions options_;
  size_t capacity_;
  uint64_t clock_ = 0;
  uint64_t builds_ = 0;
  uint64_t rebinds_ = 0;
  std::vector<Entry> entries_;
};

}  // namespace waymesh::server
