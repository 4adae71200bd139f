#include "waymesh/core/search_tables.h"

#include <memory>
#include <utility>

namespace waymesh {

SearchTables SearchTables::Build(const NavMap& map) {
  SearchTables tables;
  tables.landmarks = LandmarkTable::Build(map);
  tables.dead_ends = DeadEndTable::Build(map);
  return tables;
}

std::shared_ptr<const NavMap> WithSearchTables(std::shared_ptr<const NavMap> map) {
  auto tables = std::make_shared<const SearchTables>(SearchTables::Build(*map));
  return std::make_shared<const NavMap>(*map, std::move(tables));
}

}  // namespace waymesh
