#pragma once
// Strict number parsing for text formats: the whole token must be the number, nothing else.

#include <cstdint>
#include <optional>
#include <string_view>

namespace waymesh::importer {

// The token as a double (decimal or exponent form, optional sign), or nullopt when it is not
// entirely a number. "nan" and "inf" parse (so callers can name them); check finiteness.
std::optional<double> ParseDouble(std::string_view token);
// The token as a base-10 integer with optional sign, or nullopt (also on overflow).
std::optional<int64_t> ParseInt64(std::string_view token);

}  // namespace waymesh::importer
