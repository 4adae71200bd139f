#include "waymesh/import/default_areas.h"

namespace waymesh::importer {

std::vector<std::optional<AreaType>> DefaultAreas() {
  return {AreaType{"Walkable", 1.0f, false}, AreaType{"Not Walkable", 1.0f, false},
          AreaType{"Jump", 2.0f, false}};
}

}  // namespace waymesh::importer
