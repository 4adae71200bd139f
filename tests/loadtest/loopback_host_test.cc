// Only loopback targets pass without --allow-remote.

#include "waymesh/loadtest/loopback_host.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace waymesh::loadtest {
namespace {

using ::testing::HasSubstr;

TEST(LoopbackHostTest, AcceptsLoopbackAddresses) {
  for (const char* host : {"127.0.0.1:50051", "127.4.5.6:1", "localhost:50051", "LOCALHOST:9",
                           "[::1]:50051", "unix:/tmp/waymesh.sock"}) {
    EXPECT_TRUE(CheckLoopbackHost(host).ok()) << host << ": " << CheckLoopbackHost(host);
  }
}

TEST(LoopbackHostTest, RefusesOtherMachinesNamingTheFlag) {
  for (const char* host : {"10.0.0.1:50051", "128.0.0.1:50051", "0.0.0.0:50051", "example.com:443",
                           "[::2]:50051", "[::ffff:10.0.0.1]:1", "localhost.example.com:1"}) {
    const absl::Status s = CheckLoopbackHost(host);
    EXPECT_FALSE(s.ok()) << host;
    EXPECT_THAT(s.message(), HasSubstr("--allow-remote")) << host;
  }
}

TEST(LoopbackHostTest, NeedsHostAndPort) {
  for (const char* host : {"127.0.0.1", "localhost:", ":50051", "127.0.0.1:0", "127.0.0.1:70000",
                           "127.0.0.1:5x", "::1:50051", "[::1"}) {
    EXPECT_FALSE(CheckLoopbackHost(host).ok()) << host;
    EXPECT_FALSE(CheckHostSyntax(host).ok()) << host;
  }
  EXPECT_TRUE(CheckHostSyntax("example.com:443").ok());
}

}  // namespace
}  // namespace waymesh::loadtest
