#include "piece_merge.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <optional>
#include <tuple>

#include "absl/container/flat_hash_map.h"
#include "absl/container/inlined_vector.h"
#include "waymesh/core/tolerances.h"
#include "word_hash.h"

namespace waymesh::obstacles {
namespace {

// Relative cross product (sine of the turn) above which a merged piece's corner is reflex.
constexpr double kReflexSine = 1e-7;

double TurnSine(Vec3 a, Vec3 b, Vec3 c) {
  const double ux = double(b.x) - a.x, uz = double(b.z) - a.z;
  const double vx = double(c.x) - b.x, vz = double(c.z) - b.z;
  const double len = std::sqrt((ux * ux + uz * uz) * (vx * vx + vz * vz));
  return len > 0 ? (ux * vz - uz * vx) / len : 0;
}

bool ConvexPiece(const std::vector<PieceCorner>& c) {
  const size_t n = c.size();
  for (size_t i = 0; i < n; ++i) {
    if (TurnSine(c[i].pos, c[(i + 1) % n].pos, c[(i + 2) % n].pos) < -kReflexSine) return false;
  }
  return true;
}

// Pieces sharing several consecutive edges leave, merged across one of them, the others as a
// spike out and back (P, T, P): drops T and the second P, keeping the outgoing edge's line.
void RemoveSpikes(std::vector<PieceCorner>* c) {
  for (bool again = true; again && c->size() >= 3;) {
    again = false;
    const size_t n = c->size();
    for (size_t k = 0; k < n; ++k) {
      const size_t prev = (k + n - 1) % n, next = (k + 1) % n;
      if ((*c)[prev].pos != (*c)[next].pos) continue;
      (*c)[prev].next = (*c)[next].next;
      (*c)[prev].base_edge = (*c)[next].base_edge;
      // Erase the higher index first so the lower stays valid.
      const size_t hi = std::max(k, next), lo = std::min(k, next);
      c->erase(c->begin() + hi);
      c->erase(c->begin() + lo);
      again = true;
      break;
    }
  }
}

// The union of a and b across their shared edge a[i] -> a[i+1] == b[j+1] <- b[j], or nullopt.
std::optional<Piece> MergeAcross(const Piece& a, size_t i, const Piece& b, size_t j) {
  const size_t na = a.corners.size(), nb = b.corners.size();
  if (na + nb - 2 > size_t(tol::kMaxVertsPerPolyLimit)) return std::nullopt;
  Piece m;
  m.area = a.area;
  for (size_t k = 1; k < na; ++k) m.corners.push_back(a.corners[(i + k) % na]);
  m.corners.push_back(b.corners[(j + 1) % nb]);  // a[i]'s position, b's edge onwards
  for (size_t k = 2; k < nb; ++k) m.corners.push_back(b.corners[(j + k) % nb]);
  RemoveSpikes(&m.corners);
  if (m.corners.size() < 3 || !ConvexPiece(m.corners)) return std::nullopt;
  return m;
}

// A directed edge by the bits of its ends' positions (-0 read as +0, so that positions equal as
// floats have equal keys).
struct PieceEdgeKey {
  std::array<uint32_t, 6> bits{};
  friend bool operator==(const PieceEdgeKey&, const PieceEdgeKey&) = default;
  template <typename H>
  friend H AbslHashValue(H h, const PieceEdgeKey& k) {
    return H::combine(std::move(h), HashWords(k.bits));
  }
};

PieceEdgeKey PieceEdgeKeyOf(Vec3 from, Vec3 to) {
  const auto bits = [](float v) { return std::bit_cast<uint32_t>(v + 0.0f); };
  return {{bits(from.x), bits(from.y), bits(from.z), bits(to.x), bits(to.y), bits(to.z)}};
}

// MergePieces with the pieces' edges in a hash map, so that finding the pieces sharing an edge
// with one piece costs a lookup per edge, not a comparison with every corner of every other
// piece (that search, restarted after every merge, was most of an obstacle update's time on
// tiles cut by several obstacles). Pieces keep their index while merging: a merged pair takes
// the first one's index and the second one dies, so index order is the order of the pieces
// the plain search would see.
class PieceMerger {
 public:
  explicit PieceMerger(std::vector<Piece>* pieces)
      : pieces_(*pieces), alive_(pieces->size(), true), version_(pieces->size(), 0) {
    for (uint32_t x = 0; x < pieces_.size(); ++x) Index(x);
  }

  // After a merge the plain search starts again from the first piece; every piece before the
  // first one sharing an edge with the merged piece would find what it found before (nothing),
  // so the search resumes there instead.
  void Run() {
    for (uint32_t x = 0; x < pieces_.size();)
      x = alive_[x] && MergeFirst(x) ? FirstToRecheck(x) : x + 1;
    uint32_t kept = 0;
    for (uint32_t x = 0; x < pieces_.size(); ++x) {
      if (!alive_[x]) continue;
      if (kept != x) pieces_[kept] = std::move(pieces_[x]);  // (a self-move would empty it)
      ++kept;
    }
    pieces_.resize(kept);
  }

 private:
  // Where an edge was seen: from corner `corner` of piece `piece` at `version`.
  struct EdgeAt {
    uint32_t piece, version, corner;
  };
  struct Candidate {
    uint32_t other, corner, other_corner;
    friend auto operator<=>(const Candidate&, const Candidate&) = default;
  };

  void Index(uint32_t x) {
    const std::vector<PieceCorner>& c = pieces_[x].corners;
    for (uint32_t i = 0; i < c.size(); ++i) {
      edges_[PieceEdgeKeyOf(c[i].pos, c[(i + 1) % c.size()].pos)].push_back({x, version_[x], i});
    }
  }

  // Merges piece x with the first later piece of its area it can merge with, across the first
  // shared edge that gives a convex union; false when there is none.
  bool MergeFirst(uint32_t x) {
    const Piece& a = pieces_[x];
    const size_t na = a.corners.size();
    candidates_.clear();
    for (uint32_t i = 0; i < na; ++i) {
      const auto it = edges_.find(PieceEdgeKeyOf(a.corners[(i + 1) % na].pos, a.corners[i].pos));
      if (it == edges_.end()) continue;
      for (const EdgeAt& e : it->second) {
        if (e.piece <= x || !alive_[e.piece] || version_[e.piece] != e.version) continue;
        if (pieces_[e.piece].area == a.area) candidates_.push_back({e.piece, i, e.corner});
      }
    }
    std::sort(candidates_.begin(), candidates_.end());
    for (const Candidate& c : candidates_) {
      std::optional<Piece> merged = MergeAcross(a, c.corner, pieces_[c.other], c.other_corner);
      if (!merged) continue;
      pieces_[x] = std::move(*merged);
      ++version_[x];
      alive_[c.other] = false;
      Index(x);
      return true;
    }
    return false;
  }

  // The first alive piece of piece x's area at or before x that shares an edge with x.
  uint32_t FirstToRecheck(uint32_t x) const {
    const Piece& a = pieces_[x];
    const size_t na = a.corners.size();
    uint32_t first = x;
    for (uint32_t i = 0; i < na; ++i) {
      const auto it = edges_.find(PieceEdgeKeyOf(a.corners[(i + 1) % na].pos, a.corners[i].pos));
      if (it == edges_.end()) continue;
      for (const EdgeAt& e : it->second) {
        if (e.piece >= first || !alive_[e.piece] || version_[e.piece] != e.version) continue;
        if (pieces_[e.piece].area == a.area) first = e.piece;
      }
    }
    return first;
  }

  std::vector<Piece>& pieces_;
  std::vector<bool> alive_;
  std::vector<uint32_t> version_;
  absl::flat_hash_map<PieceEdgeKey, absl::InlinedVector<EdgeAt, 2>> edges_;
  std::vector<Candidate> candidates_;
};

}  // namespace

void MergePieces(std::vector<Piece>* pieces) {
  if (pieces->size() < 2) return;
  PieceMerger(pieces).Run();
}

}  // namespace waymesh::obstacles
