// Descriptors from a .proto parsed at run time and from a protoset, and the request messages
// built against them from JSON.

#include "child_process.h"
#include "gmock/gmock.h"
#include "google/protobuf/dynamic_message.h"
#include "gtest/gtest.h"
#include "proto_files.h"
#include "scratch_dir.h"
#include "waymesh/loadtest/descriptor_source.h"
#include "waymesh/loadtest/request_builder.h"

namespace waymesh::loadtest {
namespace {

using ::testing::HasSubstr;
using testing::kHealthProto;
using testing::kNavigationProto;
using testing::kProtoRoot;
using testing::ScratchDir;

std::unique_ptr<DescriptorSource> Navigation() {
  auto source = DescriptorSource::FromProto(kNavigationProto, {kProtoRoot});
  EXPECT_TRUE(source.ok()) << source.status();
  return source.ok() ? *std::move(source) : nullptr;
}

TEST(DescriptorSourceTest, FindsMethodsInAProtoParsedAtRunTime) {
  std::unique_ptr<DescriptorSource> source = Navigation();
  ASSERT_NE(source, nullptr);
  for (const char* call :
       {"waymesh.v1.NavigationService.FindPath", "waymesh.v1.NavigationService/FindPath",
        "/waymesh.v1.NavigationService/FindPath"}) {
    auto method = source->FindMethod(call);
    ASSERT_TRUE(method.ok()) << call << ": " << method.status();
    EXPECT_EQ(MethodPath(**method), "/waymesh.v1.NavigationService/FindPath");
    EXPECT_EQ((*method)->input_type()->full_name(), "waymesh.v1.FindPathRequest");
  }
  // Without import paths the file's own directory serves.
  auto alone = DescriptorSource::FromProto(kHealthProto, {});
  ASSERT_TRUE(alone.ok()) << alone.status();
  auto check = (*alone)->FindMethod("grpc.health.v1.Health.Check");
  ASSERT_TRUE(check.ok()) << check.status();
  EXPECT_EQ(MethodPath(**check), "/grpc.health.v1.Health/Check");
  // Watch streams: not a unary call.
  auto watch = (*alone)->FindMethod("grpc.health.v1.Health.Watch");
  ASSERT_FALSE(watch.ok());
  EXPECT_THAT(watch.status().message(), HasSubstr("streaming"));
}

TEST(DescriptorSourceTest, MissingMethodsListWhatThereIs) {
  std::unique_ptr<DescriptorSource> source = Navigation();
  ASSERT_NE(source, nullptr);
  auto no_method = source->FindMethod("waymesh.v1.NavigationService.FlyTo");
  ASSERT_FALSE(no_method.ok());
  EXPECT_EQ(no_method.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(no_method.status().message(), AllOf(HasSubstr("FlyTo"), HasSubstr("FindPath")));
  auto no_service = source->FindMethod("waymesh.v2.Navigation.FindPath");
  ASSERT_FALSE(no_service.ok());
  EXPECT_THAT(no_service.status().message(),
              AllOf(HasSubstr("waymesh.v2.Navigation"), HasSubstr("waymesh.v1.Navigation")));
  EXPECT_FALSE(source->FindMethod("FindPath").ok());
}

TEST(DescriptorSourceTest, ReportsProtoErrorsWithFileAndLine) {
  ScratchDir dir;
  const std::string bad =
      dir.Write("bad.proto", "syntax = \"proto3\";\nmessage M { int32 x = ; }\n");
  auto source = DescriptorSource::FromProto(bad, {});
  ASSERT_FALSE(source.ok());
  EXPECT_THAT(source.status().message(),
              AllOf(HasSubstr("bad.proto:2:"), HasSubstr("import paths")));
  const std::string imports =
      dir.Write("imports.proto", "syntax = \"proto3\";\nimport \"nowhere/else.proto\";\n");
  source = DescriptorSource::FromProto(imports, {});
  ASSERT_FALSE(source.ok());
  EXPECT_THAT(source.status().message(), HasSubstr("nowhere/else.proto"));
  EXPECT_FALSE(DescriptorSource::FromProto(dir.path() + "/missing.proto", {}).ok());
}

TEST(DescriptorSourceTest, ReadsAProtosetMadeByProtoc) {
  absl::StatusOr<std::string> protoc = waymesh::testing::FindProgram("protoc");
  if (!protoc.ok()) GTEST_SKIP() << "no protoc: " << protoc.status();
  ScratchDir dir;
  const std::string protoset = dir.path() + "/navigation.protoset";
  std::string output;
  absl::StatusOr<int> code = waymesh::testing::RunProgram(
      {*protoc, "--include_imports", "--descriptor_set_out=" + protoset, "-I", kProtoRoot,
       kNavigationProto},
      "", &output);
  ASSERT_TRUE(code.ok() && *code == 0) << output;
  auto source = DescriptorSource::FromProtoset(protoset);
  ASSERT_TRUE(source.ok()) << source.status();
  auto method = (*source)->FindMethod("waymesh.v1.NavigationService.ValidateMove");
  ASSERT_TRUE(method.ok()) << method.status();
  EXPECT_EQ(MethodPath(**method), "/waymesh.v1.NavigationService/ValidateMove");

  const std::string junk = dir.Write("junk.protoset", "this is not a descriptor set");
  auto bad = DescriptorSource::FromProtoset(junk);
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(), HasSubstr("FileDescriptorSet"));
}

TEST(RequestBuilderTest, SerializesEachArrayElement) {
  std::unique_ptr<DescriptorSource> source = Navigation();
  ASSERT_NE(source, nullptr);
  const auto* type = (*source->FindMethod("waymesh.v1.NavigationService.FindPath"))->input_type();
  auto requests = BuildRequests(*type, nlohmann::json::parse(R"([
      {"map_id": "demo", "start": {"x": 1, "y": 0, "z": 2}, "end": {"x": 3, "y": 0, "z": 4}},
      {"mapId": "other"}])"));
  ASSERT_TRUE(requests.ok()) << requests.status();
  ASSERT_EQ(requests->size(), 2u);
  // Decode with the same descriptors: the JSON's fields are there.
  google::protobuf::DynamicMessageFactory factory;
  std::unique_ptr<google::protobuf::Message> decoded(factory.GetPrototype(type)->New());
  ASSERT_TRUE(decoded->ParseFromString((*requests)[0]));
  EXPECT_THAT(decoded->ShortDebugString(), AllOf(HasSubstr("map_id: \"demo\""), HasSubstr("z: 4")));
  ASSERT_TRUE(decoded->ParseFromString((*requests)[1]));
  EXPECT_THAT(decoded->ShortDebugString(), HasSubstr("map_id: \"other\""));  // JSON camelCase name

  // One object is one request; no data is one empty request.
  EXPECT_EQ(BuildRequests(*type, nlohmann::json::parse(R"({"map_id": "x"})"))->size(), 1u);
  auto empty = BuildRequests(*type, nullptr);
  ASSERT_TRUE(empty.ok());
  ASSERT_EQ(empty->size(), 1u);
  EXPECT_TRUE(empty->front().empty());
}

TEST(RequestBuilderTest, NamesTheElementThatIsNotTheRequestType) {
  std::unique_ptr<DescriptorSource> source = Navigation();
  ASSERT_NE(source, nullptr);
  const auto* type = (*source->FindMethod("waymesh.v1.NavigationService.FindPath"))->input_type();
  auto unknown_field = BuildRequests(*type, nlohmann::json::parse(R"([{}, {}, {"mapp_id": "x"}])"));
  ASSERT_FALSE(unknown_field.ok());
  EXPECT_THAT(
      unknown_field.status().message(),
      AllOf(HasSubstr("data[2]"), HasSubstr("waymesh.v1.FindPathRequest"), HasSubstr("mapp_id")));
  auto wrong_type = BuildRequests(*type, nlohmann::json::parse(R"([{"start": {"x": "east"}}])"));
  ASSERT_FALSE(wrong_type.ok());
  EXPECT_THAT(wrong_type.status().message(), HasSubstr("data[0]"));
  auto scalar = BuildRequests(*type, nlohmann::json::parse("[{}, 7]"));
  ASSERT_FALSE(scalar.ok());
  EXPECT_THAT(scalar.status().message(), HasSubstr("data[1]"));
}

}  // namespace
}  // namespace waymesh::loadtest
