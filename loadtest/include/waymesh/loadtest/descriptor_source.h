#pragma once
// The message and service descriptors a run needs, from a protoset or from a .proto parsed at
// run time: requests are built from them, so any unary method can be loaded without stubs.

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/descriptor_database.h"

namespace google::protobuf::compiler {
class DiskSourceTree;
class Importer;
class MultiFileErrorCollector;
}  // namespace google::protobuf::compiler

namespace waymesh::loadtest {

// Directories searched for a .proto's imports after the configured ones and its own directory.
inline const std::vector<std::string>& DefaultImportPaths() {
  static const auto* paths = new std::vector<std::string>{"/usr/share/grpc-proto", "/usr/include"};
  return *paths;
}

class DescriptorSource {
 public:
  // A binary FileDescriptorSet holding the method's file and everything it imports.
  static absl::StatusOr<std::unique_ptr<DescriptorSource>> FromProtoset(const std::string& path);
  // A .proto file parsed with its imports searched in `import_paths`, then the file's own
  // directory, then DefaultImportPaths().
  static absl::StatusOr<std::unique_ptr<DescriptorSource>> FromProto(
      const std::string& path, const std::vector<std::string>& import_paths);
  ~DescriptorSource();

  // The unary method `call` ("pkg.Service.Method", "pkg.Service/Method" or "/pkg.Service/Method");
  // NotFound lists what the descriptors do have, InvalidArgument rejects streaming methods.
  absl::StatusOr<const google::protobuf::MethodDescriptor*> FindMethod(
      absl::string_view call) const;

 private:
  DescriptorSource() = default;
  std::vector<std::string> ServiceNames() const;

  // Error sinks outlive what reports to them (pools build lazily, on later lookups too).
  std::unique_ptr<google::protobuf::DescriptorPool::ErrorCollector> pool_errors_;
  std::unique_ptr<google::protobuf::compiler::MultiFileErrorCollector> import_errors_;
  // Protoset: files in a database, built into `owned_pool_` on demand.
  std::unique_ptr<google::protobuf::SimpleDescriptorDatabase> database_;
  std::unique_ptr<google::protobuf::DescriptorPool> owned_pool_;
  // .proto: the importer owns its pool.
  std::unique_ptr<google::protobuf::compiler::DiskSourceTree> source_tree_;
  std::unique_ptr<google::protobuf::compiler::Importer> importer_;
  const google::protobuf::DescriptorPool* pool_ = nullptr;
  std::vector<const google::protobuf::FileDescriptor*> files_;  // every loaded file
};

// gRPC's path of a method: "/pkg.Service/Method".
std::string MethodPath(const google::protobuf::MethodDescriptor& method);

}  // namespace waymesh::loadtest
