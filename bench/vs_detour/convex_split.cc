#include "vs_detour/convex_split.h"

#include <array>
#include <cmath>
#include <cstdlib>

#include "bench_tolerances.h"

namespace waymesh::bench {
namespace {

// Plan-view sine of the angle between u and w, and whether they point the same way.
bool SameDirection(double ux, double uz, double wx, double wz) {
  const double cross = ux * wz - uz * wx;
  return std::fabs(cross) <= tol::kCollinearSine * std::hypot(ux, uz) * std::hypot(wx, wz) &&
         ux * wx + uz * wz > 0;
}

// True when w lies on the ray from v through u (a diagonal v-w would run along that edge).
bool IsAlong(Vec3 v, Vec3 u, Vec3 w) {
  return SameDirection(double(u.x) - v.x, double(u.z) - v.z, double(w.x) - v.x, double(w.z) - v.z);
}

class RingSplitter {
 public:
  RingSplitter(std::span<const Vec3> corners, std::span<const uint8_t> cut_at,
               std::vector<ConvexPiece>* pieces)
      : corners_(corners), cut_at_(cut_at), pieces_(pieces) {
    const size_t n = corners.size();
    for (size_t c = 0; c < n; ++c) {
      straight_[c] = IsStraightCorner(corners[(c + n - 1) % n], corners[c], corners[(c + 1) % n]);
    }
  }

  // `ring` lists corner indices of a convex sub-polygon in polygon order; any subsequence of a
  // convex polygon's corners is convex, so a diagonal keeps both halves convex.
  void Split(const std::vector<uint8_t>& ring) {
    const int n = static_cast<int>(ring.size());
    const int pending = PendingCut(ring);
    if (pending < 0 && n <= kMaxPieceCorners) return Emit(ring);
    // A diagonal ending at a straight corner that need not be cut would give the neighbour
    // across that corner's two collinear edges two different pieces: avoid it if possible.
    for (int pass = 0; pass < 2; ++pass) {
      const bool avoid_straight = pass == 0;
      for (int k = 0; k < n; ++k) {  // from the pending cut, else from corner 0 on
        const int i = pending >= 0 ? pending : k;
        if (pending < 0 && avoid_straight && straight_[ring[i]] && !cut_at_[ring[i]]) continue;
        const int j = Partner(ring, i, avoid_straight);
        if (j < 0) continue;
        SplitAt(ring, i, j);
        return;
      }
    }
    Emit(ring);  // degenerate input (every corner on one line): keep it whole
  }

 private:
  void SplitAt(const std::vector<uint8_t>& ring, int i, int j) {
    const int n = static_cast<int>(ring.size());
    std::vector<uint8_t> first, second;
    for (int m = i;; m = (m + 1) % n) {
      first.push_back(ring[m]);
      if (m == j) break;
    }
    for (int m = j;; m = (m + 1) % n) {
      second.push_back(ring[m]);
      if (m == i) break;
    }
    Split(first);
    Split(second);
  }

  // A ring position whose corner must be cut and still has both of its polygon edges here.
  int PendingCut(const std::vector<uint8_t>& ring) const {
    const int n = static_cast<int>(ring.size());
    const int total = static_cast<int>(corners_.size());
    for (int i = 0; i < n; ++i) {
      const int c = ring[i];
      if (!cut_at_[c]) continue;
      if (ring[(i + n - 1) % n] == (c + total - 1) % total &&
          ring[(i + 1) % n] == (c + 1) % total) {
        return i;
      }
    }
    return -1;
  }

  // The ring position to draw a diagonal to from position i: not adjacent, not on a straight
  // boundary run through i, optionally not a straight corner, and as close to halving the ring
  // as possible; -1 if none.
  int Partner(const std::vector<uint8_t>& ring, int i, bool avoid_straight) const {
    const int n = static_cast<int>(ring.size());
    const Vec3 v = corners_[ring[i]];
    const Vec3 prev = corners_[ring[(i + n - 1) % n]];
    const Vec3 next = corners_[ring[(i + 1) % n]];
    // In a convex polygon a diagonal can only leave the interior by running along an edge.
    int best = -1, best_score = n;
    for (int step = 2; step <= n - 2; ++step) {
      const int j = (i + step) % n;
      if (avoid_straight && straight_[ring[j]] && !cut_at_[ring[j]]) continue;
      const Vec3 w = corners_[ring[j]];
      if (IsAlong(v, prev, w) || IsAlong(v, next, w)) continue;  // on the boundary
      const int score = std::abs(2 * step - n);
      if (score < best_score) best = j, best_score = score;
    }
    return best;
  }

  void Emit(const std::vector<uint8_t>& ring) {
    ConvexPiece piece;
    piece.count = static_cast<uint8_t>(ring.size());
    for (size_t i = 0; i < ring.size(); ++i) piece.corners[i] = ring[i];
    pieces_->push_back(piece);
  }

  std::span<const Vec3> corners_;
  std::span<const uint8_t> cut_at_;
  std::vector<ConvexPiece>* pieces_;
  std::array<bool, kMaxSplitCorners> straight_{};  // by polygon corner
};

}  // namespace

bool IsStraightCorner(Vec3 a, Vec3 b, Vec3 c) {
  // Straight: from b, a and the reflection of c through b point the same way.
  return SameDirection(double(a.x) - b.x, double(a.z) - b.z, double(b.x) - c.x, double(b.z) - c.z);
}

void SplitConvexPolygon(std::span<const Vec3> corners, std::span<const uint8_t> cut_at,
                        std::vector<ConvexPiece>* pieces) {
  pieces->clear();
  std::vector<uint8_t> ring(corners.size());
  for (size_t i = 0; i < corners.size(); ++i) ring[i] = static_cast<uint8_t>(i);
  RingSplitter(corners, cut_at, pieces).Split(ring);
}

}  // namespace waymesh::bench
