// libFuzzer target: crowd scenario files (`waymesh crowd --scenario`) on arbitrary bytes. A
// scenario is read or refused with a message, never a crash, a hang or unbounded memory; an
// accepted scenario is written and read back to the same scenario.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "waymesh/crowd_scenario/crowd_scenario.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const absl::StatusOr<waymesh::CrowdScenario> scenario =
      waymesh::ParseCrowdScenario(text, "fuzz.json");
  if (!scenario.ok()) {
    if (scenario.status().message().empty()) std::abort();  // errors always say why
    return 0;
  }
  const std::string written = waymesh::CrowdScenarioJson(*scenario);
  const absl::StatusOr<waymesh::CrowdScenario> again =
      waymesh::ParseCrowdScenario(written, "written.json");
  if (!again.ok() || waymesh::CrowdScenarioJson(*again) != written) std::abort();
  return 0;
}
