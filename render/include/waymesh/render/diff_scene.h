#pragma once
// `waymesh diff -o`: the new map in grey with the changes highlighted: removed polygons (of the
// old map) red, added green, area-id changes orange, flipped reachability pairs as magenta
// lines, island merges and splits as blue rings.

#include "absl/status/statusor.h"
#include "waymesh/core/nav_map.h"
#include "waymesh/diff/map_diff.h"
#include "waymesh/render/scene.h"

namespace waymesh::render {

// The picture, `width` px wide (kMinPictureWidth..kMaxPictureSide).
absl::StatusOr<Scene> BuildDiffScene(const NavMap& old_map, const NavMap& new_map,
                                     const MapDiff& diff, int width);

}  // namespace waymesh::render
