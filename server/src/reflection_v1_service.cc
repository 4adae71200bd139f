#include "reflection_v1_service.h"

#include <deque>
#include <set>

#include "google/protobuf/descriptor.h"
#include "google/protobuf/descriptor.pb.h"

namespace waymesh::server {
namespace {

using google::protobuf::DescriptorPool;
using google::protobuf::FileDescriptor;
using grpc::reflection::v1::ServerReflectionRequest;
using grpc::reflection::v1::ServerReflectionResponse;

void Fail(grpc::StatusCode code, const std::string& message, ServerReflectionResponse* out) {
  out->mutable_error_response()->set_error_code(int(code));
  out->mutable_error_response()->set_error_message(message);
}

// `file` and every file it imports, directly or not, as serialized FileDescriptorProtos (what
// a client needs to decode the file's messages); NOT_FOUND naming `what` when `file` is null.
void AnswerFile(const FileDescriptor* file, const std::string& what,
                ServerReflectionResponse* out) {
  if (file == nullptr) {
    Fail(grpc::StatusCode::NOT_FOUND, what + " is not known to this server", out);
    return;
  }
  std::set<const FileDescriptor*> seen{file};
  std::deque<const FileDescriptor*> todo{file};
  while (!todo.empty()) {
    const FileDescriptor* f = todo.front();
    todo.pop_front();
    google::protobuf::FileDescriptorProto proto;
    f->CopyTo(&proto);
    proto.SerializeToString(out->mutable_file_descriptor_response()->add_file_descriptor_proto());
    for (int i = 0; i < f->dependency_count(); ++i) {
      if (seen.insert(f->dependency(i)).second) todo.push_back(f->dependency(i));
    }
  }
}

void AnswerExtensionNumbers(const std::string& type, ServerReflectionResponse* out) {
  const DescriptorPool* pool = DescriptorPool::generated_pool();
  const google::protobuf::Descriptor* message = pool->FindMessageTypeByName(type);
  if (message == nullptr) {
    Fail(grpc::StatusCode::NOT_FOUND, "message type " + type + " is not known to this server", out);
    return;
  }
  std::vector<const google::protobuf::FieldDescriptor*> extensions;
  pool->FindAllExtensions(message, &extensions);
  auto* numbers = out->mutable_all_extension_numbers_response();
  numbers->set_base_type_name(message->full_name());
  for (const auto* e : extensions) numbers->add_extension_number(e->number());
}

void Answer(const ServerReflectionRequest& request, const std::vector<std::string>* services,
            ServerReflectionResponse* out) {
  out->Clear();
  out->set_valid_host(request.host());
  *out->mutable_original_request() = request;
  const DescriptorPool* pool = DescriptorPool::generated_pool();
  switch (request.message_request_case()) {
    case ServerReflectionRequest::kFileByFilename:
      AnswerFile(pool->FindFileByName(request.file_by_filename()),
                 "file " + request.file_by_filename(), out);
      return;
    case ServerReflectionRequest::kFileContainingSymbol:
      AnswerFile(pool->FindFileContainingSymbol(request.file_containing_symbol()),
                 "symbol " + request.file_containing_symbol(), out);
      return;
    case ServerReflectionRequest::kFileContainingExtension: {
      const auto& ext = request.file_containing_extension();
      const auto* type = pool->FindMessageTypeByName(ext.containing_type());
      const auto* field =
          type ? pool->FindExtensionByNumber(type, ext.extension_number()) : nullptr;
      AnswerFile(
          field ? field->file() : nullptr,
          "extension " + std::to_string(ext.extension_number()) + " of " + ext.containing_type(),
          out);
      return;
    }
    case ServerReflectionRequest::kAllExtensionNumbersOfType:
      AnswerExtensionNumbers(request.all_extension_numbers_of_type(), out);
      return;
    case ServerReflectionRequest::kListServices:
      if (services != nullptr) {
        for (const std::string& name : *services) {
          out->mutable_list_services_response()->add_service()->set_name(name);
        }
      }
      out->mutable_list_services_response();  // an empty list is still a list
      return;
    case ServerReflectionRequest::MESSAGE_REQUEST_NOT_SET:
      break;
  }
  Fail(grpc::StatusCode::INVALID_ARGUMENT, "the request asks for nothing (message_request unset)",
       out);
}

// One reflection stream: every request read gets one response, in order, until the client
// closes its side.
class ReflectionStream final
    : public grpc::ServerBidiReactor<ServerReflectionRequest, ServerReflectionResponse> {
 public:
  explicit ReflectionStream(const std::vector<std::string>* services) : services_(services) {
    StartRead(&request_);
  }

  void OnReadDone(bool ok) override {
    if (!ok) {
      Finish(grpc::Status::OK);  // the client is done asking
      return;
    }
    Answer(request_, services_, &response_);
    StartWrite(&response_);
  }

  void OnWriteDone(bool ok) override {
    if (!ok) {
      Finish(grpc::Status(grpc::StatusCode::UNAVAILABLE, "the reflection response was not sent"));
      return;
    }
    StartRead(&request_);
  }

  void OnDone() override { delete this; }

 private:
  const std::vector<std::string>* services_;
  ServerReflectionRequest request_;
  ServerReflectionResponse response_;
};

}  // namespace

grpc::ServerBidiReactor<ServerReflectionRequest, ServerReflectionResponse>*
ReflectionV1Service::ServerReflectionInfo(grpc::CallbackServerContext*) {
  return new ReflectionStream(services_);
}

}  // namespace waymesh::server
