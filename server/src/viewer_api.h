#pragma once
// The JSON API of the map viewer (--ui-port), private to the server library. Reads map geometry
// for drawing (map list, map outline, one tile's polygons at a time so that every answer is
// bounded), the heat map of recent FindPath calls, and forwards FindPath, Raycast, ValidateMove
// and NearestPoint to this server's NavigationService (RunLocal): the page gets exactly what a
// gRPC client gets (the same validation, map resolution, query code and worker pool; the same
// bearer-token rule). Nothing runs long on the HTTP loop thread: tiles are read and queries run
// on the worker pool.
//
//   GET  /api/maps                      served maps
//   GET  /api/map?map=ID                bounds, grid, tiles, areas, islands of one map
//   GET  /api/tile?map=ID&tile=N        polygons (XZ outline, height range, area, island) and
//                                       off-mesh links of one tile
//   GET  /api/heat?map=ID               last FindPath start/end points and how each ended
//   GET  /api/obstacles?map=ID          obstacle layers held for the map: version, footprints
//   POST /api/find_path, /api/raycast, /api/validate_move, /api/nearest_point
//        body: the request message in protobuf JSON; answer {"elapsed_ms": .., "result": ..}
//
// Errors are JSON {"error": {"code": "...", "message": "..."}} with an HTTP status: 400 bad
// request, 401 missing or wrong bearer token, 404 unknown map or tile, 413 a tile too large to
// draw, 503 busy or draining.

#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "viewer_crowd_api.h"
#include "waymesh/server/bearer_token.h"
#include "waymesh/server/http_server.h"
#include "waymesh/server/map_registry.h"
#include "waymesh/server/navigation_service.h"
#include "waymesh/server/obstacle_layers.h"
#include "waymesh/server/path_heat_ring.h"
#include "waymesh/server/viewer_api_options.h"
#include "waymesh/server/worker_pool.h"

namespace waymesh::server {

class ViewerApi {
 public:
  explicit ViewerApi(ViewerApiOptions options);
  // WaitIdle()s.
  ~ViewerApi();
  ViewerApi(const ViewerApi&) = delete;
  ViewerApi& operator=(const ViewerApi&) = delete;

  // The API's routes, to serve on an HttpServer; they use this object.
  std::map<std::string, HttpRoute> Routes();
  // Ends the crowd event streams and pending crowd answers (viewer_crowd_api.h).
  void CloseStreams();
  // Waits until every answer started has been handed to its responder (queries and tile
  // reads end on their own: deadlines, a stopping pool).
  void WaitIdle();

 private:
  template <typename Request, typename Response>
  void Forward(const HttpRequest& http, HttpResponder respond);
  void ReadTile(const HttpRequest& http, HttpResponder respond);
  HttpResponse ListMaps() const;
  HttpResponse DescribeMap(const HttpRequest& http) const;
  HttpResponse Heat(const HttpRequest& http) const;
  HttpResponse Obstacles(const HttpRequest& http) const;
  // An answer counted in flight until End().
  void Begin();
  void End();
  // Drops `respond` (called already), then End().
  void Done(HttpResponder& respond);

  const ViewerApiOptions options_;
  const BearerToken token_;
  std::mutex mu_;
  std::condition_variable idle_;
  int64_t in_flight_ = 0;
  ViewerCrowdApi crowds_;  // last: destroyed first, it stops listening to the sessions
};

}  // namespace waymesh::server
