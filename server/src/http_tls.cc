#include "waymesh/server/http_tls.h"

#include <openssl/err.h>
#include <openssl/ssl.h>

#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "http_tls_context.h"
#include "pem_file.h"

namespace waymesh::server {
namespace {

namespace ssl = boost::asio::ssl;

// OpenSSL's reason for the last failure, for an error message (its queue is emptied).
std::string OpenSslReason(const boost::system::error_code& ec) {
  std::string reason = ec.message();
  ERR_clear_error();
  return reason;
}

absl::Status Refused(absl::string_view flag, const std::string& path, absl::string_view what,
                     const boost::system::error_code& ec) {
  return absl::InvalidArgumentError(
      absl::StrCat("--", flag, ": ", path, " ", what, " (", OpenSslReason(ec), ")"));
}

// The client CA: trusted for verifying client certificates, and named in the server's
// certificate request so a client knows which of its certificates to present.
absl::Status RequireClientCertificates(const std::string& path, ssl::context& context) {
  absl::StatusOr<std::string> ca = ReadPemFile("tls-client-ca", path);
  if (!ca.ok()) return ca.status();
  boost::system::error_code ec;
  context.add_certificate_authority(boost::asio::buffer(*ca), ec);
  if (ec) return Refused("tls-client-ca", path, "holds no certificate OpenSSL accepts", ec);
  STACK_OF(X509_NAME)* names = SSL_load_client_CA_file(path.c_str());
  if (names == nullptr) {
    ERR_clear_error();
    return absl::InvalidArgumentError(
        absl::StrCat("--tls-client-ca: ", path, " holds no CA certificate name"));
  }
  SSL_CTX_set_client_CA_list(context.native_handle(), names);  // takes ownership
  context.set_verify_mode(ssl::verify_peer | ssl::verify_fail_if_no_peer_cert);
  return absl::OkStatus();
}

}  // namespace

HttpTls::HttpTls(std::unique_ptr<Context> context, bool mutual)
    : context_(std::move(context)), mutual_(mutual) {}

HttpTls::~HttpTls() = default;

absl::StatusOr<std::shared_ptr<const HttpTls>> HttpTls::Load(const TlsFiles& files) {
  if (files.cert.empty()) return absl::InvalidArgumentError("--tls-cert: HTTPS needs one");
  absl::StatusOr<std::string> cert = ReadPemFile("tls-cert", files.cert);
  if (!cert.ok()) return cert.status();
  absl::StatusOr<std::string> key = ReadPemFile("tls-key", files.key);
  if (!key.ok()) return key.status();
  auto context = std::make_unique<Context>();
  ssl::context& ssl_context = context->ssl;
  ssl_context.set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 |
                          ssl::context::no_sslv3 | ssl::context::no_tlsv1 |
                          ssl::context::no_tlsv1_1 | ssl::context::single_dh_use);
  boost::system::error_code ec;
  ssl_context.use_certificate_chain(boost::asio::buffer(*cert), ec);
  if (ec) return Refused("tls-cert", files.cert, "is not a certificate chain OpenSSL accepts", ec);
  ssl_context.use_private_key(boost::asio::buffer(*key), ssl::context::pem, ec);
  if (ec) return Refused("tls-key", files.key, "is not a private key OpenSSL accepts", ec);
  if (SSL_CTX_check_private_key(ssl_context.native_handle()) != 1) {
    ERR_clear_error();
    return absl::InvalidArgumentError(absl::StrCat(
        "--tls-key: ", files.key, " does not match the certificate of --tls-cert ", files.cert));
  }
  const bool mutual = !files.client_ca.empty();
  if (mutual) {
    if (absl::Status s = RequireClientCertificates(files.client_ca, ssl_context); !s.ok()) {
      return s;
    }
  }
  return std::shared_ptr<const HttpTls>(new HttpTls(std::move(context), mutual));
}

}  // namespace waymesh::server
