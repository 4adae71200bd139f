#include "waymesh/io/number_text.h"

#include <charconv>
#include <cmath>

namespace waymesh {
namespace {

// Decimals between these magnitudes; beyond, plain digits would be long or mostly zeros.
constexpr double kSmallestPlain = 1e-4;
constexpr double kLargestPlain = 1e15;

template <typename T>
std::string Shortest(T value) {
  char buffer[64];
  const double magnitude = std::fabs(double(value));
  const bool plain = value == 0 || !std::isfinite(magnitude) ||
                     (magnitude >= kSmallestPlain && magnitude < kLargestPlain);
  const std::to_chars_result r =
      plain ? std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed)
            : std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, r.ptr);
}

}  // namespace

std::string NumberText(double value) { return Shortest(value); }
std::string NumberText(float value) { return Shortest(value); }

}  // namespace waymesh
