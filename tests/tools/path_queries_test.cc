// Query files shared by `waymesh path` and `waymesh render --queries`.

#include "waymesh/query_files/path_queries.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/test_data.h"

namespace waymesh::testing {
namespace {

using ::testing::HasSubstr;

TEST(PathQueriesTest, ParsesEveryRowKind) {
  absl::StatusOr<std::vector<PathQuery>> q = ParsePathQueries(
      "# comment\n"
      "1 2 3 4\n"
      "1 2 3 4 5.5\r\n"
      "\n"
      "1,2,3, 4,5,6\n"
      "s sample\n"
      "pf 1 2 3 4 5 6 0x3 8\n"
      "rc 1 2 3 4 5 6 0 0\n",
      "q.txt");
  ASSERT_TRUE(q.ok()) << q.status();
  ASSERT_EQ(q->size(), 4u);
  EXPECT_EQ((*q)[0].line, 2);
  EXPECT_EQ((*q)[0].start, (Vec3{1, 0, 2}));  // 2D: second axis is z
  EXPECT_EQ((*q)[0].goal, (Vec3{3, 0, 4}));
  EXPECT_LT((*q)[0].expected, 0);
  EXPECT_DOUBLE_EQ((*q)[1].expected, 5.5);
  EXPECT_EQ((*q)[2].goal, (Vec3{4, 5, 6}));
  EXPECT_EQ((*q)[3].line, 7);
  EXPECT_EQ((*q)[3].include_flags, 3);
  EXPECT_EQ((*q)[3].exclude_flags, 8);
}

TEST(PathQueriesTest, ReadsScenarioFilesAndRecastTests) {
  absl::StatusOr<std::vector<PathQuery>> scen =
      ReadPathQueries(SharedData("polyanya/degenerate/bad-ambig.scen"));
  ASSERT_TRUE(scen.ok()) << scen.status();
  ASSERT_EQ(scen->size(), 4u);
  EXPECT_EQ((*scen)[0].start, (Vec3{0.99f, 0, 1.01f}));
  EXPECT_EQ((*scen)[0].goal, (Vec3{1.01f, 0, 0.99f}));
  EXPECT_DOUBLE_EQ((*scen)[0].expected, 4);
  absl::StatusOr<std::vector<PathQuery>> recast =
      ReadPathQueries(SharedData("recast/TestCases/nav_mesh_test.txt"));
  ASSERT_TRUE(recast.ok()) << recast.status();
  EXPECT_EQ(recast->size(), 21u);
}

TEST(PathQueriesTest, ErrorsNameFileAndLine) {
  auto bad = ParsePathQueries("1 2 3 4\n1 2 x 4\n", "q.txt");
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(), HasSubstr("q.txt:2: 'x' is not a finite number"));
  EXPECT_THAT(ParsePathQueries("1 2 3\n", "q.txt").status().message(),
              HasSubstr("q.txt:1: expected 4 or 5 numbers"));
  EXPECT_THAT(ParsePathQueries("pf 1 2 3 4 5 6 70000 0\n", "q.txt").status().message(),
              HasSubstr("q.txt:1: pf row"));
  EXPECT_THAT(ParsePathQueries("1 2 nan 4\n", "q.txt").status().message(), HasSubstr("q.txt:1"));
  EXPECT_THAT(ReadPathQueries("/nonexistent/q.txt").status().message(),
              HasSubstr("/nonexistent/q.txt"));
}

}  // namespace
}  // namespace waymesh::testing
