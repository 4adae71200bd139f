#include "waymesh/loadtest/channel_credentials.h"

#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"

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
  return grpc::SslCredentials(options);
}

}  // namespace waymesh::loadtest
