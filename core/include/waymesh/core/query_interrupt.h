#pragma once
// Lets the caller of a long query stop it early (its deadline passed, its client went away).
// Core knows nothing of clocks, threads or RPCs: it only polls this while a search runs.

#include "absl/status/status.h"

namespace waymesh {

class QueryInterrupt {
 public:
  virtual ~QueryInterrupt() = default;
  // OK to keep searching; any other status stops the query, which then returns that status.
  // Called from the querying thread every few hundred search nodes, so it must be cheap.
  virtual absl::Status Check() = 0;
};

}  // namespace waymesh
