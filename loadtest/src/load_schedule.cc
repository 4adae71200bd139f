#include "waymesh/loadtest/load_schedule.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "absl/strings/str_cat.h"

namespace waymesh::loadtest {
namespace {

constexpr double kForever = std::numeric_limits<double>::infinity();
// A schedule whose rate stays zero for this many segments in a row is taken as never starting
// another call (steps of 1 ms at a rate that rounds to nothing, say): bounds NextDue's walk.
constexpr int kMaxSegmentsPerCall = 1'000'000;

// A stretch of time over which the rate is r0 + slope * (t - begin), until `end` (seconds).
struct Segment {
  double r0;
  double slope;
  double end;
};

// When the rate stops changing (seconds): --load-max-duration, the moment it reaches --load-end,
// or the moment it reaches zero going down; kForever when nothing stops it.
double ChangeEnd(const LoadSchedule& s) {
  double end =
      s.max_duration > absl::ZeroDuration() ? absl::ToDoubleSeconds(s.max_duration) : kForever;
  if (s.kind != ScheduleKind::kLine || s.step == 0) return end;
  if (s.end.has_value() && (*s.end - s.start) / s.step >= 0) {
    end = std::min(end, (*s.end - s.start) / s.step);
  }
  if (s.step < 0) end = std::min(end, s.start / -s.step);
  return end;
}

Segment SegmentAt(const LoadSchedule& s, double t) {
  const double rate = RateAt(s, absl::Seconds(t));
  const double change_end = ChangeEnd(s);
  if (s.kind == ScheduleKind::kConst || t >= change_end) return {rate, 0, kForever};
  if (s.kind == ScheduleKind::kLine) return {rate, s.step, change_end};
  const double step = absl::ToDoubleSeconds(s.step_duration);
  double boundary = (std::floor(t / step) + 1) * step;
  if (boundary <= t) boundary += step;  // rounding at a boundary must not stall the walk
  return {rate, 0, std::min(boundary, change_end)};
}

// Time x >= 0 after which the segment starting with rate r0 and slope b has started `calls`
// calls (r0 x + b x^2 / 2 = calls); kForever when it never does.
double TimeFor(double r0, double b, double calls) {
  if (b == 0) return r0 > 0 ? calls / r0 : kForever;
  const double disc = r0 * r0 + 2 * b * calls;
  if (disc < 0) return kForever;  // slowing down: never gets there
  return (-r0 + std::sqrt(disc)) / b;
}

}  // namespace

absl::StatusOr<ScheduleKind> ParseScheduleKind(absl::string_view name) {
  if (name == "const") return ScheduleKind::kConst;
  if (name == "step") return ScheduleKind::kStep;
  if (name == "line") return ScheduleKind::kLine;
  return absl::InvalidArgumentError(
      absl::StrCat("\"load-schedule\": expected const, step or line, got \"", name, "\""));
}

std::string ScheduleKindName(ScheduleKind kind) {
  switch (kind) {
    case ScheduleKind::kConst:
      return "const";
    case ScheduleKind::kStep:
      return "step";
    case ScheduleKind::kLine:
      return "line";
  }
  return "const";
}

bool IsPaced(const LoadSchedule& s) { return s.kind != ScheduleKind::kConst || s.rps > 0; }

double RateAt(const LoadSchedule& s, absl::Duration elapsed) {
  if (s.kind == ScheduleKind::kConst) return s.rps;
  double t = std::max(0.0, absl::ToDoubleSeconds(elapsed));
  if (s.max_duration > absl::ZeroDuration()) t = std::min(t, absl::ToDoubleSeconds(s.max_duration));
  double rate = s.start;
  if (s.kind == ScheduleKind::kStep) {
    rate += s.step * std::floor(t / absl::ToDoubleSeconds(s.step_duration));
  } else {
    rate += s.step * t;
  }
  if (s.end.has_value()) rate = s.step >= 0 ? std::min(rate, *s.end) : std::max(rate, *s.end);
  return std::max(rate, 0.0);
}

absl::Duration NextDue(const LoadSchedule& s, absl::Duration due) {
  double t = absl::ToDoubleSeconds(due);
  double calls = 1;  // one call's worth of rate must pass
  for (int i = 0; i < kMaxSegmentsPerCall; ++i) {
    const Segment seg = SegmentAt(s, t);
    const double x = TimeFor(seg.r0, seg.slope, calls);
    if (t + x <= seg.end) return absl::Seconds(t + x);
    if (seg.end == kForever) return absl::InfiniteDuration();
    const double len = seg.end - t;
    calls -= seg.r0 * len + seg.slope * len * len / 2;
    t = seg.end;
  }
  return absl::InfiniteDuration();
}

absl::Duration FirstDue(const LoadSchedule& s) {
  if (RateAt(s, absl::ZeroDuration()) > 0) return absl::ZeroDuration();
  return NextDue(s, absl::ZeroDuration());
}

}  // namespace waymesh::loadtest
