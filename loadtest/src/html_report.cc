#include "waymesh/loadtest/html_report.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_replace.h"

namespace waymesh::loadtest {
namespace {

constexpr char kStyle[] =
    "body{font-family:sans-serif;margin:2em;max-width:60em}"
    "table{border-collapse:collapse;margin-bottom:1.5em}"
    "td,th{border:1px solid #ccc;padding:.2em .6em;text-align:right}"
    "th{background:#eee}td.l,th.l{text-align:left}"
    ".bar{background:#4a7ebb;height:1em;display:inline-block}"
    "pre{background:#f6f6f6;padding:1em;overflow:auto}";

std::string HtmlEscape(absl::string_view text) {
  return absl::StrReplaceAll(
      text, {{"&", "&amp;"}, {"<", "&lt;"}, {">", "&gt;"}, {"\"", "&quot;"}, {"'", "&#39;"}});
}

std::string HtmlMillis(int64_t ns) {
  return absl::StrFormat("%.2f ms", static_cast<double>(ns) / 1e6);
}

std::string HtmlRow(absl::string_view label, absl::string_view value) {
  return absl::StrCat("<tr><th class=\"l\">", HtmlEscape(label), "</th><td>", HtmlEscape(value),
                      "</td></tr>\n");
}

std::string HtmlHistogram(const LoadReport& r) {
  if (r.histogram.empty()) return "";
  uint64_t most = 1;
  for (const HistogramBucket& b : r.histogram) most = std::max(most, b.count);
  std::string out =
      "<h2>Response time histogram</h2>\n<table>\n<tr><th>up to</th><th>calls</th>"
      "<th class=\"l\"></th></tr>\n";
  for (const HistogramBucket& b : r.histogram) {
    const double width_em = 20.0 * static_cast<double>(b.count) / static_cast<double>(most);
    absl::StrAppend(&out, "<tr><td>", HtmlMillis(b.mark_ns), "</td><td>", b.count,
                    "</td><td class=\"l\"><span class=\"bar\" style=\"width:",
                    absl::StrFormat("%.2f", width_em), "em\"></span></td></tr>\n");
  }
  return out + "</table>\n";
}

std::string HtmlDistributions(const LoadReport& r) {
  std::string out;
  if (!r.latency_distribution.empty()) {
    out += "<h2>Latency distribution</h2>\n<table>\n<tr><th>percent</th><th>latency</th></tr>\n";
    for (const PercentileLatency& p : r.latency_distribution) {
      absl::StrAppend(&out, "<tr><td>", p.percentage, " %</td><td>", HtmlMillis(p.latency_ns),
                      "</td></tr>\n");
    }
    out += "</table>\n";
  }
  out +=
      "<h2>Status code distribution</h2>\n<table>\n<tr><th class=\"l\">status</th>"
      "<th>calls</th></tr>\n";
  for (const auto& [code, n] : r.status_counts)
    absl::StrAppend(&out, HtmlRow(code, absl::StrCat(n)));
  out += "</table>\n";
  if (!r.error_counts.empty()) {
    out +=
        "<h2>Error distribution</h2>\n<table>\n<tr><th class=\"l\">error</th>"
        "<th>calls</th></tr>\n";
    for (const auto& [error, n] : r.error_counts) {
      absl::StrAppend(&out, HtmlRow(error, absl::StrCat(n)));
    }
    out += "</table>\n";
  }
  return out;
}

}  // namespace

std::string HtmlReport(const LoadReport& r, const LoadConfig& config, absl::Time date) {
  const std::string title = config.name.empty() ? config.call : config.name;
  std::string out = absl::StrCat(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>",
      HtmlEscape(title), " - waymesh-load</title>\n<style>", kStyle,
      "</style>\n</head>\n<body>\n<h1>", HtmlEscape(title), "</h1>\n<p>",
      HtmlEscape(absl::FormatTime("%Y-%m-%dT%H:%M:%SZ", date, absl::UTCTimeZone())), " &middot; ",
      HtmlEscape(config.call), " on ", HtmlEscape(config.host), "</p>\n");
  out += "<h2>Summary</h2>\n<table>\n";
  out += HtmlRow("Count", absl::StrCat(r.count));
  out += HtmlRow("Total", HtmlMillis(r.total_ns));
  out += HtmlRow("Slowest", HtmlMillis(r.slowest_ns));
  out += HtmlRow("Fastest", HtmlMillis(r.fastest_ns));
  out += HtmlRow("Average", HtmlMillis(r.average_ns));
  out += HtmlRow("Requests/sec", absl::StrFormat("%.2f", r.rps));
  out += HtmlRow("End reason", r.end_reason);
  out += "</table>\n";
  out += HtmlHistogram(r);
  out += HtmlDistributions(r);
  absl::StrAppend(&out, "<h2>Options</h2>\n<pre>", HtmlEscape(ConfigToJson(config).dump(2)),
                  "</pre>\n</body>\n</html>\n");
  return out;
}

}  // namespace waymesh::loadtest
