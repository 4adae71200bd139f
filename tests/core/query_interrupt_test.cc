// PathOptions::interrupt: a search polls it while it runs and stops with its status; an
// interrupt that never fires changes nothing.

#include "waymesh/core/query_interrupt.h"

#include "gtest/gtest.h"
#include "polyanya_data.h"
#include "support/map_builder.h"
#include "support/test_data.h"
#include "waymesh/core/nav_query.h"

namespace waymesh {
namespace {

// Says stop once it has been polled `allowed` times; counts every poll.
class CountingInterrupt : public QueryInterrupt {
 public:
  explicit CountingInterrupt(int allowed) : allowed_(allowed) {}
  absl::Status Check() override {
    ++polls_;
    if (polls_ > allowed_) return absl::DeadlineExceededError("test deadline");
    return absl::OkStatus();
  }
  int polls() const { return polls_; }

 private:
  int allowed_;
  int polls_ = 0;
};

struct AuroraLongest {
  std::shared_ptr<const NavMap> map;
  testing::ExpectedQuery query;
};

// The aurora map and its longest published query: a search of thousands of nodes.
AuroraLongest LoadLongest() {
  const testing::Aurora aurora = testing::LoadAurora();
  EXPECT_FALSE(aurora.queries.empty());
  return {aurora.map, aurora.queries.empty() ? testing::ExpectedQuery{}
                                             : testing::LongestQuery(aurora.queries)};
}

TEST(QueryInterruptTest, StopsALongSearchWithTheInterruptsStatus) {
  const AuroraLongest w = LoadLongest();
  ASSERT_NE(w.map, nullptr);
  NavQueryOptions every_polygon;
  every_polygon.dead_ends = false;  // skipping aurora's dead ends leaves too short a search
  NavQuery q(w.map, every_polygon);
  PathOptions options;
  options.half_extents = {0.5f, 1, 0.5f};
  PathResult reference;
  ASSERT_TRUE(q.FindPath(w.query.start, w.query.goal, QueryFilter(), options, &reference).ok());
  ASSERT_EQ(reference.status, QueryStatus::kComplete);
  ASSERT_GT(reference.nodes_expanded, 1024u) << "the query must be long enough to be polled";

  CountingInterrupt stop_at_second(1);
  options.interrupt = &stop_at_second;
  PathResult cut;
  const absl::Status s = q.FindPath(w.query.start, w.query.goal, QueryFilter(), options, &cut);
  EXPECT_EQ(s.code(), absl::StatusCode::kDeadlineExceeded) << s;
  EXPECT_EQ(stop_at_second.polls(), 2);
  EXPECT_TRUE(cut.waypoints.empty());
  EXPECT_LT(cut.nodes_expanded, reference.nodes_expanded);

  // The query object is reusable after an interrupted search and answers as before.
  CountingInterrupt never(1 << 30);
  options.interrupt = &never;
  PathResult again;
  ASSERT_TRUE(q.FindPath(w.query.start, w.query.goal, QueryFilter(), options, &again).ok());
  EXPECT_GT(never.polls(), 0);
  EXPECT_EQ(again.status, reference.status);
  EXPECT_EQ(again.length, reference.length);
  EXPECT_EQ(again.waypoints.size(), reference.waypoints.size());
  EXPECT_EQ(again.nodes_expanded, reference.nodes_expanded);
}

}  // namespace
}  // namespace waymesh
