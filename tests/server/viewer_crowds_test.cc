// The viewer's live crowd layer over real TCP: a client runs a RunCrowd stream over gRPC, and
// the viewer's /api/crowds lists the session, /api/crowds/N shows its agents where the stream's
// own tick replies put them, and /api/crowds/N/events streams one frame per tick (tick numbers
// rising, agents where the replies put them), ends when the session ends, is capped, and keeps
// to the bearer-token rule.

#include <cmath>
#include <condition_variable>
#include <map>
#include <mutex>
#include <string>
#include <thread>

#include "absl/cleanup/cleanup.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "crowd_stream.h"
#include "event_stream.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "raw_http.h"
#include "test_server.h"

namespace waymesh::testing {
namespace {

using nlohmann::json;

constexpr int kCrowdAgents = 5;
// Positions travel in millimetres.
constexpr double kMillimetre = 0.0015;

// Every agent's position after each tick, as the RunCrowd stream's tick replies tell it
// (a reply lists the agents that changed).
class TickLog {
 public:
  void Record(const v1::CrowdTick& tick) {
    std::lock_guard<std::mutex> lock(mu_);
    for (const v1::CrowdAgent& a : tick.agents()) now_[a.id()] = GetVec(a.position());
    after_[tick.tick()] = now_;
    changed_.notify_all();
  }
  // The positions after tick `t`, waiting up to 10 s for its reply; empty when it never came.
  std::map<uint32_t, Vec3> After(uint64_t t) {
    std::unique_lock<std::mutex> lock(mu_);
    changed_.wait_for(lock, std::chrono::seconds(10), [&] { return after_.count(t) > 0; });
    auto it = after_.find(t);
    return it == after_.end() ? std::map<uint32_t, Vec3>{} : it->second;
  }

 private:
  std::mutex mu_;
  std::condition_variable changed_;
  std::map<uint32_t, Vec3> now_;
  std::map<uint64_t, std::map<uint32_t, Vec3>> after_;
};

// Checks that `agents` (a snapshot's JSON) are where `expected` says, each one.
void ExpectAgentsAt(const json& agents, const std::map<uint32_t, Vec3>& expected) {
  ASSERT_EQ(agents.size(), expected.size());
  for (const json& a : agents) {
    auto it = expected.find(a["id"].get<uint32_t>());
    ASSERT_NE(it, expected.end()) << a.dump();
    EXPECT_NEAR(a["position"][0].get<double>(), it->second.x, kMillimetre) << a.dump();
    EXPECT_NEAR(a["position"][1].get<double>(), it->second.y, kMillimetre) << a.dump();
    EXPECT_NEAR(a["position"][2].get<double>(), it->second.z, kMillimetre) << a.dump();
    EXPECT_GT(a["radius"].get<double>(), 0.0);
  }
}

class ViewerCrowdsTest : public ServedMapsTest {
 protected:
  ViewerCrowdsTest() : ServedMapsTest(/*serve_in_set_up=*/false) {}

  // Serves the town with the viewer on; with a `token`, crowd_ stays null (its calls would
  // need the token too, and these tests only ask the viewer then).
  void Start(const std::string& token = "") {
    server::ServerConfig config = TestConfig(maps_.path());
    config.ui_port = -1;
    config.ui_max_streams = 2;
    config.auth_token = token;
    Serve(config);
    if (token.empty()) crowd_ = v1::CrowdService::NewStub(channel_);
  }

  // GET `path` on the viewer; its status and JSON body.
  std::pair<int, json> Get(const std::string& path, const std::string& token = "") {
    absl::StatusOr<RawConnection> c = RawConnection::Open(server_->ui_port());
    EXPECT_TRUE(c.ok()) << c.status();
    if (!c.ok()) return {0, nullptr};
    std::string request = absl::StrCat("GET ", path, " HTTP/1.1\r\nHost: test\r\n");
    if (!token.empty()) absl::StrAppend(&request, "Authorization: Bearer ", token, "\r\n");
    EXPECT_TRUE(c->Send(request + "\r\n"));
    std::string body;
    absl::StatusOr<int> status = c->ReadStatus(absl::Seconds(10), &body);
    EXPECT_TRUE(status.ok()) << path << ": " << status.status();
    return {status.value_or(0), json::parse(body, nullptr, false)};
  }

  // Opens a crowd of kCrowdAgents agents on the west bank walking to a goal there,
  // stepped by the caller (tick_hz 0) or by the server; answers `opened`.
  void OpenCrowd(CrowdStream& stream, float tick_hz) {
    ASSERT_TRUE(stream.Send(Open(tick_hz)));
    std::optional<v1::RunCrowdResponse> opened = stream.Read();
    ASSERT_TRUE(opened && opened->has_opened());
    const Scene scene = WestBankScene(kCrowdAgents);
    for (int i = 0; i < kCrowdAgents; ++i) {
      ASSERT_TRUE(stream.Send(Add(10 + i, i + 1, scene.spawns[i])));
      ASSERT_TRUE(stream.Send(Target(20 + i, i + 1, scene.goal)));
    }
  }

  // The number of the only live session.
  uint64_t OnlySession() {
    auto [status, list] = Get("/api/crowds");
    EXPECT_EQ(status, 200);
    EXPECT_EQ(list["crowds"].size(), 1u) << list.dump();
    if (list["crowds"].size() != 1) return 0;
    return list["crowds"][0]["session"].get<uint64_t>();
  }

  std::unique_ptr<v1::CrowdService::Stub> crowd_;
};

TEST_F(ViewerCrowdsTest, ListsSessionsAndShowsTheAgentsWhereTheTicksPutThem) {
  Start();
  EXPECT_EQ(Get("/api/crowds").second["crowds"].size(), 0u);
  CrowdStream stream(*crowd_);
  OpenCrowd(stream, 0);
  TickLog log;
  for (int t = 1; t <= 4; ++t) {
    ASSERT_TRUE(stream.Send(Step(100 + t)));
    std::optional<v1::RunCrowdResponse> e = stream.Read();
    ASSERT_TRUE(e && e->has_tick()) << (e ? e->DebugString() : "stream ended");
    log.Record(e->tick());
  }
  const uint64_t session = OnlySession();
  auto [status, list] = Get("/api/crowds");
  const json& line = list["crowds"][0];
  EXPECT_EQ(line["map"], "town");
  EXPECT_EQ(line["agents"], kCrowdAgents);
  EXPECT_EQ(line["tick"], 4);
  EXPECT_EQ(line["tick_hz"], 0);

  auto [got, snapshot] = Get(absl::StrCat("/api/crowds/", session));
  ASSERT_EQ(got, 200) << snapshot.dump();
  EXPECT_EQ(snapshot["session"], session);
  EXPECT_EQ(snapshot["tick"], 4);
  EXPECT_NEAR(snapshot["time"].get<double>(), 4 * kDt, 1e-3);
  ExpectAgentsAt(snapshot["agents"], log.After(4));
  for (const json& a : snapshot["agents"]) EXPECT_EQ(a["state"], "moving") << a.dump();

  EXPECT_EQ(Get(absl::StrCat("/api/crowds/", session + 1)).first, 404);
  EXPECT_EQ(Get("/api/crowds/oops").first, 404);
  EXPECT_EQ(Get(absl::StrCat("/api/crowds/", session, "/other")).first, 404);
  EXPECT_TRUE(stream.Close().ok());
  // Gone with its stream (once the server is done with it, just after the client is).
  for (int i = 0; i < 100 && Get("/api/crowds").second["crowds"].size() > 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_EQ(Get("/api/crowds").second["crowds"].size(), 0u);
  EXPECT_EQ(Get(absl::StrCat("/api/crowds/", session)).first, 404);
}

TEST_F(ViewerCrowdsTest, EventsStreamEachTickAndEndWithTheSession) {
  Start();
  CrowdStream stream(*crowd_);
  OpenCrowd(stream, 20);
  TickLog log;
  std::thread reader([&] {
    while (std::optional<v1::RunCrowdResponse> e = stream.Read()) {
      if (e->has_tick()) log.Record(e->tick());
    }
  });
  // However the test ends, the session ends and the reader with it.
  absl::Cleanup stop_reader = [&] {
    stream.Cancel();
    if (reader.joinable()) reader.join();
  };
  const uint64_t session = OnlySession();
  // Every agent in, and a tick run since: from then on every frame has them all, as the tick
  // replies do (a frame asked for between the adds and the next tick would not match a reply).
  uint64_t all_in = 0;
  for (int i = 0; i < 500; ++i) {
    const json line = Get("/api/crowds").second["crowds"][0];
    if (all_in == 0 && line["agents"] == kCrowdAgents) all_in = line["tick"].get<uint64_t>() + 1;
    if (all_in > 0 && line["tick"].get<uint64_t>() >= all_in) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ASSERT_GT(all_in, 0u);
  EventStream events;
  ASSERT_EQ(events.Open(server_->ui_port(), absl::StrCat("/api/crowds/", session, "/events")), 200);
  uint64_t last_tick = 0;
  json first, last;
  for (int frames = 0; frames < 12; ++frames) {
    json frame = events.Next();
    ASSERT_TRUE(frame.is_object()) << "frame " << frames;
    const uint64_t tick = frame["tick"].get<uint64_t>();
    if (frames > 0) EXPECT_GT(tick, last_tick);
    last_tick = tick;
    EXPECT_EQ(frame["session"], session);
    ASSERT_GE(tick, all_in);
    ExpectAgentsAt(frame["agents"], log.After(tick));
    if (first.is_null()) first = frame;
    last = frame;
  }
  // They walk (each frame lists every agent, in id order).
  double moved = 0;
  ASSERT_EQ(first["agents"].size(), last["agents"].size());
  for (size_t i = 0; i < last["agents"].size(); ++i) {
    const json& a = first["agents"][i];
    const json& b = last["agents"][i];
    ASSERT_EQ(a["id"], b["id"]);
    moved = std::max(moved,
                     std::hypot(b["position"][0].get<double>() - a["position"][0].get<double>(),
                                b["position"][2].get<double>() - a["position"][2].get<double>()));
  }
  EXPECT_GT(moved, 0.5);

  // The session ends: the stream says so and closes.
  stream.Cancel();
  reader.join();
  std::string name;
  json end = events.Next(&name);
  while (end.is_object() && name.empty()) end = events.Next(&name);  // frames still on the way
  EXPECT_EQ(name, "end");
  EXPECT_EQ(end["session"], session);
  EXPECT_TRUE(events.ClosedWithin(absl::Seconds(5)));
}

TEST_F(ViewerCrowdsTest, EventStreamsAreCappedAndFreedWhenTheirReaderGoes) {
  Start();
  CrowdStream stream(*crowd_);
  OpenCrowd(stream, 0);
  ASSERT_TRUE(stream.Send(Step(99)));  // its reply comes once every agent is in
  std::optional<v1::RunCrowdResponse> ticked = stream.Read();
  ASSERT_TRUE(ticked && ticked->has_tick());
  const uint64_t session = OnlySession();
  const std::string path = absl::StrCat("/api/crowds/", session, "/events");
  EventStream a, b, c;
  ASSERT_EQ(a.Open(server_->ui_port(), path), 200);
  ASSERT_EQ(b.Open(server_->ui_port(), path), 200);
  // A caller-stepped crowd that is not stepped still shows at once.
  json frame = a.Next();
  ASSERT_TRUE(frame.is_object());
  EXPECT_EQ(frame["agents"].size(), size_t(kCrowdAgents));
  EXPECT_EQ(c.Open(server_->ui_port(), path), 429);  // --ui-max-streams=2
  a.Drop();
  // The server sees the reader go, and its place is free again.
  int status = 0;
  for (int i = 0; i < 100 && status != 200; ++i) {
    EventStream d;
    status = d.Open(server_->ui_port(), path);
    if (status != 200) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_EQ(status, 200);
  EXPECT_TRUE(stream.Close().ok());
}

TEST_F(ViewerCrowdsTest, AsksForTheBearerToken) {
  const std::string token = "crowd-viewer-token";
  Start(token);
  EXPECT_EQ(Get("/api/crowds").first, 401);
  EXPECT_EQ(Get("/api/crowds/1").first, 401);
  EventStream events;
  EXPECT_EQ(events.Open(server_->ui_port(), "/api/crowds/1/events"), 401);
  EXPECT_EQ(events.Open(server_->ui_port(), "/api/crowds/1/events", "wrong"), 401);
  auto [status, list] = Get("/api/crowds", token);
  EXPECT_EQ(status, 200);
  EXPECT_EQ(list["crowds"].size(), 0u);
  EXPECT_EQ(Get("/api/crowds/1", token).first, 404);
}

}  // namespace
}  // namespace waymesh::testing
