// Transport security from the flags: TLS, mutual TLS, and the errors for bad certificate
// files. Certificates are made for each run with the openssl command (short-lived EC keys).

#include <fstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "child_process.h"
#include "gmock/gmock.h"
#include "grpc/health/v1/health.grpc.pb.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "server_process.h"
#include "support/demo_town.h"
#include "test_certificates.h"
#include "test_server.h"
#include "waymesh/server/server_credentials.h"

namespace waymesh::testing {
namespace {

class ServerTlsTest : public TlsCertificatesTest {
 protected:
  void SetUp() override {
    TlsCertificatesTest::SetUp();
    maps_.Write("town.wmesh", Town().bytes);
  }

  // A FindPath over a channel with `credentials`; the status only.
  grpc::Status CallWith(const std::shared_ptr<grpc::ChannelCredentials>& credentials) {
    auto stub = v1::NavigationService::NewStub(grpc::CreateChannel(server_->target(), credentials));
    grpc::ClientContext ctx;
    SetDeadline(&ctx, absl::Seconds(10));
    v1::FindPathResponse response;
    return stub->FindPath(&ctx, BankToBankRequest(), &response);
  }

  std::shared_ptr<grpc::ChannelCredentials> Tls(const std::string& client = "") {
    grpc::SslCredentialsOptions options;
    options.pem_root_certs = Read("ca.pem");
    if (!client.empty()) {
      options.pem_cert_chain = Read(client + ".pem");
      options.pem_private_key = Read(client + ".key");
    }
    return grpc::SslCredentials(options);
  }

  TempDir maps_;
  std::unique_ptr<server::NavigationServer> server_;
};

TEST_F(ServerTlsTest, TlsServesTlsClientsOnly) {
  server::ServerConfig config = TestConfig(maps_.path());
  config.tls_cert = Path("server.pem");
  config.tls_key = Path("server.key");
  server_ = StartServer(config);
  ASSERT_NE(server_, nullptr);
  EXPECT_TRUE(CallWith(Tls()).ok());
  EXPECT_EQ(CallWith(grpc::InsecureChannelCredentials()).error_code(),
            grpc::StatusCode::UNAVAILABLE);
}

TEST_F(ServerTlsTest, MutualTlsNeedsAClientCertificateFromTheCa) {
  server::ServerConfig config = TestConfig(maps_.path());
  config.tls_cert = Path("server.pem");
  config.tls_key = Path("server.key");
  config.tls_client_ca = Path("ca.pem");
  server_ = StartServer(config);
  ASSERT_NE(server_, nullptr);
  const grpc::Status with_cert = CallWith(Tls("client"));
  EXPECT_TRUE(with_cert.ok()) << with_cert.error_message();
  EXPECT_EQ(CallWith(Tls()).error_code(), grpc::StatusCode::UNAVAILABLE);
  EXPECT_EQ(CallWith(Tls("intruder")).error_code(), grpc::StatusCode::UNAVAILABLE);
}

// Health status of `service` as its name, or "error <code>".
std::string PlaintextHealth(const std::shared_ptr<grpc::Channel>& channel,
                            const std::string& service) {
  const auto status = CheckHealth(channel, service);
  if (!status.ok()) return absl::StrCat("error ", static_cast<int>(status.status().code()));
  return grpc::health::v1::HealthCheckResponse::ServingStatus_Name(*status);
}

// Kubernetes' grpc probes speak plaintext only: with TLS on, they ask the --health-port.
TEST_F(ServerTlsTest, HealthPortAnswersPlaintextProbesWhileTheApiNeedsTls) {
  server::ServerConfig config = TestConfig(maps_.path());
  config.tls_cert = Path("server.pem");
  config.tls_key = Path("server.key");
  config.tls_client_ca = Path("ca.pem");  // even with mutual TLS on the API port
  config.health_port = 0;
  server_ = StartServer(config);
  ASSERT_NE(server_, nullptr);
  ASSERT_GT(server_->health_port(), 0);
  ASSERT_NE(server_->health_port(), server_->port());
  auto probe = grpc::CreateChannel(absl::StrCat("127.0.0.1:", server_->health_port()),
                                   grpc::InsecureChannelCredentials());
  EXPECT_EQ(PlaintextHealth(probe, ""), "SERVING");
  EXPECT_EQ(PlaintextHealth(probe, server::kNavigationHealthService), "SERVING");
  // The API port still refuses plaintext, and answers TLS with a client certificate.
  auto plaintext_api = grpc::CreateChannel(server_->target(), grpc::InsecureChannelCredentials());
  EXPECT_EQ(PlaintextHealth(plaintext_api, ""),
            absl::StrCat("error ", grpc::StatusCode::UNAVAILABLE));
  EXPECT_TRUE(CallWith(Tls("client")).ok());
  // The health port serves health only: no navigation service, no reflection.
  auto stub = v1::NavigationService::NewStub(probe);
  grpc::ClientContext ctx;
  SetDeadline(&ctx, absl::Seconds(10));
  v1::FindPathResponse response;
  EXPECT_EQ(stub->FindPath(&ctx, BankToBankRequest(), &response).error_code(),
            grpc::StatusCode::UNIMPLEMENTED);
  EXPECT_EQ(ReflectionListServices(probe).status().code(), absl::StatusCode::kUnimplemented);
  // Draining turns the probe port NOT_SERVING too, so the pod leaves the endpoints.
  server_->BeginDrain();
  EXPECT_EQ(PlaintextHealth(probe, ""), "NOT_SERVING");
  EXPECT_EQ(PlaintextHealth(probe, server::kNavigationHealthService), "NOT_SERVING");
}

// gRPC's own log lines (here: the failed TLS handshake of a plaintext client) go through the
// server's logger, so with --log-format=json every line on stderr is one JSON object.
TEST_F(ServerTlsTest, HandshakeFailuresAreLoggedAsJsonLines) {
  TempDir work;
  absl::StatusOr<std::unique_ptr<ServerProcess>> server = ServerProcess::Start(
      maps_.path(), work.path(),
      {"--tls-cert=" + Path("server.pem"), "--tls-key=" + Path("server.key"), "--log-format=json"});
  ASSERT_TRUE(server.ok()) << server.status();
  auto plaintext = grpc::CreateChannel((*server)->target(), grpc::InsecureChannelCredentials());
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(PlaintextHealth(plaintext, ""),
              absl::StrCat("error ", grpc::StatusCode::UNAVAILABLE));
  }
  ASSERT_EQ((*server)->process().Stop(), 0) << (*server)->process().Log();
  const std::string log = (*server)->process().Log();
  int lines = 0, grpc_lines = 0;
  for (absl::string_view line : absl::StrSplit(log, '\n', absl::SkipEmpty())) {
    ++lines;
    const auto parsed = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
    ASSERT_TRUE(parsed.is_object()) << "not a JSON log line: " << line;
    EXPECT_TRUE(parsed.contains("level") && parsed.contains("msg")) << line;
    const std::string msg = parsed.value("msg", "");
    if (msg.rfind("grpc ", 0) == 0 && msg.find("andshake") != std::string::npos) ++grpc_lines;
  }
  EXPECT_GE(lines, 3);  // serving, gRPC's handshake errors, stopped
  // The handshake failures were logged (by gRPC) at all, else this test proves nothing.
  EXPECT_GE(grpc_lines, 1) << log;
}

TEST_F(ServerTlsTest, BadCertificateFilesAreClearErrors) {
  absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> missing =
      server::MakeServerCredentials({Path("nope.pem"), Path("server.key"), ""});
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(missing.status().message()), ::testing::HasSubstr("--tls-cert"));
  std::ofstream(Path("garbage.pem")) << "not a certificate";
  absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> garbage =
      server::MakeServerCredentials({Path("server.pem"), Path("server.key"), Path("garbage.pem")});
  EXPECT_EQ(garbage.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(garbage.status().message()), ::testing::HasSubstr("--tls-client-ca"));
  EXPECT_TRUE(server::MakeServerCredentials({"", "", ""}).ok());  // plaintext
}

}  // namespace
}  // namespace waymesh::testing
