#pragma once
// The main loop of a comparison program (vs_detour, vs_detourcrowd): one report per item (a
// map, a scene), in order, stopping at the first item that fails.

#include <iostream>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace waymesh::bench {

// `run(item)` (an absl::StatusOr of a report) for each of `items`, which have a `name`; nullopt
// after printing "PROGRAM: NAME: why" to stderr for the first that fails.
template <typename Item, typename Run>
auto ReportEach(std::string_view program, const std::vector<Item>& items, Run run)
    -> std::optional<std::vector<typename decltype(run(items.front()))::value_type>> {
  std::vector<typename decltype(run(items.front()))::value_type> reports;
  for (const Item& item : items) {
    auto report = run(item);
    if (!report.ok()) {
      std::cerr << program << ": " << item.name << ": " << report.status() << "\n";
      return std::nullopt;
    }
    reports.push_back(*std::move(report));
  }
  return reports;
}

}  // namespace waymesh::bench
