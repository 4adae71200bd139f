// Pictures of real maps: the PNG decodes back (cairo) with the island colours where the
// islands are; the SVG parses as XML with one <polygon> per drawn map polygon.

#include <cairo.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "absl/strings/str_format.h"
#include "support/defect_maps.h"
#include "support/map_builder.h"
#include "support/shell_quote.h"
#include "support/test_data.h"
#include "waymesh/core/nav_query.h"
#include "waymesh/render/map_scene.h"
#include "waymesh/render/palette.h"
#include "waymesh/render/picture_file.h"
#include "waymesh/render/png_writer.h"
#include "waymesh/render/svg_writer.h"
#include "waymesh/render/view_transform.h"

namespace waymesh::render {
namespace {

using ::testing::HasSubstr;
using ::waymesh::testing::Centroid;
using ::waymesh::testing::ShellQuote;

// Frees cairo's and fontconfig's font caches once all tests ran, so LeakSanitizer stays quiet.
class ReleaseCachesEnvironment : public ::testing::Environment {
 public:
  void TearDown() override { ReleaseRenderCaches(); }
};
[[maybe_unused]] ::testing::Environment* const kReleaseCaches =
    ::testing::AddGlobalTestEnvironment(new ReleaseCachesEnvironment);

std::string TempPath(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / "waymesh-render-test";
  std::filesystem::create_directories(dir);
  return (dir / name).string();
}

std::shared_ptr<const NavMap> Map(const std::string& file) {
  RepairOptions options;
  options.tile_size = 32;
  absl::StatusOr<std::shared_ptr<const NavMap>> map =
      testing::CachedMapFromFile(testing::SharedData(file), options);
  EXPECT_TRUE(map.ok()) << map.status();
  return map.ok() ? *map : nullptr;
}

// Runs the `waymesh` binary; returns its exit code.
int RunWaymesh(const std::string& args) {
  const int status =
      std::system((std::string(WAYMESH_CLI) + " " + args + " >/dev/null 2>&1").c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// Runs python3 over an SVG file: prints the number of <polygon> elements, or fails on bad XML.
int SvgPolygonCount(const std::string& svg) {
  const std::string command =
      "python3 -c \"import sys, xml.etree.ElementTree as E; "
      "r = E.parse(sys.argv[1]).getroot(); "
      "print(sum(1 for e in r.iter('{http://www.w3.org/2000/svg}polygon')))\" " +
      ShellQuote(svg) + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return -1;
  char buffer[512] = {};
  const size_t n = fread(buffer, 1, sizeof buffer - 1, pipe);
  const int status = pclose(pipe);
  EXPECT_EQ(status, 0) << std::string(buffer, n);
  return status == 0 ? std::atoi(buffer) : -1;
}

// A decoded PNG and its pixels (cairo ARGB32: 0xAARRGGBB words, opaque here).
class DecodedPng {
 public:
  explicit DecodedPng(const std::string& path)
      : surface_(cairo_image_surface_create_from_png(path.c_str())) {}
  ~DecodedPng() { cairo_surface_destroy(surface_); }
  bool ok() const { return cairo_surface_status(surface_) == CAIRO_STATUS_SUCCESS; }
  int width() const { return cairo_image_surface_get_width(surface_); }
  int height() const { return cairo_image_surface_get_height(surface_); }
  Rgba At(int x, int y) const {
    const unsigned char* row =
        cairo_image_surface_get_data(surface_) + y * cairo_image_surface_get_stride(surface_);
    const uint32_t px = reinterpret_cast<const uint32_t*>(row)[x];
    return {uint8_t(px >> 16), uint8_t(px >> 8), uint8_t(px), uint8_t(px >> 24)};
  }
  // Whether `color` is exactly at some pixel within `radius` of (x, y).
  bool Near(Point2 p, Rgba color, int radius) const {
    for (int y = int(p.y) - radius; y <= int(p.y) + radius; ++y) {
      for (int x = int(p.x) - radius; x <= int(p.x) + radius; ++x) {
        if (x >= 0 && y >= 0 && x < width() && y < height() && At(x, y) == color) return true;
      }
    }
    return false;
  }

 private:
  cairo_surface_t* surface_;
};

double PlanArea(const TileView& t, uint32_t p) {
  double a = 0;
  for (uint32_t i = 0, n = t.corner_count(p); i < n; ++i) {
    const Vec3 u = t.corner(p, i), v = t.corner(p, (i + 1) % n);
    a += 0.5 * (double(u.x) * v.z - double(v.x) * u.z);
  }
  return a;
}

// For each island, the centroid of its largest polygon (plan view): well inside the island.
std::vector<Vec3> IslandInteriorPoints(const NavMap& map) {
  std::vector<Vec3> where(map.info().islands.size());
  std::vector<double> best(where.size(), -1);
  for (const TileView& t : map.tiles()) {
    for (uint32_t p = 0; p < t.poly_count(); ++p) {
      const uint32_t i = t.poly_island[p];
      if (PlanArea(t, p) > best[i]) {
        best[i] = PlanArea(t, p);
        where[i] = Centroid(t, p);
      }
    }
  }
  return where;
}

// The colour `--color island` gives island i with the default small-island threshold.
Rgba ExpectedIslandColor(const MapInfo& info, uint32_t i) {
  double largest = 0;
  for (const IslandInfo& island : info.islands) largest = std::max(largest, island.area);
  return info.islands[i].area < 0.05 * largest ? kSmallIslandColor : IslandColor(i);
}

void ExpectIslandColoursInPng(const NavMap& map, const std::string& png, int width) {
  const DecodedPng image(png);
  ASSERT_TRUE(image.ok()) << png;
  EXPECT_EQ(image.width(), width);
  const ViewTransform view =
      ViewTransform::Fit(map.info().bounds, width, kMaxPictureSide, kMapMargin);
  EXPECT_GT(image.height(), view.height());  // the legend strip below the map
  const std::vector<Vec3> where = IslandInteriorPoints(map);
  for (uint32_t i = 0; i < where.size(); ++i) {
    const Rgba want = ExpectedIslandColor(map.info(), i);
    EXPECT_TRUE(image.Near(view.ToPixel(where[i]), want, 2))
        << "island " << i << " colour " << HexColor(want) << " not at its polygon";
  }
}

TEST(MapPictureTest, PngShowsEachIslandInItsColour) {
  std::shared_ptr<const NavMap> map = Map("unity/1100.navmesh");
  ASSERT_NE(map, nullptr);
  ASSERT_EQ(map->info().islands.size(), 4u);
  // 1100's island 3 (6 m²) is under 5% of the largest: drawn red.
  EXPECT_EQ(ExpectedIslandColor(map->info(), 3), kSmallIslandColor);
  RenderOptions options;
  options.color = ColorMode::kIsland;
  options.width = 600;
  absl::StatusOr<Scene> scene = BuildMapScene(*map, options);
  ASSERT_TRUE(scene.ok()) << scene.status();
  const std::string png = TempPath("islands.png");
  ASSERT_TRUE(WritePicture(*scene, png).ok());
  ExpectIslandColoursInPng(*map, png, 600);
}

TEST(MapPictureTest, CliPngDecodesWithIslandColours) {
  std::shared_ptr<const NavMap> map = Map("unity/1100.navmesh");
  ASSERT_NE(map, nullptr);
  const std::string wmesh = TempPath("1100.wmesh"), png = TempPath("cli.png");
  ASSERT_EQ(RunWaymesh("build -q " + ShellQuote(testing::SharedData("unity/1100.navmesh")) +
                       " --tile-size 32 -o " + ShellQuote(wmesh)),
            0);
  std::filesystem::remove(png);
  ASSERT_EQ(RunWaymesh("render " + ShellQuote(wmesh) + " --color island --width 700 -o " +
                       ShellQuote(png)),
            0);
  ExpectIslandColoursInPng(*map, png, 700);
  // Area colouring paints the same places in the walkable area's colour instead.
  ASSERT_EQ(RunWaymesh("render " + ShellQuote(wmesh) + " --width 700 -o " + ShellQuote(png)), 0);
  const DecodedPng image(png);
  ASSERT_TRUE(image.ok());
  const ViewTransform view =
      ViewTransform::Fit(map->info().bounds, 700, kMaxPictureSide, kMapMargin);
  for (const Vec3& p : IslandInteriorPoints(*map)) {
    EXPECT_TRUE(image.Near(view.ToPixel(p), AreaColor(kWalkableArea), 2));
  }
}

TEST(MapPictureTest, SvgHasOnePolygonPerMapPolygon) {
  for (const char* file : {"unity/1000.navmesh", "polyanya/meshes/arena-merged.mesh"}) {
    std::shared_ptr<const NavMap> map = Map(file);
    ASSERT_NE(map, nullptr);
    absl::StatusOr<Scene> scene = BuildMapScene(*map, {});
    ASSERT_TRUE(scene.ok());
    const std::string svg = TempPath("all.svg");
    ASSERT_TRUE(WritePicture(*scene, svg).ok());
    EXPECT_EQ(SvgPolygonCount(svg), int(map->info().polygon_count)) << file;
  }
}

TEST(MapPictureTest, HeightBandKeepsOnlyPolygonsReachingIt) {
  // 1000.navmesh has a ground level around y = 10..14 and a platform near y = 28.8.
  std::shared_ptr<const NavMap> map = Map("unity/1000.navmesh");
  ASSERT_NE(map, nullptr);
  RenderOptions options;
  options.min_y = 20;
  uint32_t expected = 0;
  for (const TileView& t : map->tiles()) {
    for (uint32_t p = 0; p < t.poly_count(); ++p) {
      bool in = false;
      for (uint32_t i = 0; i < t.corner_count(p); ++i) in |= t.corner(p, i).y >= 20;
      expected += in;
    }
  }
  ASSERT_GT(expected, 0u);
  ASSERT_LT(expected, map->info().polygon_count);
  absl::StatusOr<Scene> scene = BuildMapScene(*map, options);
  ASSERT_TRUE(scene.ok());
  const std::string svg = TempPath("band.svg");
  ASSERT_TRUE(WritePicture(*scene, svg).ok());
  EXPECT_EQ(SvgPolygonCount(svg), int(expected));
  options.max_y = 10;  // below min_y
  EXPECT_FALSE(BuildMapScene(*map, options).ok());
}

TEST(MapPictureTest, PathsAreDrawnThroughTheirWaypoints) {
  std::shared_ptr<const NavMap> map = Map("unity/1100.navmesh");
  ASSERT_NE(map, nullptr);
  // Two far-apart points of the largest island.
  NavQuery query(map);
  std::vector<Vec3> island0;
  for (const TileView& t : map->tiles()) {
    for (uint32_t p = 0; p < t.poly_count(); ++p) {
      if (t.poly_island[p] == 0) island0.push_back(Centroid(t, p));
    }
  }
  ASSERT_GE(island0.size(), 2u);
  const std::vector<PathQuery> queries = {PathQuery{0, island0.front(), island0.back()},
                                          PathQuery{3, island0.front(), {500, 0, 500}}};
  absl::StatusOr<std::vector<TracedPath>> paths = TracePaths(map, queries, {2, 4, 2});
  ASSERT_TRUE(paths.ok()) << paths.status();
  ASSERT_EQ((*paths)[0].status, QueryStatus::kComplete);
  ASSERT_GE((*paths)[0].waypoints.size(), 2u);
  EXPECT_EQ((*paths)[1].status, QueryStatus::kEndOffMesh);
  absl::StatusOr<Scene> scene = BuildMapScene(*map, {}, *paths);
  ASSERT_TRUE(scene.ok());
  const ViewTransform view =
      ViewTransform::Fit(map->info().bounds, 1024, kMaxPictureSide, kMapMargin);
  int drawn = 0;
  for (const SceneItem& item : scene->items) {
    const auto* line = std::get_if<ScenePolyline>(&item);
    if (!line || !(line->color == PathColor(0))) continue;
    ++drawn;
    ASSERT_EQ(line->points.size(), (*paths)[0].waypoints.size());
    for (size_t i = 0; i < line->points.size(); ++i) {
      const Point2 want = view.ToPixel((*paths)[0].waypoints[i]);
      EXPECT_NEAR(line->points[i].x, want.x, 1e-3);
      EXPECT_NEAR(line->points[i].y, want.y, 1e-3);
    }
  }
  EXPECT_EQ(drawn, 1);
  const std::string svg = RenderSvg(*scene);
  EXPECT_THAT(svg, HasSubstr("query line 3: END_OFF_MESH"));
}

TEST(ViewTransformTest, KeepsTheAspect) {
  Aabb box;
  box.Extend({0, 0, 0});
  box.Extend({100, 5, 50});
  const ViewTransform wide = ViewTransform::Fit(box, 1000, 8192, 10);
  EXPECT_EQ(wide.width(), 1000);
  EXPECT_EQ(wide.height(), 510);
  EXPECT_NEAR(wide.ToPixel({0, 0, 50}).x, 10, 1e-4);  // north-west corner at the top left
  EXPECT_NEAR(wide.ToPixel({0, 0, 50}).y, 10, 1e-4);
  EXPECT_NEAR(wide.ToPixel({100, 0, 0}).x, 990, 1e-3);
  EXPECT_NEAR(wide.ToPixel({100, 0, 0}).y, 500, 1e-3);
  Aabb tall;
  tall.Extend({0, 0, 0});
  tall.Extend({10, 0, 1000});
  const ViewTransform capped = ViewTransform::Fit(tall, 1000, 2000, 0);
  EXPECT_EQ(capped.height(), 2000);
  EXPECT_NEAR(capped.scale(), 2.0, 1e-9);
}

TEST(RenderOptionsTest, RejectsNonsense) {
  RenderOptions o;
  EXPECT_TRUE(CheckRenderOptions(o).ok());
  o.width = 10;
  EXPECT_THAT(CheckRenderOptions(o).message(), HasSubstr("--width 10"));
  o = {};
  o.small_island_area = -1;
  EXPECT_FALSE(CheckRenderOptions(o).ok());
  EXPECT_FALSE(IsPicturePath("x.jpg"));
  EXPECT_TRUE(IsPicturePath("x.PNG"));
  EXPECT_FALSE(WritePicture(Scene{}, TempPath("x.gif")).ok());
}

TEST(SvgWriterTest, EscapesTextAndStaysWellFormed) {
  Scene scene;
  scene.width = 100;
  scene.height = 50;
  scene.title = "map <\"a\" & 'b'>";
  scene.Add(SceneText{{5, 20}, "area 3 <Road & Rail>\x01", 12, {}});
  scene.Add(ScenePolygon{{{1, 1}, {20, 1}, {10, 15}}, {10, 20, 30, 128}, {}, 0, "t<1>"});
  const std::string path = TempPath("escape.svg");
  std::ofstream(path) << RenderSvg(scene);
  EXPECT_EQ(SvgPolygonCount(path), 1);
  EXPECT_THAT(RenderSvg(scene), HasSubstr("area 3 &lt;Road &amp; Rail&gt;</text>"));
}

}  // namespace
}  // namespace waymesh::render
