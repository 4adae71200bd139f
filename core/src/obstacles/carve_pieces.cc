#include "carve_pieces.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <optional>
#include <tuple>

#include "absl/container/inlined_vector.h"
#include "poly_geometry.h"

namespace waymesh::obstacles {
namespace {

// A point this close to a cut line (metres, plan view) lies on it: both halves keep it.
constexpr double kOnCutLine = 1e-6;
// How far (m) a piece's bounds may be taken to reach past its polygon's: far more than the
// float steps a snapped crossing moves.
constexpr double kPieceBoundsSlack = 1e-3;
// Corners held without allocating in a split's per-corner scratch.
constexpr size_t kInlineCorners = 16;
// Pieces whose doubled plan area is below this (m²) are slivers of float noise and dropped.
constexpr double kMinPieceArea2 = 1e-8;

// Float steps searched on each side of a computed crossing for the float point nearest its
// line(s) (see Snap).
constexpr int kSnapUlps = 4;
// Two cut lines whose directions' sine is below this, and whose points lie within kOnCutLine of
// each other's line, are the same line (identical or touching footprints).
constexpr double kParallelSine = 1e-9;

std::tuple<float, float, float> Tie(Vec3 v) { return {v.x, v.y, v.z}; }

// A line in plan view through (x0, z0) with unit direction (dx, dz).
struct PlanLine {
  double x0, z0, dx, dz;
  double len;  // of the segment it was made from
  PlanLine(double ax, double az, double bx, double bz)
      : x0(ax), z0(az), len(std::hypot(bx - ax, bz - az)) {
    dx = (bx - ax) / len, dz = (bz - az) / len;
  }
  // The two products whose difference is the signed distance of (x, z) from the line, split so
  // that Snap can compute each once per candidate coordinate.
  double AlongZ(double z) const { return dx * (z - z0); }
  double AlongX(double x) const { return dz * (x - x0); }
  double Distance(double x, double z) const { return std::fabs(AlongZ(z) - AlongX(x)); }
};

using SnapCandidates = std::array<float, 2 * kSnapUlps + 1>;

// std::nextafter(v, +-INFINITY) for finite non-zero v, by stepping the bits (the library call
// was a tenth of cutting); zeros and non-finite values go to the library.
float StepFloat(float v, bool up) {
  if (v == 0 || !std::isfinite(v)) return std::nextafter(v, up ? INFINITY : -INFINITY);
  const uint32_t bits = std::bit_cast<uint32_t>(v);
  return std::bit_cast<float>((v > 0) == up ? bits + 1 : bits - 1);
}

// The floats from kSnapUlps steps below `v` to kSnapUlps steps above it, in increasing order.
SnapCandidates FloatsAround(float v) {
  SnapCandidates out;
  out[kSnapUlps] = v;
  for (int i = 1; i <= kSnapUlps; ++i) {
    out[kSnapUlps + i] = StepFloat(out[kSnapUlps + i - 1], true);
    out[kSnapUlps - i] = StepFloat(out[kSnapUlps - i + 1], false);
  }
  return out;
}

// The float point within kSnapUlps steps of (x, z) nearest the lines it lies on. A crossing
// point becomes a corner in the middle of a neighbour's straight edge (a T-junction), and
// rounding it to the nearest float could put it a whole rounding step off that edge: a
// measurably reflex corner in one of the two polygons. Searching the nearby floats finds one
// a small fraction of a step off. Deterministic, so both sides get the same bits. The
// products along each axis are computed once per candidate coordinate (this runs for every
// crossing of every carve, and was most of an obstacle update's time).
std::pair<float, float> Snap(double x, double z, const PlanLine& l1, const PlanLine& l2) {
  const SnapCandidates xs = FloatsAround(float(x)), zs = FloatsAround(float(z));
  std::array<double, xs.size()> x1, x2, z1, z2;
  for (size_t i = 0; i < xs.size(); ++i) {
    x1[i] = l1.AlongX(xs[i]), x2[i] = l2.AlongX(xs[i]);
    z1[i] = l1.AlongZ(zs[i]), z2[i] = l2.AlongZ(zs[i]);
  }
  float best_x = float(x), best_z = float(z);
  double best = INFINITY;
  for (size_t i = 0; i < xs.size(); ++i) {
    for (size_t j = 0; j < zs.size(); ++j) {
      const double d = std::max(std::fabs(z1[j] - x1[i]), std::fabs(z2[j] - x2[i]));
      if (d < best) best = d, best_x = xs[i], best_z = zs[j];
    }
  }
  return {best_x, best_z};
}

// A footprint edge's line, with what every corner's side test and crossing needs of it
// computed once per line.
struct CutLine {
  CutLine(PlanPoint a, PlanPoint b, LineKey k, uint32_t f, uint32_t e)
      : p0(a), p1(b), key(k), footprint(f), edge(e), plan(a.x, a.z, b.x, b.z) {
    dx = p1.x - p0.x, dz = p1.z - p0.z;
    len = std::sqrt(dx * dx + dz * dz);
  }
  PlanPoint p0, p1;
  LineKey key;
  uint32_t footprint, edge;
  PlanLine plan;
  double dx, dz, len;  // p1 - p0 and its length
};

// Signed distance of `v` from the line, > 0 on the inside (left, map winding) of the footprint.
double Side(const CutLine& l, Vec3 v) {
  return (l.dx * (double(v.z) - l.p0.z) - l.dz * (double(v.x) - l.p0.x)) / l.len;
}

struct Cutter {
  const TileView& tile;
  uint32_t poly;
  std::span<const Footprint> footprints;

  // Where `line` crosses the edge leaving `c` (towards `next`). Computed from the edge's whole
  // line, in a canonical order, so that every polygon sharing that line gets the same bits.
  Vec3 Crossing(const CutLine& line, const PieceCorner& c) const {
    if (c.next.kind() == LineKey::kBaseEdge) {
      const auto& w = c.next.words;
      const Vec3 a{std::bit_cast<float>(w[1]), std::bit_cast<float>(w[2]),
                   std::bit_cast<float>(w[3])};
      const Vec3 b{std::bit_cast<float>(w[4]), std::bit_cast<float>(w[5]),
                   std::bit_cast<float>(w[6])};
      const double sa = Side(line, a), sb = Side(line, b);
      const double s = sa / (sa - sb);
      // Near the cut line too: the point may end up inside a long edge along that line.
      const PlanLine edge(a.x, a.z, b.x, b.z);
      const auto [x, z] =
          Snap(a.x + s * (double(b.x) - a.x), a.z + s * (double(b.z) - a.z), edge, line.plan);
      // Height along the edge at the snapped point, as the neighbour computes it.
      const double t = ((x - double(a.x)) * edge.dx + (z - double(a.z)) * edge.dz) / edge.len;
      return {x, float(a.y + std::clamp(t, 0.0, 1.0) * (double(b.y) - a.y)), z};
    }
    // Two footprint lines: intersect them in the order of their keys.
    const CutLine other = LineOf(c.next.words[3], c.next.words[4]);
    const bool swap = std::tie(other.footprint, other.edge) < std::tie(line.footprint, line.edge);
    const CutLine& l1 = swap ? other : line;
    const CutLine& l2 = swap ? line : other;
    const double d1x = l1.p1.x - l1.p0.x, d1z = l1.p1.z - l1.p0.z;
    const double d2x = l2.p1.x - l2.p0.x, d2z = l2.p1.z - l2.p0.z;
    const double den = d1x * d2z - d1z * d2x;
    const double t = ((l2.p0.x - l1.p0.x) * d2z - (l2.p0.z - l1.p0.z) * d2x) / den;
    const auto [x, z] = Snap(l1.p0.x + t * d1x, l1.p0.z + t * d1z, l1.plan, l2.plan);
    return {x, internal::PolyHeightAt(tile, poly, x, z), z};
  }

  // Whether footprint f's edge e lies on line a.
  bool SameLine(const CutLine& a, uint32_t f, uint32_t e) const {
    const auto& o = footprints[f].outline;
    const PlanPoint b0 = o[e], b1 = o[(e + 1) % o.size()];
    const double ax = a.p1.x - a.p0.x, az = a.p1.z - a.p0.z;
    const double bx = b1.x - b0.x, bz = b1.z - b0.z;
    const double len = std::sqrt((ax * ax + az * az) * (bx * bx + bz * bz));
    if (!(len > 0) || std::abs(ax * bz - az * bx) > kParallelSine * len) return false;
    const double off = (ax * (b0.z - a.p0.z) - az * (b0.x - a.p0.x)) / std::sqrt(ax * ax + az * az);
    return std::abs(off) <= kOnCutLine;
  }

  CutLine LineOf(uint32_t f, uint32_t e) const {
    const auto& o = footprints[f].outline;
    return {o[e], o[(e + 1) % o.size()], CutLineKey(tile.index, poly, f, e), f, e};
  }

  // Whether every corner of `in` lies strictly inside `line` (and no edge of it on that line):
  // then Split would give `in` itself inside and nothing outside.
  bool AllInside(const Piece& in, const CutLine& line) const {
    for (const PieceCorner& c : in.corners) {
      if (!(Side(line, c.pos) > kOnCutLine)) return false;
      if (c.next.kind() == LineKey::kCutLine && SameLine(line, c.next.words[3], c.next.words[4])) {
        return false;
      }
    }
    return true;
  }

  // Splits `in` by `line` into the part inside (left) and the part outside.
  void Split(const Piece& in, const CutLine& line, Piece* inside, Piece* outside) const {
    const size_t n = in.corners.size();
    absl::InlinedVector<int, kInlineCorners> side(n);
    for (size_t i = 0; i < n; ++i) {
      const double s = Side(line, in.corners[i].pos);
      side[i] = s > kOnCutLine ? 1 : (s < -kOnCutLine ? -1 : 0);
    }
    // An edge on another footprint's edge along the same line lies on this one: float rounding
    // of its ends must not make it cross (the crossing of two equal lines is undefined).
    for (size_t i = 0; i < n; ++i) {
      if (in.corners[i].next.kind() != LineKey::kCutLine) continue;
      const auto& w = in.corners[i].next.words;
      if (SameLine(line, w[3], w[4])) side[i] = side[(i + 1) % n] = 0;
    }
    // An edge whose ends lie strictly on opposite sides crosses the line; both halves take
    // that point, computed once.
    absl::InlinedVector<Vec3, kInlineCorners> crossing(n);
    for (size_t i = 0; i < n; ++i) {
      if (side[i] * side[(i + 1) % n] < 0) crossing[i] = Crossing(line, in.corners[i]);
    }
    inside->corners.clear();
    outside->corners.clear();
    inside->area = outside->area = in.area;
    for (int want : {1, -1}) {
      Piece* out = want == 1 ? inside : outside;
      for (size_t i = 0; i < n; ++i) {
        const size_t j = (i + 1) % n;
        const PieceCorner& c = in.corners[i];
        const bool here = side[i] == want || side[i] == 0;
        const bool there = side[j] == want || side[j] == 0;
        if (here) {
          out->corners.push_back(there ? c : PieceCorner{c.pos, line.key, -1});
          if (!there && side[i] != 0) {
            out->corners.back().next = c.next;
            out->corners.back().base_edge = c.base_edge;
            out->corners.push_back({crossing[i], line.key, -1});
          }
        } else if (there && side[j] != 0) {
          out->corners.push_back({crossing[i], c.next, c.base_edge});
        }
      }
    }
  }
};

bool Degenerate(const Piece& p) { return p.corners.size() < 3 || PieceArea2(p) < kMinPieceArea2; }

// Plan and height bounds.
struct PolygonBounds {
  double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
  double z0 = INFINITY, z1 = -INFINITY;
  void Extend(Vec3 v) {
    x0 = std::min(x0, double(v.x)), x1 = std::max(x1, double(v.x));
    y0 = std::min(y0, double(v.y)), y1 = std::max(y1, double(v.y));
    z0 = std::min(z0, double(v.z)), z1 = std::max(z1, double(v.z));
  }
};

// Whether `f` may reach some piece of a polygon with bounds `b`: pieces lie inside their
// polygon up to the float steps of snapped crossings, far less than kPieceBoundsSlack.
bool MayReachPolygon(const PolygonBounds& b, const Footprint& f) {
  if (b.y1 + kPieceBoundsSlack < f.y_min || b.y0 - kPieceBoundsSlack > f.y_max) return false;
  double fx0 = INFINITY, fx1 = -INFINITY, fz0 = INFINITY, fz1 = -INFINITY;
  for (const PlanPoint& q : f.outline) {
    fx0 = std::min(fx0, q.x), fx1 = std::max(fx1, q.x);
    fz0 = std::min(fz0, q.z), fz1 = std::max(fz1, q.z);
  }
  return b.x0 - kPieceBoundsSlack <= fx1 && b.x1 + kPieceBoundsSlack >= fx0 &&
         b.z0 - kPieceBoundsSlack <= fz1 && b.z1 + kPieceBoundsSlack >= fz0;
}

bool Reaches(const Piece& p, const Footprint& f) {
  double x0 = INFINITY, x1 = -INFINITY, z0 = INFINITY, z1 = -INFINITY;
  double y0 = INFINITY, y1 = -INFINITY;
  for (const PieceCorner& c : p.corners) {
    x0 = std::min(x0, double(c.pos.x)), x1 = std::max(x1, double(c.pos.x));
    y0 = std::min(y0, double(c.pos.y)), y1 = std::max(y1, double(c.pos.y));
    z0 = std::min(z0, double(c.pos.z)), z1 = std::max(z1, double(c.pos.z));
  }
  if (y1 < f.y_min || y0 > f.y_max) return false;
  double fx0 = INFINITY, fx1 = -INFINITY, fz0 = INFINITY, fz1 = -INFINITY;
  for (const PlanPoint& q : f.outline) {
    fx0 = std::min(fx0, q.x), fx1 = std::max(fx1, q.x);
    fz0 = std::min(fz0, q.z), fz1 = std::max(fz1, q.z);
  }
  return x0 <= fx1 && x1 >= fx0 && z0 <= fz1 && z1 >= fz0;
}

}  // namespace

LineKey BaseEdgeKey(Vec3 a, Vec3 b) {
  if (Tie(b) < Tie(a)) std::swap(a, b);
  return {{LineKey::kBaseEdge, std::bit_cast<uint32_t>(a.x), std::bit_cast<uint32_t>(a.y),
           std::bit_cast<uint32_t>(a.z), std::bit_cast<uint32_t>(b.x), std::bit_cast<uint32_t>(b.y),
           std::bit_cast<uint32_t>(b.z)}};
}

LineKey CutLineKey(uint32_t tile, uint32_t poly, uint32_t footprint, uint32_t edge) {
  return {{LineKey::kCutLine, tile, poly, footprint, edge, 0, 0}};
}

double PieceArea2(const Piece& piece) {
  double sum = 0;
  const size_t n = piece.corners.size();
  for (size_t i = 0; i < n; ++i) {
    const Vec3 a = piece.corners[i].pos, b = piece.corners[(i + 1) % n].pos;
    sum += double(a.x) * b.z - double(b.x) * a.z;
  }
  return sum;
}

bool CutPolygon(const TileView& tile, uint32_t poly, std::span<const Footprint> footprints,
                std::span<const uint32_t> candidate_footprints, std::vector<Piece>* pieces) {
  pieces->clear();
  const uint32_t n = tile.corner_count(poly);
  // Most polygons of a re-cut tile are nowhere near a footprint: skipping the footprints whose
  // bounds miss the polygon's skips exactly the ones that could not reach any of its pieces.
  PolygonBounds bounds;
  for (uint32_t i = 0; i < n; ++i) bounds.Extend(tile.corner(poly, i));
  absl::InlinedVector<uint32_t, 8> near;
  for (const uint32_t f : candidate_footprints) {
    if (MayReachPolygon(bounds, footprints[f])) near.push_back(f);
  }
  if (near.empty()) return false;
  Piece whole;
  whole.area = tile.poly_area[poly];
  for (uint32_t i = 0; i < n; ++i) {
    whole.corners.push_back({tile.corner(poly, i),
                             BaseEdgeKey(tile.corner(poly, i), tile.corner(poly, (i + 1) % n)),
                             int32_t(i)});
  }
  pieces->push_back(std::move(whole));
  const Cutter cutter{tile, poly, footprints};
  bool touched = false;
  std::vector<Piece> next;
  Piece inside, outside;
  for (const uint32_t f : near) {
    const Footprint& fp = footprints[f];
    next.clear();
    for (Piece& piece : *pieces) {
      if (!Reaches(piece, fp)) {
        next.push_back(std::move(piece));
        continue;
      }
      std::vector<Piece> outer;
      Piece rest = piece;
      for (uint32_t e = 0; e < fp.outline.size() && !Degenerate(rest); ++e) {
        const CutLine line = cutter.LineOf(f, e);
        // Most of a footprint's lines miss what is left of a piece it overlaps only in part.
        if (cutter.AllInside(rest, line)) continue;
        cutter.Split(rest, line, &inside, &outside);
        if (!Degenerate(outside)) outer.push_back(outside);
        rest = inside;
      }
      if (Degenerate(rest)) {  // the footprint misses this piece
        next.push_back(std::move(piece));
        continue;
      }
      touched = true;
      for (Piece& o : outer) next.push_back(std::move(o));
      if (fp.effect == ObstacleEffect::kArea) {
        rest.area = fp.area;
        next.push_back(std::move(rest));
      }
    }
    pieces->swap(next);
  }
  if (!touched) pieces->clear();
  return touched;
}

}  // namespace waymesh::obstacles
