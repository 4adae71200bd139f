#pragma once
// The process_* metrics every Prometheus client library exports (CPU time, memory, file
// descriptors, start time), read from /proc/self at each scrape, so the standard process
// dashboards and alerts work on waymesh-server unchanged.

#include <vector>

#include "prometheus/metric_family.h"

namespace waymesh::server {

// process_cpu_seconds_total, process_resident_memory_bytes, process_virtual_memory_bytes,
// process_start_time_seconds, process_open_fds and process_max_fds as they are now. A value
// whose source cannot be read (no /proc) is left out rather than exported as 0.
std::vector<prometheus::MetricFamily> CollectProcessMetrics();

}  // namespace waymesh::server
