// A real Prometheus (Debian's `prometheus`) scrapes the metrics endpoint over loopback and the
// values come back through its HTTP query API.

#include <gtest/gtest.h>

#include "prometheus_runner.h"
#include "waymesh/server/metrics.h"
#include "waymesh/server/metrics_http_server.h"

namespace waymesh::server {
namespace {

TEST(PrometheusScrapeTest, PrometheusReadsCountersAndHistogramsFromMetricsEndpoint) {
  absl::StatusOr<std::unique_ptr<ServerMetrics>> metrics = ServerMetrics::Create();
  ASSERT_TRUE(metrics.ok()) << metrics.status();
  ServerMetrics& m = **metrics;
  for (double seconds : {0.0002, 0.0004, 0.003, 0.003, 0.04}) {
    m.RpcStarted(RpcMethod::kFindPath);
    m.ObserveRpc(RpcMethod::kFindPath, 0, seconds);
  }
  m.ObserveRpc(RpcMethod::kFindPath, 5, 0.0001);  // NOT_FOUND
  MetricsHttpOptions options;
  options.address = "127.0.0.1";
  auto http = MetricsHttpServer::Start(options, [&m] { return m.Render(); });
  ASSERT_TRUE(http.ok()) << http.status();

  auto prometheus = testing::PrometheusRunner::Start((*http)->port());
  ASSERT_TRUE(prometheus.ok()) << prometheus.status();
  testing::PrometheusRunner& prom = **prometheus;

  auto up = prom.WaitFor("up{job=\"waymesh\"}", [](double v) { return v == 1; });
  ASSERT_TRUE(up.ok()) << up.status() << "\n" << prom.Log();
  const std::string count_query =
      "sum(grpc_server_handling_seconds_count{grpc_service=\"waymesh.v1.NavigationService\","
      "grpc_method=\"FindPath\",grpc_type=\"unary\"})";
  auto count = prom.WaitFor(count_query, [](double v) { return v == 6; });
  EXPECT_TRUE(count.ok()) << count.status();
  auto not_found =
      prom.WaitFor("grpc_server_handled_total{grpc_method=\"FindPath\",grpc_code=\"NotFound\"}",
                   [](double v) { return v == 1; });
  EXPECT_TRUE(not_found.ok()) << not_found.status();

  // New observations show up in the next scrapes: the endpoint is live, not a snapshot.
  m.ObserveRpc(RpcMethod::kFindPath, 0, 0.5);
  m.ObserveRpc(RpcMethod::kFindPath, 0, 0.5);
  count = prom.WaitFor(count_query, [](double v) { return v == 8; });
  EXPECT_TRUE(count.ok()) << count.status();

  // Prometheus can compute quantiles from the buckets: the median of the 8 calls lies in the
  // (0.0025, 0.005] bucket.
  auto median = prom.QueryScalar(
      "histogram_quantile(0.5, sum by (le) "
      "(grpc_server_handling_seconds_bucket{grpc_method=\"FindPath\"}))");
  ASSERT_TRUE(median.ok()) << median.status();
  EXPECT_GT(*median, 0.0025);
  EXPECT_LE(*median, 0.005);
}

}  // namespace
}  // namespace waymesh::server
