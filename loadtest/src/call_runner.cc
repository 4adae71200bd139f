#include "waymesh/loadtest/call_runner.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <condition_variable>
#include <limits>
#include <mutex>

#include "absl/strings/str_cat.h"
#include "grpcpp/create_channel.h"
#include "grpcpp/generic/generic_stub.h"
#include "grpcpp/support/channel_arguments.h"
#include "waymesh/loadtest/status_names.h"

namespace waymesh::loadtest {
namespace {

using Clock = std::chrono::steady_clock;

// How often the waiting thread looks at the interrupt flag.
constexpr auto kPollInterval = std::chrono::milliseconds(50);
// Largest response accepted; responses are only counted, but a sane bound beats none.
constexpr int kMaxResponseBytes = 64 << 20;
// Latencies kept up front for count-limited runs (8 bytes each).
constexpr uint64_t kMaxReservedLatencies = 10'000'000;
constexpr int kCodeCount = 17;  // grpc::StatusCode OK .. UNAUTHENTICATED
// A call due further out than this never starts (a schedule slowing to nearly nothing); it
// also keeps the time arithmetic far from overflow.
constexpr absl::Duration kLatestDue = absl::Hours(24 * 365);

class LoadRunner {
 public:
  explicit LoadRunner(const RunPlan& plan) : plan_(plan) {}

  absl::StatusOr<RunResult> Run() {
    if (plan_.requests.empty()) return absl::InvalidArgumentError("no request messages");
    if (plan_.total == 0 && plan_.duration <= absl::ZeroDuration()) {
      return absl::InvalidArgumentError("a run needs a total or a duration");
    }
    if (absl::Status s = Connect(); !s.ok()) return s;
    for (const std::string& bytes : plan_.requests) {
      grpc::Slice slice(bytes);
      requests_.emplace_back(&slice, 1);
    }
    const int concurrency = std::max(1, plan_.concurrency);
    slots_ = std::vector<Slot>(concurrency);
    for (int i = 0; i < concurrency; ++i) slots_[i].channel = i % stubs_.size();
    if (plan_.total > 0)
      result_.ok_latencies_ns.reserve(std::min(plan_.total, kMaxReservedLatencies));

    start_ = Clock::now();
    last_done_ = start_;
    has_deadline_ = plan_.duration > absl::ZeroDuration();
    if (has_deadline_) deadline_ = start_ + absl::ToChronoNanoseconds(plan_.duration);
    if (IsPaced(plan_.schedule)) {
      DispatchPaced();
    } else {
      DispatchClosedLoop();
    }
    WaitForInFlight();

    RunResult out = std::move(result_);
    for (int c = 0; c < kCodeCount; ++c) {
      if (code_counts_[c] > 0)
        out.status_counts[CodeName(static_cast<grpc::StatusCode>(c))] += code_counts_[c];
    }
    out.total_ns = out.count == 0 ? 0 : std::chrono::nanoseconds(last_done_ - start_).count();
    if (Interrupted()) {
      out.end_reason = "cancel";
    } else if (has_deadline_ && (plan_.total == 0 || out.count < plan_.total)) {
      out.end_reason = "timeout";
    }
    return out;
  }

 private:
  struct Slot {
    std::unique_ptr<grpc::ClientContext> context;
    grpc::ByteBuffer response;
    Clock::time_point started;
    int channel = 0;
  };

  absl::Status Connect() {
    const int connections = std::max(1, plan_.connections);
    const auto connect_by =
        std::chrono::system_clock::now() + absl::ToChronoNanoseconds(plan_.connect_timeout);
    for (int i = 0; i < connections; ++i) {
      grpc::ChannelArguments args;
      // Channels with equal arguments share one TCP connection; a distinct value per channel
      // and a private subchannel pool make each its own connection.
      args.SetInt("waymesh.load.connection_index", i);
      args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
      args.SetMaxReceiveMessageSize(kMaxResponseBytes);
      if (!plan_.ssl_target_name.empty()) args.SetSslTargetNameOverride(plan_.ssl_target_name);
      std::shared_ptr<grpc::Channel> channel =
          grpc::CreateCustomChannel(plan_.target, plan_.credentials, args);
      if (!channel->WaitForConnected(connect_by)) {
        return absl::UnavailableError(absl::StrCat("cannot connect to ", plan_.target, " within ",
                                                   absl::FormatDuration(plan_.connect_timeout),
                                                   " (connection ", i + 1, " of ", connections,
                                                   ")"));
      }
      stubs_.push_back(std::make_unique<grpc::GenericStub>(channel));
      channels_.push_back(std::move(channel));
    }
    return absl::OkStatus();
  }

  bool Interrupted() const { return plan_.interrupt != nullptr && plan_.interrupt->load(); }
  bool PastDeadline(Clock::time_point now) const { return has_deadline_ && now >= deadline_; }

  // The index of the next call to start, unless the run is over.
  bool TakeTicket(uint64_t* k) {
    if (stop_.load(std::memory_order_relaxed) || PastDeadline(Clock::now())) return false;
    *k = issued_.fetch_add(1, std::memory_order_relaxed);
    return plan_.total == 0 || *k < plan_.total;
  }

  void Start(Slot& slot, uint64_t k) {
    slot.context = std::make_unique<grpc::ClientContext>();  // contexts are single-use
    slot.context->set_deadline(std::chrono::system_clock::now() +
                               absl::ToChronoNanoseconds(plan_.timeout));
    for (const auto& [name, value] : plan_.metadata) slot.context->AddMetadata(name, value);
    slot.response.Clear();
    slot.started = Clock::now();
    stubs_[slot.channel]->UnaryCall(slot.context.get(), plan_.method_path, grpc::StubOptions(),
                                    &requests_[k % requests_.size()], &slot.response,
                                    [this, &slot](grpc::Status status) { OnDone(slot, status); });
  }

  // Runs on gRPC's callback threads.
  void OnDone(Slot& slot, const grpc::Status& status) {
    const Clock::time_point now = Clock::now();
    const int code = static_cast<int>(status.error_code());
    {
      std::lock_guard<std::mutex> lock(mu_);
      ++result_.count;
      last_done_ = std::max(last_done_, now);
      if (code >= 0 && code < kCodeCount) {
        ++code_counts_[code];
      } else {
        ++result_.status_counts[CodeName(status.error_code())];
      }
      const int64_t latency_ns = std::chrono::nanoseconds(now - slot.started).count();
      std::string error;
      if (status.ok()) {
        result_.ok_latencies_ns.push_back(latency_ns);
      } else {
        error = ErrorText(status.error_code(), status.error_message());
        ++result_.error_counts[error];
      }
      if (plan_.record_calls) {
        result_.calls.push_back({latency_ns, CodeName(status.error_code()), std::move(error)});
      }
      if (IsPaced(plan_.schedule)) {  // the dispatcher reuses the slot
        free_slots_.push_back(&slot - slots_.data());
        --in_flight_;
        cv_.notify_all();
        return;
      }
    }
    uint64_t k;
    if (TakeTicket(&k)) {
      Start(slot, k);
      return;
    }
    std::lock_guard<std::mutex> lock(mu_);
    if (--in_flight_ == 0) cv_.notify_all();
  }

  // Every slot starts a call; each finished call starts the next (see OnDone).
  void DispatchClosedLoop() {
    std::vector<uint64_t> first;
    uint64_t k;
    while (first.size() < slots_.size() && TakeTicket(&k)) first.push_back(k);
    {
      std::lock_guard<std::mutex> lock(mu_);
      in_flight_ = static_cast<int>(first.size());
    }
    for (size_t i = 0; i < first.size(); ++i) Start(slots_[i], first[i]);
  }

  // Call k is due when the schedule says (const: start + k / rps) whether or not earlier calls
  // have finished (open loop), but starts only when one of the `concurrency` slots is free.
  // A schedule whose rate falls to zero for good ends the run.
  void DispatchPaced() {
    for (size_t i = 0; i < slots_.size(); ++i) free_slots_.push_back(slots_.size() - 1 - i);
    absl::Duration due_after_start = FirstDue(plan_.schedule);
    for (uint64_t k = 0; plan_.total == 0 || k < plan_.total;) {
      if (Interrupted() || due_after_start > kLatestDue) break;
      const Clock::time_point due = start_ + absl::ToChronoNanoseconds(due_after_start);
      const Clock::time_point now = Clock::now();
      if (PastDeadline(due) || PastDeadline(now)) break;
      std::unique_lock<std::mutex> lock(mu_);
      if (now < due || free_slots_.empty()) {
        cv_.wait_until(lock, std::min(due > now ? due : now + kPollInterval, now + kPollInterval));
        continue;
      }
      Slot& slot = slots_[free_slots_.back()];
      free_slots_.pop_back();
      ++in_flight_;
      lock.unlock();
      Start(slot, k);
      ++k;
      due_after_start = NextDue(plan_.schedule, due_after_start);
    }
  }

  // Each call ends by its deadline at the latest, so this wait is bounded by the timeout.
  void WaitForInFlight() {
    std::unique_lock<std::mutex> lock(mu_);
    while (in_flight_ > 0) {
      cv_.wait_for(lock, kPollInterval);
      if (Interrupted()) stop_.store(true);
    }
  }

  const RunPlan& plan_;
  std::vector<std::shared_ptr<grpc::Channel>> channels_;
  std::vector<std::unique_ptr<grpc::GenericStub>> stubs_;
  std::vector<grpc::ByteBuffer> requests_;
  std::vector<Slot> slots_;
  Clock::time_point start_;
  bool has_deadline_ = false;
  Clock::time_point deadline_ = Clock::time_point::max();
  std::atomic<uint64_t> issued_{0};
  std::atomic<bool> stop_{false};

  std::mutex mu_;
  std::condition_variable cv_;
  int in_flight_ = 0;                               // guarded by mu_
  std::vector<size_t> free_slots_;                  // guarded by mu_ (paced runs)
  RunResult result_;                                // guarded by mu_
  std::array<uint64_t, kCodeCount> code_counts_{};  // guarded by mu_
  Clock::time_point last_done_;                     // guarded by mu_
};

}  // namespace

absl::StatusOr<RunResult> RunLoad(const RunPlan& plan) {
  LoadRunner runner(plan);
  return runner.Run();
}

}  // namespace waymesh::loadtest
