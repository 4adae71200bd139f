// Go duration strings as ghz configs write them.

#include "waymesh/loadtest/go_duration.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace waymesh::loadtest {
namespace {

using ::testing::HasSubstr;

TEST(GoDurationTest, ParsesGoSpellings) {
  EXPECT_EQ(*ParseGoDuration("10s"), absl::Seconds(10));
  EXPECT_EQ(*ParseGoDuration("500ms"), absl::Milliseconds(500));
  EXPECT_EQ(*ParseGoDuration("1m30s"), absl::Seconds(90));
  EXPECT_EQ(*ParseGoDuration("1.5h"), absl::Minutes(90));
  EXPECT_EQ(*ParseGoDuration("250us"), absl::Microseconds(250));
  EXPECT_EQ(*ParseGoDuration("250\xC2\xB5s"), absl::Microseconds(250));  // micro sign
  EXPECT_EQ(*ParseGoDuration("7ns"), absl::Nanoseconds(7));
  EXPECT_EQ(*ParseGoDuration("0"), absl::ZeroDuration());
}

TEST(GoDurationTest, RejectsWhatIsNotATimeSpan) {
  for (const char* bad : {"", "10", "ten seconds", "10 s", "-5s", "inf", "5d", "s"}) {
    absl::StatusOr<absl::Duration> d = ParseGoDuration(bad);
    EXPECT_FALSE(d.ok()) << bad;
    EXPECT_THAT(d.status().message(), HasSubstr("invalid duration")) << bad;
  }
  EXPECT_THAT(ParseGoDuration("10").status().message(), HasSubstr("missing unit"));
  EXPECT_THAT(ParseGoDuration("-1s").status().message(), HasSubstr("negative"));
}

TEST(GoDurationTest, FormatsWhatItParses) {
  EXPECT_EQ(FormatGoDuration(absl::Seconds(20)), "20s");
  EXPECT_EQ(FormatGoDuration(absl::Seconds(90)), "1m30s");
  EXPECT_EQ(FormatGoDuration(absl::Milliseconds(250)), "250ms");
  for (absl::Duration d : {absl::Seconds(20), absl::Milliseconds(1500), absl::Hours(2)}) {
    EXPECT_EQ(*ParseGoDuration(FormatGoDuration(d)), d);
  }
}

}  // namespace
}  // namespace waymesh::loadtest
