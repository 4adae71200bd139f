#include "waymesh/render/diff_scene.h"

#include <cmath>

#include "absl/strings/str_format.h"
#include "waymesh/render/legend.h"
#include "waymesh/render/map_scene.h"
#include "waymesh/render/palette.h"
#include "waymesh/render/view_transform.h"

namespace waymesh::render {
namespace {

constexpr float kMarkerRadius = 5;  // px

Aabb UnionBounds(const Aabb& a, const Aabb& b) {
  Aabb u = a;
  if (!b.Empty()) {
    u.Extend(b.min);
    u.Extend(b.max);
  }
  return u;
}

ScenePolygon Outline(const ViewTransform& view, const NavMap& map, PolyIndex poly, Rgba fill,
                     std::string tag) {
  const TileView& t = map.tile(poly.tile);
  ScenePolygon p{{}, fill, kPolygonOutline, 0.5f, std::move(tag)};
  for (uint32_t i = 0, n = t.corner_count(poly.poly); i < n; ++i) {
    p.points.push_back(view.ToPixel(t.corner(poly.poly, i)));
  }
  return p;
}

void DrawBase(const ViewTransform& view, const NavMap& new_map, Scene* scene) {
  for (const TileView& t : new_map.tiles()) {
    for (uint32_t p = 0; p < t.poly_count(); ++p) {
      scene->Add(Outline(view, new_map, {t.index, p}, kDiffUnchanged, "new"));
    }
  }
}

void DrawChanges(const ViewTransform& view, const NavMap& old_map, const NavMap& new_map,
                 const MapDiff& diff, Scene* scene) {
  for (const DiffPolygon& p : diff.removed) {
    scene->Add(Outline(view, old_map, p.at, kDiffRemoved, "removed"));
  }
  for (const DiffPolygon& p : diff.added) {
    scene->Add(Outline(view, new_map, p.at, kDiffAdded, "added"));
  }
  for (const AreaIdChange& c : diff.area_changes) {
    scene->Add(Outline(view, new_map, c.new_poly.at, kDiffAreaChanged, "area-changed"));
  }
  for (const IslandChange& c : diff.island_changes) {
    for (const Vec3& where : c.part_positions) {
      scene->Add(SceneCircle{
          view.ToPixel(where), kMarkerRadius + 3, {0, 0, 0, 0}, kDiffIslandChange, 2.5f});
    }
  }
  for (const ReachabilityFlip& f : diff.flips) {
    scene->Add(ScenePolyline{{view.ToPixel(f.a), view.ToPixel(f.b)}, kDiffFlip, 1.5f, true, false});
    for (Vec3 end : {f.a, f.b}) {
      scene->Add(SceneCircle{view.ToPixel(end), kMarkerRadius - 2, kDiffFlip, {}, 0});
    }
  }
}

std::vector<LegendEntry> DiffLegend(const MapDiff& d) {
  return {
      {kDiffUnchanged, absl::StrFormat("new map (%d polygons unchanged)", d.unchanged_polygons)},
      {kDiffRemoved, absl::StrFormat("removed polygons (%d)", d.removed.size())},
      {kDiffAdded, absl::StrFormat("added polygons (%d)", d.added.size())},
      {kDiffAreaChanged, absl::StrFormat("area id changed (%d)", d.area_changes.size())},
      {kDiffIslandChange, absl::StrFormat("islands merged/split (%d)", d.island_changes.size())},
      {kDiffFlip,
       absl::StrFormat("reachability flipped (%d of %d pairs)", d.flips.size(), d.pairs_sampled)},
  };
}

}  // namespace

absl::StatusOr<Scene> BuildDiffScene(const NavMap& old_map, const NavMap& new_map,
                                     const MapDiff& diff, int width) {
  if (width < kMinPictureWidth || width > kMaxPictureSide) {
    return absl::InvalidArgumentError(absl::StrFormat("--width %d must be between %d and %d px",
                                                      width, kMinPictureWidth, kMaxPictureSide));
  }
  const ViewTransform view =
      ViewTransform::Fit(UnionBounds(old_map.info().bounds, new_map.info().bounds), width,
                         kMaxPictureSide, kMapMargin);
  Scene scene;
  scene.width = view.width();
  scene.title = absl::StrFormat("diff %s -> %s", old_map.info().name, new_map.info().name);
  DrawBase(view, new_map, &scene);
  DrawChanges(view, old_map, new_map, diff, &scene);
  const std::vector<LegendEntry> legend = DiffLegend(diff);
  scene.height = int(std::ceil(view.height() + LegendHeight(legend.size(), scene.width)));
  AppendLegend(legend, float(view.height()), &scene);
  return scene;
}

}  // namespace waymesh::render
