// HTTPS on the bounded HTTP server over real loopback sockets: keep-alive and pipelined
// requests (bytes OpenSSL decrypted ahead, which socket readiness cannot show), a streamed
// answer that ends with TLS's close_notify, plain HTTP and silent clients cut without
// wedging the loop, handshakes evictable like idle connections, mutual TLS, and clear errors
// for bad certificate files.

#include "waymesh/server/http_tls.h"

#include <gtest/gtest.h>

#include <fstream>
#include <future>
#include <thread>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "raw_http.h"
#include "test_certificates.h"
#include "waymesh/server/http_server.h"

namespace waymesh::server {
namespace {

using testing::GetRequest;
using testing::RawConnection;
using testing::TlsClientOptions;

class HttpTlsTest : public testing::TlsCertificatesTest {
 protected:
  // A client trusting the test CA, presenting certificate `name` when not empty.
  static TlsClientOptions Client(const std::string& name = "") {
    TlsClientOptions options{Path("ca.pem")};
    if (!name.empty()) options = {Path("ca.pem"), Path(name + ".pem"), Path(name + ".key")};
    return options;
  }

  // An HTTPS server: /echo answers "echo <query>", /stream a stream the test feeds.
  void Start(HttpLimits limits = {}, bool mutual = false) {
    absl::StatusOr<std::shared_ptr<const HttpTls>> tls = HttpTls::Load(
        {Path("server.pem"), Path("server.key"), mutual ? Path("ca.pem") : std::string()});
    ASSERT_TRUE(tls.ok()) << tls.status();
    EXPECT_EQ((*tls)->mutual(), mutual);
    HttpServerOptions options{.address = "127.0.0.1", .limits = limits, .tls = *tls};
    std::map<std::string, HttpRoute> routes;
    routes["/echo"] = SyncRoute("GET", [](const HttpRequest& r) {
      return HttpResponse{200, "text/plain", "echo " + r.query};
    });
    routes["/stream"] = {"GET", [this](HttpRequest, HttpResponder respond) {
                           auto stream = std::make_shared<HttpStream>(HttpStreamOptions{});
                           stream_.set_value(stream);  // the test asks for one stream only
                           respond({200, "text/event-stream", ": hello\n\n", {}, stream});
                         }};
    absl::StatusOr<std::unique_ptr<HttpServer>> server = HttpServer::Start(options, routes);
    ASSERT_TRUE(server.ok()) << server.status();
    server_ = *std::move(server);
  }

  // GET `target` over a new HTTPS connection: the status, or why there was none.
  absl::StatusOr<int> Get(const std::string& target, const TlsClientOptions& client,
                          std::string* body = nullptr) {
    absl::StatusOr<RawConnection> c = RawConnection::OpenTls(server_->port(), client);
    if (!c.ok()) return c.status();
    if (!c->Send(GetRequest(target))) return absl::UnavailableError("send failed");
    return c->ReadStatus(absl::Seconds(5), body);
  }

  // The stream of the /stream request, waiting up to 5 s for it.
  std::shared_ptr<HttpStream> stream() {
    std::future<std::shared_ptr<HttpStream>> made = stream_.get_future();
    if (made.wait_for(std::chrono::seconds(5)) != std::future_status::ready) return nullptr;
    return made.get();
  }

  std::promise<std::shared_ptr<HttpStream>> stream_;
  std::unique_ptr<HttpServer> server_;  // stopped first: its handlers use stream_
};

TEST_F(HttpTlsTest, KeepAliveAndPipelinedRequestsAreAnswered) {
  Start();
  absl::StatusOr<RawConnection> c = RawConnection::OpenTls(server_->port(), Client());
  ASSERT_TRUE(c.ok()) << c.status();
  std::string body;
  ASSERT_TRUE(c->Send(GetRequest("/echo?one")));
  EXPECT_EQ(c->ReadStatus(absl::Seconds(5), &body).value_or(0), 200);
  EXPECT_EQ(body, "echo one");
  // Three requests, each its own TLS record, in one TCP segment: the server's TLS layer reads
  // them at once but decrypts a record at a time, so the second and third wait inside it where
  // socket readiness cannot see them: the server must not wait for the socket to turn
  // readable again.
  ASSERT_TRUE(
      c->SendTogether({GetRequest("/echo?a"), GetRequest("/echo?b"), GetRequest("/echo?c")}));
  for (const char* expected : {"echo a", "echo b", "echo c"}) {
    EXPECT_EQ(c->ReadStatus(absl::Seconds(5), &body).value_or(0), 200);
    EXPECT_EQ(body, expected);
  }
  EXPECT_EQ(server_->stats().requests, 4u);
  EXPECT_EQ(server_->stats().failed_handshakes, 0u);
}

TEST_F(HttpTlsTest, StreamedAnswerEndsWithCloseNotify) {
  Start();
  absl::StatusOr<RawConnection> c = RawConnection::OpenTls(server_->port(), Client());
  ASSERT_TRUE(c.ok()) << c.status();
  ASSERT_TRUE(c->Send(GetRequest("/stream")));
  ASSERT_EQ(c->ReadStatus().value_or(0), 200);
  std::shared_ptr<HttpStream> s = stream();
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(c->ReadUntil("\n\n").value_or(""), ": hello");
  for (int i = 0; i < 20; ++i) s->Send(absl::StrCat("data: ", i, "\n\n"));
  for (int i = 0; i < 20; ++i)
    EXPECT_EQ(c->ReadUntil("\n\n").value_or(""), absl::StrCat("data: ", i));
  EXPECT_EQ(server_->stats().open_streams, 1);
  s->Close();
  EXPECT_TRUE(c->ClosedWithin(absl::Seconds(3)));
  // The body ends with the connection: close_notify tells the client it was not cut short.
  EXPECT_TRUE(c->clean_close());
}

// The answers after which the server closes (an error, "Connection: close") end the TLS
// session properly too, while the server lingers to let the client read them.
TEST_F(HttpTlsTest, ClosingAnswersEndWithCloseNotify) {
  HttpLimits limits;
  limits.max_header_bytes = 1024;
  Start(limits);
  absl::StatusOr<RawConnection> c = RawConnection::OpenTls(server_->port(), Client());
  ASSERT_TRUE(c.ok()) << c.status();
  ASSERT_TRUE(c->Send("GET /echo?bye HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n"));
  std::string body;
  EXPECT_EQ(c->ReadStatus(absl::Seconds(5), &body).value_or(0), 200);
  EXPECT_EQ(body, "echo bye");
  EXPECT_TRUE(c->ClosedWithin(absl::Seconds(3)));
  EXPECT_TRUE(c->clean_close());

  absl::StatusOr<RawConnection> big = RawConnection::OpenTls(server_->port(), Client());
  ASSERT_TRUE(big.ok()) << big.status();
  ASSERT_TRUE(
      big->Send(absl::StrCat("GET /echo HTTP/1.1\r\nX-Big: ", std::string(2000, 'x'), "\r\n\r\n")));
  EXPECT_EQ(big->ReadStatus().value_or(0), 431);
  EXPECT_TRUE(big->ClosedWithin(absl::Seconds(3)));
  EXPECT_TRUE(big->clean_close());
  EXPECT_EQ(server_->stats().refused_too_large, 1u);
}

TEST_F(HttpTlsTest, PlainHttpAndSilentClientsAreCutWithoutWedgingTheServer) {
  HttpLimits limits;
  limits.request_timeout = absl::Milliseconds(1500);  // for the handshake too
  Start(limits);
  absl::StatusOr<RawConnection> silent = RawConnection::Open(server_->port());
  ASSERT_TRUE(silent.ok());
  absl::StatusOr<RawConnection> plain = RawConnection::Open(server_->port());
  ASSERT_TRUE(plain.ok());
  ASSERT_TRUE(plain->Send(GetRequest("/echo?plain")));
  // A plain request is not a TLS hello: no answer, the connection closes.
  EXPECT_FALSE(plain->ReadStatus(absl::Seconds(3)).ok());
  // The silent one still holds its socket; HTTPS clients are served meanwhile.
  std::string body;
  EXPECT_EQ(Get("/echo?tls", Client(), &body).value_or(0), 200);
  EXPECT_EQ(body, "echo tls");
  EXPECT_EQ(server_->stats().failed_handshakes, 1u);
  // The silent one is cut by the request timeout.
  EXPECT_TRUE(silent->ClosedWithin(absl::Seconds(5)));
  EXPECT_EQ(server_->stats().refused_timeout, 1u);
  EXPECT_EQ(Get("/echo?again", Client()).value_or(0), 200);
}

TEST_F(HttpTlsTest, ConnectionsWaitingForTheirHandshakeMakeRoomForNewcomers) {
  HttpLimits limits;
  limits.max_connections = 2;
  Start(limits);
  std::vector<RawConnection> silent;
  for (int i = 0; i < 2; ++i) {
    absl::StatusOr<RawConnection> c = RawConnection::Open(server_->port());
    ASSERT_TRUE(c.ok());
    silent.push_back(*std::move(c));
  }
  // Full of connections that never said hello: the newcomer takes the oldest one's place.
  for (int i = 0; i < 3; ++i) EXPECT_EQ(Get("/echo", Client()).value_or(0), 200) << i;
  EXPECT_GE(server_->stats().evicted_idle, 1u);
  EXPECT_TRUE(silent[0].ClosedWithin(absl::Seconds(3)));
}

TEST_F(HttpTlsTest, MutualTlsAnswersOnlyClientsWithACertificateFromTheCa) {
  Start({}, /*mutual=*/true);
  std::string body;
  EXPECT_EQ(Get("/echo?ok", Client("client"), &body).value_or(0), 200);
  EXPECT_EQ(body, "echo ok");
  // Without a certificate, or with one another CA signed: the handshake fails (under TLS 1.3
  // the client learns it on its first read), never an answer.
  EXPECT_FALSE(Get("/echo", Client()).ok());
  EXPECT_FALSE(Get("/echo", Client("intruder")).ok());
  // The client can read the server's alert before the server's loop has counted the failure.
  for (int i = 0; i < 500 && server_->stats().failed_handshakes < 2; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_EQ(server_->stats().failed_handshakes, 2u);
  EXPECT_EQ(server_->stats().requests, 1u);
}

TEST_F(HttpTlsTest, BadCertificateFilesAreClearErrors) {
  auto message_of = [](const absl::StatusOr<std::shared_ptr<const HttpTls>>& tls) {
    return std::string(tls.status().message());
  };
  auto missing = HttpTls::Load({Path("nope.pem"), Path("server.key"), ""});
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound);
  EXPECT_TRUE(absl::StartsWith(message_of(missing), "--tls-cert: ")) << missing.status();
  // A key is PEM, but not a certificate.
  auto key_as_cert = HttpTls::Load({Path("server.key"), Path("server.key"), ""});
  EXPECT_EQ(key_as_cert.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StartsWith(message_of(key_as_cert), "--tls-cert: ")) << key_as_cert.status();
  auto mismatch = HttpTls::Load({Path("server.pem"), Path("client.key"), ""});
  EXPECT_EQ(mismatch.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StartsWith(message_of(mismatch), "--tls-key: ")) << mismatch.status();
  EXPECT_TRUE(absl::StrContains(message_of(mismatch), Path("client.key")));
  std::ofstream(Path("not-pem.txt")) << "not a certificate";
  auto garbage = HttpTls::Load({Path("server.pem"), Path("server.key"), Path("not-pem.txt")});
  EXPECT_EQ(garbage.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StartsWith(message_of(garbage), "--tls-client-ca: ")) << garbage.status();
  EXPECT_TRUE(HttpTls::Load({Path("server.pem"), Path("server.key"), Path("ca.pem")}).ok());
}

}  // namespace
}  // namespace waymesh::server
