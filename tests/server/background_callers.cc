#include "background_callers.h"

#include <chrono>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "test_server.h"

namespace waymesh::testing {
namespace {

constexpr size_t kFailureSample = 5;
// Bounds each caller even if Stop() is never reached.
constexpr int kMaxCallsPerThread = 1000000;

}  // namespace

BackgroundCallers::BackgroundCallers(const std::string& target, int threads) {
  for (int t = 0; t < threads; ++t) threads_.emplace_back([this, target] { Loop(target); });
}

void BackgroundCallers::Stop() {
  stop_ = true;
  for (std::thread& t : threads_) {
    if (t.joinable()) t.join();
  }
}

std::string BackgroundCallers::failure_sample() const {
  std::lock_guard<std::mutex> lock(mu_);
  return absl::StrJoin(sample_, "; ");
}

bool BackgroundCallers::WaitCalls(int n) {
  const int target = calls_ + n;
  for (int i = 0; i < 4000 && calls_ < target; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return calls_ >= target;
}

void BackgroundCallers::RecordFailure(const grpc::Status& status) {
  ++failures_;
  std::lock_guard<std::mutex> lock(mu_);
  if (sample_.size() < kFailureSample) {
    sample_.push_back(absl::StrCat("code ", status.error_code(), ": ", status.error_message()));
  }
}

void BackgroundCallers::Loop(const std::string& target) {
  auto stub =
      v1::NavigationService::NewStub(grpc::CreateChannel(target, grpc::InsecureChannelCredentials()));
  for (int i = 0; i < kMaxCallsPerThread && !stop_; ++i) {
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    grpc::Status status;
    if (i % 2 == 0) {
      v1::FindPathResponse response;
      status = stub->FindPath(&ctx, BankToBankRequest(), &response);
      if (status.ok() && response.status() == v1::PATH_STATUS_UNSPECIFIED) {
        status = grpc::Status(grpc::StatusCode::UNKNOWN, "FindPath answer without a status");
      }
    } else {
      v1::GetMapInfoRequest r;
      r.set_map_id("town");
      v1::GetMapInfoResponse info;
      status = stub->GetMapInfo(&ctx, r, &info);
    }
    if (!status.ok()) RecordFailure(status);
    ++calls_;
  }
}

}  // namespace waymesh::testing
