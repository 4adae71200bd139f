#pragma once
// gRPC server reflection, v1 (grpc.reflection.v1.ServerReflection). gRPC 1.51, Debian 12's,
// ships only the v1alpha service; tools that ask for v1 first (newer grpcurl, Postman, grpcui)
// fall back to v1alpha, but clients that only speak v1 would find nothing. The v1 messages are
// those of v1alpha under a new package, and the answers come from the same place: the
// descriptors compiled into this binary.

#include <string>
#include <vector>

#include "grpc/reflection/v1/reflection.grpc.pb.h"

namespace waymesh::server {

class ReflectionV1Service final : public grpc::reflection::v1::ServerReflection::CallbackService {
 public:
  // The names of the services the server registered (ServerInitializer::GetServiceList), which
  // list_services answers; must outlive every stream. Null until the server is built.
  void SetServiceList(const std::vector<std::string>* services) { services_ = services; }

  grpc::ServerBidiReactor<grpc::reflection::v1::ServerReflectionRequest,
                          grpc::reflection::v1::ServerReflectionResponse>*
  ServerReflectionInfo(grpc::CallbackServerContext* context) override;

 private:
  const std::vector<std::string>* services_ = nullptr;
};

}  // namespace waymesh::server
