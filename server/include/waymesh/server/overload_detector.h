#pragma once
// Decides when the worker pool sheds load.
//
// A full queue already refuses calls, but refusing is not free: every refused call is still
// received, parsed and answered by gRPC's threads. With every worker busy on queries those
// threads get too little CPU, stop keeping up with the arrivals, and calls pile up in the
// transport before the service ever sees them; the accepted ones then wait tens of
// milliseconds there (2x offered load on the 1022 m demo world: accepted p99 about 40-50 ms
// against 1.3 ms at half load). So once the queue overflows, the pool sheds load for a while:
// one worker fewer and a short queue (WorkerPool), leaving CPU to the transport so that
// refusals stay fast.
//
// Shedding lasts `hold`, then the pool probes with its normal limits. If the load is still too
// high the normal queue overflows again within milliseconds and shedding resumes; a probe that
// lasts `hold` without an overflow ends the overload episode. A closed loop of clients that
// fits in workers + queue never overflows the queue, so it never triggers shedding however
// busy the workers are. Not thread-safe: the pool calls it under its own lock.

#include "absl/time/time.h"

namespace waymesh::server {

struct OverloadOptions {
  absl::Duration hold = absl::Milliseconds(500);  // shedding, and a successful probe, last this
};

class OverloadDetector {
 public:
  explicit OverloadDetector(OverloadOptions options) : options_(options) {}

  // Whether the pool sheds load at `now`; may end a shedding spell (probe) or, after a probe
  // without overflow, the episode.
  bool Shedding(absl::Time now);
  // The normal queue was full at `now`: shed load from now on (an episode begins unless one
  // is going on).
  void OnQueueFull(absl::Time now);

  // Whether an overload episode is going on (shedding or probing).
  bool overloaded() const { return state_ != State::kNormal; }

 private:
  enum class State { kNormal, kShedding, kProbing };

  const OverloadOptions options_;
  State state_ = State::kNormal;
  absl::Time since_ = absl::InfinitePast();  // when the current state began
};

}  // namespace waymesh::server
