#pragma once
// Pieces of the Prometheus text exposition format 0.0.4: escaping and sample lines.

#include <span>
#include <string>
#include <string_view>

namespace waymesh::server::text_format {

// HELP text: backslash and newline escaped.
void AppendEscapedHelp(std::string_view help, std::string* out);
// Label value: backslash, double quote and newline escaped.
void AppendEscapedLabelValue(std::string_view value, std::string* out);
// A sample value: shortest round-trip decimal, or "+Inf", "-Inf", "NaN".
void AppendValue(double value, std::string* out);

// Appends `name{l1="v1",...,extra_name="extra_value"} value\n`; the braces are left out when
// there are no labels. `extra_name` (e.g. "le") is skipped when empty.
void AppendSample(std::string_view name, std::span<const std::string> label_names,
                  std::span<const std::string> label_values, std::string_view extra_name,
                  std::string_view extra_value, double value, std::string* out);

// True for [a-zA-Z_:][a-zA-Z0-9_:]*.
bool IsValidMetricName(std::string_view name);
// True for [a-zA-Z_][a-zA-Z0-9_]* not starting with "__" (reserved by Prometheus).
bool IsValidLabelName(std::string_view name);

}  // namespace waymesh::server::text_format
