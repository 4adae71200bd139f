#include "waymesh/server/overload_detector.h"

namespace waymesh::server {

bool OverloadDetector::Shedding(absl::Time now) {
  if (state_ == State::kShedding && now - since_ >= options_.hold) {
    state_ = State::kProbing;
    since_ = now;
  } else if (state_ == State::kProbing && now - since_ >= options_.hold) {
    state_ = State::kNormal;
    since_ = now;
  }
  return state_ == State::kShedding;
}

void OverloadDetector::OnQueueFull(absl::Time now) {
  state_ = State::kShedding;
  since_ = now;
}

}  // namespace waymesh::server
