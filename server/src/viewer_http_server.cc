#include "waymesh/server/viewer_http_server.h"

#include <map>
#include <utility>

#include "absl/strings/str_cat.h"
#include "viewer_api.h"
#include "viewer_assets.h"

namespace waymesh::server {
namespace {

// The page's files at their paths, and the page itself at "/".
void AddAssetRoutes(std::map<std::string, HttpRoute>* routes) {
  for (const ViewerAsset& asset : ViewerAssets()) {
    HttpHandler serve = [asset](const HttpRequest&) {
      // no-cache: a browser checks back after an upgrade instead of running an old page.
      return HttpResponse{200,
                          std::string(asset.content_type),
                          std::string(asset.body),
                          {{"Cache-Control", "no-cache"}}};
    };
    if (asset.path == "/index.html") (*routes)["/"] = SyncRoute("GET", serve);
    (*routes)[std::string(asset.path)] = SyncRoute("GET", serve);
  }
}

}  // namespace

ViewerHttpServer::ViewerHttpServer(std::unique_ptr<HttpServer> http, std::unique_ptr<ViewerApi> api)
    : http_(std::move(http)), api_(std::move(api)) {}

ViewerHttpServer::~ViewerHttpServer() { Stop(); }

absl::StatusOr<std::unique_ptr<ViewerHttpServer>> ViewerHttpServer::Start(
    ViewerHttpOptions options) {
  const ViewerApiOptions& needs = options.api;
  if (needs.maps == nullptr || needs.pool == nullptr || needs.service == nullptr) {
    return absl::InvalidArgumentError("viewer server needs the maps, the pool and the service");
  }
  auto api = std::make_unique<ViewerApi>(std::move(options.api));
  std::map<std::string, HttpRoute> routes = api->Routes();
  AddAssetRoutes(&routes);
  absl::StatusOr<std::unique_ptr<HttpServer>> http =
      HttpServer::Start(options.http, std::move(routes));
  if (!http.ok()) {
    return absl::Status(http.status().code(), absl::StrCat("--ui-port: ", http.status().message()));
  }
  return std::unique_ptr<ViewerHttpServer>(new ViewerHttpServer(*std::move(http), std::move(api)));
}

int ViewerHttpServer::port() const { return http_->port(); }

HttpServerStats ViewerHttpServer::stats() const { return http_->stats(); }

void ViewerHttpServer::Stop() {
  http_->Stop();
  api_->CloseStreams();
  api_->WaitIdle();
}

}  // namespace waymesh::server
