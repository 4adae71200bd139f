#pragma once
// A RunCrowd stream from a test client and the commands the crowd tests send on it (the map is
// "town", the demo town the server tests serve).

#include <memory>
#include <optional>
#include <random>
#include <vector>

#include "grpcpp/grpcpp.h"
#include "support/demo_town.h"
#include "test_server.h"
#include "waymesh/core/nav_query.h"
#include "waymesh/core/vec3.h"
#include "waymesh/v1/crowd.grpc.pb.h"

namespace waymesh::testing {

inline constexpr float kDt = 0.05f;  // the step the caller-stepped tests use

// One RunCrowd stream with the test deadline.
class CrowdStream {
 public:
  explicit CrowdStream(v1::CrowdService::Stub& stub, absl::Duration timeout = absl::Seconds(60)) {
    SetDeadline(&ctx_, timeout);
    stream_ = stub.RunCrowd(&ctx_);
  }
  bool Send(const v1::RunCrowdRequest& command) { return stream_->Write(command); }
  std::optional<v1::RunCrowdResponse> Read() {
    v1::RunCrowdResponse event;
    if (!stream_->Read(&event)) return std::nullopt;
    return event;
  }
  // Closes the sending side and returns the stream's status once every event is read.
  grpc::Status Close(std::vector<v1::RunCrowdResponse>* rest = nullptr) {
    stream_->WritesDone();
    return Finish(rest);
  }
  grpc::Status Finish(std::vector<v1::RunCrowdResponse>* rest = nullptr) {
    while (std::optional<v1::RunCrowdResponse> e = Read()) {
      if (rest != nullptr) rest->push_back(*e);
    }
    return stream_->Finish();
  }
  void Cancel() { ctx_.TryCancel(); }

 private:
  grpc::ClientContext ctx_;
  std::unique_ptr<grpc::ClientReaderWriter<v1::RunCrowdRequest, v1::RunCrowdResponse>> stream_;
};

inline v1::RunCrowdRequest Open(float tick_hz = 0) {
  v1::RunCrowdRequest c;
  c.set_seq(1);
  c.mutable_open()->set_map_id("town");
  c.mutable_open()->set_tick_hz(tick_hz);
  return c;
}

inline v1::RunCrowdRequest Add(uint64_t seq, uint32_t id, Vec3 pos) {
  v1::RunCrowdRequest c;
  c.set_seq(seq);
  c.mutable_add_agent()->set_id(id);
  SetVec(pos, c.mutable_add_agent()->mutable_position());
  return c;
}

inline v1::RunCrowdRequest Target(uint64_t seq, uint32_t id, Vec3 target) {
  v1::RunCrowdRequest c;
  c.set_seq(seq);
  c.mutable_set_target()->set_id(id);
  SetVec(target, c.mutable_set_target()->mutable_point());
  return c;
}

inline v1::RunCrowdRequest Step(uint64_t seq, float dt = kDt) {
  v1::RunCrowdRequest c;
  c.set_seq(seq);
  c.mutable_step()->set_dt_seconds(dt);
  return c;
}

// `agents` surface points to spawn on round the west bank of Town(), and a goal there.
struct Scene {
  std::vector<Vec3> spawns;
  Vec3 goal;
};

inline Scene WestBankScene(int agents) {
  NavQuery q(Town().map);
  const QueryFilter filter(Town().map->info());
  const Vec3 bank = ProbeAt(Town(), kProbeWestBank);
  auto centre = q.NearestPoint(bank, {2, 4, 2}, filter);
  EXPECT_TRUE(centre.ok() && centre->has_value());
  std::mt19937 rng(11);
  Scene scene;
  for (int i = 0; i < agents; ++i) {
    auto p = q.RandomPointInCircle(**centre, 8.0f, filter, rng);
    EXPECT_TRUE(p.ok() && p->has_value());
    scene.spawns.push_back((*p)->pos);
  }
  auto goal = q.RandomPointInCircle(**centre, 12.0f, filter, rng);
  EXPECT_TRUE(goal.ok() && goal->has_value());
  scene.goal = (*goal)->pos;
  return scene;
}

}  // namespace waymesh::testing
