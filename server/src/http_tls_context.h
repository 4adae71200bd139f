#pragma once
// What HttpTls (waymesh/server/http_tls.h) holds: Asio's wrapper of an OpenSSL SSL_CTX, kept
// out of the public header so its users need not see Boost or OpenSSL.

#include <boost/asio/ssl/context.hpp>

#include "waymesh/server/http_tls.h"

namespace waymesh::server {

struct HttpTls::Context {
  boost::asio::ssl::context ssl{boost::asio::ssl::context::tls_server};
};

}  // namespace waymesh::server
