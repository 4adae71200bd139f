#!/usr/bin/env bash
# Builds the Go example client offline: generates the Waymesh stubs from proto/ with Debian's
# protoc-gen-go / protoc-gen-go-grpc and compiles against Debian's Go gRPC packages in
# /usr/share/gocode. GOPATH mode, because module mode would need a replace line for every
# dependency to stay offline.
#   clients/go/build.sh [OUT_DIR]   (default build/clients/go) -> OUT_DIR/bin/waymesh-example
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=$(mkdir -p "${1:-$ROOT/build/clients/go}" && cd "${1:-$ROOT/build/clients/go}" && pwd)
GOPATH_DIR=$OUT/gopath
PKG=waymesh/clients/go  # go_package prefix in navigation.proto

rm -rf "$GOPATH_DIR/src/$PKG"
mkdir -p "$GOPATH_DIR/src/$PKG/cmd" "$OUT/bin"
protoc -I "$ROOT/proto" \
  --go_out="$GOPATH_DIR/src" --go-grpc_out="$GOPATH_DIR/src" \
  "$ROOT/proto/waymesh/v1/navigation.proto"
# The example's sources stay in the tree; GOPATH sees them through a symlink.
ln -s "$ROOT/clients/go/cmd/waymesh-example" "$GOPATH_DIR/src/$PKG/cmd/waymesh-example"

export GO111MODULE=off GOPROXY=off GOFLAGS='' CGO_ENABLED=0
export GOPATH=$GOPATH_DIR:/usr/share/gocode GOCACHE=$OUT/cache
go vet "$PKG/cmd/waymesh-example"
go build -o "$OUT/bin/waymesh-example" "$PKG/cmd/waymesh-example"
echo "go client: $OUT/bin/waymesh-example"
