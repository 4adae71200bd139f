#pragma once
// `waymesh render`: the top-down picture of what the server sees: polygons coloured by area or
// by island (small islands in red so disconnected bits jump out), tile borders, off-mesh links
// as arrows, drawn paths with their waypoints, obstacle footprints, and a legend.

#include <optional>
#include <span>

#include "absl/status/statusor.h"
#include "waymesh/core/nav_map.h"
#include "waymesh/core/obstacles/footprint.h"
#include "waymesh/render/path_trace.h"
#include "waymesh/render/scene.h"

namespace waymesh::render {

// What polygon colours mean.
enum class ColorMode { kArea, kIsland };

// Picture size limits (px): below, nothing is recognisable; above, files get absurd.
inline constexpr int kMinPictureWidth = 64;
inline constexpr int kMaxPictureSide = 8192;
// Blank border around the map (px).
inline constexpr float kMapMargin = 12;

// What `waymesh render` draws and how large.
struct RenderOptions {
  ColorMode color = ColorMode::kArea;
  int width = 1024;  // px; the height follows the map's aspect (plus the legend)
  // Islands below this area (m²) are drawn red; unset: `small_island_fraction` of the largest.
  std::optional<double> small_island_area;
  double small_island_fraction = 0.05;
  // Height band for multi-floor maps: only polygons with some corner inside [min_y, max_y]
  // (and links with an end inside it) are drawn.
  std::optional<float> min_y, max_y;
  bool tile_borders = true;
  bool off_mesh_links = true;
  bool legend = true;
};

// OK when the options make sense (width in range, band not inverted, thresholds finite and
// non-negative); otherwise says which option is wrong.
absl::Status CheckRenderOptions(const RenderOptions& options);

// The picture of `map` with `paths` and obstacle `footprints` (outlines) drawn over it. The map is
// placed by ViewTransform::Fit(map.info().bounds, options.width, kMaxPictureSide, kMapMargin); the
// legend strip follows below it.
absl::StatusOr<Scene> BuildMapScene(const NavMap& map, const RenderOptions& options,
                                    std::span<const TracedPath> paths = {},
                                    std::span<const Footprint> footprints = {});

}  // namespace waymesh::render
