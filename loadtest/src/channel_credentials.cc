#include "waymesh/loadtest/channel_credentials.h"

#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "grpcpp/security/tls_certificate_provider.h"
#include "grpcpp/security/tls_certificate_verifier.h"
#include "grpcpp/security/tls_credentials_options.h"

namespace waymesh::loadtest {
namespace {

absl::Status ReadPem(const std::string& path, const char* key, std::string* out) {
  if (path.empty()) return absl::OkStatus();
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::InvalidArgumentError(absl::StrCat("\"", key, "\": cannot read ", path));
  std::ostringstream text;
  text << in.rdbuf();
  *out = text.str();
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::shared_ptr<grpc::ChannelCredentials>> MakeChannelCredentials(
    const LoadConfig& config) {
  if (config.insecure) return grpc::InsecureChannelCredentials();
  grpc::SslCredentialsOptions options;
  for (absl::Status s : {ReadPem(config.cacert, "cacert", &options.pem_root_certs),
                         ReadPem(config.cert, "cert", &options.pem_cert_chain),
                         ReadPem(config.key, "key", &options.pem_private_key)}) {
    if (!s.ok()) return s;
  }
  if (!config.skip_tls) return grpc::SslCredentials(options);
  // skipTLS: encrypted, but any server certificate is accepted (self-signed test servers).
  grpc::experimental::TlsChannelCredentialsOptions tls;
  tls.set_verify_server_certs(false);
  tls.set_check_call_host(false);
  tls.set_certificate_verifier(std::make_shared<grpc::experimental::NoOpCertificateVerifier>());
  if (!options.pem_cert_chain.empty()) {
    tls.set_certificate_provider(
        std::make_shared<grpc::experimental::StaticDataCertificateProvider>(
            std::vector<grpc::experimental::IdentityKeyCertPair>{
                {options.pem_private_key, options.pem_cert_chain}}));
    tls.watch_identity_key_cert_pairs();
  }
  return grpc::experimental::TlsCredentials(tls);
}

}  // namespace waymesh::loadtest
