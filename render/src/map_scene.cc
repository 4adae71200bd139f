#include "waymesh/render/map_scene.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "waymesh/io/number_text.h"
#include "waymesh/render/legend.h"
#include "waymesh/render/palette.h"
#include "waymesh/render/view_transform.h"

namespace waymesh::render {
namespace {

// Legend rows listed before "... more".
constexpr size_t kMaxLegendIslands = 12;
constexpr size_t kMaxLegendPaths = 8;
constexpr float kWaypointRadius = 3;  // px
constexpr float kPathWidth = 2.5f;    // px

class MapSceneBuilder {
 public:
  MapSceneBuilder(const NavMap& map, const RenderOptions& options)
      : map_(map),
        options_(options),
        view_(ViewTransform::Fit(map.info().bounds, options.width, kMaxPictureSide, kMapMargin)) {
    small_island_area_ = SmallIslandArea();
  }

  Scene Build(std::span<const TracedPath> paths) {
    scene_.width = view_.width();
    scene_.title = absl::StrFormat("%s: %d polygons, %d islands", map_.info().name,
                                   map_.info().polygon_count, map_.info().islands.size());
    for (const TileView& t : map_.tiles()) DrawPolygons(t);
    if (options_.tile_borders) DrawTileBorders();
    if (options_.off_mesh_links) DrawLinks();
    for (uint32_t i = 0; i < paths.size(); ++i) DrawPath(paths[i], PathColor(i));
    std::vector<LegendEntry> legend;
    if (options_.legend) legend = Legend(paths);
    const float map_height = float(view_.height());
    scene_.height = int(std::ceil(map_height + LegendHeight(legend.size(), scene_.width)));
    AppendLegend(legend, map_height, &scene_);
    return std::move(scene_);
  }

 private:
  double SmallIslandArea() const {
    if (options_.small_island_area) return *options_.small_island_area;
    double largest = 0;
    for (const IslandInfo& i : map_.info().islands) largest = std::max(largest, i.area);
    return options_.small_island_fraction * largest;
  }

  bool InBand(float y) const {
    return (!options_.min_y || y >= *options_.min_y) && (!options_.max_y || y <= *options_.max_y);
  }

  Rgba Fill(const TileView& t, uint32_t p) const {
    if (options_.color == ColorMode::kArea) return AreaColor(t.poly_area[p]);
    const uint32_t island = t.poly_island[p];
    return map_.info().islands[island].area < small_island_area_ ? kSmallIslandColor
                                                                 : IslandColor(island);
  }

  void DrawPolygons(const TileView& t) {
    for (uint32_t p = 0; p < t.poly_count(); ++p) {
      ScenePolygon poly{{},
                        Fill(t, p),
                        kPolygonOutline,
                        0.5f,
                        absl::StrFormat("poly t%d p%d area%d island%d", t.index, p, t.poly_area[p],
                                        t.poly_island[p])};
      bool in_band = false;
      for (uint32_t i = 0, n = t.corner_count(p); i < n; ++i) {
        const Vec3 c = t.corner(p, i);
        in_band |= InBand(c.y);
        poly.points.push_back(view_.ToPixel(c));
      }
      if (in_band) scene_.Add(std::move(poly));
    }
  }

  void DrawTileBorders() {
    const MapInfo& info = map_.info();
    for (const TileView& t : map_.tiles()) {
      const float x0 = info.grid_origin.x + t.grid_x * info.tile_size;
      const float z0 = info.grid_origin.z + t.grid_z * info.tile_size;
      const float x1 = x0 + info.tile_size, z1 = z0 + info.tile_size;
      ScenePolyline border{{}, kTileBorder, 1.0f, /*dashed=*/true, /*closed=*/true};
      for (Vec3 c : {Vec3{x0, 0, z0}, Vec3{x1, 0, z0}, Vec3{x1, 0, z1}, Vec3{x0, 0, z1}}) {
        border.points.push_back(view_.ToPixel(c));
      }
      scene_.Add(std::move(border));
    }
  }

  void DrawLinks() {
    for (const TileView& t : map_.tiles()) {
      for (const OffMeshLink& l : t.off_mesh_links) {
        if (!InBand(l.start.y) && !InBand(l.end.y)) continue;
        scene_.Add(
            SceneArrow{view_.ToPixel(l.start), view_.ToPixel(l.end), kLinkColor, 1.5f, 7.0f});
      }
    }
  }

  void DrawPath(const TracedPath& path, Rgba color) {
    if (path.waypoints.size() >= 2) {
      ScenePolyline line{{}, color, kPathWidth, path.status != QueryStatus::kComplete, false};
      for (const Vec3& w : path.waypoints) line.points.push_back(view_.ToPixel(w));
      scene_.Add(std::move(line));
    } else {
      // Nothing reached: a thin dashed line says which pair was asked.
      scene_.Add(ScenePolyline{
          {view_.ToPixel(path.start), view_.ToPixel(path.goal)}, color, 1.0f, true, false});
    }
    for (const Vec3& w : path.waypoints) {
      scene_.Add(SceneCircle{view_.ToPixel(w), kWaypointRadius, color, {255, 255, 255, 255}, 1.0f});
    }
    // Start as a filled ring, goal as an open ring, also when the path failed.
    scene_.Add(
        SceneCircle{view_.ToPixel(path.start), kWaypointRadius + 2, color, {0, 0, 0, 255}, 1.0f});
    scene_.Add(SceneCircle{
        view_.ToPixel(path.goal), kWaypointRadius + 2, {255, 255, 255, 0}, color, 2.0f});
  }

  std::vector<LegendEntry> Legend(std::span<const TracedPath> paths) const {
    std::vector<LegendEntry> out;
    const MapInfo& info = map_.info();
    if (options_.color == ColorMode::kArea) {
      for (int a = 0; a < kMaxAreas; ++a) {
        if (!info.areas[a].used) continue;
        out.push_back(
            {AreaColor(uint8_t(a)),
             absl::StrFormat("area %d %s (cost %.2g)", a, info.areas[a].name, info.areas[a].cost)});
      }
    } else {
      for (uint32_t i = 0; i < info.islands.size() && i < kMaxLegendIslands; ++i) {
        const IslandInfo& island = info.islands[i];
        const bool small = island.area < small_island_area_;
        out.push_back({small ? kSmallIslandColor : IslandColor(i),
                       absl::StrFormat("island %d: %d polygons, %.1f m²%s", i, island.polygons,
                                       island.area, small ? " (small)" : "")});
      }
      if (info.islands.size() > kMaxLegendIslands) {
        out.push_back({kSmallIslandColor, absl::StrFormat("... %d more islands (red: < %.1f m²)",
                                                          info.islands.size() - kMaxLegendIslands,
                                                          small_island_area_)});
      }
    }
    if (options_.off_mesh_links && info.off_mesh_link_count > 0) {
      out.push_back({kLinkColor, absl::StrFormat("off-mesh link (%d)", info.off_mesh_link_count)});
    }
    for (uint32_t i = 0; i < paths.size() && i < kMaxLegendPaths; ++i) {
      const TracedPath& p = paths[i];
      out.push_back(
          {PathColor(i), absl::StrFormat("%s: %s, %.1f m, %d waypoints",
                                         p.line > 0 ? absl::StrFormat("query line %d", p.line)
                                                    : absl::StrFormat("path %d", i + 1),
                                         QueryStatusName(p.status), p.length, p.waypoints.size())});
    }
    if (paths.size() > kMaxLegendPaths) {
      out.push_back({PathColor(kMaxLegendPaths),
                     absl::StrFormat("... %d more paths", paths.size() - kMaxLegendPaths)});
    }
    return out;
  }

  const NavMap& map_;
  const RenderOptions& options_;
  const ViewTransform view_;
  double small_island_area_ = 0;
  Scene scene_;
};

}  // namespace

absl::Status CheckRenderOptions(const RenderOptions& o) {
  if (o.width < kMinPictureWidth || o.width > kMaxPictureSide) {
    return absl::InvalidArgumentError(absl::StrFormat("--width %d must be between %d and %d px",
                                                      o.width, kMinPictureWidth, kMaxPictureSide));
  }
  if (o.min_y && o.max_y && *o.min_y > *o.max_y) {
    return absl::InvalidArgumentError(
        absl::StrCat("--min-y ", NumberText(*o.min_y), " is above --max-y ", NumberText(*o.max_y)));
  }
  for (std::optional<float> y : {o.min_y, o.max_y}) {
    if (y && !std::isfinite(*y)) return absl::InvalidArgumentError("--min-y/--max-y not finite");
  }
  if (o.small_island_area && !(*o.small_island_area >= 0 && std::isfinite(*o.small_island_area))) {
    return absl::InvalidArgumentError("--small-island-area must be a non-negative number (m²)");
  }
  if (!(o.small_island_fraction >= 0 && o.small_island_fraction <= 1)) {
    return absl::InvalidArgumentError("small-island fraction must be in 0..1");
  }
  return absl::OkStatus();
}

absl::StatusOr<Scene> BuildMapScene(const NavMap& map, const RenderOptions& options,
                                    std::span<const TracedPath> paths) {
  if (absl::Status s = CheckRenderOptions(options); !s.ok()) return s;
  return MapSceneBuilder(map, options).Build(paths);
}

}  // namespace waymesh::render
