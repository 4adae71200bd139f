#!/usr/bin/env bash
# Builds the Go example client offline: generates the Waymesh stubs from proto/ with Debian's
# protoc-gen-go / protoc-gen-go-grpc and compiles against Debian's Go gRPC packages in
# /usr/share/gocode. GOPATH mode, because module mode would need a replace line for every
# dependency to stay offline. The google.rpc types (Status, ErrorInfo, BadRequest, RetryInfo)
# come from Debian's genproto (google.golang.org/genproto/googleapis/rpc/...), the go_package
# proto/google/rpc declares, so they are not generated: grpc-go's status package decodes the
# error details into exactly those types.
#   clients/go/build.sh [OUT_DIR]   (default build/clients/go)
# writes OUT_DIR/bin/waymesh-example, OUT_DIR/bin/overload-stub (a test double for
# scripts/test_clients.sh) and OUT_DIR/service_config.json (the example's default config).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=$(mkdir -p "${1:-$ROOT/build/clients/go}" && cd "${1:-$ROOT/build/clients/go}" && pwd)
GOPATH_DIR=$OUT/gopath
PKG=waymesh/clients/go  # go_package prefix in navigation.proto, obstacles.proto and crowd.proto
GENPROTO_RPC=/usr/share/gocode/src/google.golang.org/genproto/googleapis/rpc
for dir in errdetails status; do
  [[ -d $GENPROTO_RPC/$dir ]] || { echo "go client: missing $GENPROTO_RPC/$dir (run scripts/deps.sh)" >&2; exit 1; }
done

rm -rf "$GOPATH_DIR/src/$PKG"
mkdir -p "$GOPATH_DIR/src/$PKG/cmd" "$OUT/bin"
protoc -I "$ROOT/proto" \
  --go_out="$GOPATH_DIR/src" --go-grpc_out="$GOPATH_DIR/src" \
  "$ROOT/proto/waymesh/v1/navigation.proto" "$ROOT/proto/waymesh/v1/obstacles.proto" \
  "$ROOT/proto/waymesh/v1/crowd.proto"
# The sources stay in the tree; GOPATH sees them through symlinks.
ln -s "$ROOT/clients/go/protocodec" "$GOPATH_DIR/src/$PKG/protocodec"
for cmd in waymesh-example overload-stub; do
  ln -s "$ROOT/clients/go/cmd/$cmd" "$GOPATH_DIR/src/$PKG/cmd/$cmd"
done
cp "$ROOT/clients/service_config.json" "$OUT/service_config.json"

export GO111MODULE=off GOPROXY=off GOFLAGS='' CGO_ENABLED=0
export GOPATH=$GOPATH_DIR:/usr/share/gocode GOCACHE=$OUT/cache
go vet "$PKG/protocodec" "$PKG/cmd/waymesh-example" "$PKG/cmd/overload-stub"
go build -ldflags "-X 'main.serviceConfigPath=$OUT/service_config.json'" \
  -o "$OUT/bin/waymesh-example" "$PKG/cmd/waymesh-example"
go build -o "$OUT/bin/overload-stub" "$PKG/cmd/overload-stub"
echo "go client: $OUT/bin/waymesh-example"
