// ghz config files and the command-line flags that override them: every key, the defaults, and
// an error naming the key and the source for each kind of bad input.

#include "waymesh/loadtest/load_config.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "scratch_dir.h"
#include "waymesh/loadtest/command_line.h"

namespace waymesh::loadtest {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Pair;
using testing::ScratchDir;

constexpr char kMinimal[] =
    R"({"proto": "nav.proto", "call": "waymesh.v1.NavigationService.FindPath", "host": "127.0.0.1:1"})";

absl::StatusOr<LoadConfig> FromFile(const ScratchDir& dir, const std::string& text,
                                    const std::vector<std::string>& flags = {}) {
  const std::string path = dir.Write("configs/load.json", text);
  absl::StatusOr<CommandLine> command_line = ParseCommandLine(flags);
  if (!command_line.ok()) return command_line.status();
  return ResolveConfig(path, command_line->overrides);
}

std::string ErrorOf(const ScratchDir& dir, const std::string& text,
                    const std::vector<std::string>& flags = {}) {
  absl::StatusOr<LoadConfig> config = FromFile(dir, text, flags);
  EXPECT_FALSE(config.ok()) << text;
  EXPECT_EQ(config.status().code(), absl::StatusCode::kInvalidArgument) << config.status();
  return std::string(config.status().message());
}

TEST(LoadConfigTest, ReadsEveryGhzKey) {
  ScratchDir dir;
  dir.Write("configs/requests.json", R"([{"map_id": "a"}, {"map_id": "b"}])");
  absl::StatusOr<LoadConfig> config = FromFile(dir, R"({
    "name": "smoke", "proto": "nav.proto", "import-paths": ["protos", "/abs/protos"],
    "call": "waymesh.v1.NavigationService.FindPath", "host": "localhost:50051", "insecure": true,
    "total": 2000, "duration": "1m30s", "concurrency": 64, "connections": 4, "rps": 250.5,
    "timeout": "500ms", "connect-timeout": "2s", "data-file": "requests.json",
    "metadata": {"Authorization": "Bearer t0k", "x-shard": "7"}})");
  ASSERT_TRUE(config.ok()) << config.status();
  const std::string base = dir.path() + "/configs/";
  EXPECT_EQ(config->name, "smoke");
  EXPECT_EQ(config->proto, base + "nav.proto");  // relative to the config file
  EXPECT_THAT(config->import_paths, ElementsAre(base + "protos", "/abs/protos"));
  EXPECT_EQ(config->call, "waymesh.v1.NavigationService.FindPath");
  EXPECT_EQ(config->host, "localhost:50051");
  EXPECT_TRUE(config->insecure);
  EXPECT_EQ(config->total, 2000u);
  EXPECT_EQ(config->duration, absl::Seconds(90));
  EXPECT_EQ(config->concurrency, 64u);
  EXPECT_EQ(config->connections, 4u);
  EXPECT_DOUBLE_EQ(config->rps, 250.5);
  EXPECT_EQ(config->timeout, absl::Milliseconds(500));
  EXPECT_EQ(config->connect_timeout, absl::Seconds(2));
  EXPECT_EQ(config->data_file, base + "requests.json");
  EXPECT_EQ(config->data, nlohmann::json::parse(R"([{"map_id": "a"}, {"map_id": "b"}])"));
  EXPECT_THAT(config->metadata,
              ElementsAre(Pair("authorization", "Bearer t0k"), Pair("x-shard", "7")));
}

TEST(LoadConfigTest, DefaultsAreGhzsAndARunAlwaysEnds) {
  ScratchDir dir;
  absl::StatusOr<LoadConfig> config = FromFile(dir, kMinimal);
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->total, kDefaultTotal);  // neither total nor duration: 200 calls
  EXPECT_EQ(config->duration, absl::ZeroDuration());
  EXPECT_EQ(config->concurrency, 50u);
  EXPECT_EQ(config->connections, 1u);
  EXPECT_EQ(config->rps, 0);
  EXPECT_EQ(config->timeout, absl::Seconds(20));
  EXPECT_EQ(config->connect_timeout, absl::Seconds(10));
  EXPECT_FALSE(config->insecure);
  EXPECT_TRUE(config->data.is_null());

  // A duration alone is the limit: no default count on top of it.
  config = FromFile(dir, kMinimal, {"--duration", "3s"});
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->total, 0u);
  EXPECT_EQ(config->duration, absl::Seconds(3));
}

TEST(LoadConfigTest, FlagsOverrideTheFileInEverySpelling) {
  ScratchDir dir;
  const std::string file = R"({"proto": "nav.proto", "call": "a.B.C", "host": "127.0.0.1:1",
      "total": 10, "concurrency": 5, "data": {"map_id": "file"}})";
  absl::StatusOr<LoadConfig> config =
      FromFile(dir, file,
               {"--total", "2000", "-concurrency=50", "-z", "2s", "--connections=5", "--rps", "100",
                "-t", "3s", "--insecure", "-d", R"([{"map_id": "flag"}])", "-m",
                R"({"authorization": "Bearer x"})", "-i", "a,b", "127.0.0.2:7"});
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->total, 2000u);
  EXPECT_EQ(config->concurrency, 50u);
  EXPECT_EQ(config->duration, absl::Seconds(2));
  EXPECT_EQ(config->connections, 5u);
  EXPECT_EQ(config->rps, 100);
  EXPECT_EQ(config->timeout, absl::Seconds(3));
  EXPECT_TRUE(config->insecure);
  EXPECT_EQ(config->data, nlohmann::json::parse(R"([{"map_id": "flag"}])"));
  EXPECT_THAT(config->metadata, ElementsAre(Pair("authorization", "Bearer x")));
  EXPECT_THAT(config->import_paths, ElementsAre("a", "b"));  // flags: relative to the cwd
  EXPECT_EQ(config->host, "127.0.0.2:7");                    // ghz's positional host

  // --data-file on the command line replaces the file's "data" instead of conflicting with it.
  const std::string data = dir.Write("cli.json", R"({"map_id": "from data file"})");
  config = FromFile(dir, file, {"-D", data, "--insecure=false"});
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->data["map_id"], "from data file");
  EXPECT_FALSE(config->insecure);
}

TEST(LoadConfigTest, BadValuesNameTheKeyAndTheSource) {
  ScratchDir dir;
  const auto with = [](const std::string& extra) {
    return std::string(R"({"proto": "nav.proto", "call": "a.B.C", "host": "127.0.0.1:1", )") +
           extra + "}";
  };
  EXPECT_THAT(ErrorOf(dir, with(R"("totl": 5)")),
              AllOf(HasSubstr("load.json"), HasSubstr("unknown key \"totl\""), HasSubstr("total")));
  EXPECT_THAT(ErrorOf(dir, with(R"("total": -3)")),
              AllOf(HasSubstr("\"total\""), HasSubstr("positive integer"), HasSubstr("-3")));
  EXPECT_THAT(ErrorOf(dir, with(R"("total": "10")")), HasSubstr("\"total\""));
  EXPECT_THAT(ErrorOf(dir, with(R"("total": 1.5)")), HasSubstr("\"total\""));
  EXPECT_THAT(ErrorOf(dir, with(R"("concurrency": 0)")), HasSubstr("\"concurrency\""));
  EXPECT_THAT(ErrorOf(dir, with(R"("concurrency": 100000000)")), HasSubstr("at most"));
  EXPECT_THAT(ErrorOf(dir, with(R"("duration": "10")")),
              AllOf(HasSubstr("\"duration\""), HasSubstr("missing unit")));
  EXPECT_THAT(ErrorOf(dir, with(R"("timeout": "0s")")), HasSubstr("\"timeout\""));
  EXPECT_THAT(ErrorOf(dir, with(R"("timeout": 20)")), HasSubstr("\"timeout\""));
  EXPECT_THAT(ErrorOf(dir, with(R"("rps": -1)")), HasSubstr("\"rps\""));
  EXPECT_THAT(ErrorOf(dir, with(R"("insecure": "yes")")), HasSubstr("\"insecure\""));
  EXPECT_THAT(ErrorOf(dir, with(R"("import-paths": "protos")")), HasSubstr("\"import-paths\""));
  EXPECT_THAT(ErrorOf(dir, with(R"("data": 5)")), HasSubstr("\"data\""));
  EXPECT_THAT(ErrorOf(dir, with(R"("data": [{}, 3])")), HasSubstr("\"data\"[1]"));
  EXPECT_THAT(ErrorOf(dir, with(R"("data": [])")), HasSubstr("empty"));
  EXPECT_THAT(ErrorOf(dir, with(R"("metadata": {"authorization": 5})")),
              AllOf(HasSubstr("\"metadata\""), HasSubstr("authorization")));
  EXPECT_THAT(ErrorOf(dir, with(R"("metadata": {"bad header": "x"})")), HasSubstr("bad header"));
  EXPECT_THAT(ErrorOf(dir, with(R"("metadata": {"x": "line\nbreak"})")), HasSubstr("printable"));
  EXPECT_THAT(ErrorOf(dir, with(R"("data": {}, "data-file": "d.json")")),
              HasSubstr("either \"data\" or \"data-file\""));
  EXPECT_THAT(ErrorOf(dir, with(R"("data-file": "missing.json")")),
              AllOf(HasSubstr("cannot read data file"), HasSubstr("missing.json")));
  dir.Write("configs/broken.json", "[{\"map_id\": ");
  EXPECT_THAT(ErrorOf(dir, with(R"("data-file": "broken.json")")),
              AllOf(HasSubstr("broken.json"), HasSubstr("not valid JSON")));
  dir.Write("configs/scalar.json", "[{}, {}, \"x\"]");
  EXPECT_THAT(ErrorOf(dir, with(R"("data-file": "scalar.json")")), HasSubstr("[2]"));
  EXPECT_THAT(ErrorOf(dir, with(R"("connections": 8, "concurrency": 4)")),
              HasSubstr("\"connections\" (8) must not exceed \"concurrency\" (4)"));
  EXPECT_THAT(ErrorOf(dir, "{\"proto\": \"x\", "),
              AllOf(HasSubstr("load.json"), HasSubstr("JSON")));
  EXPECT_THAT(ErrorOf(dir, "[1, 2]"), HasSubstr("must be a JSON object"));
  // Flags are checked too and named as the command line's.
  EXPECT_THAT(ErrorOf(dir, kMinimal, {"--total", "many"}),
              AllOf(HasSubstr("--total"), HasSubstr("many")));
  EXPECT_THAT(ErrorOf(dir, kMinimal, {"--timeout", "-1s"}),
              AllOf(HasSubstr("command line"), HasSubstr("\"timeout\"")));
}

TEST(LoadConfigTest, RequiresACallADescriptorSourceAndAHost) {
  ScratchDir dir;
  EXPECT_THAT(ErrorOf(dir, R"({"proto": "x.proto", "host": "127.0.0.1:1"})"),
              HasSubstr("missing \"call\""));
  EXPECT_THAT(ErrorOf(dir, R"({"call": "a.B.C", "host": "127.0.0.1:1"})"),
              AllOf(HasSubstr("\"proto\""), HasSubstr("\"protoset\"")));
  EXPECT_THAT(ErrorOf(dir, R"({"proto": "x.proto", "call": "a.B.C"})"), HasSubstr("\"host\""));
  EXPECT_THAT(ErrorOf(dir, R"({"proto": "x", "protoset": "y", "call": "a.B.C", "host": "h:1"})"),
              HasSubstr("not both"));
  absl::StatusOr<LoadConfig> no_file = ResolveConfig("", nlohmann::json::object());
  EXPECT_FALSE(no_file.ok());
  absl::StatusOr<LoadConfig> missing_file =
      ResolveConfig(dir.path() + "/nope.json", nlohmann::json::object());
  ASSERT_FALSE(missing_file.ok());
  EXPECT_THAT(missing_file.status().message(), HasSubstr("nope.json"));
}

TEST(LoadConfigTest, EffectiveConfigUsesGhzKeysAndHidesTokens) {
  ScratchDir dir;
  absl::StatusOr<LoadConfig> config = FromFile(
      dir, kMinimal, {"-n", "300", "-c", "8", "-m", R"({"authorization": "Bearer secret"})"});
  ASSERT_TRUE(config.ok()) << config.status();
  const nlohmann::json options = ConfigToJson(*config);
  EXPECT_EQ(options["call"], "waymesh.v1.NavigationService.FindPath");
  EXPECT_EQ(options["total"], 300);
  EXPECT_EQ(options["concurrency"], 8);
  EXPECT_EQ(options["timeout"], "20s");
  EXPECT_FALSE(options.contains("duration"));
  EXPECT_EQ(options["metadata"]["authorization"], "REDACTED");
  EXPECT_EQ(options.dump().find("secret"), std::string::npos);
  // Every key it writes is one the config reader accepts.
  for (const auto& [key, value] : options.items()) {
    bool known = false;
    for (const ConfigKey& k : ConfigKeys()) known |= key == k.name;
    EXPECT_TRUE(known) << key;
  }
}

TEST(CommandLineTest, OutputFlags) {
  absl::StatusOr<CommandLine> cl =
      ParseCommandLine({"-config", "x.json", "-O", "json", "-o", "out.json", "--allow-remote"});
  ASSERT_TRUE(cl.ok()) << cl.status();
  EXPECT_EQ(cl->config_path, "x.json");
  EXPECT_EQ(cl->format, ReportFormat::kJson);
  EXPECT_EQ(cl->output_path, "out.json");
  EXPECT_TRUE(cl->allow_remote);
  cl = ParseCommandLine({"--config=x.json", "--format=summary"});
  ASSERT_TRUE(cl.ok()) << cl.status();
  EXPECT_EQ(cl->format, ReportFormat::kSummary);
  EXPECT_FALSE(cl->allow_remote);
  EXPECT_TRUE(ParseCommandLine({"-h"})->help);
}

TEST(LoadConfigTest, ReadsGhzSchedulesTlsAndCpuKeys) {
  ScratchDir dir;
  absl::StatusOr<LoadConfig> step = FromFile(
      dir, kMinimal,
      {"--load-schedule", "step", "--load-start", "50", "--load-step", "-10", "--load-end", "10",
       "--load-step-duration", "2s", "--load-max-duration=1m", "--skipTLS", "--cpus", "1"});
  ASSERT_TRUE(step.ok()) << step.status();
  EXPECT_EQ(step->schedule.kind, ScheduleKind::kStep);
  EXPECT_EQ(step->schedule.start, 50);
  EXPECT_EQ(step->schedule.step, -10);
  EXPECT_EQ(step->schedule.end, 10);
  EXPECT_EQ(step->schedule.step_duration, absl::Seconds(2));
  EXPECT_EQ(step->schedule.max_duration, absl::Minutes(1));
  EXPECT_TRUE(step->skip_tls);
  EXPECT_EQ(step->cpus, 1u);
  const nlohmann::json options = ConfigToJson(*step);
  EXPECT_EQ(options["load-schedule"], "step");
  EXPECT_EQ(options["load-step-duration"], "2s");
  EXPECT_EQ(options["skipTLS"], true);
  // The report's options read back as the same schedule.
  absl::StatusOr<LoadConfig> again = FromFile(dir, options.dump());
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(again->schedule.step, -10);
  EXPECT_EQ(again->schedule.end, 10);

  absl::StatusOr<LoadConfig> line =
      FromFile(dir, R"({"proto": "p", "call": "a.B.C", "host": "127.0.0.1:1",
                        "load-schedule": "line", "load-start": 5, "load-step": 5})");
  ASSERT_TRUE(line.ok()) << line.status();
  EXPECT_EQ(line->schedule.kind, ScheduleKind::kLine);
  EXPECT_EQ(RateAt(line->schedule, absl::Seconds(3)), 20);
  absl::StatusOr<LoadConfig> constant = FromFile(dir, kMinimal, {"--rps", "100"});
  ASSERT_TRUE(constant.ok()) << constant.status();
  EXPECT_EQ(constant->schedule.kind, ScheduleKind::kConst);
  EXPECT_EQ(constant->schedule.rps, 100);
}

TEST(LoadConfigTest, SchedulesThatCannotWorkSayWhy) {
  ScratchDir dir;
  EXPECT_THAT(ErrorOf(dir, kMinimal, {"--load-schedule", "ramp"}),
              AllOf(HasSubstr("load-schedule"), HasSubstr("const, step or line")));
  EXPECT_THAT(ErrorOf(dir, kMinimal, {"--load-step", "5"}), HasSubstr("needs a step or line"));
  EXPECT_THAT(ErrorOf(dir, kMinimal, {"--load-schedule", "step", "--load-start", "5"}),
              HasSubstr("non-zero \"load-step\""));
  EXPECT_THAT(ErrorOf(dir, kMinimal, {"--load-schedule", "step", "--load-step", "5"}),
              HasSubstr("load-step-duration"));
  EXPECT_THAT(
      ErrorOf(dir, kMinimal, {"--load-schedule", "line", "--load-step", "5", "--rps", "10"}),
      HasSubstr("not \"rps\""));
  EXPECT_THAT(ErrorOf(dir, kMinimal, {"--load-schedule", "line", "--load-step", "-5"}),
              HasSubstr("never starts a call"));
  EXPECT_THAT(ErrorOf(dir, kMinimal, {"--insecure", "--skipTLS"}), HasSubstr("skipTLS"));
  EXPECT_THAT(ErrorOf(dir, kMinimal, {"--load-start", "-1"}), HasSubstr("load-start"));
}

TEST(CommandLineTest, CsvAndHtmlFormats) {
  EXPECT_EQ(ParseCommandLine({"-O", "csv"})->format, ReportFormat::kCsv);
  EXPECT_EQ(ParseCommandLine({"--format=html"})->format, ReportFormat::kHtml);
}

TEST(CommandLineTest, BadFlagsNameTheFlag) {
  const auto error = [](const std::vector<std::string>& args) {
    absl::StatusOr<CommandLine> cl = ParseCommandLine(args);
    EXPECT_FALSE(cl.ok());
    return std::string(cl.status().message());
  };
  EXPECT_THAT(error({"--totl", "5"}), HasSubstr("--totl"));
  EXPECT_THAT(error({"-O", "yaml"}),
              AllOf(HasSubstr("--format"), HasSubstr("yaml"), HasSubstr("csv or html")));
  EXPECT_THAT(error({"--total"}), AllOf(HasSubstr("--total"), HasSubstr("needs a value")));
  EXPECT_THAT(error({"--total", "-5"}), HasSubstr("--total"));
  EXPECT_THAT(error({"--rps", "fast"}), HasSubstr("--rps"));
  EXPECT_THAT(error({"--insecure=maybe"}), HasSubstr("--insecure"));
  EXPECT_THAT(error({"-d", "{not json"}), HasSubstr("--data"));
  EXPECT_THAT(error({"127.0.0.1:1", "127.0.0.1:2"}), HasSubstr("unexpected argument"));
}

TEST(LoadConfigTest, ADataFileThatIsNotARegularFileIsRefusedNotRead) {
  ScratchDir dir;
  // /dev/zero never ends: reading it would take all memory.
  absl::StatusOr<LoadConfig> config = FromFile(dir, R"({
    "proto": "nav.proto", "call": "waymesh.v1.NavigationService.FindPath", "host": "127.0.0.1:1",
    "data-file": "/dev/zero"})");
  ASSERT_FALSE(config.ok());
  EXPECT_THAT(std::string(config.status().message()), HasSubstr("/dev/zero: not a regular file"));
}

}  // namespace
}  // namespace waymesh::loadtest
