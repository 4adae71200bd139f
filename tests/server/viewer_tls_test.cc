// The viewer with TLS on (--tls-cert, --tls-key, and --tls-client-ca for mutual TLS): its port
// speaks HTTPS with the gRPC port's certificate, answers exactly what the plain viewer does,
// keeps the bearer-token rule, streams a crowd's events over TLS, refuses plain HTTP without
// wedging, and with a client CA answers only clients that present a certificate from it.

#include <optional>
#include <string>
#include <thread>

#include "absl/cleanup/cleanup.h"
#include "absl/strings/str_cat.h"
#include "crowd_stream.h"
#include "event_stream.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "raw_http.h"
#include "test_certificates.h"
#include "test_server.h"

namespace waymesh::testing {
namespace {

constexpr char kViewerToken[] = "https-viewer-token";

class ViewerTlsTest : public TlsCertificatesTest {
 protected:
  void SetUp() override {
    TlsCertificatesTest::SetUp();
    maps_.Write("town.wmesh", Town().bytes);
  }

  static TlsClientOptions Client(const std::string& name = "") {
    if (name.empty()) return {Path("ca.pem")};
    return {Path("ca.pem"), Path(name + ".pem"), Path(name + ".key")};
  }

  // A server with the viewer on, the token required; TLS on every port when `tls`.
  std::unique_ptr<server::NavigationServer> Serve(bool tls, bool mutual = false) {
    server::ServerConfig config = TestConfig(maps_.path());
    config.ui_port = -1;
    // Any interface is allowed with TLS on (the page is HTTPS); plain stays on loopback.
    config.ui_address = tls ? "0.0.0.0" : "127.0.0.1";
    config.auth_token = kViewerToken;
    if (tls) {
      config.tls_cert = Path("server.pem");
      config.tls_key = Path("server.key");
      if (mutual) config.tls_client_ca = Path("ca.pem");
    }
    return StartServer(config);
  }

  // GET `path` with `token` (when not empty) on a new connection to `port`, over TLS as
  // `client` when set: the status and body, or why there was no answer.
  static absl::StatusOr<int> Get(int port, const std::string& path, const std::string& token,
                                 const std::optional<TlsClientOptions>& client,
                                 std::string* body = nullptr) {
    absl::StatusOr<RawConnection> c =
        client ? RawConnection::OpenTls(port, *client) : RawConnection::Open(port);
    if (!c.ok()) return c.status();
    std::string request = absl::StrCat("GET ", path, " HTTP/1.1\r\nHost: test\r\n");
    if (!token.empty()) absl::StrAppend(&request, "Authorization: Bearer ", token, "\r\n");
    if (!c->Send(request + "\r\n")) return absl::UnavailableError("send failed");
    return c->ReadStatus(absl::Seconds(10), body);
  }

  TempDir maps_;
};

TEST_F(ViewerTlsTest, HttpsAnswersWhatPlainHttpDoesAndAsksForTheToken) {
  std::unique_ptr<server::NavigationServer> https = Serve(true);
  std::unique_ptr<server::NavigationServer> plain = Serve(false);
  ASSERT_NE(https, nullptr);
  ASSERT_NE(plain, nullptr);
  std::string over_tls, over_plain;
  EXPECT_EQ(Get(https->ui_port(), "/api/maps", kViewerToken, Client(), &over_tls).value_or(0), 200);
  EXPECT_EQ(Get(plain->ui_port(), "/api/maps", kViewerToken, std::nullopt, &over_plain).value_or(0),
            200);
  const nlohmann::json maps = nlohmann::json::parse(over_tls, nullptr, false);
  ASSERT_TRUE(maps.is_object()) << over_tls;
  EXPECT_EQ(maps["maps"].size(), 1u);
  EXPECT_EQ(over_tls, over_plain);
  // The token rule holds over HTTPS too, and the page itself loads.
  EXPECT_EQ(Get(https->ui_port(), "/api/maps", "", Client()).value_or(0), 401);
  EXPECT_EQ(Get(https->ui_port(), "/api/maps", "wrong", Client()).value_or(0), 401);
  std::string page;
  EXPECT_EQ(Get(https->ui_port(), "/", "", Client(), &page).value_or(0), 200);
  EXPECT_NE(page.find("<html"), std::string::npos);
}

TEST_F(ViewerTlsTest, PlainHttpAndSilentClientsDoNotWedgeTheViewer) {
  std::unique_ptr<server::NavigationServer> server = Serve(true);
  ASSERT_NE(server, nullptr);
  absl::StatusOr<RawConnection> silent = RawConnection::Open(server->ui_port());
  ASSERT_TRUE(silent.ok());
  // Plain HTTP to the HTTPS port: the handshake fails, no answer (and no crash).
  EXPECT_FALSE(Get(server->ui_port(), "/api/maps", kViewerToken, std::nullopt).ok());
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(Get(server->ui_port(), "/api/maps", kViewerToken, Client()).value_or(0), 200) << i;
  }
}

TEST_F(ViewerTlsTest, MutualTlsRefusesClientsWithoutACertificateFromTheCa) {
  std::unique_ptr<server::NavigationServer> server = Serve(true, /*mutual=*/true);
  ASSERT_NE(server, nullptr);
  EXPECT_EQ(Get(server->ui_port(), "/api/maps", kViewerToken, Client("client")).value_or(0), 200);
  EXPECT_FALSE(Get(server->ui_port(), "/api/maps", kViewerToken, Client()).ok());
  EXPECT_FALSE(Get(server->ui_port(), "/api/maps", kViewerToken, Client("intruder")).ok());
}

TEST_F(ViewerTlsTest, CrowdEventsStreamOverTls) {
  std::unique_ptr<server::NavigationServer> server = Serve(true);
  ASSERT_NE(server, nullptr);
  grpc::SslCredentialsOptions credentials;
  credentials.pem_root_certs = Read("ca.pem");
  // The gRPC port asks for the same token (as "authorization: Bearer" metadata).
  auto crowd = v1::CrowdService::NewStub(grpc::CreateChannel(
      server->target(),
      grpc::CompositeChannelCredentials(grpc::SslCredentials(credentials),
                                        grpc::AccessTokenCredentials(kViewerToken))));
  CrowdStream stream(*crowd);
  ASSERT_TRUE(stream.Send(Open(/*tick_hz=*/20)));
  std::optional<v1::RunCrowdResponse> opened = stream.Read();
  ASSERT_TRUE(opened && opened->has_opened());
  const Scene scene = WestBankScene(2);
  for (uint32_t i = 0; i < 2; ++i) {
    ASSERT_TRUE(stream.Send(Add(10 + i, i + 1, scene.spawns[i])));
    ASSERT_TRUE(stream.Send(Target(20 + i, i + 1, scene.goal)));
  }
  std::thread reader([&] {
    while (stream.Read()) {
    }
  });
  absl::Cleanup stop_reader = [&] {
    stream.Cancel();
    if (reader.joinable()) reader.join();
  };
  std::string list;
  ASSERT_EQ(Get(server->ui_port(), "/api/crowds", kViewerToken, Client(), &list).value_or(0), 200);
  const nlohmann::json crowds = nlohmann::json::parse(list, nullptr, false)["crowds"];
  ASSERT_EQ(crowds.size(), 1u) << list;
  const uint64_t session = crowds[0]["session"].get<uint64_t>();

  EventStream events;
  const TlsClientOptions client = Client();
  ASSERT_EQ(events.Open(server->ui_port(), absl::StrCat("/api/crowds/", session, "/events"),
                        kViewerToken, &client),
            200);
  uint64_t last_tick = 0;
  for (int frames = 0; frames < 6; ++frames) {
    const nlohmann::json frame = events.Next();
    ASSERT_TRUE(frame.is_object()) << "frame " << frames;
    EXPECT_EQ(frame["session"], session);
    const uint64_t tick = frame["tick"].get<uint64_t>();
    if (frames > 0) {
      EXPECT_GT(tick, last_tick);
    }
    last_tick = tick;
  }
  // The session ends: "end", then the response ends with TLS's close_notify.
  stream.Cancel();
  reader.join();
  std::string name;
  nlohmann::json end = events.Next(&name);
  while (end.is_object() && name.empty()) end = events.Next(&name);
  EXPECT_EQ(name, "end");
  EXPECT_TRUE(events.ClosedWithin(absl::Seconds(5)));
  EXPECT_TRUE(events.clean_close());
}

}  // namespace
}  // namespace waymesh::testing
