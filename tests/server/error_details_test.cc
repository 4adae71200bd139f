// Every error carries machine-readable details (AIP-193) so clients never parse message text:
// an ErrorInfo reason in the waymesh.dev domain and BadRequest field paths on INVALID_ARGUMENT
// (overload's RetryInfo and pushback trailer: server_errors_test). Over real TCP with the
// generated stubs.

#include "error_details.h"

#include <limits>

#include "gtest/gtest.h"
#include "support/demo_town.h"
#include "test_server.h"
#include "waymesh/server/error_model.h"

namespace waymesh::testing {
namespace {

class ErrorDetailsTest : public ::testing::Test {
 protected:
  void SetUp() override { maps_.Write("town.wmesh", Town().bytes); }

  void Start(server::ServerConfig config, server::ServerHooks hooks = {}) {
    server_ = StartServer(config, std::move(hooks));
    ASSERT_NE(server_, nullptr);
    stub_ = v1::NavigationService::NewStub(Dial(*server_));
  }

  grpc::Status Call(const v1::FindPathRequest& request) {
    v1::FindPathResponse response;
    return Unary(*stub_, &NavigationStub::FindPath, request, &response);
  }

  TempDir maps_;
  std::unique_ptr<server::NavigationServer> server_;
  std::unique_ptr<v1::NavigationService::Stub> stub_;
};

TEST_F(ErrorDetailsTest, AnInvalidFieldIsNamedInBadRequest) {
  Start(TestConfig(maps_.path()));
  v1::FindPathRequest request = BankToBankRequest();
  request.mutable_start()->set_x(std::numeric_limits<float>::quiet_NaN());
  const grpc::Status status = Call(request);
  ASSERT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  const google::rpc::Status details = DetailsOf(status);
  EXPECT_EQ(details.code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(details.message(), status.error_message());
  const std::optional<google::rpc::ErrorInfo> info = DetailOf<google::rpc::ErrorInfo>(details);
  ASSERT_TRUE(info.has_value());
  EXPECT_EQ(info->domain(), server::kErrorDomain);
  EXPECT_EQ(info->reason(), server::reason::kInvalidField);
  EXPECT_EQ(ViolatedFields(details), "start.x");
}

TEST_F(ErrorDetailsTest, AnUnknownMapSaysMapNotFoundWithItsId) {
  Start(TestConfig(maps_.path()));
  v1::FindPathRequest request = BankToBankRequest();
  request.set_map_id("atlantis");
  const grpc::Status status = Call(request);
  ASSERT_EQ(status.error_code(), grpc::StatusCode::NOT_FOUND);
  const std::optional<google::rpc::ErrorInfo> info =
      DetailOf<google::rpc::ErrorInfo>(DetailsOf(status));
  ASSERT_TRUE(info.has_value());
  EXPECT_EQ(info->reason(), server::reason::kMapNotFound);
  EXPECT_EQ(info->metadata().at("map_id"), "atlantis");
}

TEST_F(ErrorDetailsTest, AMissingTokenSaysUnauthenticated) {
  server::ServerConfig config = TestConfig(maps_.path());
  config.auth_token = "let-me-in";
  Start(config);
  const grpc::Status status = Call(BankToBankRequest());
  ASSERT_EQ(status.error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(ReasonOf(status), server::reason::kUnauthenticated);
}

}  // namespace
}  // namespace waymesh::testing
