#pragma once
// Numbers in messages, exactly: the shortest text that reads back as the same value. A limit
// check that prints with %g contradicts itself ("1e+06 must be in [-1e+06, 1e+06]" for
// 1000001); these never do. Plain decimals for everyday magnitudes, scientific otherwise.

#include <string>

namespace waymesh {

// 1000001 -> "1000001", 1000.0001f -> "1000.0001", 0.5 -> "0.5", 1e-45f -> "1e-45".
std::string NumberText(double value);
// As above, shortest for a float (the value a float field holds, not its double widening).
std::string NumberText(float value);

}  // namespace waymesh
