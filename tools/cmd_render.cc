// `waymesh render MAP.wmesh -o out.png|out.svg`: a top-down picture of what the server sees,
// coloured by area or by island, with tile borders, off-mesh links and optional paths.

#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_format.h"
#include "cli_options.h"
#include "commands.h"
#include "map_arg.h"
#include "position_arg.h"
#include "waymesh/query_files/path_queries.h"
#include "waymesh/render/map_scene.h"
#include "waymesh/render/path_trace.h"
#include "waymesh/render/picture_file.h"
#include "waymesh/render/png_writer.h"

namespace waymesh::cli {
namespace {

struct RenderArgs {
  std::string map_path;
  std::string out_path;
  std::string color = "area";
  int width = 1024;
  double small_island_area = 0;
  float min_y = 0, max_y = 0;
  std::vector<std::pair<std::string, std::string>> paths;
  std::string queries_path;
  std::string extents = "2,4,2";
  bool no_tiles = false, no_links = false, no_legend = false;
  const CLI::Option *small_opt = nullptr, *min_y_opt = nullptr, *max_y_opt = nullptr;
};

absl::StatusOr<render::RenderOptions> Options(const RenderArgs& args) {
  render::RenderOptions o;
  o.color = args.color == "island" ? render::ColorMode::kIsland : render::ColorMode::kArea;
  o.width = args.width;
  if (args.small_opt->count()) o.small_island_area = args.small_island_area;
  if (args.min_y_opt->count()) o.min_y = args.min_y;
  if (args.max_y_opt->count()) o.max_y = args.max_y;
  o.tile_borders = !args.no_tiles;
  o.off_mesh_links = !args.no_links;
  o.legend = !args.no_legend;
  if (absl::Status s = render::CheckRenderOptions(o); !s.ok()) return s;
  return o;
}

// The queries to draw: the --path pairs first, then the query file's.
absl::StatusOr<std::vector<PathQuery>> Queries(const std::vector<std::pair<Vec3, Vec3>>& pairs,
                                               const std::string& queries_path) {
  std::vector<PathQuery> queries;
  for (const auto& [a, b] : pairs) queries.push_back(PathQuery{0, a, b});
  if (!queries_path.empty()) {
    absl::StatusOr<std::vector<PathQuery>> file = ReadPathQueries(queries_path);
    if (!file.ok()) return file.status();
    queries.insert(queries.end(), file->begin(), file->end());
  }
  return queries;
}

int Usage(const absl::Status& status) {
  std::cerr << "waymesh render: " << status.message() << "\n";
  return kExitUsage;
}

// "N COMPLETE, M NO_PATH" over the drawn paths.
std::string StatusCounts(const std::vector<render::TracedPath>& paths) {
  std::map<std::string_view, int> counts;
  for (const render::TracedPath& p : paths) ++counts[QueryStatusName(p.status)];
  std::string s;
  for (const auto& [name, n] : counts) {
    absl::StrAppendFormat(&s, "%s%d %s", s.empty() ? "" : ", ", n, name);
  }
  return s;
}

int RunRender(const RenderArgs& args) {
  absl::StatusOr<render::RenderOptions> options = Options(args);
  if (!options.ok()) return Usage(options.status());
  absl::StatusOr<Vec3> extents = ParseHalfExtents(args.extents, "--extents");
  if (!extents.ok()) return Usage(extents.status());
  absl::StatusOr<std::vector<std::pair<Vec3, Vec3>>> pairs =
      ParsePositionPairs(args.paths, "--path");
  if (!pairs.ok()) return Usage(pairs.status());
  absl::StatusOr<std::vector<PathQuery>> queries = Queries(*pairs, args.queries_path);
  if (!queries.ok()) {
    std::cerr << "waymesh render: " << queries.status().message() << "\n";
    return kExitFailure;
  }
  std::shared_ptr<const NavMap> map = LoadMapArg("render", args.map_path);
  if (map == nullptr) return kExitFailure;
  absl::StatusOr<std::vector<render::TracedPath>> paths =
      render::TracePaths(map, *queries, *extents);
  if (!paths.ok()) {
    std::cerr << "waymesh render: " << args.queries_path << ": " << paths.status().message()
              << "\n";
    return kExitFailure;
  }
  absl::StatusOr<render::Scene> scene = render::BuildMapScene(*map, *options, *paths);
  absl::Status written = scene.ok() ? render::WritePicture(*scene, args.out_path) : scene.status();
  render::ReleaseRenderCaches();
  if (!written.ok()) {
    std::cerr << "waymesh render: " << written.message() << "\n";
    return kExitFailure;
  }
  std::cout << absl::StrFormat("%s: %d x %d px, %d polygons, %d islands", args.out_path,
                               scene->width, scene->height, map->info().polygon_count,
                               map->info().islands.size());
  if (!paths->empty()) {
    std::cout << absl::StrFormat(", %d paths (%s)", paths->size(), StatusCounts(*paths));
  }
  std::cout << "\n";
  return kExitOk;
}

}  // namespace

void RegisterRender(CLI::App* cmd, int* exit_code) {
  auto args = std::make_shared<RenderArgs>();
  AddMapArg(cmd, args->map_path);
  AddPictureOutput(cmd, args->out_path, "picture to write: .png or .svg")->required();
  cmd->add_option("--color", args->color,
                  "colour polygons by 'area' (area id, legend with names) or 'island' (small "
                  "islands in red)")
      ->check(CLI::IsMember({"area", "island"}))
      ->capture_default_str();
  AddPictureWidth(cmd, args->width, "picture width in px; the height keeps the aspect");
  args->small_opt = cmd->add_option("--small-island-area", args->small_island_area,
                                    "islands below this area are red (m²; default 5% of the "
                                    "largest island)")
                        ->check(CLI::NonNegativeNumber);
  args->min_y_opt =
      cmd->add_option("--min-y", args->min_y,
                      "height band: draw only polygons with a corner at or above this height (m)");
  args->max_y_opt =
      cmd->add_option("--max-y", args->max_y,
                      "height band: draw only polygons with a corner at or below this height (m)");
  cmd->add_option("--path", args->paths,
                  "draw the path between two positions x,y,z x,y,z; "
                  "repeatable");
  cmd->add_option("--queries", args->queries_path,
                  "draw every path of a query file (the format of `waymesh path --queries`)")
      ->check(CLI::ExistingFile);
  AddExtents(cmd, args->extents, "path ends");
  cmd->add_flag("--no-tiles", args->no_tiles, "do not draw tile borders");
  cmd->add_flag("--no-links", args->no_links, "do not draw off-mesh links");
  cmd->add_flag("--no-legend", args->no_legend, "do not draw the legend");
  cmd->callback([args, exit_code] { *exit_code = RunRender(*args); });
}

}  // namespace waymesh::cli
