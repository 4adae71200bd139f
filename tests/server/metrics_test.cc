// The standard metric set: go-grpc-prometheus names and labels, waymesh_* series, and the text
// it renders keeps every exposition invariant.

#include "waymesh/server/metrics.h"

#include <grpcpp/support/status.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "exposition_parser.h"

namespace waymesh::server {
namespace {

using ::waymesh::testing::CheckExpositionInvariants;
using ::waymesh::testing::Exposition;
using ::waymesh::testing::FindSample;
using ::waymesh::testing::ParseExposition;

Exposition Scrape(const ServerMetrics& metrics) {
  absl::StatusOr<Exposition> parsed = ParseExposition(metrics.Render());
  EXPECT_TRUE(parsed.ok()) << parsed.status();
  if (!parsed.ok()) return {};
  const absl::Status invariants = CheckExpositionInvariants(*parsed);
  EXPECT_TRUE(invariants.ok()) << invariants;
  return *parsed;
}

std::unique_ptr<ServerMetrics> MakeMetrics() {
  absl::StatusOr<std::unique_ptr<ServerMetrics>> metrics = ServerMetrics::Create();
  EXPECT_TRUE(metrics.ok()) << metrics.status();
  return metrics.ok() ? std::move(*metrics) : nullptr;
}

TEST(GrpcCodeLabelTest, SpellsCodesAsGoGrpcPrometheus) {
  EXPECT_EQ(GrpcCodeLabel(grpc::StatusCode::OK), "OK");
  EXPECT_EQ(GrpcCodeLabel(grpc::StatusCode::CANCELLED), "Canceled");
  EXPECT_EQ(GrpcCodeLabel(grpc::StatusCode::INVALID_ARGUMENT), "InvalidArgument");
  EXPECT_EQ(GrpcCodeLabel(grpc::StatusCode::DEADLINE_EXCEEDED), "DeadlineExceeded");
  EXPECT_EQ(GrpcCodeLabel(grpc::StatusCode::NOT_FOUND), "NotFound");
  EXPECT_EQ(GrpcCodeLabel(grpc::StatusCode::RESOURCE_EXHAUSTED), "ResourceExhausted");
  EXPECT_EQ(GrpcCodeLabel(grpc::StatusCode::INTERNAL), "Internal");
  EXPECT_EQ(GrpcCodeLabel(grpc::StatusCode::UNAVAILABLE), "Unavailable");
  EXPECT_EQ(GrpcCodeLabel(grpc::StatusCode::UNAUTHENTICATED), "Unauthenticated");
  EXPECT_EQ(GrpcCodeLabel(grpc::StatusCode::DATA_LOSS), "DataLoss");
  EXPECT_EQ(GrpcCodeLabel(-1), "Unknown");
  EXPECT_EQ(GrpcCodeLabel(17), "Unknown");
}

TEST(ServerMetricsTest, ExportsEveryMethodAndCodeAtZeroBeforeTheFirstCall) {
  std::unique_ptr<ServerMetrics> metrics = MakeMetrics();
  ASSERT_NE(metrics, nullptr);
  const Exposition e = Scrape(*metrics);
  for (int m = 0; m < kRpcMethodCount; ++m) {
    const std::string method(RpcMethodName(static_cast<RpcMethod>(m)));
    const bool stream = static_cast<RpcMethod>(m) == RpcMethod::kRunCrowd;
    const std::string service = stream ? "waymesh.v1.CrowdService"
                                : m < static_cast<int>(RpcMethod::kPutObstacleLayer)
                                    ? "waymesh.v1.NavigationService"
                                    : "waymesh.v1.ObstacleService";
    const std::vector<std::pair<std::string, std::string>> labels = {
        {"grpc_type", stream ? "bidi_stream" : "unary"},
        {"grpc_service", service},
        {"grpc_method", method}};
    EXPECT_EQ(FindSample(e, "grpc_server_started_total", labels), 0.0) << method;
    EXPECT_EQ(FindSample(e, "grpc_server_handling_seconds_count", labels), 0.0) << method;
    for (int code = 0; code < kGrpcCodeCount; ++code) {
      auto with_code = labels;
      with_code.emplace_back("grpc_code", std::string(GrpcCodeLabel(code)));
      EXPECT_EQ(FindSample(e, "grpc_server_handled_total", with_code), 0.0) << method << code;
    }
  }
  EXPECT_EQ(e.type.at("grpc_server_handling_seconds"), "histogram");
  EXPECT_EQ(e.type.at("waymesh_search_nodes_expanded"), "histogram");
  EXPECT_EQ(e.type.at("waymesh_tile_cache_hits_total"), "counter");
  EXPECT_EQ(e.type.at("waymesh_queue_depth"), "gauge");
}

TEST(ServerMetricsTest, ObserveRpcCountsByCodeAndTimesIntoLatencyBuckets) {
  std::unique_ptr<ServerMetrics> metrics = MakeMetrics();
  ASSERT_NE(metrics, nullptr);
  for (int i = 0; i < 3; ++i) metrics->RpcStarted(RpcMethod::kFindPath);
  metrics->ObserveRpc(RpcMethod::kFindPath, grpc::StatusCode::OK, 0.0002);
  metrics->ObserveRpc(RpcMethod::kFindPath, grpc::StatusCode::OK, 0.003);
  metrics->ObserveRpc(RpcMethod::kFindPath, grpc::StatusCode::INVALID_ARGUMENT, 5.0);
  metrics->RpcStarted(RpcMethod::kRaycast);
  metrics->ObserveRpc(RpcMethod::kRaycast, 99, 0.0);  // out-of-range code counts as Unknown
  const Exposition e = Scrape(*metrics);
  const std::vector<std::pair<std::string, std::string>> find_path = {{"grpc_method", "FindPath"}};
  auto with = [&](std::string key, std::string value) {
    auto labels = find_path;
    labels.emplace_back(std::move(key), std::move(value));
    return labels;
  };
  EXPECT_EQ(FindSample(e, "grpc_server_started_total", find_path), 3.0);
  EXPECT_EQ(FindSample(e, "grpc_server_msg_received_total", find_path), 3.0);
  EXPECT_EQ(FindSample(e, "grpc_server_msg_sent_total", find_path), 2.0);  // only OK answers
  EXPECT_EQ(FindSample(e, "grpc_server_handled_total", with("grpc_code", "OK")), 2.0);
  EXPECT_EQ(FindSample(e, "grpc_server_handled_total", with("grpc_code", "InvalidArgument")), 1.0);
  EXPECT_EQ(FindSample(e, "grpc_server_handling_seconds_bucket", with("le", "0.0001")), 0.0);
  EXPECT_EQ(FindSample(e, "grpc_server_handling_seconds_bucket", with("le", "0.00025")), 1.0);
  EXPECT_EQ(FindSample(e, "grpc_server_handling_seconds_bucket", with("le", "0.005")), 2.0);
  EXPECT_EQ(FindSample(e, "grpc_server_handling_seconds_bucket", with("le", "1")), 2.0);
  EXPECT_EQ(FindSample(e, "grpc_server_handling_seconds_bucket", with("le", "+Inf")), 3.0);
  EXPECT_EQ(FindSample(e, "grpc_server_handling_seconds_count", find_path), 3.0);
  EXPECT_NEAR(*FindSample(e, "grpc_server_handling_seconds_sum", find_path), 5.0032, 1e-12);
  EXPECT_EQ(FindSample(e, "grpc_server_handled_total",
                       {{"grpc_method", "Raycast"}, {"grpc_code", "Unknown"}}),
            1.0);
  EXPECT_EQ(FindSample(e, "grpc_server_handled_total",
                       {{"grpc_method", "ValidateMove"}, {"grpc_code", "OK"}}),
            0.0);
}

TEST(ServerMetricsTest, LatencyBucketsSpan100MicrosecondsToOneSecond) {
  const std::vector<double> bounds = DefaultLatencyBuckets();
  ASSERT_GE(bounds.size(), 10u);
  EXPECT_DOUBLE_EQ(bounds.front(), 1e-4);
  EXPECT_DOUBLE_EQ(bounds.back(), 1.0);
  EXPECT_TRUE(std::is_sorted(bounds.begin(), bounds.end()));
}

TEST(ServerMetricsTest, RecordsSearchOutcomesNodesAndMoves) {
  std::unique_ptr<ServerMetrics> metrics = MakeMetrics();
  ASSERT_NE(metrics, nullptr);
  metrics->RecordPathResult(QueryStatus::kComplete);
  metrics->RecordPathResult(QueryStatus::kComplete);
  metrics->RecordPathResult(QueryStatus::kNoPath);
  metrics->RecordPathResult(QueryStatus::kEndOffMesh);
  metrics->ObserveNodesExpanded(0);
  metrics->ObserveNodesExpanded(5);
  metrics->ObserveNodesExpanded(2'000'000);
  metrics->RecordPathSearch(true);
  metrics->RecordPathSearch(false);
  metrics->RecordPathSearch(false);
  metrics->RecordMoveResult(MoveReason::kBlockedByWall);
  metrics->RecordMoveResult(MoveReason::kNone);
  metrics->RecordMoveResult(static_cast<MoveReason>(42));  // ignored, no crash
  const Exposition e = Scrape(*metrics);
  EXPECT_EQ(FindSample(e, "waymesh_path_results_total", {{"status", "complete"}}), 2.0);
  EXPECT_EQ(FindSample(e, "waymesh_path_results_total", {{"status", "no_path"}}), 1.0);
  EXPECT_EQ(FindSample(e, "waymesh_path_results_total", {{"status", "end_off_mesh"}}), 1.0);
  EXPECT_EQ(FindSample(e, "waymesh_path_results_total", {{"status", "partial"}}), 0.0);
  EXPECT_EQ(FindSample(e, "waymesh_search_nodes_expanded_bucket", {{"le", "1"}}), 1.0);
  EXPECT_EQ(FindSample(e, "waymesh_search_nodes_expanded_bucket", {{"le", "16"}}), 2.0);
  // prometheus-cpp spells this bound "1048576" (Go's client: "1.048576e+06"; docs/metrics.md).
  EXPECT_EQ(FindSample(e, "waymesh_search_nodes_expanded_bucket", {{"le", "1048576"}}), 2.0);
  EXPECT_EQ(FindSample(e, "waymesh_search_nodes_expanded_count", {}), 3.0);
  EXPECT_EQ(FindSample(e, "waymesh_path_search_total", {{"kind", "hierarchical"}}), 1.0);
  EXPECT_EQ(FindSample(e, "waymesh_path_search_total", {{"kind", "plain"}}), 2.0);
  EXPECT_EQ(FindSample(e, "waymesh_move_validations_total", {{"reason", "blocked_by_wall"}}), 1.0);
  EXPECT_EQ(FindSample(e, "waymesh_move_validations_total", {{"reason", "valid"}}), 1.0);
}

TEST(ServerMetricsTest, QueueAndPoolGauges) {
  std::unique_ptr<ServerMetrics> metrics = MakeMetrics();
  ASSERT_NE(metrics, nullptr);
  metrics->SetWorkerPool(2, 256);
  metrics->SetQueueDepth(17);
  metrics->RecordRejected();
  EXPECT_EQ(FindSample(Scrape(*metrics), "waymesh_overloaded", {}), 0.0);
  metrics->SetOverloaded(true);
  const Exposition e = Scrape(*metrics);
  EXPECT_EQ(FindSample(e, "waymesh_overloaded", {}), 1.0);
  EXPECT_EQ(FindSample(e, "waymesh_workers", {}), 2.0);
  EXPECT_EQ(FindSample(e, "waymesh_queue_capacity", {}), 256.0);
  EXPECT_EQ(FindSample(e, "waymesh_queue_depth", {}), 17.0);
  EXPECT_EQ(FindSample(e, "waymesh_rejected_total", {}), 1.0);
}

TEST(ServerMetricsTest, RegistrySourceFeedsTileCacheAndMapMetricsAtEachScrape) {
  std::unique_ptr<ServerMetrics> metrics = MakeMetrics();
  ASSERT_NE(metrics, nullptr);
  EXPECT_EQ(FindSample(Scrape(*metrics), "waymesh_maps_loaded", {}), 0.0);  // no source yet
  RegistrySnapshot snap;
  snap.tile_cache_hits = 40;
  snap.tile_cache_misses = 7;
  snap.tile_cache_evictions = 3;
  snap.tile_cache_resident_bytes = 123456;
  snap.tile_cache_budget_bytes = 1 << 20;
  snap.tile_cache_resident_tiles = 5;
  snap.maps_loaded = 2;
  snap.reloads = 1;
  snap.reload_failures = 4;
  metrics->SetRegistrySource([&snap] { return snap; });
  Exposition e = Scrape(*metrics);
  EXPECT_EQ(FindSample(e, "waymesh_tile_cache_hits_total", {}), 40.0);
  EXPECT_EQ(FindSample(e, "waymesh_tile_cache_misses_total", {}), 7.0);
  EXPECT_EQ(FindSample(e, "waymesh_tile_cache_evictions_total", {}), 3.0);
  EXPECT_EQ(FindSample(e, "waymesh_tile_cache_bytes", {}), 123456.0);
  EXPECT_EQ(FindSample(e, "waymesh_tile_cache_budget_bytes", {}), double{1 << 20});
  EXPECT_EQ(FindSample(e, "waymesh_tile_cache_tiles", {}), 5.0);
  EXPECT_EQ(FindSample(e, "waymesh_maps_loaded", {}), 2.0);
  EXPECT_EQ(FindSample(e, "waymesh_map_reloads_total", {}), 1.0);
  EXPECT_EQ(FindSample(e, "waymesh_map_reload_failures_total", {}), 4.0);
  snap.tile_cache_hits = 41;
  snap.tile_cache_resident_bytes = 1000;
  snap.maps_loaded = 1;
  e = Scrape(*metrics);
  EXPECT_EQ(FindSample(e, "waymesh_tile_cache_hits_total", {}), 41.0);
  EXPECT_EQ(FindSample(e, "waymesh_tile_cache_bytes", {}), 1000.0);
  EXPECT_EQ(FindSample(e, "waymesh_maps_loaded", {}), 1.0);
}

// The exposition without the process_* lines, which change on their own (CPU time, fds).
std::string RenderWithoutProcessMetrics(const ServerMetrics& metrics) {
  std::string out;
  for (absl::string_view line : absl::StrSplit(metrics.Render(), '\n')) {
    if (!absl::StrContains(line, "process_")) absl::StrAppend(&out, line, "\n");
  }
  return out;
}

TEST(ServerMetricsTest, OutOfRangeMethodIsIgnored) {
  std::unique_ptr<ServerMetrics> metrics = MakeMetrics();
  ASSERT_NE(metrics, nullptr);
  const std::string before = RenderWithoutProcessMetrics(*metrics);
  metrics->RpcStarted(static_cast<RpcMethod>(200));
  metrics->ObserveRpc(static_cast<RpcMethod>(200), 0, 1.0);
  EXPECT_EQ(RenderWithoutProcessMetrics(*metrics), before);
}

TEST(ServerMetricsTest, BuildInfoIsOneWithTheVersion) {
  std::unique_ptr<ServerMetrics> metrics = MakeMetrics();
  ASSERT_NE(metrics, nullptr);
  const Exposition e = Scrape(*metrics);
  EXPECT_EQ(e.type.at("waymesh_build_info"), "gauge");
  int series = 0;
  for (const auto& sample : e.samples) {
    if (sample.name != "waymesh_build_info") continue;
    ++series;
    EXPECT_EQ(sample.value, 1.0);
    std::map<std::string, std::string> labels(sample.labels.begin(), sample.labels.end());
    EXPECT_TRUE(absl::StartsWith(labels["version"], "waymesh ")) << labels["version"];
    EXPECT_FALSE(labels["grpc_version"].empty());
  }
  EXPECT_EQ(series, 1);
}

TEST(ServerMetricsTest, MapInfoFollowsTheServedMaps) {
  std::unique_ptr<ServerMetrics> metrics = MakeMetrics();
  ASSERT_NE(metrics, nullptr);
  RegistrySnapshot snap;
  snap.maps = {{"town", 3, "abc123"}, {"dungeon", 1, ""}};
  metrics->SetRegistrySource([&snap] { return snap; });
  Exposition e = Scrape(*metrics);
  EXPECT_EQ(FindSample(e, "waymesh_map_info",
                       {{"map", "town"}, {"version", "3"}, {"source_hash", "abc123"}}),
            1.0);
  EXPECT_EQ(FindSample(e, "waymesh_map_version", {{"map", "town"}}), 3.0);
  EXPECT_EQ(FindSample(e, "waymesh_map_version", {{"map", "dungeon"}}), 1.0);
  // A reload replaces the info series (no stale version left behind); an unloaded map drops out.
  snap.maps = {{"town", 4, "def456"}};
  e = Scrape(*metrics);
  EXPECT_EQ(FindSample(e, "waymesh_map_version", {{"map", "town"}}), 4.0);
  int info_series = 0, version_series = 0;
  for (const auto& sample : e.samples) {
    info_series += sample.name == "waymesh_map_info";
    version_series += sample.name == "waymesh_map_version";
  }
  EXPECT_EQ(info_series, 1);
  EXPECT_EQ(version_series, 1);
  EXPECT_EQ(FindSample(e, "waymesh_map_info",
                       {{"map", "town"}, {"version", "4"}, {"source_hash", "def456"}}),
            1.0);
}

TEST(ServerMetricsTest, ProcessMetricsDescribeThisProcess) {
  std::unique_ptr<ServerMetrics> metrics = MakeMetrics();
  ASSERT_NE(metrics, nullptr);
  // Burn a little CPU and hold a known descriptor so the values have something to show.
  volatile double sink = 0;
  for (int i = 0; i < 20'000'000; ++i) sink = sink + i * 1e-9;
  const Exposition e = Scrape(*metrics);
  EXPECT_EQ(e.type.at("process_cpu_seconds_total"), "counter");
  EXPECT_GT(FindSample(e, "process_cpu_seconds_total", {}).value_or(-1), 0.0);
  // At least the test binary's pages; far less than a terabyte.
  const double rss = FindSample(e, "process_resident_memory_bytes", {}).value_or(-1);
  EXPECT_GT(rss, 1 << 20);
  EXPECT_LT(rss, 1e12);
  EXPECT_GE(FindSample(e, "process_virtual_memory_bytes", {}).value_or(-1), rss);
  const double open_fds = FindSample(e, "process_open_fds", {}).value_or(-1);
  EXPECT_GE(open_fds, 3.0);  // stdin, stdout, stderr at least
  EXPECT_GE(FindSample(e, "process_max_fds", {}).value_or(-1), open_fds);
  // Started within the last day and not in the future.
  const double start = FindSample(e, "process_start_time_seconds", {}).value_or(-1);
  const double now = absl::ToDoubleSeconds(absl::Now() - absl::UnixEpoch());
  EXPECT_LE(start, now + 1);
  EXPECT_GT(start, now - 86400);
}

TEST(ServerMetricsTest, ConcurrentRecordingAndScrapesKeepHistogramInvariants) {
  std::unique_ptr<ServerMetrics> metrics = MakeMetrics();
  ASSERT_NE(metrics, nullptr);
  constexpr int kThreads = 4;
  constexpr int kCalls = 20000;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&metrics] {
      for (int i = 0; i < kCalls; ++i) {
        metrics->RpcStarted(RpcMethod::kFindPath);
        metrics->ObserveRpc(RpcMethod::kFindPath, 0, i * 1e-6);
        metrics->ObserveNodesExpanded(i);
      }
    });
  }
  for (int scrape = 0; scrape < 50; ++scrape) Scrape(*metrics);  // checks the invariants
  for (std::thread& t : threads) t.join();
  const Exposition e = Scrape(*metrics);
  const std::vector<std::pair<std::string, std::string>> labels = {
      {"grpc_type", "unary"},
      {"grpc_service", std::string(kNavigationServiceName)},
      {"grpc_method", "FindPath"}};
  EXPECT_EQ(FindSample(e, "grpc_server_handling_seconds_count", labels), double{kThreads * kCalls});
  auto with_inf = labels;
  with_inf.emplace_back("le", "+Inf");
  EXPECT_EQ(FindSample(e, "grpc_server_handling_seconds_bucket", with_inf),
            double{kThreads * kCalls});
  EXPECT_EQ(FindSample(e, "waymesh_search_nodes_expanded_count", {}), double{kThreads * kCalls});
  EXPECT_EQ(FindSample(e, "grpc_server_started_total", labels), double{kThreads * kCalls});
}

}  // namespace
}  // namespace waymesh::server
