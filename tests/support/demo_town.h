#pragma once
// The demo town (waymesh/demo_world/demo_world.h) compiled once per test process, with its ground-truth
// probes, for the server integration tests; and small helpers to put maps into a maps dir.

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "waymesh/core/nav_map.h"
#include "waymesh/core/vec3.h"
#include "waymesh/demo_world/demo_world.h"

namespace waymesh::testing {

struct DemoTown {
  std::string bytes;                  // the compiled .wmesh
  std::shared_ptr<const NavMap> map;  // the same bytes, loaded (for reference answers)
  DemoWorldTruth truth;
};

// The town of `size` metres and `seed`, built through the real pipeline (generate -> repair ->
// compile), memoised per (size, seed, tile_size). Thread-safe. Fails the test on error.
const DemoTown& Town(double size = 200, uint64_t seed = 7, float tile_size = 0);

// Position of the probe called `name` (fails the test when there is none).
Vec3 ProbeAt(const DemoTown& town, const std::string& name);

// A fresh empty directory under the system temp dir, removed by the destructor.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  // Writes `bytes` to path()/name atomically (temporary file + rename, as deployments do).
  void Write(const std::string& name, const std::string& bytes) const;

 private:
  std::string path_;
};

}  // namespace waymesh::testing
