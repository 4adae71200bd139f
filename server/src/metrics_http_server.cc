#include "waymesh/server/metrics_http_server.h"

#include <map>
#include <utility>

namespace waymesh::server {
namespace {

constexpr char kMetricsContentType[] = "text/plain; version=0.0.4; charset=utf-8";

}  // namespace

MetricsHttpServer::MetricsHttpServer(std::unique_ptr<HttpServer> http) : http_(std::move(http)) {}

MetricsHttpServer::~MetricsHttpServer() { Stop(); }

absl::StatusOr<std::unique_ptr<MetricsHttpServer>> MetricsHttpServer::Start(
    MetricsHttpOptions options, std::function<std::string()> render,
    std::function<bool()> healthy) {
  if (!render) return absl::InvalidArgumentError("metrics server needs a render function");
  std::map<std::string, HttpHandler> routes;
  routes["/metrics"] = [render = std::move(render)](const HttpRequest&) {
    return HttpResponse{200, kMetricsContentType, render()};
  };
  routes["/healthz"] = [healthy = std::move(healthy)](const HttpRequest&) {
    const bool ok = !healthy || healthy();
    return HttpResponse{ok ? 200 : 503, "text/plain; charset=utf-8", ok ? "ok\n" : "not serving\n"};
  };
  options.name = "metrics server";
  absl::StatusOr<std::unique_ptr<HttpServer>> http = HttpServer::Start(options, std::move(routes));
  if (!http.ok()) return http.status();
  return std::unique_ptr<MetricsHttpServer>(new MetricsHttpServer(*std::move(http)));
}

int MetricsHttpServer::port() const { return http_->port(); }

HttpServerStats MetricsHttpServer::stats() const { return http_->stats(); }

void MetricsHttpServer::Stop() { http_->Stop(); }

}  // namespace waymesh::server
