#include "vs_detour/report.h"

#include <cmath>
#include <string>

#include "absl/strings/str_format.h"

namespace waymesh::bench {
namespace {

std::string Micros(const LatencySummary& s) {
  return absl::StrFormat("%.2f / %.2f", s.median_ns / 1e3, s.p99_ns / 1e3);
}

std::string Ratio(double a, double b) { return b > 0 ? absl::StrFormat("%.3f", a / b) : "n/a"; }

std::string MeanWorst(const RatioSummary& r) {
  return r.count == 0 ? "n/a" : absl::StrFormat("%.5f / %.5f", r.mean, r.worst);
}

double PerPoly(uint64_t bytes, uint64_t polys) { return polys ? double(bytes) / polys : 0; }

void PrintLatency(const std::vector<MapReport>& reports, std::ostream& out) {
  out << "Latency in µs, median / p99 (ratio = Waymesh / Detour of the medians):\n\n"
         "| map | queries × reps | path Waymesh | path Detour | ratio | nearest Waymesh | "
         "nearest Detour | ratio | raycast Waymesh | raycast Detour | ratio |\n"
         "|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const MapReport& r : reports) {
    const MapComparison& c = r.comparison;
    out << absl::StrFormat("| %s | %d × %d | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", c.map,
                           c.queries, c.repetitions, Micros(c.waymesh.path), Micros(c.detour.path),
                           Ratio(c.waymesh.path.median_ns, c.detour.path.median_ns),
                           Micros(c.waymesh.nearest), Micros(c.detour.nearest),
                           Ratio(c.waymesh.nearest.median_ns, c.detour.nearest.median_ns),
                           Micros(c.waymesh.raycast), Micros(c.detour.raycast),
                           Ratio(c.waymesh.raycast.median_ns, c.detour.raycast.median_ns));
  }
}

void PrintLengths(const std::vector<MapReport>& reports, std::ostream& out) {
  out << "\nPath length / published optimum, mean / worst, over queries both complete:\n\n"
         "| map | complete Waymesh / Detour | Waymesh | Detour | Waymesh / Detour length (mean) "
         "| below optimum Waymesh / Detour | A* nodes expanded, mean Waymesh / Detour |\n"
         "|---|---|---|---|---|---|---|\n";
  for (const MapReport& r : reports) {
    const MapComparison& c = r.comparison;
    out << absl::StrFormat(
        "| %s | %d / %d of %d | %s | %s | %s | %d / %d | %.0f / %.0f |\n", c.map,
        c.waymesh.complete, c.detour.complete, c.queries, MeanWorst(c.waymesh.length),
        MeanWorst(c.detour.length),
        c.length_vs_detour.count ? absl::StrFormat("%.5f", c.length_vs_detour.mean) : "n/a",
        c.waymesh.below_optimum, c.detour.below_optimum, c.waymesh.mean_expanded,
        c.detour.mean_expanded);
  }
}

void PrintBytes(const std::vector<MapReport>& reports, std::ostream& out) {
  out << "\nBytes per polygon (both divided by the Waymesh polygon count; Detour = sum of tile "
         "data sizes):\n\n| map | polygons Waymesh / Detour | Detour tiles | Waymesh | Detour | "
         "ratio |\n|---|---|---|---|---|---|\n";
  for (const MapReport& r : reports) {
    const uint64_t n = r.waymesh_polygons;
    out << absl::StrFormat("| %s | %d / %d | %d | %.1f | %.1f | %s |\n", r.comparison.map, n,
                           r.detour.polygons, r.detour.tiles, PerPoly(r.waymesh_bytes.total, n),
                           PerPoly(r.detour.bytes.total, n),
                           Ratio(double(r.waymesh_bytes.total), double(r.detour.bytes.total)));
  }
  out << "\nPer-polygon breakdown (bytes / Waymesh polygon):\n\n";
  for (const MapReport& r : reports) {
    const uint64_t n = r.waymesh_polygons;
    const WaymeshBytes& w = r.waymesh_bytes;
    const DetourBytes& d = r.detour.bytes;
    out << absl::StrFormat(
        "- %s: Waymesh vertices %.1f, polygons %.1f, detail %.1f, BV %.1f, links %.1f, other "
        "%.1f; Detour header %.1f, vertices %.1f, polygons %.1f, links %.1f, detail %.1f, BV "
        "%.1f, off-mesh %.1f\n",
        r.comparison.map, PerPoly(w.vertices, n), PerPoly(w.polygons, n), PerPoly(w.detail, n),
        PerPoly(w.bv_tree, n), PerPoly(w.links, n), PerPoly(w.other, n), PerPoly(d.header, n),
        PerPoly(d.vertices, n), PerPoly(d.polygons, n), PerPoly(d.links, n), PerPoly(d.detail, n),
        PerPoly(d.bv_tree, n), PerPoly(d.off_mesh, n));
  }
}

std::string Verdict(bool met) { return met ? "met" : "**not met**"; }

void PrintExact(const std::vector<MapReport>& reports, std::ostream& out) {
  out << "\nExact paths (Waymesh exact mode beside approximate and Detour; µs median / p99; "
         "length / published optimum mean / worst):\n\n| map | exact | approximate | Detour | "
         "exact / Detour median <= 1 | exact / Detour p99 <= 2 | exact length | approximate "
         "length | complete exact / approximate | exact nodes expanded (mean / median / p90) |\n"
         "|---|---|---|---|---|---|---|---|---|---|\n";
  for (const MapReport& r : reports) {
    const MapComparison& c = r.comparison;
    const double median = c.exact.path.median_ns / c.detour.path.median_ns;
    const double p99 = c.exact.path.p99_ns / c.detour.path.p99_ns;
    out << absl::StrFormat(
        "| %s | %s | %s | %s | %.3f %s | %.3f %s | %s | %s | %d / %d | %.0f / %d / %d |\n", c.map,
        Micros(c.exact.path), Micros(c.waymesh.path), Micros(c.detour.path), median,
        Verdict(median <= kTargetExactMedianRatio), p99, Verdict(p99 <= kTargetExactP99Ratio),
        MeanWorst(c.exact.length), MeanWorst(c.waymesh.length), c.exact.complete,
        c.waymesh.complete, c.exact.mean_expanded, c.exact.median_expanded, c.exact.p90_expanded);
  }
  for (const MapReport& r : reports) {
    if (r.exact_landmarks == 0) continue;
    const double n = double(r.waymesh_polygons);
    out << absl::StrFormat(
        "\n%s: exact landmark table (optional, not in the map's bytes): %d landmarks, %d bytes, "
        "%.1f bytes/poly (%.3f of Detour's bytes/poly), built with the other search tables in %.2f "
        "s\n",
        r.comparison.map, r.exact_landmarks, r.exact_landmark_bytes, r.exact_landmark_bytes / n,
        double(r.exact_landmark_bytes) / double(r.detour.bytes.total), r.exact_landmark_seconds);
  }
}

void PrintTwin(const std::vector<MapReport>& reports, std::ostream& out) {
  for (const MapReport& r : reports) {
    if (!r.twin_asked) continue;
    if (r.twin.polygons_before == 0) {
      out << absl::StrFormat(
          "\n%s: no plan twin kept (it would not cut the polygons to 2/3): exact mode searched "
          "the map itself\n",
          r.comparison.map);
      continue;
    }
    const double n = double(r.waymesh_polygons);
    out << absl::StrFormat(
        "\n%s: exact mode ran through the plan twin (optional; `waymesh build --exact-twin` stores "
        "it): %d -> %d polygons (%d inner vertices removed), %d bytes, %.1f bytes/poly (%.3f of "
        "Detour's bytes/poly), built in %.3f s (its tables at load: %.3f s); same exact length "
        "as the map's own search on %d of the %d queries both complete (complete: %d through "
        "the twin, %d on the map)\n",
        r.comparison.map, r.twin.polygons_before, r.twin.polygons_after, r.twin.vertices_removed,
        r.twin_bytes, r.twin_bytes / n, double(r.twin_bytes) / double(r.detour.bytes.total),
        r.twin_build_seconds, r.twin_tables_seconds, r.twin_same_length, r.twin_queries,
        r.twin_complete, r.map_complete);
  }
}

void PrintTargets(const std::vector<MapReport>& reports, std::ostream& out) {
  out << "\nTargets (Waymesh vs Detour, this run):\n\n| map | median path time ratio <= 0.333 | "
         "mean length <= Detour's | bytes/poly ratio <= 0.6 |\n|---|---|---|---|\n";
  for (const MapReport& r : reports) {
    const MapComparison& c = r.comparison;
    const double time = c.waymesh.path.median_ns / c.detour.path.median_ns;
    // Without a published optimum the per-query Waymesh/Detour length ratio decides.
    const bool has_optimum = c.waymesh.length.count > 0;
    const double wm_len = has_optimum ? c.waymesh.length.mean : c.length_vs_detour.mean;
    const double dt_len = has_optimum ? c.detour.length.mean : 1.0;
    const double bytes = double(r.waymesh_bytes.total) / double(r.detour.bytes.total);
    out << absl::StrFormat("| %s | %.3f %s | %.5f vs %.5f %s | %.3f %s |\n", c.map, time,
                           Verdict(time <= kTargetPathTimeRatio), wm_len, dt_len,
                           Verdict(wm_len <= dt_len), bytes, Verdict(bytes <= kTargetBytesRatio));
  }
}

std::string RayTruth(const MapComparison& c) {
  if (c.rays_true_waymesh < 0) return "";
  return absl::StrFormat("; raycasts ending at the first wall crossing: Waymesh %d, Detour %d",
                         c.rays_true_waymesh, c.rays_true_detour);
}

void PrintAdapterNotes(const std::vector<MapReport>& reports, std::ostream& out) {
  out << "\nDetour conversion:\n\n";
  for (const MapReport& r : reports) {
    const DetourMeshStats& d = r.detour;
    out << absl::StrFormat(
        "- %s: %d polygons split, %d cross-tile portals linked, %d inexact portals, %d "
        "zero-area polygons, off-mesh %d/%d stored, max vertex quantization error %.3g m. "
        "Raycast mesh: %d polygons in %d tiles; raycasts ending where Waymesh's do: %d of %d "
        "(uncut mesh: %d)%s\n",
        r.comparison.map, d.split_polygons, d.cross_tile_links, d.inexact_portals,
        d.zero_area_polygons, d.off_mesh_stored, d.off_mesh_links, d.max_quantization_error,
        r.detour_rays.polygons, r.detour_rays.tiles, r.comparison.rays_agreeing_cut,
        r.comparison.queries, r.comparison.rays_agreeing, RayTruth(r.comparison));
  }
}

}  // namespace

void PrintReport(const std::vector<MapReport>& reports, std::ostream& out) {
  PrintLatency(reports, out);
  PrintLengths(reports, out);
  PrintBytes(reports, out);
  PrintTargets(reports, out);
  PrintExact(reports, out);
  PrintTwin(reports, out);
  PrintAdapterNotes(reports, out);
}

}  // namespace waymesh::bench
