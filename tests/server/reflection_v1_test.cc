// grpc.reflection.v1 as a v1-only client (newer grpcurl, grpcui, Postman) uses it over TCP: one
// stream, several questions, each answered in order; the API's descriptors come with what they
// import; unknown names are NOT_FOUND in the response, not a failed stream.

#include <set>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "google/protobuf/descriptor.pb.h"
#include "grpc/reflection/v1/reflection.grpc.pb.h"
#include "gtest/gtest.h"
#include "test_server.h"

namespace waymesh::testing {
namespace {

using grpc::reflection::v1::ServerReflection;
using grpc::reflection::v1::ServerReflectionRequest;
using grpc::reflection::v1::ServerReflectionResponse;
using ::testing::IsSupersetOf;

class ReflectionV1Test : public ServedMapsTest {
 protected:
  // Asks every request on one stream; the responses in order (fewer when the stream broke).
  std::vector<ServerReflectionResponse> Ask(const std::vector<ServerReflectionRequest>& requests,
                                            grpc::Status* status) {
    auto stub = ServerReflection::NewStub(channel_);
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    auto stream = stub->ServerReflectionInfo(&ctx);
    std::vector<ServerReflectionResponse> responses;
    for (const ServerReflectionRequest& request : requests) {
      ServerReflectionResponse response;
      if (!stream->Write(request) || !stream->Read(&response)) break;
      responses.push_back(response);
    }
    stream->WritesDone();
    *status = stream->Finish();
    return responses;
  }
};

ServerReflectionRequest ListServices() {
  ServerReflectionRequest r;
  r.set_list_services("");
  return r;
}

ServerReflectionRequest FileContaining(const std::string& symbol) {
  ServerReflectionRequest r;
  r.set_file_containing_symbol(symbol);
  return r;
}

std::set<std::string> FileNames(const ServerReflectionResponse& response) {
  std::set<std::string> names;
  for (const std::string& bytes : response.file_descriptor_response().file_descriptor_proto()) {
    google::protobuf::FileDescriptorProto file;
    EXPECT_TRUE(file.ParseFromString(bytes));
    names.insert(file.name());
  }
  return names;
}

TEST_F(ReflectionV1Test, ListsTheServicesAndGivesTheApiWithItsImports) {
  ServerReflectionRequest by_name;
  by_name.set_file_by_filename("waymesh/v1/navigation.proto");
  grpc::Status status;
  const std::vector<ServerReflectionResponse> answers =
      Ask({ListServices(), FileContaining("waymesh.v1.NavigationService"),
           FileContaining("waymesh.v1.FindPathRequest.start"), by_name},
          &status);
  ASSERT_TRUE(status.ok()) << status.error_message();
  ASSERT_EQ(answers.size(), 4u);

  std::vector<std::string> services;
  for (const auto& s : answers[0].list_services_response().service()) services.push_back(s.name());
  EXPECT_THAT(services, IsSupersetOf({"waymesh.v1.NavigationService", "grpc.health.v1.Health",
                                      "grpc.reflection.v1.ServerReflection",
                                      "grpc.reflection.v1alpha.ServerReflection"}));

  for (size_t i = 1; i < answers.size(); ++i) {
    EXPECT_FALSE(answers[i].has_error_response()) << answers[i].error_response().error_message();
    EXPECT_THAT(FileNames(answers[i]),
                IsSupersetOf({"waymesh/v1/navigation.proto", "google/rpc/status.proto",
                              "google/protobuf/timestamp.proto", "google/protobuf/any.proto"}))
        << i;
    // The first file is the one asked for; a client builds its imports from the rest.
    google::protobuf::FileDescriptorProto first;
    ASSERT_TRUE(
        first.ParseFromString(answers[i].file_descriptor_response().file_descriptor_proto(0)));
    EXPECT_EQ(first.name(), "waymesh/v1/navigation.proto");
  }
  EXPECT_EQ(answers[1].original_request().file_containing_symbol(), "waymesh.v1.NavigationService");
}

TEST_F(ReflectionV1Test, UnknownNamesAreNotFoundAndTheStreamGoesOn) {
  ServerReflectionRequest no_file;
  no_file.set_file_by_filename("no.such.proto");
  ServerReflectionRequest no_type;
  no_type.set_all_extension_numbers_of_type("no.such.Message");
  ServerReflectionRequest nothing;  // message_request unset
  ServerReflectionRequest extensions;
  extensions.set_all_extension_numbers_of_type("waymesh.v1.Vec3");
  grpc::Status status;
  const std::vector<ServerReflectionResponse> answers =
      Ask({FileContaining("no.such.Service"), no_file, no_type, nothing, extensions}, &status);
  ASSERT_TRUE(status.ok()) << status.error_message();
  ASSERT_EQ(answers.size(), 5u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(answers[i].error_response().error_code(), int(grpc::StatusCode::NOT_FOUND)) << i;
    EXPECT_THAT(answers[i].error_response().error_message(), ::testing::HasSubstr("no.such"));
  }
  EXPECT_EQ(answers[3].error_response().error_code(), int(grpc::StatusCode::INVALID_ARGUMENT));
  EXPECT_EQ(answers[4].all_extension_numbers_response().base_type_name(), "waymesh.v1.Vec3");
  EXPECT_EQ(answers[4].all_extension_numbers_response().extension_number_size(), 0);
}

}  // namespace
}  // namespace waymesh::testing
