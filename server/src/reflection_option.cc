#include "reflection_option.h"

#include <algorithm>
#include <string>
#include <vector>

#include "grpcpp/ext/proto_server_reflection_plugin.h"

namespace waymesh::server {
namespace {

class ReflectionBuilderOption final : public grpc::ServerBuilderOption {
 public:
  explicit ReflectionBuilderOption(bool enabled) : enabled_(enabled) {}

  void UpdateArguments(grpc::ChannelArguments*) override {}

  void UpdatePlugins(std::vector<std::unique_ptr<grpc::ServerBuilderPlugin>>* plugins) override {
    auto reflection = std::make_unique<grpc::reflection::ProtoServerReflectionPlugin>();
    const std::string name = reflection->name();
    // Whatever a process-wide registration added, so there is exactly one or none.
    std::erase_if(*plugins, [&name](const auto& plugin) { return plugin->name() == name; });
    if (enabled_) plugins->push_back(std::move(reflection));
  }

 private:
  bool enabled_;
};

}  // namespace

std::unique_ptr<grpc::ServerBuilderOption> ReflectionOption(bool enabled) {
  return std::make_unique<ReflectionBuilderOption>(enabled);
}

}  // namespace waymesh::server
