#include "text_format.h"

#include <charconv>
#include <cmath>

namespace waymesh::server::text_format {
namespace {

bool IsNameStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

void AppendEscapedHelp(std::string_view help, std::string* out) {
  for (char c : help) {
    if (c == '\\') {
      out->append("\\\\");
    } else if (c == '\n') {
      out->append("\\n");
    } else {
      out->push_back(c);
    }
  }
}

void AppendEscapedLabelValue(std::string_view value, std::string* out) {
  for (char c : value) {
    if (c == '\\') {
      out->append("\\\\");
    } else if (c == '"') {
      out->append("\\\"");
    } else if (c == '\n') {
      out->append("\\n");
    } else {
      out->push_back(c);
    }
  }
}

void AppendValue(double value, std::string* out) {
  if (std::isnan(value)) {
    out->append("NaN");
    return;
  }
  if (std::isinf(value)) {
    out->append(value > 0 ? "+Inf" : "-Inf");
    return;
  }
  // Formatted like Go's strconv.FormatFloat(v, 'g', -1, 64), as the official Go client does,
  // so "le" label values match across exporters: shortest round-trip digits, exponent notation
  // when the decimal exponent is < -4 or >= 6 ("0.0001", "262144", "1.048576e+06").
  char buf[64];
  auto [sci_end, sci_ec] =
      std::to_chars(buf, buf + sizeof(buf), value, std::chars_format::scientific);
  if (sci_ec != std::errc()) return;
  const std::string_view sci(buf, sci_end - buf);
  // The exponent after 'e' ("e+06", "e-05"); from_chars stops at the view's end (no NUL).
  const size_t e = sci.find('e');
  int exponent = 0;
  const char* exp_begin = sci.data() + e + 1 + (sci[e + 1] == '+' ? 1 : 0);
  std::from_chars(exp_begin, sci.data() + sci.size(), exponent);
  if (exponent < -4 || exponent >= 6) {
    out->append(sci);
    return;
  }
  auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), value, std::chars_format::fixed);
  if (ec == std::errc()) out->append(buf, end);
}

void AppendSample(std::string_view name, std::span<const std::string> label_names,
                  std::span<const std::string> label_values, std::string_view extra_name,
                  std::string_view extra_value, double value, std::string* out) {
  out->append(name);
  const bool has_labels = !label_names.empty() || !extra_name.empty();
  if (has_labels) {
    out->push_back('{');
    bool first = true;
    auto append_label = [&](std::string_view label, std::string_view label_value) {
      if (!first) out->push_back(',');
      first = false;
      out->append(label);
      out->append("=\"");
      AppendEscapedLabelValue(label_value, out);
      out->push_back('"');
    };
    for (size_t i = 0; i < label_names.size() && i < label_values.size(); ++i) {
      append_label(label_names[i], label_values[i]);
    }
    if (!extra_name.empty()) append_label(extra_name, extra_value);
    out->push_back('}');
  }
  out->push_back(' ');
  AppendValue(value, out);
  out->push_back('\n');
}

bool IsValidMetricName(std::string_view name) {
  if (name.empty() || !(IsNameStart(name[0]) || name[0] == ':')) return false;
  for (char c : name) {
    if (!(IsNameStart(c) || IsDigit(c) || c == ':')) return false;
  }
  return true;
}

bool IsValidLabelName(std::string_view name) {
  if (name.empty() || !IsNameStart(name[0]) || name.starts_with("__")) return false;
  for (char c : name) {
    if (!(IsNameStart(c) || IsDigit(c))) return false;
  }
  return true;
}

}  // namespace waymesh::server::text_format
