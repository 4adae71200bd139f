// `waymesh diff` as a reviewer runs it: like diff(1), exit 0 for no changes, 1 for changes
// (named), 2 for trouble; -o draws the changes.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "cli_runner.h"
#include "support/defect_maps.h"
#include "support/shell_quote.h"
#include "support/test_data.h"

namespace waymesh::testing {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;

// Number of SVG elements named `tag` (with `klass` as class, when given), parsed as XML by
// python3 so a malformed file fails.
int CountSvgElements(const std::string& svg, const std::string& tag, const std::string& klass) {
  const std::string script = absl::StrFormat(
      "import sys, xml.etree.ElementTree as E; r = E.parse(sys.argv[1]).getroot(); "
      "print(sum(1 for e in r.iter('{http://www.w3.org/2000/svg}%s') "
      "if not sys.argv[2] or e.get('class') == sys.argv[2]))",
      tag);
  const std::string command =
      "python3 -c \"" + script + "\" " + ShellQuote(svg) + " '" + klass + "' 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return -1;
  char buffer[256] = {};
  const size_t n = fread(buffer, 1, sizeof buffer - 1, pipe);
  const int status = pclose(pipe);
  const std::string out(buffer, n);
  EXPECT_EQ(status, 0) << out;
  return status == 0 ? std::atoi(out.c_str()) : -1;
}

TEST(DiffCliTest, HelpAndTrouble) {
  CliResult help = RunCli("diff --help");
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_THAT(help.out, AllOf(HasSubstr("--pairs"), HasSubstr("--output")));
  const std::string dir = TempDir("diff-args");
  WriteFileOrDie(dir + "/m.wmesh", CompileOrDie(Unity1000Mesh()));
  const std::string m = ShellQuote(dir + "/m.wmesh");
  EXPECT_EQ(RunCli("diff " + m).exit_code, 2);
  EXPECT_EQ(RunCli("diff " + m + " " + m + " -o x.gif").exit_code, 2);
  EXPECT_EQ(RunCli("diff " + m + " " + m + " --pairs -3").exit_code, 2);
  WriteFileOrDie(dir + "/bad.wmesh", "not a map at all, just text");
  CliResult bad = RunCli("diff " + m + " " + ShellQuote(dir + "/bad.wmesh"));
  EXPECT_EQ(bad.exit_code, 2) << bad.out;
  EXPECT_THAT(bad.out, HasSubstr("bad.wmesh"));
}

TEST(DiffCliTest, SameMapHasNoChanges) {
  const std::string dir = TempDir("diff-same");
  WriteFileOrDie(dir + "/a.wmesh", CompileOrDie(Unity1000Mesh()));
  WriteFileOrDie(dir + "/b.wmesh", CompileOrDie(Unity1000Mesh()));
  CliResult r = RunCli("diff " + ShellQuote(dir + "/a.wmesh") + " " + ShellQuote(dir + "/b.wmesh") +
                       " -o " + ShellQuote(dir + "/d.svg"));
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr("no changes (127 polygons, 200 sampled pairs agree)"));
  EXPECT_EQ(CountSvgElements(dir + "/d.svg", "polygon", "new"), 127);
  EXPECT_EQ(CountSvgElements(dir + "/d.svg", "polygon", "removed"), 0);
}

TEST(DiffCliTest, RealRebuildNamesTheChanges) {
  const std::string dir = TempDir("diff-real");
  for (const char* id : {"1000", "1100"}) {
    ASSERT_EQ(RunCli(absl::StrFormat("build -q %s -o %s",
                                     ShellQuote(SharedData(absl::StrCat("unity/", id, ".navmesh"))),
                                     ShellQuote(dir + "/" + id + ".wmesh")))
                  .exit_code,
              0);
  }
  CliResult r = RunCli("diff " + ShellQuote(dir + "/1000.wmesh") + " " +
                       ShellQuote(dir + "/1100.wmesh") + " -o " + ShellQuote(dir + "/d.png"));
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_THAT(r.out, AllOf(HasSubstr("polygons removed: "), HasSubstr("polygons added: "),
                           HasSubstr("walkable area: "), HasSubstr("islands: 2 -> 4"),
                           HasSubstr("picture: ")));
  EXPECT_GT(std::filesystem::file_size(dir + "/d.png"), 1000u);
}

TEST(DiffCliTest, AreaChangeAndCutCorridor) {
  const std::string dir = TempDir("diff-edits");
  const RepairedMesh base = Unity1000Mesh();
  WriteFileOrDie(dir + "/base.wmesh", CompileOrDie(base));

  RepairedMesh area = base;
  area.poly_area[7] = 2;
  std::vector<PolyIndex> placement;
  WriteFileOrDie(dir + "/area.wmesh", CompileOrDie(area, &placement));
  CliResult a = RunCli("diff " + ShellQuote(dir + "/base.wmesh") + " " +
                       ShellQuote(dir + "/area.wmesh") + " -o " + ShellQuote(dir + "/area.svg"));
  EXPECT_EQ(a.exit_code, 1) << a.out;
  EXPECT_THAT(
      a.out,
      AllOf(HasSubstr("area ids changed: 1 polygons"),
            HasSubstr(absl::StrFormat("tile %d polygon %d", placement[7].tile, placement[7].poly)),
            HasSubstr("area 0 -> 2"), Not(HasSubstr("polygons removed"))));
  EXPECT_EQ(CountSvgElements(dir + "/area.svg", "polygon", "area-changed"), 1);

  uint32_t smaller = 0;
  const auto bridge = FindBridgeEdge(base, &smaller);
  ASSERT_TRUE(bridge.has_value());
  RepairedMesh cut = base;
  MakeWall(&cut, bridge->first);
  MakeWall(&cut, bridge->second);
  RecomputeIslands(&cut);
  WriteFileOrDie(dir + "/cut.wmesh", CompileOrDie(cut));
  CliResult c = RunCli("diff " + ShellQuote(dir + "/base.wmesh") + " " +
                       ShellQuote(dir + "/cut.wmesh") + " --pairs 300 --examples 2");
  EXPECT_EQ(c.exit_code, 1) << c.out;
  EXPECT_THAT(c.out, AllOf(HasSubstr("of 300 sampled pairs flipped ("), HasSubstr("COMPLETE -> "),
                           HasSubstr("island split: old island 0")));
}

}  // namespace
}  // namespace waymesh::testing
