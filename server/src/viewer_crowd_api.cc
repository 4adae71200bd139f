#include "viewer_crowd_api.h"

#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "viewer_answers.h"
#include "viewer_crowd_json.h"

namespace waymesh::server {
namespace {

constexpr char kCrowdsPrefix[] = "/api/crowds/";

HttpResponse NoSuchSession(absl::string_view which) {
  return ErrorAnswer(404, "NOT_FOUND",
                     absl::StrCat("no live crowd session ", which,
                                  " on this replica (GET /api/crowds lists them)"));
}

HttpResponse ViewerClosing() {
  return ErrorAnswer(503, "UNAVAILABLE", "the viewer is shutting down");
}

}  // namespace

ViewerCrowdApi::ViewerCrowdApi(ViewerCrowdOptions options) : options_(std::move(options)) {}

ViewerCrowdApi::~ViewerCrowdApi() { Close(); }

std::map<std::string, HttpRoute> ViewerCrowdApi::Routes() {
  std::map<std::string, HttpRoute> routes;
  routes["/api/crowds"] = SyncRoute("GET", [this](const HttpRequest&) { return List(); });
  HttpRoute session;
  session.prefix = true;
  session.handler = [this](HttpRequest request, HttpResponder respond) {
    // "/api/crowds/N" or "/api/crowds/N/events".
    const std::string rest = request.path.substr(sizeof(kCrowdsPrefix) - 1);
    const std::vector<std::string> parts = absl::StrSplit(rest, '/');
    uint64_t number = 0;
    const bool events = parts.size() == 2 && parts[1] == "events";
    if ((parts.size() != 1 && !events) || !absl::SimpleAtoi(parts[0], &number)) {
      return respond(ErrorAnswer(404, "NOT_FOUND",
                                 absl::StrCat("no such path: ", request.path,
                                              " (try /api/crowds/N or /api/crowds/N/events)")));
    }
    const std::shared_ptr<CrowdFeed> feed =
        options_.sessions != nullptr ? options_.sessions->Find(number) : nullptr;
    if (feed == nullptr) return respond(NoSuchSession(parts[0]));
    if (events) return Events(feed, std::move(respond));
    Snapshot(feed, std::move(respond));
  };
  routes[kCrowdsPrefix] = std::move(session);
  return routes;
}

HttpResponse ViewerCrowdApi::List() const {
  nlohmann::json crowds = nlohmann::json::array();
  if (options_.sessions != nullptr) {
    for (const std::shared_ptr<CrowdFeed>& feed : options_.sessions->Feeds()) {
      crowds.push_back(CrowdSummaryJson(*feed));
    }
  }
  return JsonAnswer(200, {{"crowds", std::move(crowds)}});
}

void ViewerCrowdApi::Snapshot(const std::shared_ptr<CrowdFeed>& feed, HttpResponder respond) {
  uint64_t key;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (closed_) return respond(ViewerClosing());
    key = next_key_++;
    subscriptions_[key] = Subscription{feed, 0, false};
  }
  // Called once (by the listener, or below when it never runs); the feed's lock orders both.
  auto pending = std::make_shared<HttpResponder>(std::move(respond));
  const uint64_t number = feed->info().session;
  std::optional<uint64_t> listener =
      feed->Subscribe([this, key, pending, number](const std::shared_ptr<const CrowdSnapshot>& s) {
        if (*pending) {
          (*pending)(s ? HttpResponse{200, "application/json", CrowdSnapshotJson(*s)}
                       : NoSuchSession(absl::StrCat(number, " (it ended)")));
          *pending = nullptr;
        }
        std::lock_guard<std::mutex> lock(mu_);
        subscriptions_.erase(key);
        return false;
      });
  // Not kept: Close() ran meanwhile (or the listener has answered already).
  const bool kept = listener && Keep(key, *listener);
  const absl::Status asked =
      kept ? options_.sessions->RequestSnapshot(number) : absl::NotFoundError("ended");
  if (asked.ok()) return;
  // The session ended, or its task cannot run now: answer here unless the listener did.
  if (listener) feed->Unsubscribe(*listener);
  {
    std::lock_guard<std::mutex> lock(mu_);
    subscriptions_.erase(key);
  }
  if (*pending) {
    (*pending)(absl::IsUnavailable(asked) ? StatusAnswer(asked)
                                          : NoSuchSession(absl::StrCat(number, " (it ended)")));
  }
}

void ViewerCrowdApi::Events(const std::shared_ptr<CrowdFeed>& feed, HttpResponder respond) {
  const uint64_t number = feed->info().session;
  uint64_t key;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (closed_) return respond(ViewerClosing());
    if (streams_ >= options_.max_streams) {
      return respond(ErrorAnswer(
          429, "RESOURCE_EXHAUSTED",
          absl::StrCat(streams_, " crowd event streams are open; at most ", options_.max_streams,
                       " at once: close one (another tab?) and retry")));
    }
    ++streams_;
    key = next_key_++;
    subscriptions_[key] = Subscription{feed, 0, true};
  }
  HttpStreamOptions stream_options;
  stream_options.max_backlog_bytes = options_.max_backlog_bytes;
  stream_options.heartbeat = options_.heartbeat;
  stream_options.heartbeat_text = ": heartbeat\n\n";
  stream_options.on_close = [this, key] { Forget(key); };
  auto stream = std::make_shared<HttpStream>(std::move(stream_options));
  std::optional<uint64_t> listener =
      feed->Subscribe([this, stream, number, last = std::optional<uint64_t>()](
                          const std::shared_ptr<const CrowdSnapshot>& s) mutable {
        if (s == nullptr) {
          stream->Send(absl::StrCat("event: end\ndata: {\"session\":", number, "}\n\n"));
          stream->Close();
          return false;
        }
        // One frame per tick: a snapshot asked for between two ticks repeats the one before.
        if (last && s->tick <= *last) return !stream->closed();
        last = s->tick;
        return stream->Send(*Frame(number, s)) != HttpStream::Sent::kClosed;
      });
  if (!listener) {
    Forget(key);
    return respond(NoSuchSession(absl::StrCat(number, " (it ended)")));
  }
  if (!Keep(key, *listener)) {
    feed->Unsubscribe(*listener);
    return respond(ViewerClosing());
  }
  // The first frame without waiting for a tick (a caller-stepped crowd may not tick for long).
  (void)options_.sessions->RequestSnapshot(number);  // else the next tick shows it
  respond(HttpResponse{200,
                       "text/event-stream; charset=utf-8",
                       absl::StrCat(": crowd session ", number, "\n\n"),
                       {{"Cache-Control", "no-cache"}, {"X-Accel-Buffering", "no"}},
                       std::move(stream)});
}

std::shared_ptr<const std::string> ViewerCrowdApi::Frame(
    uint64_t number, const std::shared_ptr<const CrowdSnapshot>& snapshot) {
  std::lock_guard<std::mutex> lock(frame_mu_);
  std::erase_if(frames_, [](const auto& entry) { return entry.second.of.expired(); });
  CachedFrame& cached = frames_[number];
  if (cached.of.lock() != snapshot || cached.frame == nullptr) {
    cached.frame = std::make_shared<const std::string>(
        absl::StrCat("data: ", CrowdSnapshotJson(*snapshot), "\n\n"));
    cached.of = snapshot;
  }
  return cached.frame;
}

bool ViewerCrowdApi::Keep(uint64_t key, uint64_t listener) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = subscriptions_.find(key);
  if (it == subscriptions_.end()) return false;
  it->second.listener = listener;
  return true;
}

void ViewerCrowdApi::Forget(uint64_t key) {
  Subscription gone;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = subscriptions_.find(key);
    if (it == subscriptions_.end()) return;
    gone = std::move(it->second);
    subscriptions_.erase(it);
    if (gone.stream) --streams_;
  }
  if (std::shared_ptr<CrowdFeed> feed = gone.feed.lock(); feed && gone.listener != 0) {
    feed->Unsubscribe(gone.listener);
  }
}

void ViewerCrowdApi::Close() {
  std::map<uint64_t, Subscription> all;
  {
    std::lock_guard<std::mutex> lock(mu_);
    closed_ = true;
    all.swap(subscriptions_);
    streams_ = 0;
  }
  for (auto& [key, subscription] : all) {
    if (std::shared_ptr<CrowdFeed> feed = subscription.feed.lock(); feed) {
      if (subscription.listener != 0) feed->Unsubscribe(subscription.listener);
    }
  }
}

int ViewerCrowdApi::open_streams() const {
  std::lock_guard<std::mutex> lock(mu_);
  return streams_;
}

}  // namespace waymesh::server
