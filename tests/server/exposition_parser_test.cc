// The invariant checker used on every exposition must itself catch each broken invariant.

#include "exposition_parser.h"

#include <gtest/gtest.h>

namespace waymesh::testing {
namespace {

constexpr char kHeader[] = "# HELP h_seconds Help.\n# TYPE h_seconds histogram\n";

absl::Status Check(const std::string& text) {
  absl::StatusOr<Exposition> parsed = ParseExposition(text);
  if (!parsed.ok()) return parsed.status();
  return CheckExpositionInvariants(*parsed);
}

TEST(ExpositionInvariantsTest, AcceptsAWellFormedHistogram) {
  EXPECT_TRUE(Check(std::string(kHeader) +
                    "h_seconds_bucket{le=\"0.1\"} 1\nh_seconds_bucket{le=\"+Inf\"} 3\n"
                    "h_seconds_sum 2.5\nh_seconds_count 3\n")
                  .ok());
}

TEST(ExpositionInvariantsTest, CatchesEachBrokenHistogramInvariant) {
  const auto kBroken = absl::StatusCode::kFailedPrecondition;
  // No +Inf bucket.
  EXPECT_EQ(Check(std::string(kHeader) +
                  "h_seconds_bucket{le=\"0.1\"} 1\nh_seconds_sum 1\nh_seconds_count 1\n")
                .code(),
            kBroken);
  // +Inf differs from _count.
  EXPECT_EQ(Check(std::string(kHeader) +
                  "h_seconds_bucket{le=\"+Inf\"} 2\nh_seconds_sum 1\nh_seconds_count 3\n")
                .code(),
            kBroken);
  // Not cumulative.
  EXPECT_EQ(Check(std::string(kHeader) +
                  "h_seconds_bucket{le=\"0.1\"} 2\nh_seconds_bucket{le=\"+Inf\"} 1\n"
                  "h_seconds_sum 1\nh_seconds_count 1\n")
                .code(),
            kBroken);
  // le not ascending.
  EXPECT_EQ(Check(std::string(kHeader) +
                  "h_seconds_bucket{le=\"1\"} 0\nh_seconds_bucket{le=\"0.1\"} 0\n"
                  "h_seconds_bucket{le=\"+Inf\"} 0\nh_seconds_sum 0\nh_seconds_count 0\n")
                .code(),
            kBroken);
  // No _sum.
  EXPECT_EQ(
      Check(std::string(kHeader) + "h_seconds_bucket{le=\"+Inf\"} 0\nh_seconds_count 0\n").code(),
      kBroken);
}

TEST(ExpositionInvariantsTest, CatchesDuplicatesAndOrphanSamples) {
  const auto kBroken = absl::StatusCode::kFailedPrecondition;
  EXPECT_EQ(Check("# HELP c_total H.\n# TYPE c_total counter\n"
                  "c_total{a=\"1\",b=\"2\"} 1\nc_total{b=\"2\",a=\"1\"} 1\n")
                .code(),
            kBroken);
  EXPECT_EQ(Check("orphan_total 1\n").code(), kBroken);
  EXPECT_EQ(Check("# HELP c_total H.\n# TYPE c_total counter\nc_total -1\n").code(), kBroken);
}

TEST(ExpositionParserTest, RejectsMalformedTextNamingTheLine) {
  const auto kBad = absl::StatusCode::kInvalidArgument;
  EXPECT_EQ(Check("# TYPE g gauge\ng{a=\"1} 1\n").code(), kBad);
  EXPECT_EQ(Check("# TYPE g gauge\ng{a=\"1\"}\n").code(), kBad);
  EXPECT_EQ(Check("# TYPE g gauge\ng abc\n").code(), kBad);
  EXPECT_EQ(Check("# TYPE g gauge\n# TYPE g gauge\n").code(), kBad);
  EXPECT_EQ(Check("# TYPE g gauge\ng 1").code(), kBad);  // no final newline
  absl::Status status = Check("# TYPE g gauge\n\ng{a=\"\\x\"} 1\n");
  EXPECT_EQ(status.code(), kBad);
  EXPECT_NE(status.message().find("line 3"), std::string::npos) << status;
}

}  // namespace
}  // namespace waymesh::testing
