#pragma once
// ghz's load schedules: how many calls a second a paced run starts, as a function of the time
// since the run began. `const` keeps --rps; `step` starts at --load-start and adds --load-step
// every --load-step-duration; `line` adds --load-step per second (a slope). Both stop changing
// at --load-end (a rate) or after --load-max-duration, whichever comes first.

#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"

namespace waymesh::loadtest {

enum class ScheduleKind { kConst, kStep, kLine };

struct LoadSchedule {
  ScheduleKind kind = ScheduleKind::kConst;
  double rps = 0;             // kConst: calls started per second; 0 = closed loop (no pacing)
  double start = 0;           // kStep, kLine: the rate at time zero (calls/s)
  double step = 0;            // kStep: added per step; kLine: added per second
  std::optional<double> end;  // the rate where the change stops
  absl::Duration step_duration = absl::ZeroDuration();  // kStep: length of one step
  absl::Duration max_duration = absl::ZeroDuration();   // change stops after this; zero = never
};

// "const", "step", "line"; InvalidArgument naming the value otherwise.
absl::StatusOr<ScheduleKind> ParseScheduleKind(absl::string_view name);
std::string ScheduleKindName(ScheduleKind kind);

// True when calls are paced (every schedule but `const` with rps 0).
bool IsPaced(const LoadSchedule& schedule);

// The start rate (calls/s, >= 0) `elapsed` into the run.
double RateAt(const LoadSchedule& schedule, absl::Duration elapsed);

// When the call after one due at `due` is due: one period of the rate at `due` later. Where
// the rate is zero, the first moment after `due` where it is not (step boundaries for `step`,
// the root of the line for `line`); InfiniteDuration when it stays zero for ever.
absl::Duration NextDue(const LoadSchedule& schedule, absl::Duration due);

// The first call's due time: zero, or when the rate first becomes positive.
absl::Duration FirstDue(const LoadSchedule& schedule);

}  // namespace waymesh::loadtest
