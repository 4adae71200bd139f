// The bounded HTTP server over real loopback sockets, misbehaving on purpose: oversized
// headers and bodies, trickled requests, idle connections past the cap, a client that never
// reads. Every refusal has its status (431, 413, 408, 503) and none of them stops the server
// from answering a well-behaved client.

#include "waymesh/server/http_server.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "raw_http.h"

namespace waymesh::server {
namespace {

using testing::GetRequest;
using testing::RawConnection;

// Limits small enough for a test to cross quickly.
HttpLimits TestLimits() {
  HttpLimits limits;
  limits.max_header_bytes = 1024;
  limits.max_body_bytes = 4096;
  limits.idle_timeout = absl::Milliseconds(500);
  limits.request_timeout = absl::Milliseconds(300);
  limits.write_timeout = absl::Seconds(2);
  limits.max_connections = 4;
  return limits;
}

std::unique_ptr<HttpServer> StartTestServer(HttpLimits limits = TestLimits(),
                                            size_t big_bytes = 1 << 20) {
  HttpServerOptions options;
  options.address = "127.0.0.1";
  options.limits = limits;
  std::map<std::string, HttpHandler> routes;
  routes["/hello"] = [](const HttpRequest& r) {
    return HttpResponse{200, "text/plain", absl::StrCat("hello ", r.query, "\n")};
  };
  routes["/big"] = [big_bytes](const HttpRequest&) {
    return HttpResponse{200, "text/plain", std::string(big_bytes, 'x')};
  };
  auto server = HttpServer::Start(options, std::move(routes));
  EXPECT_TRUE(server.ok()) << server.status();
  return server.ok() ? *std::move(server) : nullptr;
}

// The status code of a response, or -1 (failing the test) when there was none.
int Code(const absl::StatusOr<int>& status) {
  EXPECT_TRUE(status.ok()) << status.status();
  return status.value_or(-1);
}

RawConnection Connect(const HttpServer& server, int receive_buffer = 0) {
  auto c = RawConnection::Open(server.port(), receive_buffer);
  EXPECT_TRUE(c.ok()) << c.status();
  return *std::move(c);
}

// A fresh connection's answer to GET `path`.
int Get(const HttpServer& server, const std::string& path, std::string* body = nullptr) {
  RawConnection c = Connect(server);
  EXPECT_TRUE(c.Send(GetRequest(path)));
  absl::StatusOr<int> status = c.ReadStatus(absl::Seconds(5), body);
  EXPECT_TRUE(status.ok()) << status.status();
  return status.ok() ? *status : -1;
}

TEST(HttpServerTest, AnswersRoutesKeepsConnectionsAliveAndRefusesOtherMethods) {
  std::unique_ptr<HttpServer> server = StartTestServer();
  ASSERT_NE(server, nullptr);
  std::string body;
  EXPECT_EQ(Get(*server, "/hello?who=you", &body), 200);
  EXPECT_EQ(body, "hello who=you\n");
  EXPECT_EQ(Get(*server, "/nothing"), 404);

  RawConnection c = Connect(*server);
  // Two requests in one segment (pipelined), then a third on the same connection.
  ASSERT_TRUE(c.Send(GetRequest("/hello?1") + GetRequest("/hello?2")));
  EXPECT_EQ(Code(c.ReadStatus(absl::Seconds(5), &body)), 200);
  EXPECT_EQ(body, "hello 1\n");
  EXPECT_EQ(Code(c.ReadStatus(absl::Seconds(5), &body)), 200);
  EXPECT_EQ(body, "hello 2\n");
  ASSERT_TRUE(c.Send("HEAD /hello HTTP/1.1\r\nHost: t\r\n\r\n"));
  EXPECT_EQ(Code(c.ReadStatus(absl::Seconds(5), &body, /*head_request=*/true)), 200);
  ASSERT_TRUE(c.Send(GetRequest("/hello?3")));
  EXPECT_EQ(Code(c.ReadStatus(absl::Seconds(5), &body)), 200);
  EXPECT_EQ(body, "hello 3\n") << "the HEAD answer carried a body";
  ASSERT_TRUE(c.Send("POST /hello HTTP/1.1\r\nHost: t\r\nContent-Length: 3\r\n\r\nabc"));
  EXPECT_EQ(Code(c.ReadStatus()), 405);
  EXPECT_EQ(server->stats().requests, 7u);
}

TEST(HttpServerTest, AsynchronousPostRoutesAnswerFromAnotherThread) {
  HttpServerOptions options;
  options.address = "127.0.0.1";
  options.limits = TestLimits();
  std::vector<std::thread> answerers;
  std::map<std::string, HttpRoute> routes;
  // Answers later, from a thread of its own: the body and the Authorization header echoed.
  routes["/echo"] = {
      "POST", [&answerers](HttpRequest r, HttpResponder respond) {
        answerers.emplace_back([r = std::move(r), respond = std::move(respond)] {
          std::this_thread::sleep_for(std::chrono::milliseconds(50));
          respond(
              {201, "text/plain", absl::StrCat(r.body, "|", r.authorization), {{"X-Echo", "yes"}}});
        });
      }};
  auto server = HttpServer::Start(options, std::move(routes));
  ASSERT_TRUE(server.ok()) << server.status();
  RawConnection c = Connect(**server);
  std::string body;
  ASSERT_TRUE(
      c.Send("POST /echo HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer k\r\n"
             "Content-Length: 3\r\n\r\nabc"));
  EXPECT_EQ(Code(c.ReadStatus(absl::Seconds(5), &body)), 201);
  EXPECT_EQ(body, "abc|Bearer k");
  // The same connection goes on; a GET of a POST route is refused, naming the method.
  ASSERT_TRUE(c.Send(GetRequest("/echo")));
  EXPECT_EQ(Code(c.ReadStatus(absl::Seconds(5), &body)), 405);
  EXPECT_EQ(body, "only POST\n");
  (*server)->Stop();
  for (std::thread& t : answerers) t.join();
}

TEST(HttpServerTest, OversizedHeadersAndBodiesAreRefusedWithoutReadingThem) {
  std::unique_ptr<HttpServer> server = StartTestServer();
  ASSERT_NE(server, nullptr);
  {
    RawConnection c = Connect(*server);
    ASSERT_TRUE(c.Send(
        absl::StrCat("GET /hello HTTP/1.1\r\nX-Junk: ", std::string(2000, 'j'), "\r\n\r\n")));
    EXPECT_EQ(Code(c.ReadStatus()), 431);
    EXPECT_TRUE(c.ClosedWithin(absl::Seconds(3)));
  }
  {
    // The declared length alone is refused: the answer comes before any of the body is sent.
    RawConnection c = Connect(*server);
    ASSERT_TRUE(c.Send("POST /hello HTTP/1.1\r\nHost: t\r\nContent-Length: 300000000\r\n\r\n"));
    EXPECT_EQ(Code(c.ReadStatus()), 413);
  }
  {
    // A chunked body has no declared length: refused once it passes the limit.
    RawConnection c = Connect(*server);
    ASSERT_TRUE(c.Send("POST /hello HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n"));
    const std::string chunk = absl::StrCat("400\r\n", std::string(1024, 'b'), "\r\n");
    bool sent = true;
    for (int i = 0; i < 8 && sent; ++i) sent = c.Send(chunk);
    EXPECT_EQ(Code(c.ReadStatus()), 413);
  }
  EXPECT_EQ(server->stats().refused_too_large, 3u);
  EXPECT_EQ(Get(*server, "/hello"), 200);
}

TEST(HttpServerTest, TrickledRequestsTimeOutAndIdleConnectionsClose) {
  std::unique_ptr<HttpServer> server = StartTestServer();
  ASSERT_NE(server, nullptr);
  // Slowloris: a byte every 50 ms never completes a request within request_timeout.
  RawConnection slow = Connect(*server);
  RawConnection idle = Connect(*server);
  const std::string request = GetRequest("/hello");
  absl::StatusOr<int> status = absl::UnavailableError("not answered");
  for (size_t i = 0; i + 2 < request.size(); ++i) {
    if (!slow.Send(request.substr(i, 1))) break;
    // Meanwhile, other clients are answered at once.
    if (i == 3) {
      EXPECT_EQ(Get(*server, "/hello"), 200);
    }
    absl::SleepFor(absl::Milliseconds(50));
    if (i * 50 > 600) break;
  }
  status = slow.ReadStatus(absl::Seconds(2));
  ASSERT_TRUE(status.ok()) << status.status();
  EXPECT_EQ(*status, 408);
  EXPECT_TRUE(idle.ClosedWithin(absl::Seconds(2))) << "an idle connection was kept";
  EXPECT_EQ(server->stats().refused_timeout, 1u);
}

TEST(HttpServerTest, IdleConnectionsPastTheCapMakeRoomForNewClients) {
  std::unique_ptr<HttpServer> server = StartTestServer();
  ASSERT_NE(server, nullptr);
  std::vector<RawConnection> idle;
  for (int i = 0; i < 40; ++i) idle.push_back(Connect(*server));
  // Every new client is answered although 40 connections sit idle; the server never holds
  // more than the cap.
  for (int i = 0; i < 5; ++i) EXPECT_EQ(Get(*server, "/hello"), 200);
  EXPECT_LE(server->stats().open_connections, 4 + 1);
  EXPECT_GE(server->stats().evicted_idle, 36u);
}

TEST(HttpServerTest, WhenEveryConnectionIsBeingAnsweredANewOneGets503) {
  HttpLimits limits = TestLimits();
  limits.max_connections = 1;
  // Larger than what the socket buffers of a client that does not read can take.
  std::unique_ptr<HttpServer> server = StartTestServer(limits, 64 << 20);
  ASSERT_NE(server, nullptr);
  RawConnection stuck = Connect(*server, /*receive_buffer=*/4096);
  ASSERT_TRUE(stuck.Send(GetRequest("/big")));
  absl::SleepFor(absl::Milliseconds(200));  // the answer is being written, and not taken
  EXPECT_EQ(Get(*server, "/hello"), 503);
  EXPECT_GE(server->stats().refused_busy, 1u);
}

TEST(HttpServerTest, StopClosesEveryConnection) {
  std::unique_ptr<HttpServer> server = StartTestServer();
  ASSERT_NE(server, nullptr);
  RawConnection idle = Connect(*server);
  RawConnection partial = Connect(*server);
  ASSERT_TRUE(partial.Send("GET /hel"));
  server->Stop();
  EXPECT_TRUE(idle.ClosedWithin(absl::Seconds(1)));
  EXPECT_TRUE(partial.ClosedWithin(absl::Seconds(1)));
  server->Stop();
}

}  // namespace
}  // namespace waymesh::server
