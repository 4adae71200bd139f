#include "support/test_data.h"

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace waymesh::testing {

std::string SharedData(const std::string& relative) {
  const char* env = std::getenv("WAYMESH_DATA");
  return std::string(env && *env ? env : WAYMESH_SHARED_DATA) + "/" + relative;
}

std::string Fixture(const std::string& relative) {
  return std::string(WAYMESH_TEST_DIR) + "/data/" + relative;
}

std::string ReadFileOrDie(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read test file " + path);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

}  // namespace waymesh::testing
