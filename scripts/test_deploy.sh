#!/usr/bin/env bash
# Validates the container and Kubernetes files offline (no cluster, no container engine):
#   - yamllint --strict on everything under deploy/;
#   - promtool: the alerting rules parse and their unit tests pass;
#   - kustomize renders (when kubectl is present) of deploy/base and deploy/overlays/sharded;
#   - deploy/validate (npm kubernetes-models, pinned by its lockfile): every object against its
#     API schema, and the manifests against waymesh-server itself: flag names and values, probe
#     ports and health service names (those of proto/waymesh/v1), Service and NetworkPolicy
#     ports, termination grace vs --shutdown-grace, resources vs the tile cache, the
#     Dockerfile's ports and user;
#   - the runtime stage of the Dockerfile installs the packages of every library the built
#     binaries link;
#   - mutation tests: broken copies of the manifests (wrong probe port, unknown flag, short
#     grace, ...) must fail the validator, so the checks above can fail.
# Usage: scripts/test_deploy.sh [BIN_DIR]   (or WAYMESH_BIN_DIR; default build/release): the
# build dir holding waymesh and server/waymesh-server. Without the binaries the flags come from
# server/src/server_flags.cc and the runtime-library check is skipped.
# Installs nothing but deploy/validate/node_modules (npm ci). Ends with "deploy: N passed, M failed".
set -uo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh" deploy "$@"

require_tools yamllint node npm promtool
[[ $failed -eq 0 ]] || finish

check "yamllint --strict deploy/" 60 yamllint --strict -c deploy/.yamllint.yaml deploy/
check "promtool check rules" 30 promtool check rules deploy/monitoring/waymesh-alerts.yaml
check "promtool test rules" 60 promtool test rules deploy/monitoring/waymesh-alerts.test.yaml
check "npm ci (deploy/validate, lockfile)" 300 \
  npm ci --prefix deploy/validate --no-audit --no-fund --ignore-scripts --loglevel=error
[[ -d deploy/validate/node_modules/kubernetes-models ]] || finish

# What the server accepts: its --help when built (what will really run), else its source.
HELP_ARGS=()
if [[ -x $SERVER ]]; then
  if timeout 10 "$SERVER" --help >"$TMP/help.txt" 2>&1; then
    pass "waymesh-server --help"
    HELP_ARGS=(--server-help "$TMP/help.txt")
  else
    fail "waymesh-server --help"
  fi
else
  echo "note: $SERVER not built; flags are read from server/src/server_flags.cc only"
fi

BASE_FILES=(deploy/namespace.yaml deploy/base/configmap-flags.yaml deploy/base/configmap-maps.yaml
  deploy/base/deployment.yaml deploy/base/service-grpc.yaml deploy/base/service-metrics.yaml
  deploy/base/hpa.yaml deploy/base/pdb.yaml deploy/base/networkpolicy.yaml
  deploy/monitoring/servicemonitor.yaml)
join() { local IFS=,; echo "$*"; }
BUNDLES=(--bundle "base=$(join "${BASE_FILES[@]}")")

# Every resource a kustomization lists must be a file here: the raw base bundle above is only
# what is deployed if base/kustomization.yaml names the same files.
listed=$(sed -n 's/^  - \(.*\.yaml\)$/deploy\/base\/\1/p' deploy/base/kustomization.yaml | sort)
expected=$(printf '%s\n' "${BASE_FILES[@]}" | grep '^deploy/base/' | sort)
check "base/kustomization.yaml lists exactly the base files" 5 test "$listed" = "$expected"

if command -v kubectl >/dev/null; then
  for k in base overlays/sharded overlays/tls; do
    out=$TMP/$(echo "$k" | tr / -).yaml
    check "kubectl kustomize deploy/$k" 60 sh -c "kubectl kustomize deploy/$k >$out"
    [[ -s $out ]] && BUNDLES+=(--bundle "kustomize $k=$out,deploy/monitoring/servicemonitor.yaml")
  done
else
  echo "note: kubectl not found; deploy/overlays/sharded is not rendered or validated"
fi

VALIDATE=(node deploy/validate/validate.mjs --server-flags server/src/server_flags.cc
  --proto proto/waymesh/v1/navigation.proto "${HELP_ARGS[@]}")
timeout 120 "${VALIDATE[@]}" --dockerfile Dockerfile \
  --rules deploy/monitoring/waymesh-alerts.yaml --operations-doc docs/operations.md \
  --metrics-doc docs/metrics.md --runtime-packages-out "$TMP/runtime-packages.txt" \
  "${BUNDLES[@]}" >"$TMP/validate.txt" 2>&1
status=$?
cat "$TMP/validate.txt"
passed=$((passed + $(grep -c '^PASS ' "$TMP/validate.txt")))
failed=$((failed + $(grep -c '^FAIL ' "$TMP/validate.txt")))
if [[ $status -ne 0 ]] && ! grep -q '^FAIL ' "$TMP/validate.txt"; then fail "deploy/validate ran (exit $status)"; fi

# The runtime stage must install (directly or through apt dependencies) the package of every
# shared library the binaries link; the base image's essential packages come with it.
BASE_IMAGE_PACKAGES="libc6 libgcc-s1 libstdc++6 zlib1g"
closure() { # installed packages reachable from $@ through Depends/Pre-Depends
  local -A seen=()
  local queue=("$@") p deps
  while ((${#queue[@]})); do
    p=${queue[0]}
    queue=("${queue[@]:1}")
    [[ -n ${seen[$p]:-} ]] && continue
    seen[$p]=1
    echo "$p"
    deps=$(dpkg-query -W -f='${Pre-Depends}, ${Depends}' "$p" 2>/dev/null | tr ',' '\n' |
      sed 's/|.*//; s/(.*)//; s/:any//; s/ //g' | grep -v '^$')
    for d in $deps; do queue+=("$d"); done
  done
}
if [[ -x $SERVER && -x $WAYMESH && -s $TMP/runtime-packages.txt ]]; then
  # shellcheck disable=SC2046
  closure $(cat "$TMP/runtime-packages.txt") $BASE_IMAGE_PACKAGES | sort -u >"$TMP/provided.txt"
  missing=()
  for bin in "$SERVER" "$WAYMESH"; do
    for lib in $(readelf -d "$bin" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
      # Sanitizer runtimes appear only in instrumented test builds; the image builds Release.
      [[ $lib =~ ^lib(asan|ubsan|tsan|lsan|hwasan)\.so ]] && continue
      path=$(ldconfig -p | awk -v l="$lib" '$1 == l && /x86-64|x86_64/ {print $NF; exit}')
      real=$(readlink -f "${path:-/nonexistent}")
      # dpkg records paths as packaged: /lib/... or /usr/lib/... (merged /usr resolves both).
      pkg=$(dpkg -S "$path" "$real" "${real#/usr}" 2>/dev/null | head -n1 | cut -d: -f1)
      grep -qx "${pkg:-?}" "$TMP/provided.txt" || missing+=("$(basename "$bin"):$lib(${pkg:-no package})")
    done
  done
  if ((${#missing[@]} == 0)); then pass "Dockerfile runtime stage provides every linked library"; else
    fail "Dockerfile runtime stage provides every linked library: missing ${missing[*]}"
  fi
else
  echo "note: $SERVER or $WAYMESH not built; the runtime-library check of the Dockerfile is skipped"
fi

# Mutation tests: each broken copy must make the validator fail with the named check.
# mutate NAME FILE SED_EXPR EXPECTED_FAIL_TEXT
mutate() {
  local name=$1 file=$2 expr=$3 expect=$4 dir=$TMP/mutant
  rm -rf "$dir" && mkdir -p "$dir" && cp -r deploy Dockerfile "$dir/"
  sed -i "$expr" "$dir/$file"
  if cmp -s "$file" "$dir/$file"; then fail "mutation '$name' (sed changed nothing)"; return; fi
  local files=("${BASE_FILES[@]/#/$dir/}")
  if timeout 60 "${VALIDATE[@]}" --dockerfile "$dir/Dockerfile" --bundle "mutant=$(join "${files[@]}")" \
    >"$TMP/mutant.txt" 2>&1; then
    fail "mutation '$name' is caught (the validator passed it)"
  elif grep '^FAIL ' "$TMP/mutant.txt" | grep -qF "$expect"; then
    pass "mutation '$name' is caught"
  else
    fail "mutation '$name' is caught by '$expect'"
    grep '^FAIL ' "$TMP/mutant.txt" | sed 's/^/    /'
  fi
}
D=deploy/base/deployment.yaml
F=deploy/base/configmap-flags.yaml

# The base with TLS turned on as deploy/overlays/tls does it (TLS flags, probes unchanged on
# the plaintext health port) must pass: checked on a raw copy, since rendering the overlay
# needs kubectl.
tls_dir=$TMP/tls-variant
rm -rf "$tls_dir" && mkdir -p "$tls_dir" && cp -r deploy Dockerfile "$tls_dir/"
sed -i 's/^  WAYMESH_HEALTH_PORT: .*/&\n  WAYMESH_TLS_CERT: \/tls\/tls.crt\n  WAYMESH_TLS_KEY: \/tls\/tls.key/' "$tls_dir/$F"
tls_files=("${BASE_FILES[@]/#/$tls_dir/}")
check "TLS variant of the base (probes on --health-port) passes" 60 \
  "${VALIDATE[@]}" --dockerfile "$tls_dir/Dockerfile" --bundle "tls=$(join "${tls_files[@]}")"
grep -q WAYMESH_TLS_CERT "$tls_dir/$F" || fail "TLS variant: sed added no TLS flags"
mutate "readiness probe on another port" $D '/readinessProbe:/,/port:/s/port: 8081/port: 8082/' "probes target"
mutate "probe asks for the pre-v1 service name" $D '0,/service: waymesh.v1.NavigationService/s//service: waymesh.v1.Navigation/' "is not registered"
mutate "server answers health elsewhere than the probes" $F 's/WAYMESH_HEALTH_PORT: "8081"/WAYMESH_HEALTH_PORT: "8082"/' "probes target"
mutate "health port differs from the container port" $F 's/WAYMESH_HEALTH_PORT: "8081"/WAYMESH_HEALTH_PORT: "8082"/' "container ports match"
mutate "TLS on and probes on the TLS port" $D 's/port: 8081/port: 50051/; /^        - name: waymesh$/,/image:/s|image: .*|&\n          args: ["--tls-cert=/tls/tls.crt", "--tls-key=/tls/tls.key"]|' "probes target"
mutate "TLS on and no health port" $F 's/WAYMESH_HEALTH_PORT: "8081"/WAYMESH_HEALTH_PORT: "-1"\n  WAYMESH_TLS_CERT: \/tls\/tls.crt\n  WAYMESH_TLS_KEY: \/tls\/tls.key/' "gRPC probes speak plaintext only"
mutate "metrics port differs from the container port" $F 's/WAYMESH_METRICS_PORT: "9464"/WAYMESH_METRICS_PORT: "9465"/' "container ports match"
mutate "misspelt flag variable" $F 's/WAYMESH_MAX_CONNECTION_AGE:/WAYMESH_MAX_CONECTION_AGE:/' "flags are waymesh-server's"
mutate "argument the server does not have" $D '/^        - name: waymesh$/,/image:/s|image: .*|&\n          args: ["--no-such-flag=1"]|' "flags are waymesh-server's"
mutate "flag value of the wrong type" $F 's/WAYMESH_SHUTDOWN_GRACE: 10s/WAYMESH_SHUTDOWN_GRACE: ten seconds/' "flags are waymesh-server's"
mutate "grace shorter than the drain" $D 's/terminationGracePeriodSeconds: 30/terminationGracePeriodSeconds: 12/' "termination grace"
mutate "drain longer than the grace" $F 's/WAYMESH_SHUTDOWN_GRACE: 10s/WAYMESH_SHUTDOWN_GRACE: 1m/' "termination grace"
mutate "headless Service without connection ageing" $F 's/WAYMESH_MAX_CONNECTION_AGE: 5m/WAYMESH_MAX_CONNECTION_AGE: "0"/' "Services reach"
mutate "tile cache larger than the memory limit" $F 's/WAYMESH_TILE_CACHE_BYTES: "536870912"/WAYMESH_TILE_CACHE_BYTES: "1073741824"/' "resources hold"
mutate "spool not mounted" $D '/mountPath: \/spool/s/\/spool/\/spool-elsewhere/' "spool directory"
mutate "spool in memory" $D '/^        - name: spool$/,/sizeLimit/s/emptyDir:/emptyDir:\n            medium: Memory/' "spool directory"
mutate "root filesystem writable" $D '0,/readOnlyRootFilesystem: true/s//readOnlyRootFilesystem: false/' "non-root"
mutate "Service selects no server pod" deploy/base/service-grpc.yaml 's/app.kubernetes.io\/component: server/app.kubernetes.io\/component: sever/' "Services reach"
mutate "container port type" $D 's/containerPort: 50051/containerPort: "50051"/' "schema"
mutate "image exposes another port" Dockerfile 's/^EXPOSE 50051 9464/EXPOSE 50052 9464/' "Dockerfile"
mutate "image runs as root" Dockerfile 's/^USER 10001:10001/USER 0:0/' "Dockerfile"

finish
