#pragma once
// What `waymesh bake --areas FILE` adds to raw level geometry (docs/bake.md): area volumes
// (axis-aligned boxes and convex prisms, like Unity's NavMeshModifierVolume), off-mesh links and
// area types.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "waymesh/core/nav_map.h"
#include "waymesh/core/vec3.h"
#include "waymesh/mesh/source_mesh.h"

namespace waymesh {

// Unity's "Not Walkable" area: a volume of this area removes the surface inside it.
inline constexpr uint8_t kNotWalkableArea = 1;
// Recast keeps area 63 for "walkable, not yet classified": volumes may use 0..62.
inline constexpr uint8_t kMaxVolumeArea = 62;

// One area volume. The surface whose floor height lies inside it gets `area`.
struct AreaVolume {
  std::string name;  // for messages; the file's "name", else "volumes[i]"
  // A box uses min/max; a prism uses `outline` (convex, plan view: y is ignored) and the
  // height range min.y..max.y (min/max x and z then bound the outline).
  std::vector<Vec3> outline;
  Vec3 min;
  Vec3 max;
  uint8_t area = kWalkableArea;

  bool is_prism() const { return !outline.empty(); }
};

// The parsed file. `areas` is Unity's default table with the file's declarations applied.
struct BakeVolumes {
  std::vector<std::optional<AreaType>> areas;
  std::vector<AreaVolume> volumes;  // in file order
  std::vector<SourceOffMeshLink> links;
};

// Unity's default areas, no volumes, no links: what a bake without --areas uses.
BakeVolumes DefaultBakeVolumes();

// Parses a volumes file (JSON, docs/bake.md). Errors name `origin` and the JSON path of the
// offending value, or line:column for syntax errors; unknown keys are errors (typos would
// otherwise silently bake the wrong map).
absl::StatusOr<BakeVolumes> ParseBakeVolumes(std::string_view text, std::string_view origin);

// Reads `path` and parses it as above.
absl::StatusOr<BakeVolumes> LoadBakeVolumesFile(const std::string& path);

}  // namespace waymesh
