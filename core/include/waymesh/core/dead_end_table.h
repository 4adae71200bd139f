#pragma once
// Dead ends: polygons that hang off the rest of the map in trees. Strip every polygon with at
// most one neighbouring polygon, again and again, and what is stripped forms trees, each joined
// to the rest (the core) through one polygon. A search's corridor visits a polygon at most once,
// so it enters such a subtree only to end there and leaves one only to reach a goal outside:
// entering a subtree without the goal, or leaving one with it, is never worth a node. On
// triangulated maze-like maps the trees are most of the map (every corridor a strip of
// triangles ending at a wall), and A* expands a fraction of the nodes (Polyanya's aurora on the
// merged mesh: 1 072 -> 172 a query).
//
// Off-mesh links join polygons as edges do, so their end polygons are never stripped. Built
// once per map (NavMap::dead_ends) and shared read-only by every query object: 8 bytes a polygon.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "waymesh/core/nav_map.h"

namespace waymesh {

class DeadEndTable {
 public:
  // An empty table: nothing is a dead end.
  DeadEndTable() = default;
  // Strips the trees of a resident map (O(polygons)).
  static DeadEndTable Build(const NavMap& map);

  bool empty() const { return subtree_.empty(); }
  // Polygons in dead-end trees.
  uint32_t dead_end_count() const { return dead_ends_; }
  size_t bytes() const { return subtree_.size() * sizeof(Subtree); }

  // Whether a search at polygon `from` (dense global indices throughout) going to its
  // neighbour `to` can skip `to`: the move enters a subtree of a dead-end tree that does not
  // hold `goal`, or leaves one that does.
  bool Skippable(uint32_t from, uint32_t to, uint32_t goal) const {
    const Subtree& f = subtree_[from];
    const Subtree& t = subtree_[to];
    const uint32_t g = subtree_[goal].first;
    if (t.first != kCore && !t.Holds(f.first)) return !t.Holds(g);  // down into `to`'s subtree
    return f.first != kCore && !f.Holds(t.first) && f.Holds(g);     // up out of `from`'s
  }

 private:
  static constexpr uint32_t kCore = 0xFFFFFFFFu;
  // Polygons of the trees are numbered in preorder, so that a subtree is a range of numbers:
  // its root's own number and the largest one below it. kCore for polygons of the core.
  struct Subtree {
    uint32_t first = kCore, last = 0;
    bool Holds(uint32_t number) const { return number >= first && number <= last; }
  };
  std::vector<Subtree> subtree_;
  uint32_t dead_ends_ = 0;
};

}  // namespace waymesh
