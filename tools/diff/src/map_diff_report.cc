// DescribeMapDiff: the text `waymesh diff` prints.

#include <algorithm>
#include <cmath>
#include <string>

#include "absl/strings/str_format.h"
#include "waymesh/diff/diff_tolerances.h"
#include "waymesh/diff/map_diff.h"
#include "waymesh/format/finding_place.h"

namespace waymesh {
namespace {

std::string PolygonText(const DiffPolygon& p) {
  return absl::StrFormat("tile %d polygon %d near %s (area %d)", p.at.tile, p.at.poly,
                         PositionText(p.centroid), p.area);
}

void DescribePolygons(const char* what, const std::vector<DiffPolygon>& polys, size_t examples,
                      std::string* out) {
  if (polys.empty()) return;
  absl::StrAppendFormat(out, "polygons %s: %d\n", what, polys.size());
  for (size_t i = 0; i < polys.size() && i < examples; ++i) {
    absl::StrAppendFormat(out, "  %s\n", PolygonText(polys[i]));
  }
  if (polys.size() > examples) {
    absl::StrAppendFormat(out, "  ... %d more\n", polys.size() - examples);
  }
}

std::string IslandList(const std::vector<uint32_t>& islands) {
  std::string s;
  for (uint32_t i : islands) absl::StrAppendFormat(&s, "%s%d", s.empty() ? "" : ", ", i);
  return s;
}

void DescribeIslands(const MapDiff& d, size_t examples, std::string* out) {
  if (d.old_islands != d.new_islands) {
    absl::StrAppendFormat(out, "islands: %d -> %d\n", d.old_islands, d.new_islands);
  }
  for (size_t i = 0; i < d.island_changes.size() && i < examples; ++i) {
    const IslandChange& c = d.island_changes[i];
    std::string where;
    for (const Vec3& p : c.part_positions) {
      absl::StrAppendFormat(&where, "%s%s", where.empty() ? "" : ", ", PositionText(p));
    }
    if (c.merged) {
      absl::StrAppendFormat(out, "islands merged: old islands %s (near %s) are new island %d\n",
                            IslandList(c.parts), where, c.island);
    } else {
      absl::StrAppendFormat(out, "island split: old island %d is new islands %s (near %s)\n",
                            c.island, IslandList(c.parts), where);
    }
  }
  if (d.island_changes.size() > examples) {
    absl::StrAppendFormat(out, "  ... %d more island changes\n",
                          d.island_changes.size() - examples);
  }
}

void DescribeFlips(const MapDiff& d, size_t examples, std::string* out) {
  if (d.flips.empty()) return;
  const auto lost = std::count_if(d.flips.begin(), d.flips.end(), [](const ReachabilityFlip& f) {
    return f.old_status == QueryStatus::kComplete;
  });
  absl::StrAppendFormat(out,
                        "reachability: %d of %d sampled pairs flipped (%d no longer reachable, "
                        "%d newly reachable)\n",
                        d.flips.size(), d.pairs_sampled, lost, d.flips.size() - lost);
  for (size_t i = 0; i < d.flips.size() && i < examples; ++i) {
    const ReachabilityFlip& f = d.flips[i];
    absl::StrAppendFormat(out, "  %s -> %s: %s -> %s\n", PositionText(f.a), PositionText(f.b),
                          QueryStatusName(f.old_status), QueryStatusName(f.new_status));
  }
}

}  // namespace

std::string DescribeMapDiff(const MapDiff& d, size_t examples) {
  if (!d.HasChanges()) {
    return absl::StrFormat("no changes (%d polygons, %d sampled pairs agree)\n",
                           d.unchanged_polygons, d.pairs_sampled);
  }
  std::string out;
  absl::StrAppendFormat(&out, "polygons unchanged: %d\n", d.unchanged_polygons);
  DescribePolygons("removed", d.removed, examples, &out);
  DescribePolygons("added", d.added, examples, &out);
  if (!d.area_changes.empty()) {
    absl::StrAppendFormat(&out, "area ids changed: %d polygons\n", d.area_changes.size());
    for (size_t i = 0; i < d.area_changes.size() && i < examples; ++i) {
      const AreaIdChange& c = d.area_changes[i];
      absl::StrAppendFormat(&out, "  %s: area %d -> %d\n", PolygonText(c.new_poly), c.old_poly.area,
                            c.new_poly.area);
    }
    if (d.area_changes.size() > examples) {
      absl::StrAppendFormat(&out, "  ... %d more\n", d.area_changes.size() - examples);
    }
  }
  const double delta = d.new_walkable_area - d.old_walkable_area;
  if (std::fabs(delta) >= tol::kDiffAreaChange) {
    absl::StrAppendFormat(&out, "walkable area: %.2f m² -> %.2f m² (%+.2f m²)\n",
                          d.old_walkable_area, d.new_walkable_area, delta);
  }
  if (d.old_links != d.new_links) {
    absl::StrAppendFormat(&out, "off-mesh links: %d -> %d\n", d.old_links, d.new_links);
  }
  DescribeIslands(d, examples, &out);
  DescribeFlips(d, examples, &out);
  return out;
}

}  // namespace waymesh
