#include "crowd_session.h"

#include <chrono>
#include <utility>

#include "absl/strings/str_cat.h"
#include "crowd_requests.h"
#include "crowd_sessions.h"
#include "navigation_call.h"
#include "waymesh/core/crowd/chunk_runner.h"
#include "waymesh/server/error_model.h"
#include "waymesh/server/request_validation.h"

namespace waymesh::server {
namespace {

v1::RunCrowdResponse CommandFailed(uint64_t seq, const absl::Status& status) {
  v1::RunCrowdResponse event;
  event.mutable_command_failed()->set_seq(seq);
  *event.mutable_command_failed()->mutable_status() = ToRpcStatus(status);
  return event;
}

absl::Status CancelledByCaller() {
  return WithReason(absl::CancelledError("the caller cancelled the stream"), reason::kCancelled);
}

absl::Status NotOpenYet() {
  return absl::FailedPreconditionError(
      "the first command of a RunCrowd stream must be `open` (map, layer, mode, tick rate)");
}

}  // namespace

CrowdSession::CrowdSession(const CrowdSessionEnv& env, grpc::CallbackServerContext* ctx)
    : env_(env), ctx_(ctx), start_(absl::Now()) {
  env_.metrics->RpcStarted(RpcMethod::kRunCrowd);
  StreamOps ops;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (absl::Status admitted = env_.navigation->CheckAdmission(ctx); !admitted.ok()) {
      EndLocked(std::move(admitted), ops);
    } else {
      reading_ = true;
      ops.read = true;
    }
  }
  Start(ops);
}

CrowdSession::~CrowdSession() { env_.crowd_metrics->AddAgents(-agents_counted_); }

void CrowdSession::Start(const StreamOps& ops) {
  if (ops.read) StartRead(&in_);
  if (ops.write != nullptr) StartWrite(ops.write);
  if (ops.finish) Finish(*ops.finish);
}

void CrowdSession::End(absl::Status status) {
  StreamOps ops;
  {
    std::lock_guard<std::mutex> lock(mu_);
    EndLocked(std::move(status), ops);
  }
  Start(ops);
}

void CrowdSession::RequestTick(uint32_t missed) {
  StreamOps ops;  // a tick queues no command: a refused one is only skipped, nothing is sent
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (end_ || finished_) return;
    uint32_t skipped = missed;
    if (tick_wanted_ || outbox_.size() >= kMaxQueuedEvents) {
      ++skipped;  // the tick before has not run yet, or the caller reads too slowly
    } else {
      tick_wanted_ = true;
      ScheduleLocked(ops);
    }
    if (skipped > 0) {
      overruns_ += skipped;
      env_.crowd_metrics->RecordOverruns(skipped);
    }
  }
  Start(ops);
}

absl::Status CrowdSession::RequestSnapshot() {
  StreamOps ops;
  bool queued;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (end_ || finished_) return absl::NotFoundError("the crowd session is ending");
    snapshot_wanted_ = true;
    ScheduleLocked(ops);
    queued = task_queued_;
    if (!queued) snapshot_wanted_ = false;
  }
  Start(ops);
  if (!queued) return absl::UnavailableError("the server's workers are busy; retry");
  return absl::OkStatus();
}

void CrowdSession::Hold() {
  std::lock_guard<std::mutex> lock(mu_);
  ++holds_;
}

void CrowdSession::Release() {
  bool last;
  {
    std::lock_guard<std::mutex> lock(mu_);
    last = --holds_ == 0 && done_;
  }
  if (last) delete this;
}

void CrowdSession::OnReadDone(bool ok) {
  StreamOps ops;
  {
    std::lock_guard<std::mutex> lock(mu_);
    reading_ = false;
    if (!ok) {
      reads_done_ = true;
      // A cancelled call may end its reads before OnCancel runs: it ends CANCELLED, not OK.
      if (ctx_->IsCancelled()) {
        EndLocked(CancelledByCaller(), ops);
      } else {
        MaybeFinishLocked(ops);
      }
    } else if (!end_) {
      env_.metrics->StreamMessageReceived(RpcMethod::kRunCrowd);
      v1::RunCrowdRequest command;
      if (absl::Status parsed = ParseRequest(in_, &command); !parsed.ok()) {
        EndLocked(std::move(parsed), ops);
      } else {
        commands_.push_back(std::move(command));
        ScheduleLocked(ops);
        read_paused_ = true;
        ResumeReadingLocked(ops);
      }
    }
  }
  Start(ops);
}

void CrowdSession::OnWriteDone(bool ok) {
  StreamOps ops;
  {
    std::lock_guard<std::mutex> lock(mu_);
    outbox_.pop_front();
    writing_ = false;
    if (!ok) {
      outbox_.clear();
      EndLocked(absl::CancelledError("the caller stopped reading the stream"), ops);
    } else {
      env_.metrics->StreamMessageSent(RpcMethod::kRunCrowd);
      if (!outbox_.empty()) {
        writing_ = true;
        ops.write = &outbox_.front();
      }
      ResumeReadingLocked(ops);
      MaybeFinishLocked(ops);
    }
  }
  Start(ops);
}

void CrowdSession::OnCancel() { End(CancelledByCaller()); }

void CrowdSession::OnDone() {
  env_.sessions->Remove(this);  // no tick reaches the session after this
  bool last;
  {
    std::lock_guard<std::mutex> lock(mu_);
    done_ = true;
    last = holds_ == 0;
  }
  if (last) delete this;
}

void CrowdSession::ScheduleLocked(StreamOps& ops) {
  if (task_queued_ || finished_) return;
  task_queued_ = true;
  ++holds_;
  const Admission admission = env_.pool->TrySubmit([this](WorkerState&) {
    RunTask();
    Release();
  });
  if (admission == Admission::kQueued) return;
  // The pool refused: nothing of this batch runs. Server ticks are skipped; commands are
  // answered with the refusal (and an open that never ran ends the session).
  task_queued_ = false;
  --holds_;
  if (tick_wanted_) {
    tick_wanted_ = false;
    ++overruns_;
    env_.crowd_metrics->RecordOverruns(1);
  }
  if (admission != Admission::kStopping) env_.metrics->RecordRejected();
  const absl::Status refusal = PoolRefusal(admission, *env_.pool);
  if (!opened_) {
    EndLocked(refusal, ops);
    return;
  }
  for (const v1::RunCrowdRequest& command : commands_) {
    SendLocked(CommandFailed(command.seq(), refusal), ops);
  }
  commands_.clear();
}

void CrowdSession::EndLocked(absl::Status status, StreamOps& ops) {
  if (end_ || finished_) return;
  end_ = std::move(status);
  commands_.clear();
  tick_wanted_ = false;
  MaybeFinishLocked(ops);
}

void CrowdSession::MaybeFinishLocked(StreamOps& ops) {
  if (finished_ || (!end_ && !reads_done_)) return;
  // Commands the caller sent before closing its side still run; their events are sent first.
  if (task_queued_ || writing_ || !commands_.empty() || !outbox_.empty()) return;
  finished_ = true;
  const absl::Status status = end_.value_or(absl::OkStatus());
  env_.metrics->ObserveRpc(RpcMethod::kRunCrowd, static_cast<int>(status.code()),
                           absl::ToDoubleSeconds(absl::Now() - start_));
  ops.finish = ToGrpcStatus(status);
}

void CrowdSession::SendLocked(const v1::RunCrowdResponse& event, StreamOps& ops) {
  if (finished_) return;
  grpc::ByteBuffer& bytes = outbox_.emplace_back();
  bool own_buffer = false;
  (void)grpc::SerializationTraits<google::protobuf::Message>::Serialize(event, &bytes, &own_buffer);
  if (writing_) return;
  writing_ = true;
  ops.write = &outbox_.front();
}

void CrowdSession::ResumeReadingLocked(StreamOps& ops) {
  if (!read_paused_ || reading_ || end_ || reads_done_ || finished_) return;
  if (commands_.size() >= kMaxQueuedCommands || outbox_.size() >= kMaxQueuedEvents) return;
  read_paused_ = false;
  reading_ = true;
  ops.read = true;
}

bool CrowdSession::TakeBatchLocked(Batch& batch) {
  if (end_ || (commands_.empty() && !tick_wanted_ && !snapshot_wanted_)) return false;
  batch.commands.swap(commands_);
  batch.tick = std::exchange(tick_wanted_, false);
  batch.snapshot = std::exchange(snapshot_wanted_, false);
  batch.overruns = batch.tick ? std::exchange(overruns_, 0) : 0;
  return true;
}

void CrowdSession::RunTask() {
  for (;;) {
    Batch batch;
    StreamOps ops;
    bool taken;
    {
      std::lock_guard<std::mutex> lock(mu_);
      taken = TakeBatchLocked(batch);
      if (!taken) {
        task_queued_ = false;
        MaybeFinishLocked(ops);
      }
    }
    if (!taken) {
      Start(ops);
      return;
    }
    std::vector<v1::RunCrowdResponse> events;
    const uint64_t ticks_before = ticks_;
    absl::Status ending;
    for (const v1::RunCrowdRequest& command : batch.commands) {
      ending = Apply(command, events);
      if (!ending.ok()) break;
    }
    if (ending.ok() && batch.tick && crowd_) {
      ending = Tick(1.0f / open_.tick_hz(), 0, batch.overruns, events);
    }
    CountAgents();
    // Copied only when a viewer reads: a tick nobody watches costs two relaxed stores.
    const bool publish =
        feed_ != nullptr && (batch.snapshot || (ticks_ != ticks_before && feed_->wanted()));
    if (feed_ != nullptr) feed_->NoteState(ticks_, crowd_->agent_count(), map_->version());
    {
      std::lock_guard<std::mutex> lock(mu_);
      opened_ = crowd_.has_value();
      for (const v1::RunCrowdResponse& event : events) SendLocked(event, ops);
      if (!ending.ok()) EndLocked(std::move(ending), ops);
      ResumeReadingLocked(ops);
    }
    Start(ops);
    if (publish) PublishSnapshot();  // after the caller's own events are on their way
  }
}

absl::Status CrowdSession::Apply(const v1::RunCrowdRequest& command,
                                 std::vector<v1::RunCrowdResponse>& events) {
  if (!crowd_) {
    if (!command.has_open()) return NotOpenYet();
    return Open(command, events);
  }
  absl::Status result;
  switch (command.command_case()) {
    case v1::RunCrowdRequest::kOpen:
      result = absl::FailedPreconditionError("this stream's crowd is open already");
      break;
    case v1::RunCrowdRequest::kStep:
      if (open_.tick_hz() > 0) {
        result = absl::FailedPreconditionError(
            "the server ticks this crowd (open.tick_hz > 0): send no step");
      } else {
        result = ValidateStepCrowd(command.step());
      }
      if (result.ok()) return Tick(command.step().dt_seconds(), command.seq(), 0, events);
      break;
    case v1::RunCrowdRequest::kSetObstacles:
      result = SetObstacles(command.set_obstacles());
      break;
    case v1::RunCrowdRequest::COMMAND_NOT_SET:
      result = FieldViolation("command", "set one command (add_agent, step, ...)");
      break;
    default:
      result = ApplyAgentCommand(command, env_.max_agents, *crowd_);
  }
  if (!result.ok()) events.push_back(CommandFailed(command.seq(), result));
  return absl::OkStatus();
}

absl::Status CrowdSession::Open(const v1::RunCrowdRequest& command,
                                std::vector<v1::RunCrowdResponse>& events) {
  const v1::OpenCrowd& open = command.open();
  if (absl::Status s = ValidateOpenCrowd(open); !s.ok()) return s;
  absl::StatusOr<std::shared_ptr<const ServedMap>> map =
      env_.navigation->ResolveMap(open.map_id(), open.agent_type(), open.obstacles());
  if (!map.ok()) return map.status();
  crowd::CrowdOptions options = ToCrowdOptions(open, env_.max_agents);
  options.query = env_.query;
  absl::StatusOr<crowd::Crowd> crowd = crowd::Crowd::Create((*map)->map(), options);
  if (!crowd.ok()) return crowd.status();
  const absl::Duration period =
      open.tick_hz() > 0 ? absl::Seconds(1.0 / open.tick_hz()) : absl::ZeroDuration();
  absl::StatusOr<std::shared_ptr<CrowdFeed>> feed = env_.sessions->Add(
      this, period, CrowdFeedInfo{0, open.map_id(), open.agent_type(), open.tick_hz()});
  if (!feed.ok()) return feed.status();
  feed_ = *std::move(feed);
  crowd_ = *std::move(crowd);
  map_ = *std::move(map);
  open_ = open;
  v1::CrowdOpened* opened = events.emplace_back().mutable_opened();
  opened->set_map_version(map_->version());
  opened->set_max_agents(env_.max_agents);
  opened->set_tick_hz(open.tick_hz());
  return absl::OkStatus();
}

absl::Status CrowdSession::SetObstacles(const v1::SetCrowdObstacles& set) {
  if (!set.obstacles().layer().empty()) {
    if (absl::Status s = ValidateLayerName(set.obstacles().layer(), "set_obstacles.layer");
        !s.ok()) {
      return s;
    }
  }
  absl::StatusOr<std::shared_ptr<const ServedMap>> map =
      env_.navigation->ResolveMap(open_.map_id(), open_.agent_type(), set.obstacles());
  if (!map.ok()) return map.status();
  if (absl::Status s = crowd_->SetMap((*map)->map()); !s.ok()) return s;
  map_ = *std::move(map);
  return absl::OkStatus();
}

absl::Status CrowdSession::Tick(float dt, uint64_t seq, uint32_t overruns,
                                std::vector<v1::RunCrowdResponse>& events) {
  const auto start = std::chrono::steady_clock::now();
  crowd::SerialChunkRunner runner;  // one session, one worker: sessions spread over workers
  if (absl::Status s = crowd_->Step(dt, runner); !s.ok()) {
    events.push_back(CommandFailed(seq, s));
    return absl::OkStatus();
  }
  env_.crowd_metrics->ObserveTick(
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  v1::CrowdTick* tick = events.emplace_back().mutable_tick();
  tick->set_tick(++ticks_);
  time_seconds_ += dt;
  tick->set_seq(seq);
  tick->set_dt_seconds(dt);
  tick->set_agent_count(crowd_->agent_count());
  tick->set_overrun_ticks(overruns);
  for (const crowd::AgentUpdate& agent : crowd_->changed()) ToProto(agent, tick->add_agents());
  return absl::OkStatus();
}

void CrowdSession::PublishSnapshot() {
  auto snapshot = std::make_shared<CrowdSnapshot>();
  snapshot->info = feed_->info();
  snapshot->map_version = map_->version();
  snapshot->tick = ticks_;
  snapshot->time_seconds = time_seconds_;
  crowd_->Snapshot(&snapshot->agents);
  feed_->Publish(std::move(snapshot));
}

void CrowdSession::CountAgents() {
  const int64_t now = crowd_ ? static_cast<int64_t>(crowd_->agent_count()) : 0;
  if (now == agents_counted_) return;
  env_.crowd_metrics->AddAgents(now - agents_counted_);
  agents_counted_ = now;
}

}  // namespace waymesh::server
