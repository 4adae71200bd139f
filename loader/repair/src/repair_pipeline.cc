// RepairMeshes: runs the repair steps in order and fills the map metadata and the report.

#include <cmath>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "degenerate_filter.h"
#include "duplicate_filter.h"
#include "edge_pairing.h"
#include "islands.h"
#include "map_metadata.h"
#include "mesh_assembler.h"
#include "off_mesh_link_resolver.h"
#include "polygon_merger.h"
#include "source_combiner.h"
#include "t_junction_splitter.h"
#include "tile_grid.h"
#include "triangle_soup.h"
#include "triangulate.h"
#include "vertex_welder.h"
#include "waymesh/format/map_structure.h"
#include "waymesh/io/number_text.h"
#include "waymesh/repair/repair.h"

namespace waymesh {
namespace {

using repair::TriangleSoup;

// The report keeps this many finding lines; the rest are summarised in one more line.
constexpr size_t kMaxFindings = 1000;

absl::Status CheckTolerance(const char* name, float value) {
  if (!std::isfinite(value) || value < 0 || value > tol::kMaxRepairTolerance) {
    return absl::InvalidArgumentError(absl::StrCat("repair option ", name, " = ", NumberText(value),
                                                   " m is out of range (0 to ",
                                                   NumberText(tol::kMaxRepairTolerance), " m)"));
  }
  return absl::OkStatus();
}

absl::Status CheckOptions(const RepairOptions& o) {
  for (auto [name, value] : {std::pair{"weld_tolerance", o.weld_tolerance},
                             std::pair{"t_junction_tolerance", o.t_junction_tolerance},
                             std::pair{"merge_height_tolerance", o.merge_height_tolerance}}) {
    if (absl::Status s = CheckTolerance(name, value); !s.ok()) return s;
  }
  if (o.max_verts_per_poly < 3 || o.max_verts_per_poly > tol::kMaxVertsPerPolyLimit) {
    return absl::InvalidArgumentError(
        absl::StrFormat("repair option max_verts_per_poly = %d is out of range (3 to %d)",
                        o.max_verts_per_poly, tol::kMaxVertsPerPolyLimit));
  }
  if (!(o.tile_size >= kMinTileSize) || o.tile_size > tol::kMaxCoordinate) {
    return absl::InvalidArgumentError(
        absl::StrCat("repair option tile_size = ", NumberText(o.tile_size), " m is out of range (",
                     NumberText(kMinTileSize), " to ", NumberText(tol::kMaxCoordinate), " m)"));
  }
  return absl::OkStatus();
}

class Pipeline {
 public:
  Pipeline(std::span<const SourceMesh> sources, const RepairOptions& options, RepairReport* report,
           const ProgressFn& progress)
      : sources_(sources), options_(options), report_(*report), progress_(progress) {}

  absl::StatusOr<RepairedMesh> Run();

 private:
  void Step(std::string_view name, double fraction) {
    if (progress_) progress_(name, fraction);
  }
  absl::StatusOr<repair::CombinedSource> Prepare();
  absl::Status RepairTriangles(const repair::CombinedSource& combined);
  repair::AssemblyResult BuildPolygons(const repair::TileGrid& grid);
  void AttachLinks(const repair::CombinedSource& combined);
  void Weld(const repair::CombinedSource& combined);
  void Triangulate(const repair::CombinedSource& combined);
  absl::StatusOr<repair::TileGrid> Tiles();
  void Finish(const repair::AssemblyResult& assembly);
  void AddFindings(std::vector<std::string> findings);

  std::span<const SourceMesh> sources_;
  const RepairOptions& options_;
  RepairReport& report_;
  const ProgressFn& progress_;

  RepairedMesh mesh_;
  repair::WeldResult weld_;
  TriangleSoup soup_;
  std::vector<uint32_t> source_first_vertex_;
  repair::EdgePairing pairing_;
  std::vector<uint32_t> tri_tile_;
  uint64_t total_findings_ = 0;
};

void Pipeline::Weld(const repair::CombinedSource& combined) {
  std::vector<uint8_t> used(combined.vertices.size(), 0);
  for (uint32_t v : combined.poly_verts) used[v] = 1;
  weld_ = repair::WeldVertices(combined.vertices, used, options_.weld_tolerance);
  report_.counts.welded = weld_.welded;
}

void Pipeline::Triangulate(const repair::CombinedSource& combined) {
  soup_.vertices = std::move(weld_.positions);
  soup_.tris.reserve(combined.input_triangles);
  soup_.area.reserve(combined.input_triangles);
  soup_.source_polygon.reserve(combined.input_triangles);
  if (!options_.merge) source_first_vertex_.resize(combined.polygon_count());
  repair::PolygonTriangulator triangulator;
  std::vector<uint32_t> corners;
  for (uint32_t p = 0; p < combined.polygon_count(); ++p) {
    corners.clear();
    for (uint32_t c = combined.poly_start[p]; c < combined.poly_start[p + 1]; ++c) {
      corners.push_back(weld_.remap[combined.poly_verts[c]]);
    }
    if (!options_.merge) source_first_vertex_[p] = corners[0];
    const size_t before = soup_.tris.size();
    triangulator.Triangulate(soup_.vertices, corners, &soup_.tris);
    for (size_t t = before; t < soup_.tris.size(); ++t) {
      soup_.area.push_back(combined.poly_area[p]);
      soup_.source_polygon.push_back(p);
    }
  }
  weld_.remap = {};
  report_.counts.degenerate = combined.input_triangles - soup_.tris.size();
  report_.counts.degenerate += repair::DropDegenerateTriangles(&soup_);
  report_.duplicates = repair::DropDuplicateTriangles(&soup_);
}

absl::StatusOr<repair::TileGrid> Pipeline::Tiles() {
  Aabb& bounds = mesh_.info.bounds;
  for (const repair::Tri& t : soup_.tris) {
    for (uint32_t v : t) bounds.Extend(soup_.vertices[v]);
  }
  absl::StatusOr<repair::TileGrid> grid = repair::MakeTileGrid(bounds, options_.tile_size);
  if (!grid.ok()) return grid.status();
  repair::DescribeGrid(*grid, &mesh_.info);
  tri_tile_ = repair::AssignTriangleTiles(*grid, soup_);
  return grid;
}

void Pipeline::AddFindings(std::vector<std::string> findings) {
  for (std::string& f : findings) {
    if (report_.findings.size() < kMaxFindings) report_.findings.push_back(std::move(f));
    ++total_findings_;
  }
}

void Pipeline::Finish(const repair::AssemblyResult& assembly) {
  MapInfo& info = mesh_.info;
  info.max_tile_overhang = assembly.max_tile_overhang;
  info.vertex_count = mesh_.vertices.size();
  info.polygon_count = mesh_.polygon_count();
  info.off_mesh_link_count = mesh_.links.size();
  info.walkable_area = assembly.walkable_area;
  info.repairs = report_.counts;
  for (uint8_t a : mesh_.poly_area) info.areas[a].used = true;
  for (const ResolvedOffMeshLink& l : mesh_.links) info.areas[l.area].used = true;
  report_.output_vertices = mesh_.vertices.size();
  report_.triangles = soup_.tris.size();
  report_.polygons = mesh_.polygon_count();
  report_.boundary_edges = 0;
  for (int64_t n : mesh_.poly_neighbors) report_.boundary_edges += n < 0;
  report_.off_mesh_links = mesh_.links.size();
  if (total_findings_ > report_.findings.size()) {
    report_.findings.push_back(
        absl::StrCat("... and ", total_findings_ - report_.findings.size(), " more findings"));
  }
}

absl::StatusOr<repair::CombinedSource> Pipeline::Prepare() {
  if (absl::Status s = CheckOptions(options_); !s.ok()) return s;
  if (absl::Status s = repair::MergeMetadata(sources_, &mesh_.info); !s.ok()) return s;
  absl::StatusOr<repair::CombinedSource> combined = repair::CombineSources(sources_);
  if (!combined.ok()) return combined.status();
  report_.input_vertices = combined->vertices.size();
  report_.input_polygons = combined->polygon_count();
  report_.input_triangles = combined->input_triangles;
  return combined;
}

absl::Status Pipeline::RepairTriangles(const repair::CombinedSource& combined) {
  Step("weld", 0.05);
  Weld(combined);
  Step("triangulate", 0.2);
  Triangulate(combined);
  if (soup_.tris.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "repair: no usable triangles: all ", combined.input_triangles,
        " input triangles are degenerate (repeated vertices after welding, no plan-view area, "
        "or vertical)"));
  }
  Step("split T-junctions", 0.3);
  if (options_.t_junction_tolerance > 0) {
    report_.counts.t_junctions = repair::SplitTJunctions(options_.t_junction_tolerance, &soup_);
  }
  Step("pair edges", 0.4);
  pairing_ = repair::PairHalfEdges(soup_);
  report_.counts.non_manifold = pairing_.non_manifold;
  AddFindings(std::move(pairing_.findings));
  return absl::OkStatus();
}

repair::AssemblyResult Pipeline::BuildPolygons(const repair::TileGrid& grid) {
  Step("merge polygons", 0.55);
  // Merging stays inside one area and tile, or rebuilds one source polygon.
  std::vector<uint64_t> group(soup_.tris.size());
  for (size_t t = 0; t < group.size(); ++t) {
    group[t] = options_.merge ? (uint64_t{tri_tile_[t]} << 8 | soup_.area[t])
                              : uint64_t{soup_.source_polygon[t]};
  }
  const repair::MergePolicy policy{!options_.merge, options_.max_verts_per_poly,
                                   options_.merge_height_tolerance};
  const repair::MergedPolygons merged = repair::MergeTriangles(soup_, pairing_.twin, group, policy);
  Step("adjacency", 0.8);
  return repair::AssembleMesh(
      {&soup_, &merged, pairing_.twin, tri_tile_, &grid, !options_.merge, source_first_vertex_},
      &mesh_);
}

void Pipeline::AttachLinks(const repair::CombinedSource& combined) {
  Step("off-mesh links", 0.9);
  repair::LinkResolution links =
      repair::ResolveOffMeshLinks(mesh_, combined.links, combined.link_names);
  mesh_.links = std::move(links.links);
  report_.off_mesh_links_dropped = links.dropped;
  AddFindings(std::move(links.findings));
}

absl::StatusOr<RepairedMesh> Pipeline::Run() {
  report_ = RepairReport{};
  Step("validate", 0.0);
  absl::StatusOr<repair::CombinedSource> combined = Prepare();
  if (!combined.ok()) return combined.status();
  if (absl::Status s = RepairTriangles(*combined); !s.ok()) return s;
  Step("tiles", 0.5);
  absl::StatusOr<repair::TileGrid> grid = Tiles();
  if (!grid.ok()) return grid.status();
  const repair::AssemblyResult assembly = BuildPolygons(*grid);
  AttachLinks(*combined);
  Step("islands", 0.95);
  repair::BuildIslands(assembly.poly_surface_area, &mesh_);
  Finish(assembly);
  Step("repaired", 1.0);
  return std::move(mesh_);
}

}  // namespace

absl::StatusOr<RepairedMesh> RepairMeshes(std::span<const SourceMesh> sources,
                                          const RepairOptions& options, RepairReport* report,
                                          const ProgressFn& progress) {
  RepairReport local;
  return Pipeline(sources, options, report ? report : &local, progress).Run();
}

}  // namespace waymesh
