#pragma once
// One crowd session: the reactor of one RunCrowd stream (proto/waymesh/v1/crowd.proto,
// docs/crowd.md). Commands are read as they come and run in order on the worker pool, one task
// of a session at a time, so a session's crowd is only ever touched by one thread and a crowd's
// ticks compete with unary queries in the same bounded queue instead of starving them. Events
// (opened, ticks, command failures) are written back one at a time, in order.
//
// Bounded: at most kMaxQueuedCommands commands wait (reading pauses beyond it) and at most
// kMaxQueuedEvents events wait to be sent (reading pauses, server ticks are skipped and counted
// as overruns); a slow caller slows its own session, never the replica.
//
// gRPC may run a reaction inline from StartRead / StartWrite / Finish, so those are only called
// with the session's lock released (StreamOps). The session deletes itself once gRPC is done
// with the stream (OnDone) and nothing else holds it (a queued task, the drain).

#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "crowd_snapshot.h"
#include "grpcpp/grpcpp.h"
#include "waymesh/core/crowd/crowd.h"
#include "waymesh/server/crowd_metrics.h"
#include "waymesh/server/map_registry.h"
#include "waymesh/server/metrics.h"
#include "waymesh/server/navigation_service.h"
#include "waymesh/server/worker_pool.h"
#include "waymesh/v1/crowd.pb.h"

namespace waymesh::server {

class CrowdSessions;

// What a session works with; every pointer outlives every session.
struct CrowdSessionEnv {
  NavigationService* navigation = nullptr;  // admission, bearer token, maps and layers
  WorkerPool* pool = nullptr;
  ServerMetrics* metrics = nullptr;
  CrowdMetrics* crowd_metrics = nullptr;
  CrowdSessions* sessions = nullptr;
  uint32_t max_agents = 10000;
  NavQueryOptions query;  // options of every crowd's query objects
};

class CrowdSession final : public grpc::ServerBidiReactor<grpc::ByteBuffer, grpc::ByteBuffer> {
 public:
  static constexpr size_t kMaxQueuedCommands = 256;
  static constexpr size_t kMaxQueuedEvents = 16;

  // Starts reading the stream, or refuses it at once (draining, bad bearer token).
  CrowdSession(const CrowdSessionEnv& env, grpc::CallbackServerContext* ctx);
  ~CrowdSession() override;

  // Ends the session with `status` once the events queued already are sent. Any thread.
  void End(absl::Status status);
  // The ticker: a server tick is due, after `missed` skipped ones.
  void RequestTick(uint32_t missed);
  // A viewer wants the crowd as of now: the session's next task publishes a snapshot to its
  // feed. NotFound when the session is ending, Unavailable when the worker queue refused.
  absl::Status RequestSnapshot();
  // Keeps the session alive across a call from outside gRPC's reactions; Release may delete it.
  void Hold();
  void Release();

  void OnReadDone(bool ok) override;
  void OnWriteDone(bool ok) override;
  void OnCancel() override;
  void OnDone() override;

 private:
  // Stream operations decided under the lock, started after it is released.
  struct StreamOps {
    bool read = false;
    const grpc::ByteBuffer* write = nullptr;
    std::optional<grpc::Status> finish;
  };
  void Start(const StreamOps& ops);

  // What one task run takes from the queues.
  struct Batch {
    std::deque<v1::RunCrowdRequest> commands;
    bool tick = false;
    uint32_t overruns = 0;
    bool snapshot = false;  // publish one even if no tick runs
  };

  // mu_ held:
  void ScheduleLocked(StreamOps& ops);
  // Moves the waiting commands and tick into `batch`; false when there is nothing to run.
  bool TakeBatchLocked(Batch& batch);
  void EndLocked(absl::Status status, StreamOps& ops);
  void MaybeFinishLocked(StreamOps& ops);
  void SendLocked(const v1::RunCrowdResponse& event, StreamOps& ops);
  void ResumeReadingLocked(StreamOps& ops);

  // On a worker, one task of this session at a time:
  void RunTask();
  // Runs one command; a failure of the session itself (a bad open) is returned, a failure of
  // the command is answered as `command_failed` in `events`.
  absl::Status Apply(const v1::RunCrowdRequest& command, std::vector<v1::RunCrowdResponse>& events);
  absl::Status Open(const v1::RunCrowdRequest& command, std::vector<v1::RunCrowdResponse>& events);
  absl::Status SetObstacles(const v1::SetCrowdObstacles& set);
  absl::Status Tick(float dt, uint64_t seq, uint32_t overruns,
                    std::vector<v1::RunCrowdResponse>& events);
  void CountAgents();
  // Copies every agent into a new snapshot on the feed.
  void PublishSnapshot();

  const CrowdSessionEnv env_;
  grpc::CallbackServerContext* const ctx_;
  const absl::Time start_;
  grpc::ByteBuffer in_;

  // Touched only by the session's task (one at a time).
  std::optional<crowd::Crowd> crowd_;
  std::shared_ptr<const ServedMap> map_;
  v1::OpenCrowd open_;
  uint64_t ticks_ = 0;
  double time_seconds_ = 0;          // the sum of the ticks' dt
  int64_t agents_counted_ = 0;       // in waymesh_crowd_agents
  std::shared_ptr<CrowdFeed> feed_;  // set by a successful open

  std::mutex mu_;
  std::deque<v1::RunCrowdRequest> commands_;
  bool opened_ = false;                  // the open command succeeded
  bool task_queued_ = false;             // a task of this session is queued or running
  bool tick_wanted_ = false;             // a server tick is due
  bool snapshot_wanted_ = false;         // a viewer asked for the crowd as of now
  uint32_t overruns_ = 0;                // server ticks skipped since the last one run
  std::deque<grpc::ByteBuffer> outbox_;  // front: being written when writing_
  bool writing_ = false;
  bool reading_ = false;
  bool read_paused_ = false;  // a read is due once the queues shrink
  bool reads_done_ = false;   // the caller closed its side
  std::optional<absl::Status> end_;
  bool finished_ = false;
  bool done_ = false;  // OnDone ran
  int holds_ = 0;
};

}  // namespace waymesh::server
