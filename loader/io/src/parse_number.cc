#include "waymesh/io/parse_number.h"

#include <charconv>
#include <cmath>
#include <system_error>

namespace waymesh::importer {
namespace {

// from_chars rejects a leading '+', which hand-written and some exported files use.
std::string_view StripPlus(std::string_view token) {
  if (token.size() > 1 && token[0] == '+' && token[1] != '-' && token[1] != '+') {
    token.remove_prefix(1);
  }
  return token;
}

}  // namespace

std::optional<double> ParseDouble(std::string_view token) {
  token = StripPlus(token);
  double value = 0;
  const auto [end, error] = std::from_chars(token.data(), token.data() + token.size(), value);
  // from_chars reports magnitudes beyond double as an error; map them to infinity (or zero for
  // underflow) so the caller's finiteness check names the value.
  if (error == std::errc::result_out_of_range && end == token.data() + token.size()) {
    const size_t e = token.find_first_of("eE");
    const bool underflow =
        e != std::string_view::npos && e + 1 < token.size() && token[e + 1] == '-';
    const bool negative = token[0] == '-';
    if (underflow) return negative ? -0.0 : 0.0;
    return negative ? -HUGE_VAL : HUGE_VAL;
  }
  if (error != std::errc() || end != token.data() + token.size() || token.empty()) {
    return std::nullopt;
  }
  return value;
}

std::optional<int64_t> ParseInt64(std::string_view token) {
  token = StripPlus(token);
  int64_t value = 0;
  const auto [end, error] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (error != std::errc() || end != token.data() + token.size() || token.empty()) {
    return std::nullopt;
  }
  return value;
}

}  // namespace waymesh::importer
