# syntax=docker/dockerfile:1
# Waymesh image: waymesh-server (the entrypoint) and the waymesh CLI (used by the maps
# init container in deploy/ to validate map files).
#   docker build -t waymesh:dev .
#   docker run --rm -p 50051:50051 -p 9464:9464 -v "$PWD/out/maps:/maps:ro" waymesh:dev
# The build stage runs the same commands as CI and the README (scripts/deps.sh, then the
# Release configure of scripts/run.sh), so an image never builds differently from the tree
# that was tested. scripts/test_deploy.sh checks this file's ports, user and runtime
# libraries against the server and the Kubernetes manifests.

FROM debian:bookworm AS build
WORKDIR /src
# deps.sh first and alone: the package layer is cached until the package list changes.
COPY scripts/deps.sh scripts/deps.sh
RUN bash scripts/deps.sh && rm -rf /var/lib/apt/lists/*
COPY . .
RUN cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DWAYMESH_TESTS=OFF -DWAYMESH_BENCH=OFF \
 && ninja -C build/release waymesh waymesh-server \
 && install -D -m 0755 build/release/server/waymesh-server /out/waymesh-server \
 && install -D -m 0755 build/release/waymesh /out/waymesh \
 && strip /out/waymesh-server /out/waymesh

FROM debian:bookworm-slim AS runtime
# Shared libraries the two binaries link, and nothing else: no compiler, no shell tools beyond
# the base image's. (Their own dependencies come along through apt.)
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      libabsl20220623 \
      libgrpc++1.51 \
      libprotobuf32 \
      libspdlog1.10 \
      libprometheus-cpp-core1.0 \
      libfmt9 \
      libcairo2 \
      librecast1 \
 && rm -rf /var/lib/apt/lists/*
# A fixed numeric uid/gid so that runAsNonRoot can verify it and fsGroup matches
# (deploy/base/deployment.yaml uses 10001).
RUN groupadd --system --gid 10001 waymesh \
 && useradd --system --uid 10001 --gid 10001 --no-create-home --home-dir /nonexistent \
      --shell /usr/sbin/nologin waymesh \
 && install -d -o 10001 -g 10001 -m 0755 /maps \
 && install -d -o 10001 -g 10001 -m 0700 /spool
COPY --from=build /out/waymesh-server /out/waymesh /usr/local/bin/
USER 10001:10001
# Maps come from a mounted directory (read-only is enough: the server only reads). The server
# serves private copies of them from /spool (unnamed files; on disk, room for every map twice):
# mount a volume there when the root file system is read-only.
ENV WAYMESH_MAPS_DIR=/maps WAYMESH_SPOOL_DIR=/spool
VOLUME ["/maps", "/spool"]
# gRPC (--port) and Prometheus metrics + /healthz (--metrics-port).
EXPOSE 50051 9464
ENTRYPOINT ["/usr/local/bin/waymesh-server"]
