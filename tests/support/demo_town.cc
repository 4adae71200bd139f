#include "support/demo_town.h"

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <map>
#include <mutex>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "waymesh/format/map_file.h"
#include "waymesh/repair/repair.h"

namespace waymesh::testing {
namespace {

absl::StatusOr<DemoTown> BuildTown(double size, uint64_t seed, float tile_size) {
  DemoWorldOptions options;
  options.size = size;
  options.seed = seed;
  absl::StatusOr<DemoWorld> world = GenerateDemoWorld(options);
  if (!world.ok()) return world.status();
  RepairOptions repair;
  if (tile_size > 0) repair.tile_size = tile_size;
  RepairReport report;
  absl::StatusOr<RepairedMesh> repaired =
      RepairMeshes(std::span<const SourceMesh>(&world->mesh, 1), repair, &report);
  if (!repaired.ok()) return repaired.status();
  absl::StatusOr<std::string> bytes = CompileMap(*repaired);
  if (!bytes.ok()) return bytes.status();
  absl::StatusOr<std::shared_ptr<const NavMap>> map =
      LoadMap(std::make_shared<const std::string>(*bytes));
  if (!map.ok()) return map.status();
  return DemoTown{*std::move(bytes), *std::move(map), std::move(world->truth)};
}

}  // namespace

const DemoTown& Town(double size, uint64_t seed, float tile_size) {
  using Key = std::tuple<double, uint64_t, float>;
  static std::mutex mu;
  static auto* towns = new std::map<Key, DemoTown>();
  std::lock_guard<std::mutex> lock(mu);
  const Key key{size, seed, tile_size};
  auto it = towns->find(key);
  if (it == towns->end()) {
    absl::StatusOr<DemoTown> town = BuildTown(size, seed, tile_size);
    if (!town.ok()) ADD_FAILURE() << "demo town: " << town.status();
    it = towns->emplace(key, town.ok() ? *std::move(town) : DemoTown{}).first;
  }
  return it->second;
}

Vec3 ProbeAt(const DemoTown& town, const std::string& name) {
  for (const DemoProbe& p : town.truth.probes) {
    if (p.name == name) return p.position;
  }
  ADD_FAILURE() << "no demo probe named " << name;
  return {};
}

TempDir::TempDir() {
  static std::atomic<int> counter{0};
  path_ = (std::filesystem::temp_directory_path() /
           absl::StrCat("waymesh-server-test-", getpid(), "-", counter++))
              .string();
  std::filesystem::remove_all(path_);
  std::filesystem::create_directories(path_);
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

void TempDir::Write(const std::string& name, const std::string& bytes) const {
  const absl::Status s = WriteFileAtomically(path_ + "/" + name, bytes);
  ASSERT_TRUE(s.ok()) << s;
}

}  // namespace waymesh::testing
