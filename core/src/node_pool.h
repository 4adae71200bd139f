#pragma once
// Search nodes for A* and flood fills, one per touched polygon. Polygons are addressed by a
// dense global index (tile base + polygon); the polygon -> node table is invalidated in O(1) by
// bumping a generation counter, so starting a query costs nothing however large the map.

#include <cstdint>
#include <vector>

#include "funnel.h"
#include "waymesh/core/poly_index.h"

namespace waymesh::internal {

inline constexpr uint32_t kNoNode = 0xFFFFFFFFu;
// SearchNode::via: how the path entered the node's polygon.
inline constexpr uint32_t kViaStart = 0xFFFFFFFFu;    // the start polygon
inline constexpr uint32_t kViaLinkBit = 0x80000000u;  // | off-mesh link index in parent's tile
// Otherwise: the corner index i of the parent's edge (i, i+1) that was crossed.

enum NodeState : uint8_t { kNodeNew = 0, kNodeOpen = 1, kNodeClosed = 2 };

struct SearchNode {
  FunnelState funnel;  // state after entering the polygon
  float g;             // cost from the start to the best point of the entry portal
  float f;             // g + heuristic; the goal's f is its full path cost
  float landmark;      // the landmark bound of the polygon (fixed per query): computed once
  PolyIndex at;        // the node's polygon
  uint32_t parent;     // node index or kNoNode
  uint32_t via;        // see kVia*
  uint8_t state;       // NodeState; kNodeClosed (expanded) is final
};

class NodePool {
 public:
  // `polygons`: global polygon count of the map; `capacity`: most nodes one query may create.
  NodePool(uint32_t polygons, uint32_t capacity);

  // Forgets every node (O(1) except once every 2^32 resets).
  void Reset();
  // Forgets every node and makes room for a map of `polygons` polygons (another map version).
  void Reuse(uint32_t polygons);
  // Node of global polygon `global`, or kNoNode when this query has not touched it.
  uint32_t Find(uint32_t global) const {
    const Slot& s = slots_[global];
    return s.generation == generation_ ? s.node : kNoNode;
  }
  // Asks the memory system for Find(global)'s slot ahead of the call.
  void Prefetch(uint32_t global) const { __builtin_prefetch(&slots_[global]); }
  // New node for `global` (must not exist yet), or kNoNode when the pool is full. Inline: the
  // search creates a node for most polygons it relaxes.
  uint32_t Create(uint32_t global, PolyIndex at) {
    if (used_ == nodes_.size()) return kNoNode;
    const uint32_t i = used_++;
    slots_[global] = Slot{generation_, i};
    SearchNode& n = nodes_[i];
    n.g = 0;
    n.f = 0;
    n.landmark = 0;
    n.at = at;
    n.parent = kNoNode;
    n.via = kViaStart;
    n.state = kNodeNew;
    return i;
  }
  SearchNode& node(uint32_t i) { return nodes_[i]; }
  const SearchNode& node(uint32_t i) const { return nodes_[i]; }
  uint32_t size() const { return used_; }
  uint32_t capacity() const { return uint32_t(nodes_.size()); }

 private:
  struct Slot {
    uint32_t generation;
    uint32_t node;
  };
  std::vector<Slot> slots_;
  std::vector<SearchNode> nodes_;
  uint32_t used_ = 0;
  uint32_t generation_ = 1;
};

}  // namespace waymesh::internal
