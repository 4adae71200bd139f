// The bearer-token check: exact token after a case-insensitive "Bearer " scheme, any of several
// authorization headers, disabled when no token is configured.

#include "waymesh/server/bearer_token.h"

#include <map>

#include "gtest/gtest.h"

namespace waymesh::server {
namespace {

TEST(BearerTokenTest, MatchesOnlyTheExactToken) {
  const BearerToken token("s3cret-token");
  EXPECT_TRUE(token.enabled());
  EXPECT_TRUE(token.Matches("Bearer s3cret-token"));
  EXPECT_TRUE(token.Matches("bearer s3cret-token"));
  EXPECT_TRUE(token.Matches("BEARER  s3cret-token "));
  EXPECT_FALSE(token.Matches("Bearer s3cret-toke"));
  EXPECT_FALSE(token.Matches("Bearer s3cret-token2"));
  EXPECT_FALSE(token.Matches("Basic s3cret-token"));
  EXPECT_FALSE(token.Matches("s3cret-token"));
  EXPECT_FALSE(token.Matches(""));
}

TEST(BearerTokenTest, LooksAtEveryAuthorizationHeader) {
  const BearerToken token("t");
  std::multimap<grpc::string_ref, grpc::string_ref> metadata;
  EXPECT_FALSE(token.Allows(metadata));
  metadata.emplace("authorization", "Bearer wrong");
  metadata.emplace("x-other", "Bearer t");
  EXPECT_FALSE(token.Allows(metadata));
  metadata.emplace("authorization", "Bearer t");
  EXPECT_TRUE(token.Allows(metadata));
  EXPECT_TRUE(BearerToken("").Allows({}));
  EXPECT_FALSE(BearerToken("").enabled());
}

}  // namespace
}  // namespace waymesh::server
