#pragma once
// What a load run observed, before any statistics: one latency per successful call and counts
// of every status and error.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace waymesh::loadtest {

// One finished call, for reports that list every call (CSV).
struct CallRecord {
  int64_t latency_ns;
  std::string status;  // Go code name, as in status_counts
  std::string error;   // as in error_counts; empty when OK
};

struct RunResult {
  std::vector<int64_t> ok_latencies_ns;           // one per OK call, in completion order
  std::map<std::string, uint64_t> status_counts;  // Go code name -> calls ("OK", "NotFound")
  std::map<std::string, uint64_t> error_counts;   // "rpc error: code = ... desc = ..." -> calls
  uint64_t count = 0;                             // calls completed, OK or not
  int64_t total_ns = 0;                           // first call started -> last call finished
  // Why it stopped, in ghz's words: "normal" (total reached), "timeout" (duration reached),
  // "cancel" (interrupted).
  std::string end_reason = "normal";
  std::vector<CallRecord> calls;  // in completion order; only when the plan asked for them
};

}  // namespace waymesh::loadtest
