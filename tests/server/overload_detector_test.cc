// Shedding starts when the normal queue overflows, lasts its hold time, then probes with the
// normal limits: an overflow during the probe resumes shedding within the same episode, a
// quiet probe ends the episode.

#include "waymesh/server/overload_detector.h"

#include "gtest/gtest.h"

namespace waymesh::server {
namespace {

const absl::Time kT0 = absl::FromUnixSeconds(1000);
const absl::Duration kHold = absl::Milliseconds(500);

TEST(OverloadDetectorTest, NormalUntilTheQueueOverflows) {
  OverloadDetector d(OverloadOptions{kHold});
  for (int i = 0; i < 1000; ++i) {
    EXPECT_FALSE(d.Shedding(kT0 + absl::Milliseconds(i)));
    EXPECT_FALSE(d.overloaded());
  }
  d.OnQueueFull(kT0 + absl::Seconds(1));  // an episode starts
  EXPECT_TRUE(d.overloaded());
  EXPECT_TRUE(d.Shedding(kT0 + absl::Seconds(1)));
  EXPECT_TRUE(d.overloaded());
}

TEST(OverloadDetectorTest, ShedsForTheHoldThenProbes) {
  OverloadDetector d(OverloadOptions{kHold});
  d.OnQueueFull(kT0);
  EXPECT_TRUE(d.Shedding(kT0 + kHold - absl::Milliseconds(1)));
  EXPECT_FALSE(d.Shedding(kT0 + kHold));  // probing with the normal limits
  EXPECT_TRUE(d.overloaded());            // the episode goes on while the probe runs
}

TEST(OverloadDetectorTest, AnOverflowDuringTheProbeResumesShedding) {
  OverloadDetector d(OverloadOptions{kHold});
  d.OnQueueFull(kT0);
  ASSERT_FALSE(d.Shedding(kT0 + kHold));
  d.OnQueueFull(kT0 + kHold + absl::Milliseconds(2));
  EXPECT_TRUE(d.overloaded());  // the same episode, never interrupted
  EXPECT_TRUE(d.Shedding(kT0 + kHold + absl::Milliseconds(3)));
  // A new hold from the overflow.
  EXPECT_TRUE(d.Shedding(kT0 + 2 * kHold));
  EXPECT_FALSE(d.Shedding(kT0 + 2 * kHold + absl::Milliseconds(2)));
}

TEST(OverloadDetectorTest, AQuietProbeEndsTheEpisode) {
  OverloadDetector d(OverloadOptions{kHold});
  d.OnQueueFull(kT0);
  ASSERT_FALSE(d.Shedding(kT0 + kHold));
  EXPECT_FALSE(d.Shedding(kT0 + 2 * kHold - absl::Milliseconds(1)));
  EXPECT_TRUE(d.overloaded());
  EXPECT_FALSE(d.Shedding(kT0 + 2 * kHold));
  EXPECT_FALSE(d.overloaded());  // ended
  // The next overflow starts a new episode.
  d.OnQueueFull(kT0 + absl::Seconds(5));
  EXPECT_TRUE(d.overloaded());
}

TEST(OverloadDetectorTest, ALongSilenceEndsTheEpisodeAtTheNextArrival) {
  // No arrivals for a minute: the first one after it moves shedding to probing; a probe that
  // started that long after the hold still needs its own hold to end the episode.
  OverloadDetector d(OverloadOptions{kHold});
  d.OnQueueFull(kT0);
  EXPECT_FALSE(d.Shedding(kT0 + absl::Minutes(1)));
  EXPECT_TRUE(d.overloaded());
  EXPECT_FALSE(d.Shedding(kT0 + absl::Minutes(1) + kHold));
  EXPECT_FALSE(d.overloaded());  // ended
}

}  // namespace
}  // namespace waymesh::server
