#include "tile_digest.h"

#include <algorithm>

namespace waymesh::obstacles {

TileDigest DigestOfTile(const MapInfo& info, const TileView& tile) {
  MapDigest one;
  AddTileToDigest(info, tile, &one);
  TileDigest part;
  part.summary = one.tiles.front();
  part.areas_present = one.areas_present;
  part.link_cost_per_metre = one.link_cost_per_metre;
  return part;
}

void AppendTileDigest(const TileDigest& part, MapDigest* digest) {
  digest->tiles.push_back(part.summary);
  digest->areas_present |= part.areas_present;
  // A minimum over tiles: the same in any order (a tile's part is never NaN).
  for (size_t a = 0; a < part.link_cost_per_metre.size(); ++a) {
    digest->link_cost_per_metre[a] =
        std::min(digest->link_cost_per_metre[a], part.link_cost_per_metre[a]);
  }
}

}  // namespace waymesh::obstacles
