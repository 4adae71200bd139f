// `promtool check metrics` (Prometheus's own linter) accepts what /metrics serves.

#include <gtest/gtest.h>

#include "child_process.h"
#include "prometheus/counter.h"
#include "prometheus/registry.h"
#include "prometheus/text_serializer.h"
#include "waymesh/server/metrics.h"

namespace waymesh::server {
namespace {

using ::waymesh::testing::FindProgram;
using ::waymesh::testing::RunProgram;

// Exit code of `promtool check metrics < text` (0 clean, 3 lint problems, 1 parse error).
int PromtoolCheck(const std::string& text, std::string* output) {
  absl::StatusOr<std::string> promtool = FindProgram("promtool");
  EXPECT_TRUE(promtool.ok()) << promtool.status();
  if (!promtool.ok()) return -1;
  absl::StatusOr<int> code = RunProgram({*promtool, "check", "metrics"}, text, output);
  EXPECT_TRUE(code.ok()) << code.status();
  return code.ok() ? *code : -1;
}

TEST(PromtoolTest, StandardMetricSetPassesCheckMetrics) {
  absl::StatusOr<std::unique_ptr<ServerMetrics>> metrics = ServerMetrics::Create();
  ASSERT_TRUE(metrics.ok()) << metrics.status();
  ServerMetrics& m = **metrics;
  // Populate every family so each kind of line is linted, not just zeros.
  m.RpcStarted(RpcMethod::kFindPath);
  m.ObserveRpc(RpcMethod::kFindPath, 0, 0.0007);
  m.ObserveRpc(RpcMethod::kValidateMove, 3, 0.2);
  m.RecordPathResult(QueryStatus::kPartial);
  m.ObserveNodesExpanded(300);
  m.RecordMoveResult(MoveReason::kTooFar);
  m.SetWorkerPool(2, 64);
  m.SetQueueDepth(3);
  m.RecordRejected();
  m.SetRegistrySource([] {
    RegistrySnapshot s;
    s.tile_cache_hits = 5;
    s.maps_loaded = 1;
    s.tile_cache_resident_bytes = 4096;
    return s;
  });
  std::string output;
  EXPECT_EQ(PromtoolCheck(m.Render(), &output), 0) << output;
  EXPECT_EQ(output, "");
}

TEST(PromtoolTest, HarnessSeesLintAndParseErrors) {
  // A counter without the _total suffix is a lint problem (3); garbage is a parse error (1).
  prometheus::Registry registry;
  prometheus::BuildCounter()
      .Name("demo_requests")
      .Help("Requests.")
      .Register(registry)
      .Add({})
      .Increment();
  std::string output;
  EXPECT_EQ(PromtoolCheck(prometheus::TextSerializer().Serialize(registry.Collect()), &output), 3)
      << output;
  EXPECT_NE(output.find("demo_requests"), std::string::npos) << output;
  EXPECT_EQ(PromtoolCheck("this is { not metrics\n", &output), 1) << output;
}

}  // namespace
}  // namespace waymesh::server
