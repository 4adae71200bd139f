// ListMaps pages (AIP-158): page_size bounds each answer, next_page_token leads to the next
// page until it comes back empty, every map is listed exactly once in order, and a token the
// server did not make is INVALID_ARGUMENT naming page_token.

#include "error_details.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "support/demo_town.h"
#include "test_server.h"

namespace waymesh::testing {
namespace {

TEST(ListMapsPagesTest, PagesListEveryMapOnceInOrder) {
  TempDir maps;
  for (const char* name : {"c", "a", "e", "b@ogre", "b", "d"}) {
    maps.Write(std::string(name) + ".wmesh", Town().bytes);
  }
  std::unique_ptr<server::NavigationServer> server = StartServer(TestConfig(maps.path()));
  ASSERT_NE(server, nullptr);
  auto stub = v1::NavigationService::NewStub(Dial(*server));

  std::vector<std::string> listed;
  v1::ListMapsRequest request;
  request.set_page_size(4);
  for (int page = 0; page < 10; ++page) {
    v1::ListMapsResponse response;
    ASSERT_TRUE(Unary(*stub, &NavigationStub::ListMaps, request, &response).ok());
    EXPECT_LE(response.maps_size(), 4);
    for (const v1::MapInfo& m : response.maps()) {
      listed.push_back(m.agent_type().empty() ? m.map_id() : m.map_id() + "@" + m.agent_type());
    }
    if (response.next_page_token().empty()) break;
    request.set_page_token(response.next_page_token());
  }
  EXPECT_THAT(listed, ::testing::ElementsAre("a", "b", "b@ogre", "c", "d", "e"));

  request.set_page_token("not a token");
  v1::ListMapsResponse response;
  const grpc::Status status = Unary(*stub, &NavigationStub::ListMaps, request, &response);
  ASSERT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(ViolatedFields(DetailsOf(status)), "page_token");
}

}  // namespace
}  // namespace waymesh::testing
