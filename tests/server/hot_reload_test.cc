// Hot reload while clients are calling: a changed good map is swapped in atomically (no call
// fails, answers come from the old or the new version, never a mix), a corrupted file leaves
// the serving version in place and counts a reload failure, and the directory watcher picks
// changes up on its own.

#include <thread>

#include "background_callers.h"
#include "gtest/gtest.h"
#include "support/demo_town.h"
#include "test_server.h"

namespace waymesh::testing {
namespace {

v1::MapInfo Info(const server::NavigationServer& server) {
  auto stub = v1::NavigationService::NewStub(Dial(server));
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  v1::GetMapInfoRequest r;
  r.set_map_id("town");
  v1::GetMapInfoResponse info;
  EXPECT_TRUE(stub->GetMapInfo(&ctx, r, &info).ok());
  return info.map();
}

TEST(HotReloadTest, GoodMapSwapsAndCorruptMapKeepsServingWhileClientsCall) {
  const DemoTown& first = Town(200, 7);
  const DemoTown& second = Town(200, 8);
  ASSERT_NE(first.map->info().source_hash, second.map->info().source_hash);
  TempDir maps;
  maps.Write("town.wmesh", first.bytes);
  std::unique_ptr<server::NavigationServer> server = StartServer(TestConfig(maps.path()));
  ASSERT_NE(server, nullptr);
  EXPECT_EQ(Info(*server).source_hash(), first.map->info().source_hash);

  BackgroundCallers callers(server->target(), 3);
  ASSERT_TRUE(callers.WaitCalls(20));
  maps.Write("town.wmesh", second.bytes);
  ASSERT_TRUE(server->maps().ReloadNow().ok());
  const v1::MapInfo swapped = Info(*server);
  EXPECT_EQ(swapped.source_hash(), second.map->info().source_hash);
  EXPECT_EQ(swapped.polygons(), second.map->info().polygon_count);
  EXPECT_EQ(swapped.reloads(), 1u);
  ASSERT_TRUE(callers.WaitCalls(20));

  // A broken copy (truncated and with a damaged header) must not replace the good one.
  const uint64_t failures_before = server->maps().reload_failures();
  std::string broken = second.bytes.substr(0, second.bytes.size() / 2);
  broken[8] ^= 0x5A;
  maps.Write("town.wmesh", broken);
  (void)server->maps().ReloadNow();
  EXPECT_EQ(server->maps().reload_failures(), failures_before + 1);
  const v1::MapInfo kept = Info(*server);
  EXPECT_EQ(kept.source_hash(), second.map->info().source_hash);
  EXPECT_EQ(kept.reloads(), 1u);
  ASSERT_TRUE(callers.WaitCalls(20));

  callers.Stop();
  EXPECT_EQ(callers.failures(), 0)
      << "of " << callers.calls() << " calls: " << callers.failure_sample();
}

TEST(HotReloadTest, TheWatcherPicksUpANewFileByItself) {
  TempDir maps;
  maps.Write("town.wmesh", Town(200, 7).bytes);
  server::ServerConfig config = TestConfig(maps.path());
  config.reload_interval = absl::Milliseconds(100);
  std::unique_ptr<server::NavigationServer> server = StartServer(config);
  ASSERT_NE(server, nullptr);
  maps.Write("town.wmesh", Town(200, 8).bytes);
  std::string hash;
  for (int i = 0; i < 300 && hash != Town(200, 8).map->info().source_hash; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    hash = Info(*server).source_hash();
  }
  EXPECT_EQ(hash, Town(200, 8).map->info().source_hash);
}

}  // namespace
}  // namespace waymesh::testing
