#include "viewer_obstacle_json.h"

#include <cmath>

#include "waymesh/core/obstacles/footprint.h"

namespace waymesh::server {
namespace {

double ObstacleMillimetres(double metres) { return std::round(metres * 1000.0) / 1000.0; }

nlohmann::json ObstacleJson(const Obstacle& obstacle, const AgentSettings& agent) {
  const Footprint footprint = ObstacleFootprint(obstacle, agent);
  nlohmann::json xz = nlohmann::json::array();
  for (const PlanPoint& p : footprint.outline) {
    xz.push_back(ObstacleMillimetres(p.x));
    xz.push_back(ObstacleMillimetres(p.z));
  }
  const bool block = footprint.effect == ObstacleEffect::kBlock;
  return {{"id", obstacle.id},
          {"effect", block ? "block" : "area"},
          {"area", footprint.area},
          {"y", {ObstacleMillimetres(footprint.y_min), ObstacleMillimetres(footprint.y_max)}},
          {"xz", std::move(xz)}};
}

}  // namespace

nlohmann::json ObstacleLayerJson(const std::string& name, const HeldLayer& layer,
                                 const AgentSettings& agent, size_t* budget) {
  nlohmann::json obstacles = nlohmann::json::array();
  for (const Obstacle& obstacle : layer.obstacles) {
    if (*budget == 0) break;
    obstacles.push_back(ObstacleJson(obstacle, agent));
    --*budget;
  }
  const bool truncated = obstacles.size() < layer.obstacles.size();
  return {{"name", name},
          {"version", layer.version},
          {"map_version", layer.map_version},
          {"obstacle_count", layer.obstacles.size()},
          {"truncated", truncated},
          {"obstacles", std::move(obstacles)}};
}

}  // namespace waymesh::server
