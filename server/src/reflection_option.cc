#include "reflection_option.h"

#include <algorithm>
#include <string>
#include <vector>

#include "grpcpp/ext/proto_server_reflection_plugin.h"
#include "grpcpp/impl/server_initializer.h"
#include "reflection_v1_service.h"

namespace waymesh::server {
namespace {

// Registers grpc.reflection.v1 on the server being built, as gRPC's plugin does v1alpha.
class ReflectionV1Plugin final : public grpc::ServerBuilderPlugin {
 public:
  std::string name() override { return "waymesh_reflection_v1"; }
  void InitServer(grpc::ServerInitializer* si) override { si->RegisterService(service_); }
  void Finish(grpc::ServerInitializer* si) override {
    service_->SetServiceList(si->GetServiceList());
  }
  void ChangeArguments(const std::string&, void*) override {}

 private:
  std::shared_ptr<ReflectionV1Service> service_ = std::make_shared<ReflectionV1Service>();
};

class ReflectionBuilderOption final : public grpc::ServerBuilderOption {
 public:
  explicit ReflectionBuilderOption(bool enabled) : enabled_(enabled) {}

  void UpdateArguments(grpc::ChannelArguments*) override {}

  void UpdatePlugins(std::vector<std::unique_ptr<grpc::ServerBuilderPlugin>>* plugins) override {
    auto v1alpha = std::make_unique<grpc::reflection::ProtoServerReflectionPlugin>();
    const std::string name = v1alpha->name();
    // Whatever a process-wide registration added, so there is exactly one or none.
    std::erase_if(*plugins, [&name](const auto& plugin) { return plugin->name() == name; });
    if (!enabled_) return;
    plugins->push_back(std::move(v1alpha));
    plugins->push_back(std::make_unique<ReflectionV1Plugin>());
  }

 private:
  bool enabled_;
};

}  // namespace

std::unique_ptr<grpc::ServerBuilderOption> ReflectionOption(bool enabled) {
  return std::make_unique<ReflectionBuilderOption>(enabled);
}

}  // namespace waymesh::server
