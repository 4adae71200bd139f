#!/usr/bin/env bash
# Installs every Debian 12 package the build, the tests and the tools need.
# Idempotent and non-interactive; downloads nothing but Debian packages.
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build pkg-config git ca-certificates
  clang-14 libclang-rt-14-dev              # libFuzzer and sanitizer runtimes
  libabsl-dev                              # Status, StatusOr, flat_hash_map, flags
  nlohmann-json3-dev libcli11-dev zlib1g-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  librecast-dev                            # Detour, for side-by-side benchmarks
  libcairo2-dev                            # waymesh render / diff pictures (PNG)
  libgrpc++-dev protobuf-compiler-grpc     # waymesh-server: gRPC C++ and its protoc plugin
  libprotobuf-dev protobuf-compiler libprotoc-dev  # messages of proto/waymesh/v1/*.proto; Importer for waymesh-load
  grpc-proto                               # grpc.health.v1 proto for health-check clients
  libspdlog-dev                            # waymesh-server logs (text or JSON)
  prometheus-cpp-dev                       # /metrics: metric types, registry, text format
  openssl                                  # test certificates for the TLS / mutual TLS tests
  libssl-dev                               # OpenSSL: the viewer's HTTPS (Asio's TLS stream), the tests' TLS client
  libcpp-httplib-dev                       # HTTP client of the metrics endpoint tests
  libpolyclipping-dev                      # Clipper: the obstacle carving tests' area oracle
  libboost-dev                             # Boost.Beast/Asio (headers): the bounded /metrics and /healthz server
  prometheus                               # promtool and the real-Prometheus scrape test
  python3
  chromium                                 # headless browser of the viewer's tests (scripts/test_viewer.sh)
  # Deployment and clients (scripts/test_deploy.sh, scripts/test_clients.sh): manifest lint and
  # schema validation (npm kubernetes-models), Go and Java example clients built offline from
  # Debian's gRPC packages. No `npm` here: the machine's Node.js 20 package ships npm and
  # conflicts with Debian's separate npm package.
  yamllint nodejs
  golang-go golang-google-grpc-dev golang-google-protobuf-dev protoc-gen-go protoc-gen-go-grpc
  default-jdk-headless libgrpc-java libprotobuf-java protobuf-compiler-grpc-java-plugin
  libnetty-java libguava-java libperfmark-java libgoogle-gson-java libgoogle-common-protos-java
  liberror-prone-java libjsr305-java libgeronimo-annotation-1.3-spec-java
  libnetty-tcnative-java libnetty-tcnative-jni  # TLS of the Java client (Debian's Netty JDK TLS has no ALPN)
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  SUDO=""; [[ $(id -u) -ne 0 ]] && SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
echo "deps: all ${#PACKAGES[@]} packages present"
