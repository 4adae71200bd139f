#pragma once
// The crowd comparison's table: per scene and engine, time per tick and per agent-tick,
// overlaps, wall penetrations and arrivals, and the time ratio of the two engines.

#include <ostream>
#include <string>
#include <vector>

#include "vs_detourcrowd/scene_run.h"

namespace waymesh::bench {

struct SceneReport {
  std::string scene;
  std::vector<SceneResult> results;  // Waymesh first, then DetourCrowd
};

void PrintCrowdReport(const std::vector<SceneReport>& reports, std::ostream& out);

}  // namespace waymesh::bench
