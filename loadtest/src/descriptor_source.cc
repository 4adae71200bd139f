#include "waymesh/loadtest/descriptor_source.h"

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "google/protobuf/compiler/importer.h"
#include "google/protobuf/descriptor.pb.h"

namespace waymesh::loadtest {
namespace {

namespace pb = google::protobuf;

// Collects parse and import errors of a .proto with file and line, to report them all at once.
class CollectingErrors : public pb::compiler::MultiFileErrorCollector {
 public:
  void AddError(const std::string& filename, int line, int column,
                const std::string& message) override {
    errors_.push_back(absl::StrCat(filename, ":", line + 1, ":", column + 1, ": ", message));
  }
  std::string Text() const { return absl::StrJoin(errors_, "; "); }

 private:
  std::vector<std::string> errors_;
};

// Building a protoset's files reports errors (e.g. a missing import) here.
class PoolErrors : public pb::DescriptorPool::ErrorCollector {
 public:
  void AddError(const std::string& filename, const std::string& element_name, const pb::Message*,
                ErrorLocation, const std::string& message) override {
    errors_.push_back(absl::StrCat(filename, ": ", element_name, ": ", message));
  }
  std::string Text() const { return absl::StrJoin(errors_, "; "); }

 private:
  std::vector<std::string> errors_;
};

void CollectFiles(const pb::FileDescriptor* file, std::set<const pb::FileDescriptor*>* seen,
                  std::vector<const pb::FileDescriptor*>* out) {
  if (!seen->insert(file).second) return;
  out->push_back(file);
  for (int i = 0; i < file->dependency_count(); ++i) CollectFiles(file->dependency(i), seen, out);
}

}  // namespace

DescriptorSource::~DescriptorSource() = default;

absl::StatusOr<std::unique_ptr<DescriptorSource>> DescriptorSource::FromProtoset(
    const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::InvalidArgumentError(absl::StrCat("cannot read protoset ", path));
  std::ostringstream bytes;
  bytes << in.rdbuf();
  pb::FileDescriptorSet set;
  if (!set.ParseFromString(bytes.str()) || set.file_size() == 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "protoset ", path,
        ": not a binary FileDescriptorSet (make one with protoc --descriptor_set_out=FILE "
        "--include_imports)"));
  }
  std::unique_ptr<DescriptorSource> source(new DescriptorSource());
  source->database_ = std::make_unique<pb::SimpleDescriptorDatabase>();
  for (const pb::FileDescriptorProto& file : set.file()) {
    if (!source->database_->Add(file)) {
      return absl::InvalidArgumentError(
          absl::StrCat("protoset ", path, ": cannot add ", file.name(), " (duplicate or invalid)"));
    }
  }
  auto* errors = new PoolErrors();
  source->pool_errors_.reset(errors);
  source->owned_pool_ = std::make_unique<pb::DescriptorPool>(source->database_.get(), errors);
  source->pool_ = source->owned_pool_.get();
  std::set<const pb::FileDescriptor*> seen;
  for (const pb::FileDescriptorProto& file : set.file()) {
    const pb::FileDescriptor* built = source->pool_->FindFileByName(file.name());
    if (built == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat("protoset ", path, ": ", file.name(),
                                                     " does not build: ", errors->Text(),
                                                     " (was it made with --include_imports?)"));
    }
    CollectFiles(built, &seen, &source->files_);
  }
  return source;
}

absl::StatusOr<std::unique_ptr<DescriptorSource>> DescriptorSource::FromProto(
    const std::string& path, const std::vector<std::string>& import_paths) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    return absl::InvalidArgumentError(absl::StrCat("cannot read proto file ", path));
  }
  std::unique_ptr<DescriptorSource> source(new DescriptorSource());
  source->source_tree_ = std::make_unique<pb::compiler::DiskSourceTree>();
  std::vector<std::string> roots = import_paths;
  const std::string own_dir = std::filesystem::path(path).parent_path().string();
  roots.push_back(own_dir.empty() ? "." : own_dir);
  for (const std::string& dir : DefaultImportPaths()) roots.push_back(dir);
  for (const std::string& dir : roots) source->source_tree_->MapPath("", dir);

  // The file's name as its imports know it (e.g. waymesh/v1/navigation.proto under an import
  // path), so a file importing it again does not load a second copy.
  std::string virtual_name, shadowing;
  if (source->source_tree_->DiskFileToVirtualFile(path, &virtual_name, &shadowing) !=
      pb::compiler::DiskSourceTree::SUCCESS) {
    virtual_name = std::filesystem::path(path).filename().string();
  }
  auto* errors = new CollectingErrors();
  source->import_errors_.reset(errors);
  source->importer_ = std::make_unique<pb::compiler::Importer>(source->source_tree_.get(), errors);
  const pb::FileDescriptor* file = source->importer_->Import(virtual_name);
  if (file == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("proto ", path, " does not parse: ", errors->Text(),
                     " (import paths: ", absl::StrJoin(roots, ", "), ")"));
  }
  source->pool_ = source->importer_->pool();
  std::set<const pb::FileDescriptor*> seen;
  CollectFiles(file, &seen, &source->files_);
  return source;
}

std::vector<std::string> DescriptorSource::ServiceNames() const {
  std::vector<std::string> names;
  for (const pb::FileDescriptor* file : files_) {
    for (int i = 0; i < file->service_count(); ++i) names.push_back(file->service(i)->full_name());
  }
  return names;
}

absl::StatusOr<const pb::MethodDescriptor*> DescriptorSource::FindMethod(
    absl::string_view call) const {
  std::string name(call);
  if (!name.empty() && name.front() == '/') name.erase(0, 1);
  if (const size_t slash = name.rfind('/'); slash != std::string::npos) name[slash] = '.';
  const size_t dot = name.rfind('.');
  if (dot == std::string::npos || dot == 0 || dot + 1 == name.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "call \"", call,
        "\": expected package.Service.Method, e.g. waymesh.v1.NavigationService.FindPath"));
  }
  const std::string service_name = name.substr(0, dot);
  const pb::ServiceDescriptor* service = pool_->FindServiceByName(service_name);
  if (service == nullptr) {
    const std::vector<std::string> have = ServiceNames();
    return absl::NotFoundError(absl::StrCat(
        "call \"", call, "\": no service ", service_name,
        " in the descriptors (services: ", have.empty() ? "none" : absl::StrJoin(have, ", "), ")"));
  }
  const pb::MethodDescriptor* method = service->FindMethodByName(name.substr(dot + 1));
  if (method == nullptr) {
    std::vector<std::string> methods;
    for (int i = 0; i < service->method_count(); ++i) methods.push_back(service->method(i)->name());
    return absl::NotFoundError(absl::StrCat("call \"", call, "\": service ", service_name,
                                            " has no method ", name.substr(dot + 1),
                                            " (methods: ", absl::StrJoin(methods, ", "), ")"));
  }
  if (method->client_streaming() || method->server_streaming()) {
    return absl::InvalidArgumentError(
        absl::StrCat("call \"", call, "\": streaming methods are not supported, only unary"));
  }
  return method;
}

std::string MethodPath(const pb::MethodDescriptor& method) {
  return absl::StrCat("/", method.service()->full_name(), "/", method.name());
}

}  // namespace waymesh::loadtest
