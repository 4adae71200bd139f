#pragma once
// The one way the benchmark programs time things: wall time on the steady clock (never the
// system clock, which NTP may step mid-run), read as a double in the unit the caller prints.

#include <chrono>
#include <ratio>

namespace waymesh::bench {

// Wall time since construction or the last Restart().
class Stopwatch {
 public:
  using Clock = std::chrono::steady_clock;

  Stopwatch() : start_(Clock::now()) {}

  // Measures from now on.
  void Restart() { start_ = Clock::now(); }

  double ElapsedSeconds() const { return Elapsed<std::ratio<1>>(); }
  double ElapsedMs() const { return Elapsed<std::milli>(); }
  double ElapsedUs() const { return Elapsed<std::micro>(); }
  double ElapsedNs() const { return Elapsed<std::nano>(); }

 private:
  template <typename Unit>
  double Elapsed() const {
    return std::chrono::duration<double, Unit>(Clock::now() - start_).count();
  }

  Clock::time_point start_;
};

}  // namespace waymesh::bench
