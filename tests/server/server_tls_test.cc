// Transport security from the flags: TLS, mutual TLS, and the errors for bad certificate
// files. Certificates are made for each run with the openssl command (short-lived EC keys).

#include <fstream>

#include "child_process.h"
#include "support/demo_town.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "test_server.h"
#include "waymesh/server/server_credentials.h"

namespace waymesh::testing {
namespace {

class ServerTlsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    certs_ = new TempDir();
    ok_ = MakeCa("ca") && MakeLeaf("server", "ca") && MakeLeaf("client", "ca") && MakeCa("rogue") &&
          MakeLeaf("intruder", "rogue");
  }
  static void TearDownTestSuite() { delete certs_; }

  void SetUp() override {
    ASSERT_TRUE(ok_) << "openssl could not make the test certificates";
    maps_.Write("town.wmesh", Town().bytes);
  }

  static std::string Path(const std::string& name) { return certs_->path() + "/" + name; }
  static std::string Read(const std::string& name) { return ReadFileOrEmpty(Path(name)); }
  static std::string ReadFileOrEmpty(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }

  static bool Openssl(const std::vector<std::string>& args) {
    absl::StatusOr<std::string> openssl = FindProgram("openssl");
    if (!openssl.ok()) return false;
    std::vector<std::string> argv = {*openssl};
    argv.insert(argv.end(), args.begin(), args.end());
    std::string output;
    absl::StatusOr<int> code = RunProgram(argv, "", &output);
    if (!code.ok() || *code != 0) ADD_FAILURE() << "openssl failed: " << output;
    return code.ok() && *code == 0;
  }
  static bool MakeCa(const std::string& name) {
    return Openssl({"req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                    "-nodes", "-keyout", Path(name + ".key"), "-out", Path(name + ".pem"), "-days",
                    "2", "-subj", "/CN=waymesh test " + name});
  }
  // A certificate for localhost / 127.0.0.1 signed by `ca`.
  static bool MakeLeaf(const std::string& name, const std::string& ca) {
    std::ofstream(Path("san.ext")) << "subjectAltName=DNS:localhost,IP:127.0.0.1\n";
    return Openssl({"req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                    "-keyout", Path(name + ".key"), "-out", Path(name + ".csr"), "-subj",
                    "/CN=localhost"}) &&
           Openssl({"x509", "-req", "-in", Path(name + ".csr"), "-CA", Path(ca + ".pem"), "-CAkey",
                    Path(ca + ".key"), "-CAcreateserial", "-out", Path(name + ".pem"), "-days", "2",
                    "-extfile", Path("san.ext")});
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

  static TempDir* certs_;
  static bool ok_;
  TempDir maps_;
  std::unique_ptr<server::NavigationServer> server_;
};

TempDir* ServerTlsTest::certs_ = nullptr;
bool ServerTlsTest::ok_ = false;

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
