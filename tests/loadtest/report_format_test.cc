// The report formats: ghz's summary text, ghz's JSON report shape, ghz's per-call CSV and the
// self-contained HTML page.

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "waymesh/loadtest/csv_report.h"
#include "waymesh/loadtest/html_report.h"
#include "waymesh/loadtest/json_report.h"
#include "waymesh/loadtest/run_statistics.h"
#include "waymesh/loadtest/summary_report.h"

namespace waymesh::loadtest {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

LoadReport Sample() {
  RunResult run;
  for (int i = 1; i <= 10; ++i) run.ok_latencies_ns.push_back(i * 1'000'000);
  run.status_counts = {{"OK", 10}, {"NotFound", 3}};
  run.error_counts = {{"rpc error: code = NotFound desc = no map \"atlantis\"", 3}};
  run.count = 13;
  run.total_ns = 130'000'000;
  return Summarize(run);
}

TEST(SummaryReportTest, LaysOutGhzSections) {
  const std::string text = FormatSummaryReport(Sample(), "smoke");
  EXPECT_THAT(text, HasSubstr("Summary:\n  Name:\t\tsmoke\n  Count:\t13\n  Total:\t130.00 ms\n"
                              "  Slowest:\t10.00 ms\n  Fastest:\t1.00 ms\n  Average:\t5.50 ms\n"
                              "  Requests/sec:\t100.00\n"));
  // Ten buckets, each with one call: full-width bars (the largest count is 40 marks).
  EXPECT_THAT(text, HasSubstr("Response time histogram:\n  1.900 [1]\t|"));
  EXPECT_THAT(text, HasSubstr("  10.000 [1]\t|"));
  std::string bar;
  for (int i = 0; i < 40; ++i) bar += "\xE2\x88\x8E";
  EXPECT_THAT(text, HasSubstr("[1]\t|" + bar + "\n"));
  EXPECT_THAT(text, HasSubstr("Latency distribution:\n  10 % in 1.00 ms \n  25 % in 3.00 ms \n"
                              "  50 % in 5.00 ms \n  75 % in 8.00 ms \n  90 % in 9.00 ms \n"
                              "  95 % in 10.00 ms \n  99 % in 10.00 ms \n"));
  EXPECT_THAT(text, HasSubstr("Status code distribution:\n  [NotFound]   3 responses   \n"
                              "  [OK]   10 responses   \n"));
  EXPECT_THAT(text, HasSubstr("Error distribution:\n  [3]   rpc error: code = NotFound desc = "
                              "no map \"atlantis\"   \n"));
}

TEST(SummaryReportTest, NoErrorSectionWithoutErrors) {
  RunResult run;
  run.ok_latencies_ns = {1000};
  run.status_counts = {{"OK", 1}};
  run.count = 1;
  run.total_ns = 1000;
  const std::string text = FormatSummaryReport(Summarize(run));
  EXPECT_THAT(text, Not(HasSubstr("Error distribution")));
  EXPECT_THAT(text, Not(HasSubstr("Name:")));
  EXPECT_THAT(text, HasSubstr("[OK]   1 responses"));
}

TEST(JsonReportTest, HasGhzShapeWithNanosecondIntegers) {
  LoadConfig config;
  config.call = "waymesh.v1.NavigationService.FindPath";
  config.host = "127.0.0.1:50051";
  config.total = 13;
  const nlohmann::ordered_json j = JsonReport(Sample(), config, absl::FromUnixSeconds(1700000000));
  EXPECT_EQ(j["date"], "2023-11-14T22:13:20Z");
  EXPECT_EQ(j["options"]["call"], "waymesh.v1.NavigationService.FindPath");
  EXPECT_EQ(j["options"]["total"], 13);
  EXPECT_EQ(j["endReason"], "normal");
  for (const char* key : {"count", "total", "average", "fastest", "slowest"}) {
    EXPECT_TRUE(j[key].is_number_integer()) << key;
  }
  EXPECT_EQ(j["count"], 13);
  EXPECT_EQ(j["total"], 130'000'000);
  EXPECT_EQ(j["average"], 5'500'000);
  EXPECT_EQ(j["fastest"], 1'000'000);
  EXPECT_EQ(j["slowest"], 10'000'000);
  EXPECT_TRUE(j["rps"].is_number_float());
  EXPECT_DOUBLE_EQ(j["rps"].get<double>(), 100.0);
  EXPECT_EQ(j["statusCodeDistribution"]["OK"], 10);
  EXPECT_EQ(j["statusCodeDistribution"]["NotFound"], 3);
  EXPECT_EQ(j["errorDistribution"]["rpc error: code = NotFound desc = no map \"atlantis\""], 3);
  ASSERT_EQ(j["latencyDistribution"].size(), 7u);
  EXPECT_EQ(j["latencyDistribution"][3]["percentage"], 75);
  EXPECT_EQ(j["latencyDistribution"][3]["latency"], 8'000'000);
  ASSERT_EQ(j["histogram"].size(), 10u);
  EXPECT_DOUBLE_EQ(j["histogram"][0]["mark"].get<double>(), 0.0019);  // seconds
  EXPECT_EQ(j["histogram"][0]["count"], 1);
  EXPECT_DOUBLE_EQ(j["histogram"][0]["frequency"].get<double>(), 0.1);
  // ghz's key order, so a diff against a ghz report lines up.
  std::vector<std::string> keys;
  for (const auto& [key, value] : j.items()) keys.push_back(key);
  EXPECT_THAT(keys,
              ::testing::ElementsAre("date", "options", "endReason", "count", "total", "average",
                                     "fastest", "slowest", "rps", "errorDistribution",
                                     "statusCodeDistribution", "latencyDistribution", "histogram"));
}

TEST(CsvReportTest, OneLinePerCallInGhzColumnsWithQuotedErrors) {
  RunResult run;
  run.calls = {{1'234'567, "OK", ""},
               {20'000, "NotFound", "rpc error: code = NotFound desc = map \"a,b\" is unknown"}};
  EXPECT_EQ(CsvReport(run),
            "duration (ms),status,error\n"
            "1.23,OK,\n"
            "0.02,NotFound,\"rpc error: code = NotFound desc = map \"\"a,b\"\" is unknown\"\n");
  EXPECT_EQ(CsvReport(RunResult()), "duration (ms),status,error\n");
}

TEST(HtmlReportTest, SelfContainedPageWithEverySectionAndEscapedText) {
  LoadConfig config;
  config.name = "FindPath <town>";
  config.call = "waymesh.v1.NavigationService.FindPath";
  config.host = "127.0.0.1:50051";
  const std::string html = HtmlReport(Sample(), config, absl::FromUnixSeconds(0));
  EXPECT_THAT(html, HasSubstr("<!DOCTYPE html>"));
  EXPECT_THAT(html, HasSubstr("<title>FindPath &lt;town&gt; - waymesh-load</title>"));
  EXPECT_THAT(html, HasSubstr("1970-01-01T00:00:00Z"));
  for (const char* section : {"Summary", "Response time histogram", "Latency distribution",
                              "Status code distribution", "Error distribution", "Options"}) {
    EXPECT_THAT(html, HasSubstr(absl::StrCat("<h2>", section, "</h2>"))) << section;
  }
  EXPECT_THAT(html, HasSubstr("<th class=\"l\">Count</th><td>13</td>"));
  EXPECT_THAT(html, HasSubstr("<td>99 %</td><td>10.00 ms</td>"));
  EXPECT_THAT(html, HasSubstr("no map &quot;atlantis&quot;"));  // error text escaped
  // Ten histogram rows; the fullest bucket's bar is the widest (20em).
  EXPECT_THAT(html, HasSubstr("width:20.00em"));
  // Nothing fetched or run: it opens as it is.
  EXPECT_THAT(html, Not(HasSubstr("<script")));
  EXPECT_THAT(html, Not(HasSubstr("http")));
}

}  // namespace
}  // namespace waymesh::loadtest
