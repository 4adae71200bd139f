// GetMapInfo and ListMaps: registry metadata only, answered on the handler thread.

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "absl/strings/escaping.h"
#include "navigation_call.h"
#include "waymesh/server/proto_conversion.h"

namespace waymesh::server {
namespace {

// Maps in ListMaps order: by map id, then agent type (the default bake first).
bool ListedBefore(const ServedMap& a, const ServedMap& b) {
  return std::tie(a.map_id(), a.agent_type()) < std::tie(b.map_id(), b.agent_type());
}

// page_token: the registry key of the last map of the previous page, opaque to clients.
std::string PageToken(const ServedMap& last) { return absl::WebSafeBase64Escape(last.id()); }

absl::StatusOr<MapName> PageStart(const std::string& token) {
  std::string key;
  if (!absl::WebSafeBase64Unescape(token, &key) || !ValidateMapKey(key).ok()) {
    return FieldViolation("page_token",
                          "is not a token of this server (pass next_page_token unchanged)");
  }
  return SplitMapKey(key);
}

}  // namespace

void NavigationService::FillMapInfo(const ServedMap& map, v1::MapInfo* out) const {
  const std::shared_ptr<const NavMap> nav = map.map();
  ToProto(nav->info(), out);
  out->set_map_id(map.map_id());
  out->set_agent_type(map.agent_type());
  out->set_map_version(map.version());
  out->set_tiles(nav->tile_count());
  out->set_resident_tiles(map.resident_tiles());
  out->set_file_bytes(map.file_bytes());
  const int64_t nanos = absl::ToUnixNanos(map.loaded_time());
  out->mutable_load_time()->set_seconds(nanos / 1000000000);
  out->mutable_load_time()->set_nanos(int32_t(nanos % 1000000000));
  out->set_reloads(map.version() > 0 ? map.version() - 1 : 0);
}

grpc::ServerUnaryReactor* NavigationService::GetMapInfo(grpc::CallbackServerContext* ctx,
                                                        const grpc::ByteBuffer* request,
                                                        grpc::ByteBuffer* response) {
  grpc::ServerUnaryReactor* reactor = NewReactor();
  auto call = Begin<v1::GetMapInfoRequest, v1::GetMapInfoResponse>(RpcMethod::kGetMapInfo, ctx,
                                                                   reactor, request, response);
  if (call == nullptr) return reactor;
  auto map = CheckedMap(call->request, &ValidateGetMapInfo);
  if (!map.ok()) {
    call->Finish(map.status());
    return reactor;
  }
  v1::MapInfo* info = call->response_message.mutable_map();
  FillMapInfo(**map, info);
  std::vector<std::shared_ptr<const ServedMap>> all = maps_->List();
  std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return ListedBefore(*a, *b); });
  for (const std::shared_ptr<const ServedMap>& m : all) {
    if (m->map_id() == (*map)->map_id()) info->add_agent_types(m->agent_type());
  }
  call->Finish(absl::OkStatus());
  return reactor;
}

grpc::ServerUnaryReactor* NavigationService::ListMaps(grpc::CallbackServerContext* ctx,
                                                      const grpc::ByteBuffer* request,
                                                      grpc::ByteBuffer* response) {
  grpc::ServerUnaryReactor* reactor = NewReactor();
  auto call = Begin<v1::ListMapsRequest, v1::ListMapsResponse>(RpcMethod::kListMaps, ctx, reactor,
                                                               request, response);
  if (call == nullptr) return reactor;
  const v1::ListMapsRequest& r = call->request;
  if (absl::Status s = ValidateListMaps(r); !s.ok()) {
    call->Finish(std::move(s));
    return reactor;
  }
  std::optional<MapName> after;
  if (!r.page_token().empty()) {
    absl::StatusOr<MapName> start = PageStart(r.page_token());
    if (!start.ok()) {
      call->Finish(start.status());
      return reactor;
    }
    after = *std::move(start);
  }
  std::vector<std::shared_ptr<const ServedMap>> maps = maps_->List();
  std::sort(maps.begin(), maps.end(), [](const auto& a, const auto& b) { return ListedBefore(*a, *b); });
  auto first = maps.begin();
  if (after) {
    first = std::find_if(maps.begin(), maps.end(), [&after](const auto& m) {
      return std::tie(m->map_id(), m->agent_type()) > std::tie(after->map_id, after->agent_type);
    });
  }
  const size_t page = r.page_size() > 0 ? size_t(r.page_size()) : size_t(kDefaultListPageSize);
  const auto last = first + std::min<ptrdiff_t>(page, maps.end() - first);
  v1::ListMapsResponse& out = call->response_message;
  for (auto m = first; m != last; ++m) FillMapInfo(**m, out.add_maps());
  if (last != maps.end()) out.set_next_page_token(PageToken(**(last - 1)));
  call->Finish(absl::OkStatus());
  return reactor;
}

}  // namespace waymesh::server
