// Batches answer each request on its own: a bad request, or one naming a map the server does
// not have, fails its own item with the error (and details) the single call would get, field
// paths rooted at the item; the other items are answered as single calls would be.

#include <limits>

#include "error_details.h"
#include "gtest/gtest.h"
#include "support/demo_town.h"
#include "test_server.h"
#include "waymesh/server/error_model.h"
#include "waymesh/server/request_validation.h"

namespace waymesh::testing {
namespace {

class BatchResultsTest : public ServedMapsTest {
 protected:
  static Vec3 West() { return ProbeAt(Town(), kProbeWestBank); }
};

// Checks that `error` is the INVALID_FIELD error of `field`.
void ExpectInvalidField(const google::rpc::Status& error, const std::string& field) {
  EXPECT_EQ(error.code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(ReasonOf(error), server::reason::kInvalidField);
  EXPECT_EQ(ViolatedFields(error), field);
}

TEST_F(BatchResultsTest, OneBadPathRequestFailsOnlyItself) {
  v1::FindPathBatchRequest batch;
  *batch.add_requests() = BankToBankRequest();
  v1::FindPathRequest* nan = batch.add_requests();
  *nan = BankToBankRequest();
  nan->mutable_end()->set_z(std::numeric_limits<float>::infinity());
  v1::FindPathRequest* elsewhere = batch.add_requests();
  *elsewhere = BankToBankRequest();
  elsewhere->set_map_id("atlantis");
  *batch.add_requests() = BankToBankRequest();
  v1::FindPathBatchResponse response;
  const grpc::Status status = Unary(*stub_, &NavigationStub::FindPathBatch, batch, &response);
  ASSERT_TRUE(status.ok()) << status.error_message();
  ASSERT_EQ(response.results_size(), 4);
  EXPECT_EQ(response.results(0).response().status(), v1::PATH_STATUS_COMPLETE);
  ASSERT_TRUE(response.results(1).has_error());
  ExpectInvalidField(response.results(1).error(), "requests[1].end.z");
  ASSERT_TRUE(response.results(2).has_error());
  EXPECT_EQ(response.results(2).error().code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(ReasonOf(response.results(2).error()), server::reason::kMapNotFound);
  // The good items are the single call's answers.
  v1::FindPathResponse single;
  ASSERT_TRUE(Unary(*stub_, &NavigationStub::FindPath, BankToBankRequest(), &single).ok());
  EXPECT_EQ(response.results(3).response().SerializeAsString(), single.SerializeAsString());
}

TEST_F(BatchResultsTest, ValidateMoveBatchJudgesEveryMove) {
  v1::ValidateMoveBatchRequest batch;
  for (float dz : {0.8f, 0.f, 400.f}) {
    v1::ValidateMoveRequest* move = batch.add_requests();
    move->set_map_id("town");
    move->set_max_distance(10);
    SetVec(West(), move->mutable_start());
    SetVec(West() + Vec3{0, 0, dz}, move->mutable_end());
  }
  batch.mutable_requests(1)->set_tolerance(-1);  // out of range
  v1::ValidateMoveBatchResponse response;
  const grpc::Status status = Unary(*stub_, &NavigationStub::ValidateMoveBatch, batch, &response);
  ASSERT_TRUE(status.ok()) << status.error_message();
  ASSERT_EQ(response.results_size(), 3);
  EXPECT_EQ(response.results(0).response().verdict(), v1::ValidateMoveResponse::VERDICT_VALID);
  ASSERT_TRUE(response.results(1).has_error());
  ExpectInvalidField(response.results(1).error(), "requests[1].tolerance");
  // 400 m away is beyond max_distance (or off the mesh): invalid, but an answer, not an error.
  EXPECT_EQ(response.results(2).response().verdict(), v1::ValidateMoveResponse::VERDICT_INVALID);
}

TEST_F(BatchResultsTest, RaycastBatchCastsEveryRay) {
  v1::RaycastBatchRequest batch;
  for (int i = 0; i < 3; ++i) {
    v1::RaycastRequest* ray = batch.add_requests();
    ray->set_map_id("town");
    SetVec(West(), ray->mutable_start());
    SetVec(West() + Vec3{0.3f * float(i), 0, 0.5f}, ray->mutable_end());
  }
  batch.mutable_requests(2)->clear_start();  // a required position missing
  v1::RaycastBatchResponse response;
  const grpc::Status status = Unary(*stub_, &NavigationStub::RaycastBatch, batch, &response);
  ASSERT_TRUE(status.ok()) << status.error_message();
  ASSERT_EQ(response.results_size(), 3);
  for (int i = 0; i < 2; ++i) {
    v1::RaycastResponse single;
    ASSERT_TRUE(Unary(*stub_, &NavigationStub::Raycast, batch.requests(i), &single).ok());
    EXPECT_EQ(response.results(i).response().SerializeAsString(), single.SerializeAsString()) << i;
  }
  ASSERT_TRUE(response.results(2).has_error());
  ExpectInvalidField(response.results(2).error(), "requests[2].start");
}

// What concerns the whole call still fails the call: too many requests.
TEST_F(BatchResultsTest, AnOversizedBatchFailsAsAWhole) {
  v1::RaycastBatchRequest batch;
  for (int i = 0; i <= server::kMaxBatchRequests; ++i) {
    v1::RaycastRequest* ray = batch.add_requests();
    ray->set_map_id("town");
    SetVec(West(), ray->mutable_start());
    SetVec(West(), ray->mutable_end());
  }
  v1::RaycastBatchResponse response;
  const grpc::Status status = Unary(*stub_, &NavigationStub::RaycastBatch, batch, &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(ViolatedFields(DetailsOf(status)), "requests");
}

}  // namespace
}  // namespace waymesh::testing
