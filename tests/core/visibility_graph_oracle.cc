#include "visibility_graph_oracle.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <queue>
#include <string>

#include "absl/strings/str_cat.h"

namespace waymesh::testing {
namespace {

// Clipper's default mitre limit (times the offset): the furthest a mitred corner moves.
constexpr double kOracleMiterLimit = 2.0;

using Wide = __int128;

// Twice the signed area of triangle (a, b, p): > 0 when p lies left of a -> b. Exact.
Wide OracleOrient(OraclePoint a, OraclePoint b, OraclePoint p) {
  return Wide(b.x - a.x) * (p.z - a.z) - Wide(b.z - a.z) * (p.x - a.x);
}

Wide OracleDot(OraclePoint a, OraclePoint b, OraclePoint p) {
  return Wide(b.x - a.x) * (p.x - a.x) + Wide(b.z - a.z) * (p.z - a.z);
}

bool StrictlyOpposite(Wide u, Wide v) { return (u > 0 && v < 0) || (u < 0 && v > 0); }

OraclePoint Doubled(OraclePoint p) { return {2 * p.x, 2 * p.z}; }
OraclePoint Sum(OraclePoint a, OraclePoint b) { return {a.x + b.x, a.z + b.z}; }

ClipperLib::IntPoint ToOracleUnits(double x, double z) {
  return {ClipperLib::cInt(std::llround(x * kOracleUnitsPerMetre)),
          ClipperLib::cInt(std::llround(z * kOracleUnitsPerMetre))};
}

// The same ring with positive orientation (Clipper's sense), so non-zero fill is a union.
ClipperLib::Path Positive(ClipperLib::Path path) {
  if (!ClipperLib::Orientation(path)) ClipperLib::ReversePath(path);
  return path;
}

// The union of `paths` by the non-zero rule, in Clipper's normal form. (SimplifyPolygons would
// do it strictly simple, which Clipper 6.4 gets wrong on map outlines: edges across the map.)
ClipperLib::Paths NonZeroUnion(const ClipperLib::Paths& paths) {
  ClipperLib::Clipper clipper;
  clipper.AddPaths(paths, ClipperLib::ptSubject, true);
  ClipperLib::Paths out;
  clipper.Execute(ClipperLib::ctUnion, out, ClipperLib::pftNonZero, ClipperLib::pftNonZero);
  return out;
}

// Appends `path` (positive orientation) grown by `metres` (shrunk when negative), mitred.
void AppendOffset(const ClipperLib::Path& path, double metres, ClipperLib::Paths* out) {
  if (metres == 0) {
    out->push_back(path);
    return;
  }
  ClipperLib::ClipperOffset offset(kOracleMiterLimit);
  offset.AddPath(path, ClipperLib::jtMiter, ClipperLib::etClosedPolygon);
  ClipperLib::Paths grown;
  offset.Execute(grown, metres * kOracleUnitsPerMetre);
  out->insert(out->end(), grown.begin(), grown.end());
}

}  // namespace

PlanRegion PlanFreeRegion(const NavMap& map, std::span<const Footprint> footprints, double slack) {
  ClipperLib::Paths surface, blocks;
  for (const TileView& t : map.tiles()) {
    for (uint32_t p = 0; p < t.poly_count(); ++p) {
      ClipperLib::Path path;
      for (uint32_t i = 0; i < t.corner_count(p); ++i) {
        path.push_back(ToOracleUnits(t.corner(p, i).x, t.corner(p, i).z));
      }
      // Growing distributes over the union: each polygon on its own, never the union, whose
      // rings Clipper may cut apart along shared edges.
      AppendOffset(Positive(std::move(path)), std::max(slack, 0.0), &surface);
    }
  }
  for (const Footprint& f : footprints) {
    if (f.effect != ObstacleEffect::kBlock) continue;
    ClipperLib::Path path;
    for (const PlanPoint& q : f.outline) path.push_back(ToOracleUnits(q.x, q.z));
    AppendOffset(Positive(std::move(path)), -slack, &blocks);
  }
  ClipperLib::Clipper clipper;
  clipper.AddPaths(surface, ClipperLib::ptSubject, true);
  clipper.AddPaths(blocks, ClipperLib::ptClip, true);
  PlanRegion free;
  clipper.Execute(ClipperLib::ctDifference, free, ClipperLib::pftNonZero, ClipperLib::pftNonZero);
  return free;
}

PlanRegion PlanFreeRegionKeptOff(const NavMap& map, std::span<const Footprint> footprints,
                                 double margin) {
  // Each polygon grown by half the margin overlaps its neighbours, so the union has no seams
  // that shrinking could open; shrinking by the margin and that half takes it back off.
  const PlanRegion joined = PlanFreeRegion(map, {}, 0.5 * margin);
  ClipperLib::ClipperOffset offset(kOracleMiterLimit);
  offset.AddPaths(joined, ClipperLib::jtMiter, ClipperLib::etClosedPolygon);
  ClipperLib::Paths surface;
  offset.Execute(surface, -1.5 * margin * kOracleUnitsPerMetre);
  ClipperLib::Paths blocks;
  for (const Footprint& f : footprints) {
    if (f.effect != ObstacleEffect::kBlock) continue;
    ClipperLib::Path path;
    for (const PlanPoint& q : f.outline) path.push_back(ToOracleUnits(q.x, q.z));
    AppendOffset(Positive(std::move(path)), margin, &blocks);
  }
  ClipperLib::Clipper clipper;
  clipper.AddPaths(surface, ClipperLib::ptSubject, true);
  clipper.AddPaths(blocks, ClipperLib::ptClip, true);
  PlanRegion free;
  clipper.Execute(ClipperLib::ctDifference, free, ClipperLib::pftNonZero, ClipperLib::pftNonZero);
  return free;
}

PlanRegion PlanRegionFromRings(const std::vector<std::vector<PlanPoint>>& rings) {
  PlanRegion region;
  for (const auto& ring : rings) {
    ClipperLib::Path path;
    for (const PlanPoint& q : ring) path.push_back(ToOracleUnits(q.x, q.z));
    region.push_back(std::move(path));
  }
  return NonZeroUnion(region);
}

VisibilityGraphOracle::VisibilityGraphOracle(const PlanRegion& region) {
  std::vector<Edge> raw;
  for (const ClipperLib::Path& ring : region) {
    for (size_t i = 0; i < ring.size(); ++i) {
      const Point a{ring[i].X, ring[i].Y};
      const Point b{ring[(i + 1) % ring.size()].X, ring[(i + 1) % ring.size()].Y};
      if (!(a == b)) raw.push_back({a, b});
    }
  }
  edges_ = BoundaryEdges(raw);
  // Each vertex with one edge in and one out is a corner of the outline; one where the outline
  // meets itself (several edges in and out) is a pinch.
  std::map<Point, std::vector<Point>, PointOrder> in, out;
  for (const Edge& e : edges_) {
    out[e.a].push_back(e.b);
    in[e.b].push_back(e.a);
  }
  for (const auto& [at, nexts] : out) {
    const std::vector<Point>& prevs = in[at];
    if (prevs.size() != 1 || nexts.size() != 1) {
      corners_.push_back({at, at, at, true});
    } else if (OracleOrient(prevs[0], at, nexts[0]) < 0) {
      // A right turn: the region's angle there is over 180 degrees.
      corners_.push_back({at, prevs[0], nexts[0], false});
    }
  }
  if (edges_.empty()) return;
  min_ = max_ = edges_[0].a;
  for (const Edge& e : edges_) {
    min_ = {std::min(min_.x, e.a.x), std::min(min_.z, e.a.z)};
    max_ = {std::max(max_.x, e.a.x), std::max(max_.z, e.a.z)};
  }
  // About one edge per cell.
  const double w = double(max_.x - min_.x) + 1, h = double(max_.z - min_.z) + 1;
  cell_ = std::max<int64_t>(1, int64_t(std::ceil(std::sqrt(w * h / double(edges_.size())))));
  nx_ = (max_.x - min_.x) / cell_ + 1;
  nz_ = (max_.z - min_.z) / cell_ + 1;
  cells_.resize(size_t(nx_ * nz_));
  rows_.resize(size_t(nz_));
  for (uint32_t e = 0; e < edges_.size(); ++e) {
    const Edge& ed = edges_[e];
    const int64_t x0 = CellX(std::min(ed.a.x, ed.b.x)), x1 = CellX(std::max(ed.a.x, ed.b.x));
    const int64_t z0 = CellZ(std::min(ed.a.z, ed.b.z)), z1 = CellZ(std::max(ed.a.z, ed.b.z));
    for (int64_t z = std::max<int64_t>(z0 - 1, 0); z <= std::min(z1 + 1, nz_ - 1); ++z) {
      for (int64_t x = std::max<int64_t>(x0 - 1, 0); x <= std::min(x1 + 1, nx_ - 1); ++x) {
        cells_[size_t(z * nx_ + x)].push_back(e);
      }
    }
    for (int64_t z = z0; z <= z1; ++z) rows_[size_t(z)].push_back(e);
  }
  visited_.assign(edges_.size(), 0);
  graph_.resize(corners_.size());
  for (uint32_t i = 0; i < corners_.size(); ++i) {
    for (uint32_t j = i + 1; j < corners_.size(); ++j) {
      const Corner &a = corners_[i], &b = corners_[j];
      if (!(a.at == b.at) &&
          !(Tangent(a, b.at) && Tangent(b, a.at) && SegmentInsideUnits(a.at, b.at))) {
        continue;
      }
      const double d = Metres(a.at, b.at);
      graph_[i].push_back({j, d});
      graph_[j].push_back({i, d});
      ++pair_count_;
    }
  }
}

std::vector<VisibilityGraphOracle::Edge> VisibilityGraphOracle::BoundaryEdges(
    const std::vector<Edge>& raw) {
  // Split every edge at the vertices lying inside it, so that overlapping pieces of edges
  // have the same ends.
  std::vector<Point> vertices;
  for (const Edge& e : raw) vertices.push_back(e.a);
  std::sort(vertices.begin(), vertices.end(), PointOrder());
  vertices.erase(std::unique(vertices.begin(), vertices.end()), vertices.end());
  std::vector<Edge> pieces;
  for (const Edge& e : raw) {
    const Point lo{std::min(e.a.x, e.b.x), std::numeric_limits<int64_t>::min()};
    const Wide len_sq = OracleDot(e.a, e.b, e.b);
    std::vector<Point> inside;
    for (auto v = std::lower_bound(vertices.begin(), vertices.end(), lo, PointOrder());
         v != vertices.end() && v->x <= std::max(e.a.x, e.b.x); ++v) {
      const Wide along = OracleDot(e.a, e.b, *v);
      if (OracleOrient(e.a, e.b, *v) == 0 && along > 0 && along < len_sq) inside.push_back(*v);
    }
    std::sort(inside.begin(), inside.end(),
              [&](Point p, Point q) { return OracleDot(e.a, e.b, p) < OracleDot(e.a, e.b, q); });
    Point from = e.a;
    for (const Point& v : inside) {
      pieces.push_back({from, v});
      from = v;
    }
    pieces.push_back({from, e.b});
  }
  // A piece run both ways has the region on both sides (Clipper may cut one region into rings
  // along shared edges): it is no boundary.
  std::map<std::pair<Point, Point>, int, PairOrder> count;
  for (const Edge& e : pieces) {
    auto reverse = count.find({e.b, e.a});
    if (reverse != count.end() && reverse->second > 0) {
      --reverse->second;
    } else {
      ++count[{e.a, e.b}];
    }
  }
  std::vector<Edge> boundary;
  for (const auto& [ends, n] : count) {
    for (int k = 0; k < n; ++k) boundary.push_back({ends.first, ends.second});
  }
  return boundary;
}

VisibilityGraphOracle::Point VisibilityGraphOracle::Round(PlanPoint p) {
  const ClipperLib::IntPoint q = ToOracleUnits(p.x, p.z);
  return {q.X, q.Y};
}

bool VisibilityGraphOracle::Tangent(const Corner& c, Point from) {
  return c.pinch ||
         !StrictlyOpposite(OracleOrient(from, c.at, c.prev), OracleOrient(from, c.at, c.next));
}

double VisibilityGraphOracle::Metres(Point a, Point b) {
  return std::hypot(double(b.x - a.x), double(b.z - a.z)) / kOracleUnitsPerMetre;
}

int64_t VisibilityGraphOracle::CellX(int64_t x) const {
  return std::clamp<int64_t>((x - min_.x) / cell_, 0, nx_ - 1);
}

int64_t VisibilityGraphOracle::CellZ(int64_t z) const {
  return std::clamp<int64_t>((z - min_.z) / cell_, 0, nz_ - 1);
}

size_t VisibilityGraphOracle::CellOf(int64_t x, int64_t z) const {
  return size_t(CellZ(z) * nx_ + CellX(x));
}

template <typename Fn>
void VisibilityGraphOracle::ForEdgesAlong(Point a, Point b, Fn&& fn) const {
  ++visit_;
  // Samples half a cell apart: an edge touching the segment at X is registered in X's cell and
  // its neighbours, and X's nearest sample lies in one of those.
  const double len = std::hypot(double(b.x - a.x), double(b.z - a.z));
  const int64_t steps = int64_t(std::ceil(len / (0.5 * double(cell_)))) + 1;
  size_t last = std::numeric_limits<size_t>::max();
  for (int64_t s = 0; s <= steps; ++s) {
    const double t = double(s) / double(steps);
    const auto x = int64_t(std::floor(double(a.x) + t * double(b.x - a.x)));
    const auto z = int64_t(std::floor(double(a.z) + t * double(b.z - a.z)));
    const size_t cell = CellOf(x, z);
    if (cell == last) continue;
    last = cell;
    for (uint32_t e : cells_[cell]) {
      if (visited_[e] == visit_) continue;
      visited_[e] = visit_;
      if (!fn(e)) return;
    }
  }
}

bool VisibilityGraphOracle::ContainsDoubled(Point p2) const {
  if (edges_.empty() || p2.x < 2 * min_.x || p2.x > 2 * max_.x || p2.z < 2 * min_.z ||
      p2.z > 2 * max_.z) {
    return false;
  }
  // On an edge: inside the closed region.
  for (uint32_t e : cells_[CellOf(p2.x >> 1, p2.z >> 1)]) {
    const Point a = Doubled(edges_[e].a), b = Doubled(edges_[e].b);
    if (OracleOrient(a, b, p2) == 0 && p2.x >= std::min(a.x, b.x) && p2.x <= std::max(a.x, b.x) &&
        p2.z >= std::min(a.z, b.z) && p2.z <= std::max(a.z, b.z)) {
      return true;
    }
  }
  // Crossings of the ray towards +x (half-open in z, so a vertex on the ray counts once).
  bool inside = false;
  for (uint32_t e : rows_[size_t(CellZ(p2.z >> 1))]) {
    const Point a = Doubled(edges_[e].a), b = Doubled(edges_[e].b);
    if ((a.z > p2.z) == (b.z > p2.z)) continue;
    const Wide side = OracleOrient(a, b, p2);
    if (b.z > a.z ? side > 0 : side < 0) inside = !inside;
  }
  return inside;
}

bool VisibilityGraphOracle::SegmentInsideUnits(Point a, Point b) const {
  if (a == b) return ContainsDoubled(Doubled(a));
  bool crossed = false;
  std::vector<Point> splits;  // outline vertices strictly inside the segment
  const Wide len_sq = OracleDot(a, b, b);
  ForEdgesAlong(a, b, [&](uint32_t e) {
    const Edge& ed = edges_[e];
    const Wide oa = OracleOrient(a, b, ed.a), ob = OracleOrient(a, b, ed.b);
    if (StrictlyOpposite(oa, ob) &&
        StrictlyOpposite(OracleOrient(ed.a, ed.b, a), OracleOrient(ed.a, ed.b, b))) {
      crossed = true;
      return false;
    }
    // Every vertex starts an edge that touches the segment where the vertex does.
    const Wide along = OracleDot(a, b, ed.a);
    if (oa == 0 && along > 0 && along < len_sq) splits.push_back(ed.a);
    return true;
  });
  if (crossed) return false;
  // Between vertices the segment crosses no edge, so each piece is inside or outside as a
  // whole (a piece along an edge is on the boundary): its midpoint tells which.
  std::sort(splits.begin(), splits.end(),
            [&](Point p, Point q) { return OracleDot(a, b, p) < OracleDot(a, b, q); });
  Point from = a;
  for (const Point& s : splits) {
    if (s == from) continue;
    if (!ContainsDoubled(Sum(from, s))) return false;
    from = s;
  }
  return ContainsDoubled(Sum(from, b));
}

bool VisibilityGraphOracle::Contains(PlanPoint p) const {
  return std::isfinite(p.x) && std::isfinite(p.z) && ContainsDoubled(Doubled(Round(p)));
}

bool VisibilityGraphOracle::SegmentInside(PlanPoint a, PlanPoint b) const {
  return Contains(a) && Contains(b) && SegmentInsideUnits(Round(a), Round(b));
}

absl::StatusOr<std::optional<double>> VisibilityGraphOracle::ShortestPath(PlanPoint a,
                                                                          PlanPoint b) const {
  for (const auto& [name, p] : {std::pair{"start", a}, std::pair{"end", b}}) {
    if (!Contains(p)) {
      return absl::InvalidArgumentError(absl::StrCat("visibility graph oracle: ", name, " (", p.x,
                                                     ", ", p.z, ") is outside the region"));
    }
  }
  const Point pa = Round(a), pb = Round(b);
  if (SegmentInsideUnits(pa, pb)) return Metres(pa, pb);
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> dist(corners_.size(), inf), to_end(corners_.size(), inf);
  using Item = std::pair<double, uint32_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> open;
  for (uint32_t k = 0; k < corners_.size(); ++k) {
    const Corner& c = corners_[k];
    if (Tangent(c, pa) && SegmentInsideUnits(pa, c.at)) {
      dist[k] = Metres(pa, c.at);
      open.push({dist[k], k});
    }
    if (Tangent(c, pb) && SegmentInsideUnits(c.at, pb)) to_end[k] = Metres(c.at, pb);
  }
  double best = inf;
  while (!open.empty()) {
    const auto [d, k] = open.top();
    open.pop();
    if (d > dist[k]) continue;  // a stale entry
    if (d >= best) break;
    best = std::min(best, d + to_end[k]);
    for (const auto& [next, len] : graph_[k]) {
      if (d + len < dist[next]) {
        dist[next] = d + len;
        open.push({dist[next], next});
      }
    }
  }
  if (best == inf) return std::nullopt;
  return best;
}

}  // namespace waymesh::testing
