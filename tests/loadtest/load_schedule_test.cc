// ghz's load schedules: the rate over time of const, step and line (with their end rate and
// max duration), and the due times of successive calls, whose count over any stretch must
// match the integral of the rate.

#include "waymesh/loadtest/load_schedule.h"

#include <cmath>

#include "gtest/gtest.h"

namespace waymesh::loadtest {
namespace {

// Calls due in [0, horizon) when each is due NextDue after the one before.
int CallsBefore(const LoadSchedule& s, absl::Duration horizon) {
  int n = 0;
  for (absl::Duration due = FirstDue(s); due < horizon; due = NextDue(s, due)) ++n;
  return n;
}

TEST(LoadScheduleTest, ConstIsRpsAndClosedLoopWithoutIt) {
  LoadSchedule s;
  EXPECT_FALSE(IsPaced(s));
  s.rps = 200;
  EXPECT_TRUE(IsPaced(s));
  EXPECT_EQ(RateAt(s, absl::Seconds(100)), 200);
  EXPECT_EQ(FirstDue(s), absl::ZeroDuration());
  EXPECT_EQ(NextDue(s, absl::Milliseconds(10)), absl::Milliseconds(15));
  EXPECT_EQ(CallsBefore(s, absl::Seconds(2)), 400);
}

TEST(LoadScheduleTest, StepAddsEachStepUntilTheEndRate) {
  LoadSchedule s{.kind = ScheduleKind::kStep,
                 .start = 10,
                 .step = 10,
                 .end = 30,
                 .step_duration = absl::Seconds(1)};
  EXPECT_EQ(RateAt(s, absl::Milliseconds(999)), 10);
  EXPECT_EQ(RateAt(s, absl::Seconds(1)), 20);
  EXPECT_EQ(RateAt(s, absl::Seconds(2)), 30);
  EXPECT_EQ(RateAt(s, absl::Seconds(60)), 30);  // capped at load-end
  // 10 + 20 + 30 + 30 calls in the first four seconds (give or take the one due right at the
  // end, which rounding puts on either side).
  EXPECT_NEAR(CallsBefore(s, absl::Seconds(4)), 90, 1);

  s.end.reset();
  s.max_duration = absl::Seconds(3);  // the third step is the last
  EXPECT_EQ(RateAt(s, absl::Seconds(3)), 40);
  EXPECT_EQ(RateAt(s, absl::Seconds(30)), 40);
}

TEST(LoadScheduleTest, StepDownStopsAtZeroAndEndsTheRun) {
  LoadSchedule s{
      .kind = ScheduleKind::kStep, .start = 20, .step = -10, .step_duration = absl::Seconds(1)};
  EXPECT_EQ(RateAt(s, absl::Seconds(1)), 10);
  EXPECT_EQ(RateAt(s, absl::Seconds(5)), 0);
  EXPECT_NEAR(CallsBefore(s, absl::Hours(1)), 30, 1);  // 20 + 10, then nothing for ever
  EXPECT_EQ(NextDue(s, absl::Seconds(3)), absl::InfiniteDuration());
}

TEST(LoadScheduleTest, StepFromZeroWaitsForTheFirstNonZeroStep) {
  LoadSchedule s{
      .kind = ScheduleKind::kStep, .start = 0, .step = 4, .step_duration = absl::Milliseconds(500)};
  // Rate 0 until 0.5 s, then 4/s: the first call is due a quarter second after it rises.
  EXPECT_NEAR(absl::ToDoubleSeconds(FirstDue(s)), 0.75, 1e-9);
}

TEST(LoadScheduleTest, LineRisesBySlopePerSecondAndItsCallsMatchTheIntegral) {
  LoadSchedule s{.kind = ScheduleKind::kLine, .start = 0, .step = 100, .end = 400};
  EXPECT_EQ(RateAt(s, absl::Seconds(2)), 200);
  EXPECT_EQ(RateAt(s, absl::Seconds(10)), 400);
  // Integral over 0..4 s: 100 t^2 / 2 = 800 (the rate reaches 400 at exactly 4 s); then 400/s.
  EXPECT_NEAR(CallsBefore(s, absl::Seconds(4)), 800, 1);
  EXPECT_NEAR(CallsBefore(s, absl::Seconds(5)), 1200, 1);
  // The first calls of a line from zero: due where 50 t^2 reaches 1, 2, ...
  EXPECT_NEAR(absl::ToDoubleSeconds(FirstDue(s)), std::sqrt(1 / 50.0), 1e-6);
  EXPECT_NEAR(absl::ToDoubleSeconds(NextDue(s, FirstDue(s))), std::sqrt(2 / 50.0), 1e-6);
}

TEST(LoadScheduleTest, LineDownStopsAtZero) {
  LoadSchedule s{.kind = ScheduleKind::kLine, .start = 100, .step = -50};
  EXPECT_EQ(RateAt(s, absl::Seconds(1)), 50);
  EXPECT_EQ(RateAt(s, absl::Seconds(3)), 0);
  // Integral of 100 - 50 t over 0..2 s = 100 calls, then none.
  EXPECT_NEAR(CallsBefore(s, absl::Hours(1)), 100, 1);
}

TEST(LoadScheduleTest, NamesRoundTrip) {
  for (const char* name : {"const", "step", "line"}) {
    absl::StatusOr<ScheduleKind> kind = ParseScheduleKind(name);
    ASSERT_TRUE(kind.ok()) << name;
    EXPECT_EQ(ScheduleKindName(*kind), name);
  }
  EXPECT_FALSE(ParseScheduleKind("ramp").ok());
}

}  // namespace
}  // namespace waymesh::loadtest
