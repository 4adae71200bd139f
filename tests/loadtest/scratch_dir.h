#pragma once
// A temporary directory for the files a loadtest test writes (configs, data, reports).

#include <string>

namespace waymesh::loadtest::testing {

class ScratchDir {
 public:
  ScratchDir();   // a fresh empty directory under the system temp dir
  ~ScratchDir();  // removes it with everything in it
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  const std::string& path() const { return path_; }
  // Writes `text` to path()/name (creating sub-directories) and returns the file's path.
  std::string Write(const std::string& name, const std::string& text) const;

 private:
  std::string path_;
};

}  // namespace waymesh::loadtest::testing
