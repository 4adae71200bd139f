// vs_detourcrowd: Waymesh's crowd and DetourCrowd side by side on the same maps and scenarios,
// in one process, one thread each. See bench/vs_detourcrowd/ for the engines, scenes and
// measurement, and docs/PERFORMANCE.md ("Crowds") for results.

#include <CLI/CLI.hpp>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "vs_detour/detour_mesh.h"
#include "vs_detourcrowd/crowd_report.h"
#include "vs_detourcrowd/detour_crowd_engine.h"
#include "vs_detourcrowd/scene_run.h"
#include "vs_detourcrowd/scenes.h"
#include "vs_detourcrowd/waymesh_crowd_engine.h"

namespace {

namespace wb = waymesh::bench;

// Writes the scene's map and scenario as DIR/<scene>.wmesh and DIR/<scene>.json, so that
// `waymesh crowd DIR/<scene>.wmesh --scenario DIR/<scene>.json` runs it.
bool WriteScene(const wb::Scene& scene, const std::string& dir) {
  std::filesystem::create_directories(dir);
  std::ofstream map(dir + "/" + scene.name + ".wmesh", std::ios::binary);
  map << *scene.map.bytes;
  std::ofstream json(dir + "/" + scene.name + ".json");
  json << waymesh::CrowdScenarioJson(scene.scenario);
  return bool(map) && bool(json);
}

float MaxRadius(const waymesh::CrowdScenario& s) {
  float r = 0;
  for (const waymesh::ScenarioAgent& a : s.agents) r = std::max(r, a.radius);
  return r;
}

absl::StatusOr<wb::SceneReport> Compare(const wb::Scene& scene,
                                        const waymesh::crowd::CrowdOptions& crowd_options) {
  wb::SceneReport report{scene.name, {}};
  wb::SceneRunOptions options;
  options.quality_every = scene.quality_every;
  std::cerr << "[" << scene.name << "] Waymesh, " << scene.scenario.agents.size() << " agents\n";
  absl::StatusOr<std::unique_ptr<wb::WaymeshCrowdEngine>> waymesh =
      wb::WaymeshCrowdEngine::Create(scene.map.map, crowd_options);
  if (!waymesh.ok()) return waymesh.status();
  absl::StatusOr<wb::SceneResult> w =
      wb::RunScene(**waymesh, scene.scenario, scene.map.map, options);
  if (!w.ok()) return w.status();
  report.results.push_back(*w);
  waymesh->reset();

  std::cerr << "[" << scene.name << "] DetourCrowd\n";
  absl::StatusOr<std::unique_ptr<wb::DetourMesh>> mesh =
      wb::DetourMesh::Build(*scene.map.map, wb::DetourConversion{});
  if (!mesh.ok()) return mesh.status();
  absl::StatusOr<std::unique_ptr<wb::DetourCrowdEngine>> detour = wb::DetourCrowdEngine::Create(
      (*mesh)->nav_mesh(), int(scene.scenario.agents.size()), MaxRadius(scene.scenario));
  if (!detour.ok()) return detour.status();
  absl::StatusOr<wb::SceneResult> d =
      wb::RunScene(**detour, scene.scenario, scene.map.map, options);
  if (!d.ok()) return d.status();
  report.results.push_back(*d);
  return report;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "Waymesh crowd vs DetourCrowd: time per agent-tick, overlaps, wall penetrations "
      "and arrivals on the same maps and scenarios"};
  std::vector<std::string> names{"circle", "corridor", "door", "town"};
  wb::SceneOptions options;
  std::string write_dir;
  waymesh::crowd::CrowdOptions crowd_options;
  app.add_option("--scenes", names, "Scenes to run: circle, corridor, door, town")
      ->delimiter(',')
      ->capture_default_str();
  app.add_option("--circle-agents", options.circle_agents)->capture_default_str();
  app.add_option("--corridor-per-group", options.corridor_per_group)->capture_default_str();
  app.add_option("--door-agents", options.door_agents)->capture_default_str();
  app.add_option("--town-agents", options.town_agents)->capture_default_str();
  app.add_option("--town-size", options.town_size, "Demo town side (m)")->capture_default_str();
  app.add_option("--town-quality-every", options.town_quality_every,
                 "Judge the town's positions every N ticks")
      ->capture_default_str();
  app.add_option("--seed", options.seed, "Seed of the demo town and the wandering routes")
      ->capture_default_str();
  app.add_option("--write-scenes", write_dir,
                 "Also write each scene's map and scenario to DIR (for `waymesh crowd`)");
  app.add_option("--orca-margin", crowd_options.orca_margin,
                 "Waymesh: extra distance (m) ORCA keeps between agents")
      ->capture_default_str();
  app.add_option("--time-horizon", crowd_options.time_horizon,
                 "Waymesh: ORCA time horizon for agents (s)")
      ->capture_default_str();
  app.add_option("--max-neighbours", crowd_options.max_neighbours,
                 "Waymesh: agents considered per agent")
      ->capture_default_str();
  app.add_option("--keep-right", crowd_options.keep_right_deg,
                 "Waymesh: degrees an agent turns right for oncoming agents")
      ->capture_default_str();
  CLI11_PARSE(app, argc, argv);
#ifndef NDEBUG
  std::cerr << "vs_detourcrowd: warning: assertions are on; timings need a Release build\n";
#endif
  absl::StatusOr<std::vector<wb::Scene>> scenes = wb::BuildScenes(names, options);
  if (!scenes.ok()) {
    std::cerr << "vs_detourcrowd: " << scenes.status().message() << "\n";
    return 2;
  }
  std::vector<wb::SceneReport> reports;
  for (const wb::Scene& scene : *scenes) {
    if (!write_dir.empty() && !WriteScene(scene, write_dir)) {
      std::cerr << "vs_detourcrowd: cannot write " << scene.name << " to " << write_dir << "\n";
      return 1;
    }
    absl::StatusOr<wb::SceneReport> report = Compare(scene, crowd_options);
    if (!report.ok()) {
      std::cerr << "vs_detourcrowd: " << scene.name << ": " << report.status() << "\n";
      return 1;
    }
    reports.push_back(*std::move(report));
  }
  wb::PrintCrowdReport(reports, std::cout);
  return 0;
}
