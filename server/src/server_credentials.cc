#include "waymesh/server/server_credentials.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "grpcpp/security/server_credentials.h"

namespace waymesh::server {
namespace {

// PEM files are small; anything larger is the wrong file.
constexpr uintmax_t kMaxPemBytes = 1 << 20;

absl::StatusOr<std::string> ReadPem(absl::string_view flag, const std::string& path) {
  std::error_code ec;
  const uintmax_t size = std::filesystem::file_size(path, ec);
  if (ec) {
    return absl::NotFoundError(
        absl::StrCat("--", flag, ": cannot read ", path, ": ", ec.message()));
  }
  if (size == 0 || size > kMaxPemBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("--", flag, ": ", path, " has ", size, " bytes, expected 1..", kMaxPemBytes));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::PermissionDeniedError(absl::StrCat("--", flag, ": cannot open ", path));
  std::ostringstream text;
  text << in.rdbuf();
  std::string pem = text.str();
  if (!absl::StrContains(pem, "-----BEGIN ")) {
    return absl::InvalidArgumentError(
        absl::StrCat("--", flag, ": ", path, " is not PEM (no -----BEGIN line)"));
  }
  return pem;
}

}  // namespace

absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> MakeServerCredentials(
    const TlsFiles& files) {
  if (files.cert.empty()) return grpc::InsecureServerCredentials();
  absl::StatusOr<std::string> cert = ReadPem("tls-cert", files.cert);
  if (!cert.ok()) return cert.status();
  absl::StatusOr<std::string> key = ReadPem("tls-key", files.key);
  if (!key.ok()) return key.status();
  grpc::SslServerCredentialsOptions options;
  options.pem_key_cert_pairs.push_back({*std::move(key), *std::move(cert)});
  if (!files.client_ca.empty()) {
    absl::StatusOr<std::string> ca = ReadPem("tls-client-ca", files.client_ca);
    if (!ca.ok()) return ca.status();
    options.pem_root_certs = *std::move(ca);
    options.client_certificate_request = GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY;
  }
  return grpc::SslServerCredentials(options);
}

}  // namespace waymesh::server
