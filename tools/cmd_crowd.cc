// `waymesh crowd MAP.wmesh --scenario SCENARIO.json [--out trajectories.csv]
// [--mode orca|circling] [--obstacles OBSTACLES.json]`: runs a crowd scenario headless
// (docs/crowd.md), on the map with the obstacles carved in when given, and prints a summary:
// agents, ticks, arrivals, overlaps, wall clearance and time per tick.

#include <fstream>
#include <iostream>
#include <memory>
#include <string>

#include "absl/strings/str_format.h"
#include "cli_options.h"
#include "commands.h"
#include "map_arg.h"
#include "obstacles_arg.h"
#include "waymesh/core/crowd/chunk_runner.h"
#include "waymesh/crowd_scenario/crowd_run.h"
#include "waymesh/crowd_scenario/crowd_scenario.h"

namespace waymesh::cli {
namespace {

struct CrowdArgs {
  std::string map_path;
  std::string scenario_path;
  std::string out_path;
  std::string mode;
  std::string obstacles_path;
};

void WriteRows(uint64_t tick, const std::vector<crowd::AgentUpdate>& agents, std::string* buf) {
  for (const crowd::AgentUpdate& a : agents) {
    absl::StrAppendFormat(buf, "%d,%d,%.4f,%.4f,%.4f,%.4f,%.4f,%s\n", tick, a.id, a.pos.x, a.pos.y,
                          a.pos.z, a.vel.x, a.vel.z, crowd::AgentStateName(a.state));
  }
}

void PrintSummary(const CrowdRunSummary& s, std::ostream& out) {
  const CrowdQuality& q = s.quality;
  out << absl::StrFormat("agents            %d\n", s.agents);
  out << absl::StrFormat("ticks             %d\n", s.ticks);
  out << absl::StrFormat("arrived           %d of %d with a target\n", s.arrived, s.routed);
  if (s.arrived > 0) {
    out << absl::StrFormat("mean arrival      %.2f s\n", s.mean_arrival_s);
  } else {
    out << "mean arrival      -\n";
  }
  out << absl::StrFormat(
      "overlaps          %d pair-ticks over 10%% of the smaller radius, "
      "worst depth %.3f m\n",
      q.overlap_pairs, q.worst_overlap);
  if (q.min_wall_clearance < 1e30f) {
    out << absl::StrFormat("wall clearance    min %.3f m (%d agent-ticks into a wall)\n",
                           q.min_wall_clearance, q.wall_penetrations);
  } else {
    out << "wall clearance    -\n";
  }
  out << absl::StrFormat("off the surface   %d agent-ticks\n", q.off_mesh);
  out << absl::StrFormat(
      "time per tick     mean %.3f ms, p99 %.3f ms, max %.3f ms (%.3f us "
      "per agent-tick)\n",
      s.tick_ms_mean, s.tick_ms_p99, s.tick_ms_max, s.us_per_agent_tick);
}

int RunCrowd(const CrowdArgs& args) {
  CrowdRunOptions options;
  if (!args.mode.empty()) {
    absl::StatusOr<crowd::AvoidanceMode> mode = ParseAvoidanceMode(args.mode);
    if (!mode.ok()) {
      std::cerr << "waymesh crowd: --mode: " << mode.status().message() << "\n";
      return kExitUsage;
    }
    options.mode = *mode;
  }
  absl::StatusOr<CrowdScenario> scenario = ReadCrowdScenario(args.scenario_path);
  if (!scenario.ok()) {
    std::cerr << "waymesh crowd: " << scenario.status().message() << "\n";
    return kExitUsage;
  }
  std::shared_ptr<const NavMap> map = LoadMapArg("crowd", args.map_path);
  if (map == nullptr) return kExitFailure;
  if (int rc = ApplyObstaclesArg("crowd", args.obstacles_path, &map, nullptr); rc != kExitOk) {
    return rc;
  }
  absl::StatusOr<std::unique_ptr<CrowdRun>> run = CrowdRun::Start(map, *scenario, options);
  if (!run.ok()) {
    std::cerr << "waymesh crowd: " << args.scenario_path << ": " << run.status().message() << "\n";
    return kExitUsage;
  }
  std::ofstream csv;
  std::string buf;
  if (!args.out_path.empty()) {
    csv.open(args.out_path);
    if (!csv) {
      std::cerr << "waymesh crowd: " << args.out_path << ": cannot write\n";
      return kExitFailure;
    }
    buf = "tick,agent,x,y,z,vx,vz,state\n";
    WriteRows(0, (*run)->agents(), &buf);
  }
  crowd::SerialChunkRunner runner;
  while (!(*run)->done()) {
    if (absl::Status s = (*run)->Tick(runner); !s.ok()) {
      std::cerr << "waymesh crowd: " << args.scenario_path << ": " << s.message() << "\n";
      return kExitUsage;
    }
    if (csv.is_open()) {
      WriteRows((*run)->tick(), (*run)->agents(), &buf);
      csv << buf;
      buf.clear();
    }
  }
  if (csv.is_open()) {
    csv << buf;
    csv.close();
    if (!csv) {
      std::cerr << "waymesh crowd: " << args.out_path << ": write failed\n";
      return kExitFailure;
    }
  }
  std::cout << absl::StrFormat("%s on %s, %s avoidance\n", args.scenario_path, args.map_path,
                               AvoidanceModeName((*run)->crowd().options().mode));
  PrintSummary((*run)->Summary(), std::cout);
  return kExitOk;
}

}  // namespace

void RegisterCrowd(CLI::App* cmd, int* exit_code) {
  auto args = std::make_shared<CrowdArgs>();
  AddMapArg(cmd, args->map_path);
  AddInputFile(cmd, "--scenario", args->scenario_path,
               "scenario JSON: tick_hz, duration_s, agents, events (docs/crowd.md)");
  cmd->add_option("--out", args->out_path,
                  "write trajectories.csv: tick,agent,x,y,z,vx,vz,state (one row per agent per "
                  "tick; tick 0 is the start)");
  cmd->add_option("--mode", args->mode,
                  "avoidance: orca (default) or circling; overrides the scenario's \"mode\"");
  AddObstaclesOption(cmd, args->obstacles_path);
  cmd->callback([args, exit_code] { *exit_code = RunCrowd(*args); });
}

}  // namespace waymesh::cli
