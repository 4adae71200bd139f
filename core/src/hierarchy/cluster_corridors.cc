#include "waymesh/core/hierarchy/cluster_corridors.h"

#include "waymesh/core/hierarchy/entrance_pair.h"

namespace waymesh {
namespace {

// Offsets keep their top bit for kNotStored.
constexpr uint64_t kMaxStoredSteps = 0x7FFFFFFFu;

bool StepsFit(const std::vector<uint8_t>& corners) {
  for (const uint8_t c : corners) {
    if (c > ClusterCorridors::kMaxCorner) return false;
  }
  return true;
}

}  // namespace

bool ClusterCorridors::Add(uint32_t k,
                           const std::vector<std::optional<std::vector<uint8_t>>>& pairs) {
  if (pairs.size() != size_t(k) * (k < 1 ? 0 : k - 1) / 2) return false;
  uint64_t steps = steps_;
  for (const auto& p : pairs) steps += p && StepsFit(*p) ? p->size() : 0;
  if (steps > kMaxStoredSteps) return false;
  if (offset_.empty()) offset_.push_back(0);
  start_.push_back(offset_.size() - 1);
  count_.push_back(k);
  for (const auto& p : pairs) {
    if (!p || !StepsFit(*p)) {
      offset_.back() |= kNotStored;
    } else {
      for (const uint8_t c : *p) {
        if (steps_ % 2 == 0) nibbles_.push_back(0);
        nibbles_.back() |= uint8_t(c << (4 * (steps_ % 2)));
        ++steps_;
      }
    }
    offset_.push_back(steps_);
  }
  return true;
}

bool ClusterCorridors::Read(uint32_t c, uint32_t i, uint32_t j,
                            std::vector<uint8_t>* corners) const {
  if (i == j || c >= count_.size()) return false;
  const size_t pair = start_[c] + EntrancePairIndex(count_[c], i, j);
  if ((offset_[pair] & kNotStored) != 0) return false;
  const uint32_t end = offset_[pair + 1] & ~kNotStored;
  for (uint32_t s = offset_[pair]; s < end; ++s) {
    corners->push_back(uint8_t((nibbles_[s / 2] >> (4 * (s % 2))) & 0xF));
  }
  return true;
}

size_t ClusterCorridors::bytes() const {
  return start_.size() * sizeof(size_t) + count_.size() * sizeof(uint32_t) +
         offset_.size() * sizeof(uint32_t) + nibbles_.size();
}

}  // namespace waymesh
