// Shedding starts when the normal queue overflows, lasts its hold time, then probes with the
// normal limits: an overflow during the probe resumes shedding within the same episode, a
// quiet probe ends the episode.

#include "waymesh/server/overload_detector.h"

#include "gtest/gtest.h"

namespace waymesh::server {
namespace {

using Event = OverloadDetector::Event;

const absl::Time kT0 = absl::FromUnixSeconds(1000);
const absl::Duration kHold = absl::Milliseconds(500);

TEST(OverloadDetectorTest, NormalUntilTheQueueOverflows) {
  OverloadDetector d(OverloadOptions{kHold});
  Event e;
  for (int i = 0; i < 1000; ++i) {
    EXPECT_FALSE(d.Shedding(kT0 + absl::Milliseconds(i), &e));
    EXPECT_EQ(e, Event::kNone);
  }
  EXPECT_FALSE(d.overloaded());
  d.OnQueueFull(kT0 + absl::Seconds(1), &e);
  EXPECT_EQ(e, Event::kStarted);
  EXPECT_TRUE(d.overloaded());
  EXPECT_TRUE(d.Shedding(kT0 + absl::Seconds(1), &e));
  EXPECT_EQ(e, Event::kNone);
}

TEST(OverloadDetectorTest, ShedsForTheHoldThenProbes) {
  OverloadDetector d(OverloadOptions{kHold});
  Event e;
  d.OnQueueFull(kT0, &e);
  EXPECT_TRUE(d.Shedding(kT0 + kHold - absl::Milliseconds(1), &e));
  EXPECT_FALSE(d.Shedding(kT0 + kHold, &e));  // probing with the normal limits
  EXPECT_EQ(e, Event::kNone);
  EXPECT_TRUE(d.overloaded());  // the episode goes on while the probe runs
}

TEST(OverloadDetectorTest, AnOverflowDuringTheProbeResumesShedding) {
  OverloadDetector d(OverloadOptions{kHold});
  Event e;
  d.OnQueueFull(kT0, &e);
  ASSERT_FALSE(d.Shedding(kT0 + kHold, &e));
  d.OnQueueFull(kT0 + kHold + absl::Milliseconds(2), &e);
  EXPECT_EQ(e, Event::kNone);  // the same episode
  EXPECT_TRUE(d.Shedding(kT0 + kHold + absl::Milliseconds(3), &e));
  // A new hold from the overflow.
  EXPECT_TRUE(d.Shedding(kT0 + 2 * kHold, &e));
  EXPECT_FALSE(d.Shedding(kT0 + 2 * kHold + absl::Milliseconds(2), &e));
}

TEST(OverloadDetectorTest, AQuietProbeEndsTheEpisode) {
  OverloadDetector d(OverloadOptions{kHold});
  Event e;
  d.OnQueueFull(kT0, &e);
  ASSERT_FALSE(d.Shedding(kT0 + kHold, &e));
  EXPECT_FALSE(d.Shedding(kT0 + 2 * kHold - absl::Milliseconds(1), &e));
  EXPECT_EQ(e, Event::kNone);
  EXPECT_FALSE(d.Shedding(kT0 + 2 * kHold, &e));
  EXPECT_EQ(e, Event::kEnded);
  EXPECT_FALSE(d.overloaded());
  // The next overflow starts a new episode.
  d.OnQueueFull(kT0 + absl::Seconds(5), &e);
  EXPECT_EQ(e, Event::kStarted);
}

TEST(OverloadDetectorTest, ALongSilenceEndsTheEpisodeAtTheNextArrival) {
  // No arrivals for a minute: the first one after it moves shedding to probing; a probe that
  // started that long after the hold still needs its own hold to end the episode.
  OverloadDetector d(OverloadOptions{kHold});
  Event e;
  d.OnQueueFull(kT0, &e);
  EXPECT_FALSE(d.Shedding(kT0 + absl::Minutes(1), &e));
  EXPECT_TRUE(d.overloaded());
  EXPECT_FALSE(d.Shedding(kT0 + absl::Minutes(1) + kHold, &e));
  EXPECT_EQ(e, Event::kEnded);
}

}  // namespace
}  // namespace waymesh::server
