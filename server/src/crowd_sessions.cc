#include "crowd_sessions.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "crowd_session.h"
#include "waymesh/server/error_model.h"

namespace waymesh::server {

CrowdSessions::CrowdSessions(uint32_t max_sessions, CrowdMetrics* metrics)
    : max_sessions_(max_sessions), metrics_(metrics) {}

CrowdSessions::~CrowdSessions() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (ticker_.joinable()) ticker_.join();
}

absl::StatusOr<std::shared_ptr<CrowdFeed>> CrowdSessions::Add(CrowdSession* session,
                                                              absl::Duration tick_period,
                                                              CrowdFeedInfo info) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!refusing_.ok()) return refusing_;
  if (sessions_.size() >= max_sessions_) {
    metrics_->RecordSessionRefused();
    return WithReason(absl::ResourceExhaustedError(absl::StrCat(
                          "this replica holds ", sessions_.size(), " crowd sessions; at most ",
                          max_sessions_, " (--max-crowd-sessions): open it on another replica")),
                      "CROWD_SESSION_LIMIT_EXCEEDED", "limit", "max-crowd-sessions");
  }
  info.session = next_number_++;
  auto feed = std::make_shared<CrowdFeed>(std::move(info));
  sessions_[session] = Ticking{tick_period, absl::Now() + tick_period, feed};
  metrics_->AddSessions(1);
  if (tick_period > absl::ZeroDuration()) {
    if (!ticker_.joinable()) ticker_ = std::thread([this] { RunTicker(); });
    wake_.notify_all();
  }
  return feed;
}

void CrowdSessions::Remove(CrowdSession* session) {
  std::shared_ptr<CrowdFeed> feed;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = sessions_.find(session);
    if (it == sessions_.end()) return;
    feed = std::move(it->second.feed);
    sessions_.erase(it);
    metrics_->AddSessions(-1);
  }
  feed->End();  // outside the registry's lock: its listeners answer viewers
}

std::vector<std::shared_ptr<CrowdFeed>> CrowdSessions::Feeds() const {
  std::vector<std::shared_ptr<CrowdFeed>> feeds;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (const auto& [session, ticking] : sessions_) feeds.push_back(ticking.feed);
  }
  std::sort(feeds.begin(), feeds.end(),
            [](const auto& a, const auto& b) { return a->info().session < b->info().session; });
  return feeds;
}

std::shared_ptr<CrowdFeed> CrowdSessions::Find(uint64_t number) const {
  std::lock_guard<std::mutex> lock(mu_);
  const auto it = FindLocked(number);
  return it == sessions_.end() ? nullptr : it->second.feed;
}

absl::flat_hash_map<CrowdSession*, CrowdSessions::Ticking>::const_iterator
CrowdSessions::FindLocked(uint64_t number) const {
  return std::find_if(sessions_.begin(), sessions_.end(), [number](const auto& entry) {
    return entry.second.feed->info().session == number;
  });
}

absl::Status CrowdSessions::RequestSnapshot(uint64_t number) {
  // Under the registry's lock, like a tick: the session cannot Remove() itself meanwhile.
  std::lock_guard<std::mutex> lock(mu_);
  const auto it = FindLocked(number);
  if (it == sessions_.end()) {
    return absl::NotFoundError(absl::StrCat("no live crowd session ", number));
  }
  return it->first->RequestSnapshot();
}

void CrowdSessions::EndAll(const absl::Status& status) {
  // Ending a session may finish its stream, and gRPC may then run OnDone (which Remove()s) on
  // this very thread: so the sessions are held, and ended outside the lock.
  std::vector<CrowdSession*> held;
  {
    std::lock_guard<std::mutex> lock(mu_);
    refusing_ = status;
    for (const auto& [session, ticking] : sessions_) {
      session->Hold();
      held.push_back(session);
    }
  }
  for (CrowdSession* session : held) {
    session->End(status);
    session->Release();
  }
}

size_t CrowdSessions::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return sessions_.size();
}

absl::Time CrowdSessions::NextDue() const {
  absl::Time next = absl::InfiniteFuture();
  for (const auto& [session, ticking] : sessions_) {
    if (ticking.period > absl::ZeroDuration()) next = std::min(next, ticking.next);
  }
  return next;
}

void CrowdSessions::RunTicker() {
  std::unique_lock<std::mutex> lock(mu_);
  while (!stopping_) {
    const absl::Time due = NextDue();
    if (due == absl::InfiniteFuture()) {
      wake_.wait(lock);
      continue;
    }
    if (absl::Now() < due) {
      wake_.wait_until(lock, absl::ToChronoTime(due));
      continue;
    }
    const absl::Time now = absl::Now();
    for (auto& [session, ticking] : sessions_) {
      if (ticking.period <= absl::ZeroDuration() || ticking.next > now) continue;
      // A ticker that fell behind (a stalled machine) skips the missed ticks instead of
      // firing them in a burst; they count as overruns.
      uint32_t missed = 0;
      ticking.next += ticking.period;
      while (ticking.next <= now) {
        ticking.next += ticking.period;
        ++missed;
      }
      session->RequestTick(missed);
    }
  }
}

}  // namespace waymesh::server
