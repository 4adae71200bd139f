// Crowd scenario files (docs/crowd.md): parsed into a JsonNode tree by the bounded SAX reader,
// then checked field by field.

#include "waymesh/crowd_scenario/crowd_scenario.h"

#include <algorithm>
#include <cmath>
#include <span>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "nlohmann/json.hpp"
#include "waymesh/io/json_node.h"
#include "waymesh/io/json_sax_reader.h"
#include "waymesh/io/mapped_file.h"

namespace waymesh {
namespace {

using importer::CheckKeys;
using importer::JsonNode;
using importer::NumberIn;
using importer::Point;

// Largest tick rate (Hz) and run length (seconds) of a scenario.
constexpr double kMaxTickHz = 1000;
constexpr double kMaxDurationS = 7 * 24 * 3600;
// Agent parameter ranges (the crowd checks them too; the file gets the message first).
constexpr double kMaxRadius = 10, kMaxSpeed = 100, kMaxAccel = 1000;

absl::StatusOr<crowd::AgentId> ReadId(const JsonNode& node) {
  absl::StatusOr<int64_t> id = node.AsInt(0, UINT32_MAX);
  if (!id.ok()) return id.status();
  return crowd::AgentId(*id);
}

// An optional positive number member of `object` into *out.
absl::Status ReadPositive(const JsonNode& object, const char* key, double max, float* out) {
  const std::optional<JsonNode> node = object.Find(key);
  if (!node) return absl::OkStatus();
  absl::StatusOr<double> v = NumberIn(*node, 0, max);
  if (!v.ok()) return v.status();
  if (*v <= 0) return node->Error("must be greater than 0");
  *out = float(*v);
  return absl::OkStatus();
}

absl::Status ReadAreas(const JsonNode& list, std::vector<uint8_t>* out) {
  if (absl::Status s = list.ExpectArray(); !s.ok()) return s;
  if (list.size() > size_t(kMaxAreas)) return list.Error("lists more than 64 areas");
  for (size_t i = 0; i < list.size(); ++i) {
    absl::StatusOr<int64_t> area = list.At(i).AsInt(0, kMaxAreas - 1);
    if (!area.ok()) return area.status();
    out->push_back(uint8_t(*area));
  }
  return absl::OkStatus();
}

absl::Status ReadRoute(const JsonNode& list, std::vector<Vec3>* out) {
  if (absl::Status s = list.ExpectArray(); !s.ok()) return s;
  if (list.size() == 0) return list.Error("is empty (give at least one point)");
  if (list.size() > kMaxScenarioRoute) {
    return list.Error(absl::StrCat("has more than ", kMaxScenarioRoute, " points"));
  }
  for (size_t i = 0; i < list.size(); ++i) {
    absl::StatusOr<Vec3> p = Point(list.At(i));
    if (!p.ok()) return p.status();
    out->push_back(*p);
  }
  return absl::OkStatus();
}

absl::StatusOr<ScenarioAgent> ReadAgent(const JsonNode& node) {
  if (absl::Status s =
          CheckKeys(node, {"id", "position", "target", "route", "target_agent", "leader", "offset",
                           "radius", "max_speed", "max_accel", "areas"});
      !s.ok()) {
    return s;
  }
  ScenarioAgent a;
  absl::StatusOr<JsonNode> id = node.Get("id");
  if (!id.ok()) return id.status();
  absl::StatusOr<crowd::AgentId> value = ReadId(*id);
  if (!value.ok()) return value.status();
  a.id = *value;
  absl::StatusOr<JsonNode> position = node.Get("position");
  if (!position.ok()) return position.status();
  absl::StatusOr<Vec3> p = Point(*position);
  if (!p.ok()) return p.status();
  a.position = *p;
  int goals = 0;
  if (std::optional<JsonNode> target = node.Find("target")) {
    absl::StatusOr<Vec3> t = Point(*target);
    if (!t.ok()) return t.status();
    a.route.push_back(*t);
    ++goals;
  }
  if (std::optional<JsonNode> route = node.Find("route")) {
    if (absl::Status s = ReadRoute(*route, &a.route); !s.ok()) return s;
    ++goals;
  }
  if (std::optional<JsonNode> chased = node.Find("target_agent")) {
    absl::StatusOr<crowd::AgentId> t = ReadId(*chased);
    if (!t.ok()) return t.status();
    if (*t == a.id) return chased->Error("names the agent itself");
    a.target_agent = *t;
    ++goals;
  }
  if (std::optional<JsonNode> leader = node.Find("leader")) {
    absl::StatusOr<crowd::AgentId> l = ReadId(*leader);
    if (!l.ok()) return l.status();
    if (*l == a.id) return leader->Error("names the agent itself");
    a.leader = *l;
    ++goals;
  }
  if (goals > 1) {
    return node.Error("has more than one goal (target, route, target_agent, leader: pick one)");
  }
  if (std::optional<JsonNode> offset = node.Find("offset")) {
    if (!a.leader) return offset->Error("needs a leader");
    absl::StatusOr<Vec3> o = Point(*offset);
    if (!o.ok()) return o.status();
    a.offset = *o;
  }
  if (absl::Status s = ReadPositive(node, "radius", kMaxRadius, &a.radius); !s.ok()) return s;
  if (absl::Status s = ReadPositive(node, "max_speed", kMaxSpeed, &a.max_speed); !s.ok()) return s;
  if (absl::Status s = ReadPositive(node, "max_accel", kMaxAccel, &a.max_accel); !s.ok()) return s;
  if (std::optional<JsonNode> areas = node.Find("areas")) {
    if (absl::Status s = ReadAreas(*areas, &a.areas); !s.ok()) return s;
  }
  return a;
}

// The one action key of an event and the agent it names.
struct EventAction {
  const char* key;
  ScenarioEvent::Kind kind;
};
constexpr EventAction kEventActions[] = {{"retarget", ScenarioEvent::Kind::kRetarget},
                                         {"chase", ScenarioEvent::Kind::kChase},
                                         {"follow", ScenarioEvent::Kind::kFollow},
                                         {"stop", ScenarioEvent::Kind::kStop},
                                         {"teleport", ScenarioEvent::Kind::kTeleport},
                                         {"remove", ScenarioEvent::Kind::kRemove},
                                         {"add", ScenarioEvent::Kind::kAdd}};

// The member `key` of an event, which its action requires.
absl::StatusOr<JsonNode> Needs(const JsonNode& event, const char* key, const char* action) {
  std::optional<JsonNode> node = event.Find(key);
  if (!node) return event.Error(absl::StrCat("(", action, ") needs \"", key, "\""));
  return *node;
}

absl::StatusOr<ScenarioEvent> ReadEvent(const JsonNode& node, double duration) {
  if (absl::Status s =
          CheckKeys(node, {"t", "retarget", "chase", "follow", "stop", "teleport", "remove", "add",
                           "target", "target_agent", "leader", "offset", "position"});
      !s.ok()) {
    return s;
  }
  ScenarioEvent e;
  absl::StatusOr<JsonNode> t = node.Get("t");
  if (!t.ok()) return t.status();
  absl::StatusOr<double> time = NumberIn(*t, 0, duration);
  if (!time.ok()) return time.status();
  e.t = *time;
  const EventAction* action = nullptr;
  for (const EventAction& a : kEventActions) {
    if (!node.Find(a.key)) continue;
    if (action != nullptr) {
      return node.Error(absl::StrCat("has two actions (\"", action->key, "\" and \"", a.key,
                                     "\"): one event does one thing"));
    }
    action = &a;
  }
  if (action == nullptr) {
    return node.Error(
        "has no action (one of retarget, chase, follow, stop, teleport, remove, add)");
  }
  e.kind = action->kind;
  const JsonNode subject = *node.Find(action->key);
  if (e.kind == ScenarioEvent::Kind::kAdd) {
    absl::StatusOr<ScenarioAgent> added = ReadAgent(subject);
    if (!added.ok()) return added.status();
    e.added = *std::move(added);
    e.agent = e.added.id;
    return e;
  }
  absl::StatusOr<crowd::AgentId> agent = ReadId(subject);
  if (!agent.ok()) return agent.status();
  e.agent = *agent;
  auto point = [&](const char* key) -> absl::Status {
    absl::StatusOr<JsonNode> n = Needs(node, key, action->key);
    if (!n.ok()) return n.status();
    absl::StatusOr<Vec3> p = Point(*n);
    if (!p.ok()) return p.status();
    e.point = *p;
    return absl::OkStatus();
  };
  auto other = [&](const char* key) -> absl::Status {
    absl::StatusOr<JsonNode> n = Needs(node, key, action->key);
    if (!n.ok()) return n.status();
    absl::StatusOr<crowd::AgentId> id = ReadId(*n);
    if (!id.ok()) return id.status();
    if (*id == e.agent) return n->Error("names the event's agent itself");
    e.other = *id;
    return absl::OkStatus();
  };
  switch (e.kind) {
    case ScenarioEvent::Kind::kRetarget:
      if (absl::Status s = point("target"); !s.ok()) return s;
      break;
    case ScenarioEvent::Kind::kTeleport:
      if (absl::Status s = point("position"); !s.ok()) return s;
      break;
    case ScenarioEvent::Kind::kChase:
      if (absl::Status s = other("target_agent"); !s.ok()) return s;
      break;
    case ScenarioEvent::Kind::kFollow: {
      if (absl::Status s = other("leader"); !s.ok()) return s;
      if (std::optional<JsonNode> offset = node.Find("offset")) {
        absl::StatusOr<Vec3> o = Point(*offset);
        if (!o.ok()) return o.status();
        e.offset = *o;
      }
      break;
    }
    default:
      break;
  }
  return e;
}

// Every agent an event or goal names exists at some point (declared or added), and no id is
// declared twice.
absl::Status CheckIds(const CrowdScenario& s, std::string_view origin) {
  absl::flat_hash_set<crowd::AgentId> ids;
  for (size_t i = 0; i < s.agents.size(); ++i) {
    if (!ids.insert(s.agents[i].id).second) {
      return absl::InvalidArgumentError(absl::StrCat(std::string(origin), ": agents[", i,
                                                     "].id = ", s.agents[i].id, " is used twice"));
    }
  }
  for (const ScenarioEvent& e : s.events) {
    if (e.kind == ScenarioEvent::Kind::kAdd) ids.insert(e.agent);
  }
  auto known = [&](crowd::AgentId id, const std::string& where) -> absl::Status {
    if (ids.contains(id)) return absl::OkStatus();
    return absl::InvalidArgumentError(absl::StrCat(
        std::string(origin), ": ", where, " names agent ", id, ", which no agent or add has"));
  };
  for (size_t i = 0; i < s.agents.size(); ++i) {
    const ScenarioAgent& a = s.agents[i];
    const std::string where = absl::StrCat("agents[", i, "]");
    if (a.target_agent) {
      if (absl::Status st = known(*a.target_agent, where + ".target_agent"); !st.ok()) return st;
    }
    if (a.leader) {
      if (absl::Status st = known(*a.leader, where + ".leader"); !st.ok()) return st;
    }
  }
  for (size_t i = 0; i < s.events.size(); ++i) {
    const ScenarioEvent& e = s.events[i];
    const std::string where = absl::StrCat("events (at t = ", e.t, " s)");
    if (absl::Status st = known(e.agent, where); !st.ok()) return st;
    if (e.kind == ScenarioEvent::Kind::kChase || e.kind == ScenarioEvent::Kind::kFollow) {
      if (absl::Status st = known(e.other, where); !st.ok()) return st;
    }
  }
  return absl::OkStatus();
}

nlohmann::ordered_json PointJson(Vec3 p) { return nlohmann::ordered_json::array({p.x, p.y, p.z}); }

nlohmann::ordered_json AgentJson(const ScenarioAgent& a) {
  nlohmann::ordered_json j{{"id", a.id}, {"position", PointJson(a.position)}};
  if (a.route.size() == 1) j["target"] = PointJson(a.route[0]);
  if (a.route.size() > 1) {
    for (Vec3 p : a.route) j["route"].push_back(PointJson(p));
  }
  if (a.target_agent) j["target_agent"] = *a.target_agent;
  if (a.leader) {
    j["leader"] = *a.leader;
    j["offset"] = PointJson(a.offset);
  }
  j["radius"] = a.radius;
  j["max_speed"] = a.max_speed;
  j["max_accel"] = a.max_accel;
  if (!a.areas.empty()) j["areas"] = a.areas;
  return j;
}

nlohmann::ordered_json EventJson(const ScenarioEvent& e) {
  nlohmann::ordered_json j{{"t", e.t}};
  switch (e.kind) {
    case ScenarioEvent::Kind::kRetarget:
      j["retarget"] = e.agent;
      j["target"] = PointJson(e.point);
      break;
    case ScenarioEvent::Kind::kChase:
      j["chase"] = e.agent;
      j["target_agent"] = e.other;
      break;
    case ScenarioEvent::Kind::kFollow:
      j["follow"] = e.agent;
      j["leader"] = e.other;
      j["offset"] = PointJson(e.offset);
      break;
    case ScenarioEvent::Kind::kStop:
      j["stop"] = e.agent;
      break;
    case ScenarioEvent::Kind::kTeleport:
      j["teleport"] = e.agent;
      j["position"] = PointJson(e.point);
      break;
    case ScenarioEvent::Kind::kRemove:
      j["remove"] = e.agent;
      break;
    case ScenarioEvent::Kind::kAdd:
      j["add"] = AgentJson(e.added);
      break;
  }
  return j;
}

}  // namespace

uint64_t CrowdScenario::ticks() const { return uint64_t(std::ceil(duration_s * tick_hz - 1e-9)); }

absl::StatusOr<crowd::AvoidanceMode> ParseAvoidanceMode(std::string_view name) {
  if (name == "orca") return crowd::AvoidanceMode::kOrca;
  if (name == "circling") return crowd::AvoidanceMode::kCircling;
  return absl::InvalidArgumentError(absl::StrCat("avoidance mode \"", std::string(name),
                                                 "\" is neither \"orca\" nor \"circling\""));
}

std::string_view AvoidanceModeName(crowd::AvoidanceMode mode) {
  return mode == crowd::AvoidanceMode::kCircling ? "circling" : "orca";
}

absl::StatusOr<CrowdScenario> ParseCrowdScenario(std::string_view json, std::string_view origin) {
  importer::JsonSaxReader reader(json, origin);
  absl::StatusOr<nlohmann::json> tree = reader.Parse();
  if (!tree.ok()) return tree.status();
  const JsonNode root(*tree, "", origin);
  if (absl::Status s = CheckKeys(root, {"tick_hz", "duration_s", "mode", "agents", "events"});
      !s.ok()) {
    return s;
  }
  CrowdScenario sc;
  if (std::optional<JsonNode> hz = root.Find("tick_hz")) {
    absl::StatusOr<double> v = NumberIn(*hz, 0, kMaxTickHz);
    if (!v.ok()) return v.status();
    if (*v <= 0) return hz->Error("must be greater than 0");
    sc.tick_hz = *v;
  }
  if (std::optional<JsonNode> duration = root.Find("duration_s")) {
    absl::StatusOr<double> v = NumberIn(*duration, 0, kMaxDurationS);
    if (!v.ok()) return v.status();
    if (*v <= 0) return duration->Error("must be greater than 0");
    sc.duration_s = *v;
  }
  if (sc.ticks() > kMaxScenarioTicks) {
    return root.Error(absl::StrCat("runs ", sc.ticks(), " ticks (duration_s * tick_hz); at most ",
                                   kMaxScenarioTicks, " are allowed"));
  }
  if (std::optional<JsonNode> mode = root.Find("mode")) {
    absl::StatusOr<std::string> name = mode->AsString();
    if (!name.ok()) return name.status();
    absl::StatusOr<crowd::AvoidanceMode> m = ParseAvoidanceMode(*name);
    if (!m.ok()) return mode->Error(std::string(m.status().message()));
    sc.mode = *m;
  }
  absl::StatusOr<JsonNode> agents = root.Get("agents");
  if (!agents.ok()) return agents.status();
  if (absl::Status s = agents->ExpectArray(); !s.ok()) return s;
  if (agents->size() > kMaxScenarioAgents) {
    return agents->Error(absl::StrCat("has more than ", kMaxScenarioAgents, " agents"));
  }
  for (size_t i = 0; i < agents->size(); ++i) {
    absl::StatusOr<ScenarioAgent> a = ReadAgent(agents->At(i));
    if (!a.ok()) return a.status();
    sc.agents.push_back(*std::move(a));
  }
  if (std::optional<JsonNode> events = root.Find("events")) {
    if (absl::Status s = events->ExpectArray(); !s.ok()) return s;
    if (events->size() > kMaxScenarioEvents) {
      return events->Error(absl::StrCat("has more than ", kMaxScenarioEvents, " events"));
    }
    for (size_t i = 0; i < events->size(); ++i) {
      absl::StatusOr<ScenarioEvent> e = ReadEvent(events->At(i), sc.duration_s);
      if (!e.ok()) return e.status();
      sc.events.push_back(*std::move(e));
    }
    std::stable_sort(sc.events.begin(), sc.events.end(),
                     [](const ScenarioEvent& a, const ScenarioEvent& b) { return a.t < b.t; });
  }
  if (absl::Status s = CheckIds(sc, origin); !s.ok()) return s;
  return sc;
}

absl::StatusOr<CrowdScenario> ReadCrowdScenario(const std::string& path) {
  absl::StatusOr<std::shared_ptr<const MappedFile>> file = MappedFile::Open(path);
  if (!file.ok()) return file.status();
  return ParseCrowdScenario((*file)->text(), path);
}

std::string CrowdScenarioJson(const CrowdScenario& scenario) {
  nlohmann::ordered_json j{{"tick_hz", scenario.tick_hz}, {"duration_s", scenario.duration_s}};
  if (scenario.mode) j["mode"] = std::string(AvoidanceModeName(*scenario.mode));
  j["agents"] = nlohmann::ordered_json::array();
  for (const ScenarioAgent& a : scenario.agents) j["agents"].push_back(AgentJson(a));
  if (!scenario.events.empty()) {
    for (const ScenarioEvent& e : scenario.events) j["events"].push_back(EventJson(e));
  }
  return j.dump(1) + "\n";
}

}  // namespace waymesh
