#include "waymesh/io/utf8_check.h"

#include <cstdint>

#include "absl/strings/str_format.h"

namespace waymesh {
namespace {

// Bytes of the sequence a lead byte starts and the least code point it may encode; 0 when the
// byte cannot start one.
struct Lead {
  int length;
  uint32_t min;
};

Lead LeadOf(uint8_t b) {
  if (b < 0x80) return {1, 0};
  if ((b & 0xe0) == 0xc0) return {2, 0x80};
  if ((b & 0xf0) == 0xe0) return {3, 0x800};
  if ((b & 0xf8) == 0xf0) return {4, 0x10000};
  return {0, 0};
}

}  // namespace

std::optional<std::string> Utf8Problem(std::string_view text) {
  constexpr uint32_t kLargest = 0x10ffff;
  constexpr uint32_t kSurrogateFirst = 0xd800, kSurrogateLast = 0xdfff;
  for (size_t i = 0; i < text.size();) {
    const uint8_t b = uint8_t(text[i]);
    const Lead lead = LeadOf(b);
    if (lead.length == 0 || i + lead.length > text.size()) {
      return absl::StrFormat("byte 0x%02x at offset %d does not start a complete UTF-8 sequence", b,
                             i);
    }
    uint32_t code = lead.length == 1 ? b : b & (0x7f >> lead.length);
    for (int k = 1; k < lead.length; ++k) {
      const uint8_t c = uint8_t(text[i + k]);
      if ((c & 0xc0) != 0x80) {
        return absl::StrFormat("byte 0x%02x at offset %d is not a UTF-8 continuation byte", c,
                               i + k);
      }
      code = (code << 6) | (c & 0x3f);
    }
    if (code < lead.min || code > kLargest || (code >= kSurrogateFirst && code <= kSurrogateLast)) {
      return absl::StrFormat("bytes at offset %d encode U+%04X, which UTF-8 does not allow", i,
                             code);
    }
    i += lead.length;
  }
  return std::nullopt;
}

}  // namespace waymesh
