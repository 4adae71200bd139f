#include "previous_splice.h"

#include <cstring>

namespace waymesh::obstacles {
namespace {

// Same positions (bit for bit) and base edges: the same polygon outline and triangles.
bool SameOutline(std::span<const PieceCorner> a, std::span<const PieceCorner> b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::memcmp(&a[i].pos, &b[i].pos, sizeof(Vec3)) != 0 || a[i].base_edge != b[i].base_edge) {
      return false;
    }
  }
  return true;
}

// A piece is kept when its polygon's merged pieces are the very same (shared) ones.
uint32_t PreviousPieceSlot(const TileState& now, const TileState& previous, uint32_t s) {
  const WorkPoly& w = now.work.polys[s];
  if (!now.numbering || !previous.numbering) return KeptPolygons::kNotKept;
  const auto a = now.merged.find(w.origin);
  const auto b = previous.merged.find(w.origin);
  if (a == now.merged.end() || b == previous.merged.end() || a->second != b->second) {
    return KeptPolygons::kNotKept;
  }
  // pieces_of lists slots in slot order, which is not piece order once holes are filled.
  const auto old = previous.numbering->pieces_of.find(w.origin);
  if (old == previous.numbering->pieces_of.end()) return KeptPolygons::kNotKept;
  const int32_t k = now.numbering->slots[s].piece;
  for (const uint32_t slot : old->second) {
    if (previous.numbering->slots[slot].piece == k) return slot;
  }
  return KeptPolygons::kNotKept;
}

// An untouched polygon is kept when it is spliced both times, or has the same corners (the
// same T-junction points) both times.
uint32_t PreviousUntouchedSlot(const TileState& now, const TileState& previous, uint32_t s) {
  const WorkPoly& w = now.work.polys[s];
  const uint32_t old =
      previous.numbering ? previous.numbering->new_index[w.origin] : uint32_t(w.origin);
  if (old == kCutPolygon || old >= previous.work.polys.size()) return KeptPolygons::kNotKept;
  const WorkPoly& v = previous.work.polys[old];
  if (v.piece || v.origin != w.origin || v.spliced != w.spliced) return KeptPolygons::kNotKept;
  if (!w.spliced && (!SameOutline(v.corners, w.corners) || v.inserted_after != w.inserted_after)) {
    return KeptPolygons::kNotKept;
  }
  return old;
}

}  // namespace

KeptPolygons FindKeptPolygons(const TileState& now, const TileState& previous) {
  KeptPolygons kept;
  kept.previous = &previous;
  const uint32_t count = uint32_t(now.work.polys.size());
  kept.old_of_new.assign(count, KeptPolygons::kNotKept);
  kept.new_of_old.assign(previous.work.polys.size(), KeptPolygons::kNotKept);
  if (previous.surface.size() != previous.work.polys.size()) return kept;
  for (uint32_t s = 0; s < count; ++s) {
    const uint32_t old = now.work.polys[s].piece ? PreviousPieceSlot(now, previous, s)
                                                 : PreviousUntouchedSlot(now, previous, s);
    if (old == KeptPolygons::kNotKept || kept.new_of_old[old] != KeptPolygons::kNotKept) continue;
    kept.old_of_new[s] = old;
    kept.new_of_old[old] = s;
  }
  return kept;
}

}  // namespace waymesh::obstacles
