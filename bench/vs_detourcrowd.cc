// vs_detourcrowd: Waymesh's crowd and DetourCrowd side by side on the same maps and scenarios,
// in one process, one thread each. See bench/vs_detourcrowd/ for the engines, scenes and
// measurement, and docs/PERFORMANCE.md ("Crowds") for results.

#include <CLI/CLI.hpp>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/flags.h"
#include "vs_detour/detour_mesh.h"
#include "vs_detour/report_each.h"
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

// Runs the scene `repeat` times on fresh engines made by `make` and keeps the median wall and
// the median CPU time per tick (the machine is shared; the crowd's behaviour is the same every
// run).
template <typename Make>
absl::StatusOr<wb::SceneResult> Measure(const wb::Scene& scene, int repeat, Make make) {
  wb::SceneRunOptions options;
  options.quality_every = scene.quality_every;
  std::vector<wb::SceneResult> runs;
  for (int i = 0; i < std::max(repeat, 1); ++i) {
    auto engine = make();
    if (!engine.ok()) return engine.status();
    absl::StatusOr<wb::SceneResult> r =
        wb::RunScene(**engine, scene.scenario, scene.map.map, scene.gate, options);
    if (!r.ok()) return r.status();
    runs.push_back(*std::move(r));
    if (i == 0) options.quality_every = 0;  // judged once: every run behaves the same
  }
  auto median = [&](double wb::SceneResult::*field) -> const wb::SceneResult& {
    std::vector<size_t> order(runs.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(),
              [&](size_t a, size_t b) { return runs[a].*field < runs[b].*field; });
    return runs[order[order.size() / 2]];
  };
  wb::SceneResult out = runs[0];
  const wb::SceneResult& wall = median(&wb::SceneResult::ms_per_tick);
  out.ms_per_tick = wall.ms_per_tick;
  out.ms_per_tick_p99 = wall.ms_per_tick_p99;
  out.us_per_agent_tick = wall.us_per_agent_tick;
  const wb::SceneResult& cpu = median(&wb::SceneResult::cpu_ms_per_tick);
  out.cpu_ms_per_tick = cpu.cpu_ms_per_tick;
  out.cpu_us_per_agent_tick = cpu.cpu_us_per_agent_tick;
  return out;
}

absl::StatusOr<wb::SceneReport> Compare(const wb::Scene& scene,
                                        const waymesh::crowd::CrowdOptions& crowd_options,
                                        int repeat, bool with_detour) {
  wb::SceneReport report{scene.name, {}};
  std::cerr << "[" << scene.name << "] Waymesh, " << scene.scenario.agents.size() << " agents\n";
  absl::StatusOr<wb::SceneResult> w = Measure(
      scene, repeat, [&] { return wb::WaymeshCrowdEngine::Create(scene.map.map, crowd_options); });
  if (!w.ok()) return w.status();
  report.results.push_back(*w);
  if (!with_detour) return report;

  std::cerr << "[" << scene.name << "] DetourCrowd\n";
  absl::StatusOr<std::unique_ptr<wb::DetourMesh>> mesh =
      wb::DetourMesh::Build(*scene.map.map, wb::DetourConversion{});
  if (!mesh.ok()) return mesh.status();
  absl::StatusOr<wb::SceneResult> d = Measure(scene, repeat, [&] {
    return wb::DetourCrowdEngine::Create((*mesh)->mutable_nav_mesh(), int(scene.scenario.agents.size()),
                                         MaxRadius(scene.scenario));
  });
  if (!d.ok()) return d.status();
  report.results.push_back(*d);
  return report;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "Waymesh crowd vs DetourCrowd: time per agent-tick, overlaps, wall penetrations "
      "and arrivals on the same maps and scenarios"};
  std::vector<std::string> names{"circle", "corridor", "door", "gate", "town"};
  wb::SceneOptions options;
  std::string write_dir;
  waymesh::crowd::CrowdOptions crowd_options;
  int repeat = 3;
  bool waymesh_only = false;
  app.add_option("--scenes", names, "Scenes to run: circle, corridor, door, gate, town")
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
  app.add_option("--repeat", repeat,
                 "Runs per scene and engine; the run of median time per tick is reported")
      ->capture_default_str();
  app.add_flag("--waymesh-only", waymesh_only, "Run Waymesh's crowd alone (for profiling)");
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
  waymesh::bench::ParseFlagsOrExit(app, argc, argv);
#ifndef NDEBUG
  std::cerr << "vs_detourcrowd: warning: assertions are on; timings need a Release build\n";
#endif
  absl::StatusOr<std::vector<wb::Scene>> scenes = wb::BuildScenes(names, options);
  if (!scenes.ok()) {
    std::cerr << "vs_detourcrowd: " << scenes.status().message() << "\n";
    return 2;
  }
  for (const wb::Scene& scene : *scenes) {
    if (!write_dir.empty() && !WriteScene(scene, write_dir)) {
      std::cerr << "vs_detourcrowd: cannot write " << scene.name << " to " << write_dir << "\n";
      return 1;
    }
  }
  const std::optional<std::vector<wb::SceneReport>> reports = wb::ReportEach(
      "vs_detourcrowd", *scenes,
      [&](const wb::Scene& scene) { return Compare(scene, crowd_options, repeat, !waymesh_only); });
  if (!reports) return 1;
  wb::PrintCrowdReport(*reports, std::cout);
  return 0;
}
