// libFuzzer target: waymesh-load's config checks on arbitrary bytes. A JSON object of config
// keys is accepted or refused with a message, and Go durations parse or fail: never a crash,
// a hang or unbounded memory. An accepted object is checked again unchanged (idempotent).

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "absl/strings/string_view.h"
#include "nlohmann/json.hpp"
#include "waymesh/loadtest/go_duration.h"
#include "waymesh/loadtest/load_config.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)waymesh::loadtest::ParseGoDuration(absl::string_view(text.data(), text.size()));
  const nlohmann::json object = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!object.is_object()) return 0;
  const auto checked = waymesh::loadtest::CheckConfigObject(object, "fuzz", "");
  if (checked.ok()) {
    const auto again = waymesh::loadtest::CheckConfigObject(*checked, "fuzz", "");
    if (!again.ok() || *again != *checked) std::abort();
  }
  return 0;
}
