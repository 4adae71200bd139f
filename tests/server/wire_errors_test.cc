// Requests that do not parse and responses that do not fit, over real TCP: both are answered
// by the service (INVALID_ARGUMENT naming the message type, RESOURCE_EXHAUSTED naming the
// limit) and counted in grpc_server_handled_total with the code the client saw; and under
// concurrent calls a scrape never shows more calls handled than started.

#include <filesystem>
#include <future>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "exposition_parser.h"
#include "gmock/gmock.h"
#include "grpcpp/generic/generic_stub.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "server_process.h"
#include "support/demo_town.h"
#include "test_server.h"

namespace waymesh::testing {
namespace {

using ::testing::HasSubstr;

// handled_total of `method` with `code` ("InvalidArgument", ...), or -1 when absent.
double Handled(server::NavigationServer& server, const std::string& method,
               const std::string& code) {
  absl::StatusOr<Exposition> parsed = ParseExposition(server.metrics().Render());
  EXPECT_TRUE(parsed.ok()) << parsed.status();
  if (!parsed.ok()) return -1;
  return FindSample(*parsed, "grpc_server_handled_total",
                    {{"grpc_method", method}, {"grpc_code", code}})
      .value_or(-1);
}

// Sends `bytes` as the request of /waymesh.v1.NavigationService/<method> and returns the status.
grpc::Status SendRaw(const std::shared_ptr<grpc::Channel>& channel, const std::string& method,
                     const std::string& bytes) {
  grpc::GenericStub stub(channel);
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  grpc::Slice slice(bytes);
  grpc::ByteBuffer request(&slice, 1);
  grpc::ByteBuffer response;
  std::promise<grpc::Status> done;
  stub.UnaryCall(&ctx, "/waymesh.v1.NavigationService/" + method, grpc::StubOptions(), &request,
                 &response, [&done](grpc::Status status) { done.set_value(status); });
  return done.get_future().get();
}

class WireErrorsTest : public ::testing::Test {
 protected:
  void SetUp() override { maps_.Write("town.wmesh", Town().bytes); }
  TempDir maps_;
};

TEST_F(WireErrorsTest, UnparseableRequestsAreInvalidArgumentAndCounted) {
  std::unique_ptr<server::NavigationServer> server = StartServer(TestConfig(maps_.path()));
  ASSERT_NE(server, nullptr);
  const auto channel = Dial(*server);
  // map_id is field 1 (length-delimited): a string that is not UTF-8, which proto3 refuses.
  const std::string not_utf8 = std::string("\x0a\x02\xff\xfe", 4);
  const std::string truncated_varint = std::string("\x18\x80", 2);
  const std::string garbage = std::string("\xff\xff\xff\xff\x0f", 5);
  for (const std::string& bytes : {not_utf8, truncated_varint, garbage}) {
    const grpc::Status status = SendRaw(channel, "FindPath", bytes);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << status.error_message();
    EXPECT_THAT(status.error_message(), HasSubstr("waymesh.v1.FindPathRequest"));
  }
  EXPECT_EQ(SendRaw(channel, "GetMapInfo", garbage).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(Handled(*server, "FindPath", "InvalidArgument"), 3);
  EXPECT_EQ(Handled(*server, "GetMapInfo", "InvalidArgument"), 1);
  // A well-formed request still goes through on the same connection.
  v1::FindPathResponse response;
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  EXPECT_TRUE(
      v1::NavigationService::NewStub(channel)->FindPath(&ctx, BankToBankRequest(), &response).ok());
}

TEST_F(WireErrorsTest, AResponseOverTheLimitIsResourceExhaustedAndCountedSo) {
  v1::FindPathBatchRequest batch;
  for (int i = 0; i < 200; ++i) *batch.add_requests() = BankToBankRequest();
  auto call = [&](server::NavigationServer& server, v1::FindPathBatchResponse* response) {
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    return v1::NavigationService::NewStub(Dial(server))->FindPathBatch(&ctx, batch, response);
  };
  // The answer's size under the default limit, then a limit between request and answer.
  v1::FindPathBatchResponse full;
  {
    std::unique_ptr<server::NavigationServer> server = StartServer(TestConfig(maps_.path()));
    ASSERT_NE(server, nullptr);
    ASSERT_TRUE(call(*server, &full).ok());
  }
  ASSERT_GT(full.ByteSizeLong(), 2 * batch.ByteSizeLong()) << "paths are larger than requests";
  server::ServerConfig config = TestConfig(maps_.path());
  config.max_message_bytes = int(batch.ByteSizeLong() + full.ByteSizeLong()) / 2;
  std::unique_ptr<server::NavigationServer> server = StartServer(config);
  ASSERT_NE(server, nullptr);
  v1::FindPathBatchResponse response;
  const grpc::Status status = call(*server, &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << status.error_message();
  EXPECT_THAT(status.error_message(), HasSubstr("--max-message-bytes"));
  EXPECT_EQ(Handled(*server, "FindPathBatch", "ResourceExhausted"), 1);
  EXPECT_EQ(Handled(*server, "FindPathBatch", "OK"), 0);
}

TEST_F(WireErrorsTest, AScrapeNeverCountsMoreCallsHandledThanStarted) {
  std::unique_ptr<server::NavigationServer> server = StartServer(TestConfig(maps_.path()));
  ASSERT_NE(server, nullptr);
  std::atomic<bool> stop{false};
  std::vector<std::thread> callers;
  for (int t = 0; t < 4; ++t) {
    callers.emplace_back([&, channel = Dial(*server)] {
      auto stub = v1::NavigationService::NewStub(channel);
      for (int i = 0; i < 100000 && !stop; ++i) {
        grpc::ClientContext ctx;
        SetDeadline(&ctx);
        v1::ListMapsResponse response;
        (void)stub->ListMaps(&ctx, v1::ListMapsRequest(), &response);
      }
    });
  }
  // Scrape for a few seconds whatever the build's speed: Release gets hundreds of scrapes in,
  // TSan a dozen (a fixed 300 took it two minutes), each racing four callers.
  const absl::Time until = absl::Now() + absl::Seconds(3);
  for (int scrapes = 0; scrapes < 300 && (scrapes < 10 || absl::Now() < until); ++scrapes) {
    absl::StatusOr<Exposition> parsed = ParseExposition(server->metrics().Render());
    ASSERT_TRUE(parsed.ok()) << parsed.status();
    double started = 0, handled = 0;
    for (const ExpositionSample& s : parsed->samples) {
      const bool list_maps = std::find(s.labels.begin(), s.labels.end(),
                                       std::pair<std::string, std::string>(
                                           "grpc_method", "ListMaps")) != s.labels.end();
      if (!list_maps) continue;
      if (s.name == "grpc_server_started_total") started += s.value;
      if (s.name == "grpc_server_handled_total") handled += s.value;
    }
    ASSERT_GE(started, handled) << "scrape " << scrapes;
  }
  stop = true;
  for (std::thread& t : callers) t.join();
  EXPECT_GT(Handled(*server, "ListMaps", "OK"), 0);
}

TEST_F(WireErrorsTest, LibprotobufComplaintsStayInsideJsonLogs) {
  std::filesystem::create_directories(maps_.path() + "/work");
  auto server = ServerProcess::Start(maps_.path(), maps_.path() + "/work", {"--log-format=json"});
  ASSERT_TRUE(server.ok()) << server.status();
  const auto channel = grpc::CreateChannel((*server)->target(), grpc::InsecureChannelCredentials());
  EXPECT_EQ(SendRaw(channel, "FindPath", std::string("\x0a\x02\xff\xfe", 4)).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ((*server)->process().Stop(), 0);
  const std::string log = (*server)->process().Log();
  bool saw_protobuf = false;
  for (absl::string_view line : absl::StrSplit(log, '\n', absl::SkipEmpty())) {
    const auto parsed = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
    ASSERT_FALSE(parsed.is_discarded()) << "not a JSON log line: " << line;
    saw_protobuf |= parsed["msg"].get<std::string>().find("invalid UTF-8") != std::string::npos;
  }
  EXPECT_TRUE(saw_protobuf) << log;
}

}  // namespace
}  // namespace waymesh::testing
