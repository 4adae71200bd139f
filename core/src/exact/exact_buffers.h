#pragma once
// The reusable state of the exact (interval) search, owned by a QueryContext: vectors keep
// their capacity between queries, so a warm exact query does not allocate.

#include <cstdint>
#include <vector>

#include "exact/corner_cache.h"
#include "exact/interval_geometry.h"
#include "exact/open_intervals.h"
#include "exact/root_table.h"
#include "exact/sent_intervals.h"
#include "exact/sight_buffers.h"
#include "waymesh/core/poly_index.h"
#include "waymesh/core/vec3.h"

namespace waymesh::internal::exact {

inline constexpr uint32_t kNone = 0xFFFFFFFFu;

// A point the path may turn at: the start, a wall corner of the mesh, either end of an
// off-mesh link (or, for the final step or a link's start only, an end of the interval the
// target is seen past).
struct Root {
  Vec3 pos;                 // on the surface
  Point2 at;                // pos in plan view
  double g = 0;             // plan-view length of the path from the start (links at their cost)
  uint32_t parent = kNone;  // previous root, kNone for the start
  PolyIndex poly;           // polygon the path continues on from here
  bool in_table = false;    // a mesh vertex or a link's end, kept in the root table
  bool fresh = false;       // the start or a link's end: sees every polygon it lies on whole
  bool link_start = false;  // an off-mesh link leaves here; the next root is its end
  uint8_t link_area = 0;    // that link's area
};

enum NodeFlag : uint8_t {
  kAtA = 1,    // a is the entry edge's corner A itself
  kAtB = 2,    // b is corner B itself
  kFinal = 4,  // the goal reached from the root: f is the whole path's length
  kWhole = 8,  // a = b = the root (the start or a link's end), which sees all of poly
};

// A search node: the interval a-b of an edge, seen from a root, leading into `poly`. In
// `poly` the edge runs from corner A (at `corner_a`) to the next corner B.
struct IntervalNode {
  Point2 a, b;
  Vec3 corner_a;
  // The node's estimate of the whole path. A successor not yet scored holds there the exact
  // landmark table's lower bound from its root on (landmark_bound.h; 0 without a table), which
  // scoring (CheapestSuccessor) folds in: the node stays as small as before.
  double f = 0;
  uint32_t root = kNone;
  uint32_t parent = kNone;
  PolyIndex poly;
  uint8_t flags = 0;
  // An open node that successors of the same root on the same edge were joined into heads a
  // list of the parts it was joined from (its own first), each with its own parent: the
  // corridor follows the part the path crosses. kNone otherwise, and ends the list.
  uint32_t joined = kNone;
};

struct HeapItem {
  double f;
  uint32_t node;
  // Orders a min-heap on f (then on creation order, for determinism) with std::push_heap.
  friend bool operator<(const HeapItem& x, const HeapItem& y) {
    return x.f > y.f || (x.f == y.f && x.node > y.node);
  }
};

struct ExactBuffers {
  std::vector<IntervalNode> nodes;
  std::vector<Root> roots;
  std::vector<HeapItem> heap;
  std::vector<IntervalNode> successors;  // scratch: of the node being expanded, f not yet set
  RootTable best_root;
  SentIntervals sent;                  // edge parts each root has sent an interval across
  CornerCache turn_corners;            // IsTurnCorner verdicts (survive queries)
  std::vector<PolyIndex> start_polys;  // polygons holding the start (several on an edge/vertex)
  std::vector<PolyIndex> goal_polys;
  std::vector<PolyIndex> link_end_polys;  // scratch: polygons holding the end of a link taken
  std::vector<uint32_t> chain;            // scratch: roots or nodes of the answer, walked backwards
  OpenIntervals open;  // open nodes by polygon, for joining successors into them
  SightBuffers sight;  // the sight flood's (sight_flood.h)
};

}  // namespace waymesh::internal::exact
