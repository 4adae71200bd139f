#pragma once
// Locating the shared, read-only test data (../shared/data) and the project's own fixtures.

#include <string>

namespace waymesh::testing {

// Absolute path of `relative` inside ../shared/data (or $WAYMESH_DATA).
std::string SharedData(const std::string& relative);
// Absolute path of `relative` inside tests/data (fixtures written by this project).
std::string Fixture(const std::string& relative);
// Whole file as bytes; fails the current test when unreadable.
std::string ReadFileOrDie(const std::string& path);

}  // namespace waymesh::testing
