#pragma once
// Where the server's TLS material is (--tls-cert, --tls-key, --tls-client-ca): the gRPC port and
// the viewer's HTTPS port load the same files.

#include <string>

namespace waymesh::server {

struct TlsFiles {
  std::string cert;       // PEM certificate chain; empty = plaintext
  std::string key;        // PEM private key
  std::string client_ca;  // PEM CA bundle; non-empty = require and verify client certificates
};

}  // namespace waymesh::server
