#pragma once
// Strings a map stores (its name, area names) must be UTF-8: the server sends them in protobuf
// string fields, and a client cannot parse a message holding anything else.

#include <optional>
#include <string>
#include <string_view>

namespace waymesh {

// Why `text` is not valid UTF-8 ("byte 0xff at offset 5 ..."), or nullopt when it is. Overlong
// forms, surrogates and code points above U+10FFFF are invalid, as in protobuf.
std::optional<std::string> Utf8Problem(std::string_view text);

}  // namespace waymesh
