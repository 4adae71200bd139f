// `waymesh render` as a level designer runs it: PNG and SVG of the requested size, paths from
// --path and --queries, clear errors for bad arguments (2) and bad query files (1).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "cli_runner.h"
#include "support/shell_quote.h"
#include "support/test_data.h"

namespace waymesh::testing {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

// Width and height from a PNG's IHDR chunk (big-endian), or {0, 0} when not a PNG.
std::pair<uint32_t, uint32_t> PngSize(const std::string& bytes) {
  static const std::string kSignature("\x89PNG\r\n\x1a\n", 8);
  if (bytes.size() < 24 || bytes.compare(0, 8, kSignature) != 0 ||
      bytes.compare(12, 4, "IHDR") != 0) {
    return {0, 0};
  }
  auto be32 = [&](size_t at) {
    return uint32_t(uint8_t(bytes[at])) << 24 | uint32_t(uint8_t(bytes[at + 1])) << 16 |
           uint32_t(uint8_t(bytes[at + 2])) << 8 | uint32_t(uint8_t(bytes[at + 3]));
  };
  return {be32(16), be32(20)};
}

class RenderCliTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new std::string(TempDir("render-cli"));
    map_ = new std::string(*dir_ + "/1100.wmesh");
    ASSERT_EQ(RunCli("build -q " + ShellQuote(SharedData("unity/1100.navmesh")) + " -o " +
                     ShellQuote(*map_))
                  .exit_code,
              0);
  }
  static std::string* dir_;
  static std::string* map_;
};
std::string* RenderCliTest::dir_ = nullptr;
std::string* RenderCliTest::map_ = nullptr;

TEST_F(RenderCliTest, HelpAndBadArguments) {
  CliResult help = RunCli("render --help");
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_THAT(help.out, AllOf(HasSubstr("--color"), HasSubstr("--queries"), HasSubstr("--min-y")));
  const std::string m = ShellQuote(*map_);
  for (const char* args :
       {"-o x.jpg", "", "-o x.png --color height", "-o x.png --width 10", "-o x.png --width 99999",
        "-o x.png --path 1,2 3,4,5", "-o x.png --path 1,2,3", "-o x.png --min-y 5 --max-y 1",
        "-o x.png --small-island-area -3", "-o x.png --extents 1,2"}) {
    CliResult r = RunCli("render " + m + " " + args);
    EXPECT_EQ(r.exit_code, 2) << args << ": " << r.out;
    EXPECT_FALSE(std::filesystem::exists("x.png")) << args;
  }
  CliResult path = RunCli("render " + m + " -o x.png --path 1,2,3 4,five,6");
  EXPECT_THAT(path.out, HasSubstr("--path '4,five,6'"));
}

TEST_F(RenderCliTest, BadQueryFileNamesTheLine) {
  const std::string queries = *dir_ + "/bad.txt";
  std::ofstream(queries) << "# start goal\n60 10 40 100 11 60\n1 2 3\n";
  CliResult r = RunCli("render " + ShellQuote(*map_) + " -o " + ShellQuote(*dir_ + "/q.png") +
                       " --queries " + ShellQuote(queries));
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_THAT(r.out, HasSubstr("bad.txt:3: expected 4 or 5 numbers"));
  EXPECT_FALSE(std::filesystem::exists(*dir_ + "/q.png"));
}

TEST_F(RenderCliTest, PngHasTheRequestedWidthAndKeepsTheAspect) {
  const std::string out = *dir_ + "/m.png";
  CliResult r = RunCli("render " + ShellQuote(*map_) + " --width 640 -o " + ShellQuote(out));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const auto [w, h] = PngSize(ReadFileOrDie(out));
  EXPECT_EQ(w, 640u);
  // 1100.navmesh spans about 113 x 113 m: the map part is about square; the legend adds a strip.
  EXPECT_GT(h, 600u);
  EXPECT_LT(h, 800u);
  EXPECT_THAT(r.out, HasSubstr(" x "));
}

TEST_F(RenderCliTest, SvgWithPathsFromFlagsAndQueryFile) {
  const std::string queries = *dir_ + "/q.txt";
  std::ofstream(queries) << "# two 3D queries\n60 10.4 40 100 10.4 60\n20 12 60 30 12 70\n";
  const std::string out = *dir_ + "/m.svg";
  CliResult r = RunCli("render " + ShellQuote(*map_) + " --color island -o " + ShellQuote(out) +
                       " --path 60,10.4,40 100,10.4,60 --queries " + ShellQuote(queries));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr("3 paths"));
  const std::string svg = ReadFileOrDie(out);
  EXPECT_THAT(svg, AllOf(HasSubstr("<svg xmlns=\"http://www.w3.org/2000/svg\""),
                         HasSubstr("path 1: "), HasSubstr("query line 2: "),
                         HasSubstr("query line 3: "), HasSubstr("island 3: 7 polygons")));
}

}  // namespace
}  // namespace waymesh::testing
