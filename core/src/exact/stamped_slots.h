#pragma once
// The shared start of a query for the open-addressing tables of the exact search (RootTable,
// CornerCache): entries carry the stamp of the query that wrote them, so forgetting every
// entry is one increment.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace waymesh::internal::exact {

// Starts a new query on `entries` (given `initial` slots the first time): bumps *stamp,
// clearing every entry's stamp in the rare case it wraps, and zeroes *used.
template <typename Entry>
void StartStamp(std::vector<Entry>* entries, uint32_t* stamp, uint32_t* used, size_t initial) {
  *used = 0;
  if (entries->empty()) entries->resize(initial);
  if (++*stamp == 0) {
    // Once every 2^32 queries: old stamps could look current.
    for (Entry& e : *entries) e.stamp = 0;
    *stamp = 1;
  }
}

}  // namespace waymesh::internal::exact
