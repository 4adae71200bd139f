#pragma once
// Integrity of a `.wmesh` file part by part (`waymesh validate`): the header block, then every
// tile on its own, so one damaged tile does not hide the state of the others.

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "waymesh/core/nav_map.h"
#include "waymesh/format/map_finding.h"

namespace waymesh {

// The outcome of checking a file: its damaged parts, or the loaded map.
struct MapFileCheck {
  // One finding per damaged part (kCheckChecksum for CRC mismatches, kCheckStructure for the
  // rest), each naming the byte offset and, for tiles, the tile and its grid cell.
  std::vector<MapFinding> findings;
  // The loaded map when every part is valid, else null. Not yet checked for structure
  // (map_structure.h): CheckMap reports that.
  std::shared_ptr<const NavMap> map;
};

// Checks `bytes` (kept alive by `storage` for the returned map).
MapFileCheck CheckMapBytes(std::span<const std::byte> bytes, std::shared_ptr<const void> storage);

// Memory-maps `path` and checks it as above; an unreadable file is one kCheckStructure finding.
MapFileCheck CheckMapFile(const std::string& path);

}  // namespace waymesh
