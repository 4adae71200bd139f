// What the viewer's live crowd layer costs a crowd session: a tick as the server runs it, side
// by side with what a tick adds while a viewer watches (copying every agent into a snapshot,
// server/src/crowd_snapshot.h) and the JSON of one frame (made once per tick for all streams).
// A tick nobody watches adds two relaxed atomic stores (not measurable here).
//   crowd_snapshot [--agents=N] [--ticks=T] [--size=M] [--seed=S]

#include "crowd_snapshot.h"

#include <cstdio>
#include <memory>
#include <random>
#include <vector>

#include "common/flags.h"
#include "common/stopwatch.h"
#include "obstacle_world/obstacle_world.h"
#include "viewer_crowd_json.h"
#include "waymesh/core/crowd/chunk_runner.h"
#include "waymesh/core/crowd/crowd.h"

namespace waymesh::bench {
namespace {

struct Costs {
  double tick_us = 0, copy_us = 0, json_us = 0;
};

// A crowd of `agents` on random points of `map`, each walking to another random point.
crowd::Crowd RandomCrowd(const std::shared_ptr<const NavMap>& map, int agents, uint64_t seed) {
  crowd::CrowdOptions options;
  options.max_agents = agents;
  absl::StatusOr<crowd::Crowd> made = crowd::Crowd::Create(map, options);
  if (!made.ok()) {
    std::fprintf(stderr, "crowd: %s\n", made.status().ToString().c_str());
    std::exit(1);
  }
  NavQuery q(map);
  const QueryFilter filter(map->info());
  std::mt19937 rng(seed);
  for (int id = 1; id <= agents; ++id) {
    auto from = q.RandomPoint(filter, rng);
    auto to = q.RandomPoint(filter, rng);
    if (!from.ok() || !*from || !to.ok() || !*to) continue;
    if (made->AddAgent(id, (*from)->pos, crowd::AgentParams{}).ok()) {
      (void)made->SetTarget(id, (*to)->pos);
    }
  }
  return *std::move(made);
}

Costs Measure(crowd::Crowd& crowd, int ticks) {
  crowd::SerialChunkRunner runner;  // one session, one worker, as in the server
  Costs total;
  const server::CrowdFeedInfo info{1, "town", "", 20};
  for (int t = 1; t <= ticks; ++t) {
    Stopwatch watch;
    (void)crowd.Step(0.05f, runner);
    total.tick_us += watch.ElapsedUs();
    watch.Restart();
    auto snapshot = std::make_shared<server::CrowdSnapshot>();
    snapshot->info = info;
    snapshot->tick = t;
    crowd.Snapshot(&snapshot->agents);
    total.copy_us += watch.ElapsedUs();
    watch.Restart();
    const std::string frame = server::CrowdSnapshotJson(*snapshot);
    total.json_us += watch.ElapsedUs();
  }
  return {total.tick_us / ticks, total.copy_us / ticks, total.json_us / ticks};
}

}  // namespace
}  // namespace waymesh::bench

int main(int argc, char** argv) {
  using namespace waymesh::bench;
  CLI::App app{"Cost of a crowd snapshot for the viewer beside the tick it follows"};
  TownFlags town{256, 7};
  AddTownFlags(app, &town);
  std::vector<int> agent_counts = {100, 1000, 5000};
  int ticks = 40;
  app.add_option("--agents", agent_counts, "crowd sizes to measure")->check(CLI::Range(1, 100000));
  app.add_option("--ticks", ticks, "ticks measured per size (after 10 unmeasured)")
      ->check(CLI::Range(1, 100000));
  ParseFlagsOrExit(app, argc, argv);
  const auto map = BuildObstacleTown(town.size, town.seed);
  std::printf("%-8s %12s %16s %10s %16s %10s\n", "agents", "tick (us)", "snapshot (us)", "of tick",
              "frame JSON (us)", "of tick");
  for (int agents : agent_counts) {
    waymesh::crowd::Crowd crowd = RandomCrowd(map, agents, town.seed);
    Measure(crowd, 10);  // paths planned, caches warm
    const Costs c = Measure(crowd, ticks);
    std::printf("%-8u %12.1f %16.1f %9.2f%% %16.1f %9.1f%%\n", crowd.agent_count(), c.tick_us,
                c.copy_us, 100 * c.copy_us / c.tick_us, c.json_us, 100 * c.json_us / c.tick_us);
  }
  return 0;
}
