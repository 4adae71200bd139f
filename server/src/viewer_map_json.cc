#include "viewer_map_json.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace waymesh::server {
namespace {

using nlohmann::json;

// Millimetres are finer than any navmesh and keep the answers short.
double Millimetres(float metres) { return std::round(double(metres) * 1000.0) / 1000.0; }

json JsonPoint(const Vec3& p) {
  return json::array({Millimetres(p.x), Millimetres(p.y), Millimetres(p.z)});
}

json JsonBox(const Aabb& box) { return {{"min", JsonPoint(box.min)}, {"max", JsonPoint(box.max)}}; }

json PolygonJson(const NavMap& map, const TileView& tile, uint32_t p) {
  json xz = json::array();
  float y_min = tile.corner(p, 0).y;
  float y_max = y_min;
  for (uint32_t i = 0; i < tile.corner_count(p); ++i) {
    const Vec3 c = tile.corner(p, i);
    xz.push_back(Millimetres(c.x));
    xz.push_back(Millimetres(c.z));
    y_min = std::min(y_min, c.y);
    y_max = std::max(y_max, c.y);
  }
  return {{"ref", std::to_string(map.Ref({tile.index, p}).bits())},
          {"index", p},
          {"area", tile.poly_area[p]},
          {"island", tile.poly_island[p]},
          {"y", json::array({Millimetres(y_min), Millimetres(y_max)})},
          {"xz", std::move(xz)}};
}

}  // namespace

json MapSummaryJson(const ServedMap& map) {
  const MapInfo& info = map.map()->info();
  return {{"id", map.id()},
          {"map_id", map.map_id()},
          {"agent_type", map.agent_type()},
          {"version", map.version()},
          {"name", info.name},
          {"polygons", info.polygon_count},
          {"tiles", map.map()->tile_count()},
          {"islands", info.islands.size()},
          {"bounds", JsonBox(info.bounds)}};
}

json MapDetailJson(const ServedMap& map) {
  const NavMap& nav = *map.map();
  const MapInfo& info = nav.info();
  json out = MapSummaryJson(map);
  out["tile_size"] = Millimetres(info.tile_size);
  out["grid"] = {{"origin", JsonPoint(info.grid_origin)},
                 {"width", info.grid_width},
                 {"height", info.grid_height}};
  out["agent"] = {{"radius", info.agent.radius}, {"height", info.agent.height}};
  json areas = json::array();
  for (size_t a = 0; a < info.areas.size(); ++a) {
    if (!info.areas[a].used) continue;
    areas.push_back({{"id", a}, {"name", info.areas[a].name}, {"cost", info.areas[a].cost}});
  }
  out["areas"] = std::move(areas);
  json islands = json::array();
  for (const IslandInfo& island : info.islands) {
    islands.push_back({{"polygons", island.polygons},
                       {"area", std::round(island.area * 100.0) / 100.0},
                       {"group", island.group}});
  }
  out["island_list"] = std::move(islands);
  json tiles = json::array();
  for (uint32_t t = 0; t < nav.tile_count(); ++t) {
    const TileSummary& s = nav.summary(t);
    tiles.push_back({{"index", t},
                     {"x", s.grid_x},
                     {"z", s.grid_z},
                     {"polygons", s.poly_count},
                     {"bounds", JsonBox(s.bounds)}});
  }
  out["tile_list"] = std::move(tiles);
  return out;
}

json TileJson(const NavMap& map, const TileView& tile) {
  json polygons = json::array();
  for (uint32_t p = 0; p < tile.poly_count(); ++p) polygons.push_back(PolygonJson(map, tile, p));
  json links = json::array();
  for (const OffMeshLink& link : tile.off_mesh_links) {
    links.push_back({{"id", link.id},
                     {"start", JsonPoint(link.start)},
                     {"end", JsonPoint(link.end)},
                     {"area", link.area},
                     {"bidirectional", link.bidirectional != 0}});
  }
  return {{"tile", tile.index},
          {"x", tile.grid_x},
          {"z", tile.grid_z},
          {"bounds", JsonBox(tile.bounds)},
          {"polygons", std::move(polygons)},
          {"links", std::move(links)}};
}

}  // namespace waymesh::server
