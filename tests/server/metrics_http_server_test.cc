// The /metrics and /healthz endpoint over real loopback HTTP.

#include "waymesh/server/metrics_http_server.h"

#include <gtest/gtest.h>
#include <httplib.h>

#include <atomic>

#include "exposition_parser.h"
#include "waymesh/server/metrics.h"

namespace waymesh::server {
namespace {

MetricsHttpOptions Loopback(int port = 0) {
  MetricsHttpOptions options;
  options.address = "127.0.0.1";
  options.port = port;
  return options;
}

TEST(MetricsHttpServerTest, ServesMetricsInTextFormat004) {
  absl::StatusOr<std::unique_ptr<ServerMetrics>> metrics = ServerMetrics::Create();
  ASSERT_TRUE(metrics.ok());
  (*metrics)->RpcStarted(RpcMethod::kListMaps);
  auto server = MetricsHttpServer::Start(Loopback(), [&] { return (*metrics)->Render(); });
  ASSERT_TRUE(server.ok()) << server.status();
  ASSERT_GT((*server)->port(), 0);
  httplib::Client client("127.0.0.1", (*server)->port());
  httplib::Result res = client.Get("/metrics");
  ASSERT_TRUE(res) << httplib::to_string(res.error());
  EXPECT_EQ(res->status, 200);
  EXPECT_EQ(res->get_header_value("Content-Type"), "text/plain; version=0.0.4; charset=utf-8");
  absl::StatusOr<testing::Exposition> parsed = testing::ParseExposition(res->body);
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_TRUE(testing::CheckExpositionInvariants(*parsed).ok());
  EXPECT_EQ(
      testing::FindSample(*parsed, "grpc_server_started_total", {{"grpc_method", "ListMaps"}}),
      1.0);
  res = client.Get("/nothing-here");
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 404);
}

TEST(MetricsHttpServerTest, HealthzFollowsTheHealthCallback) {
  std::atomic<bool> healthy{true};
  auto server = MetricsHttpServer::Start(
      Loopback(), [] { return std::string(); }, [&] { return healthy.load(); });
  ASSERT_TRUE(server.ok()) << server.status();
  httplib::Client client("127.0.0.1", (*server)->port());
  httplib::Result res = client.Get("/healthz");
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 200);
  EXPECT_EQ(res->body, "ok\n");
  healthy = false;
  res = client.Get("/healthz");
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 503);
}

TEST(MetricsHttpServerTest, StopClosesThePortAndIsIdempotent) {
  auto server = MetricsHttpServer::Start(Loopback(), [] { return std::string("x 1\n"); });
  ASSERT_TRUE(server.ok()) << server.status();
  const int port = (*server)->port();
  (*server)->Stop();
  (*server)->Stop();
  httplib::Client client("127.0.0.1", port);
  client.set_connection_timeout(1, 0);
  EXPECT_FALSE(client.Get("/metrics"));
}

TEST(MetricsHttpServerTest, BadPortOrBusyPortIsAnErrorNotACrash) {
  auto render = [] { return std::string(); };
  EXPECT_EQ(MetricsHttpServer::Start(Loopback(70000), render).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(MetricsHttpServer::Start(Loopback(-1), render).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(MetricsHttpServer::Start(Loopback(), nullptr).status().code(),
            absl::StatusCode::kInvalidArgument);
  auto first = MetricsHttpServer::Start(Loopback(), render);
  ASSERT_TRUE(first.ok());
  auto second = MetricsHttpServer::Start(Loopback((*first)->port()), render);
  EXPECT_EQ(second.status().code(), absl::StatusCode::kUnavailable) << second.status();
  MetricsHttpOptions bad_address = Loopback();
  bad_address.address = "not-an-address.invalid";
  EXPECT_FALSE(MetricsHttpServer::Start(bad_address, render).ok());
}

}  // namespace
}  // namespace waymesh::server
