#!/usr/bin/env bash
# The README's test command: installs dependencies, builds and runs every test suite.
#   1. all GoogleTest suites under AddressSanitizer + UndefinedBehaviorSanitizer
#   2. the core and server suites (threads, pool, cache, reload) under ThreadSanitizer, in
#      gtest shards (one process per shard)
#   3. every libFuzzer target for a bounded time, from its seed corpus
#   4. the deployment checks (Dockerfile, Kubernetes manifests, alert rules; offline)
#   5. the Go and Java example clients against a live server (the ASan build's binaries)
#   6. buf lint of the public API (proto/, STANDARD rules; @bufbuild/buf from npm)
#   7. the map viewer in headless chromium against a live server (puppeteer-core from npm)
#   8. every runnable command of README.md, docs/*.md and loadtest/README.md, as written, on the
#      ASan build's binaries (scripts/check_docs_commands.py)
# Ends with one line "waymesh: N passed, M failed".
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
JOBS=${JOBS:-$(nproc)}
FUZZ_SECONDS=${FUZZ_SECONDS:-20}
BUILD=${BUILD_ROOT:-$ROOT/build-ci}
# Sanitizer builds: -O1 and line tables only (-g1) compile and link much faster than -O2 -g on
# the gRPC-heavy sources and still give symbolized stacks with file:line. Unity builds (CMake
# pastes up to 8 of a target's files into one translation unit) parse the gRPC, protobuf,
# nlohmann-json and GoogleTest headers once per batch instead of once per file: the ASan build
# takes about half the time. It also makes CI reject two files of one target that define the
# same file-local name, which is usually code written twice.
SANITIZER_FLAGS=(-DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG"
                 "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" -DCMAKE_UNITY_BUILD=ON)

bash scripts/deps.sh

passed=0
failed=0
count_plain() {  # adds a "NAME: N passed, M failed" line of file $1 (NAME = $2) to the totals
  local line
  line=$(grep -E "^$2: [0-9]+ passed, [0-9]+ failed$" "$1" | tail -1 || true)
  if [[ -z $line ]]; then echo "no $2 results in $1"; failed=$((failed + 1)); return; fi
  passed=$((passed + $(sed -E 's/.*: ([0-9]+) passed.*/\1/' <<<"$line")))
  failed=$((failed + $(sed -E 's/.* ([0-9]+) failed$/\1/' <<<"$line")))
}
count_ctest() {  # adds ctest's "x% tests passed, N tests failed out of M" to the totals
  local line total bad
  line=$(grep -E "tests passed, [0-9]+ tests? failed out of [0-9]+" "$1" | tail -1 || true)
  if [[ -z $line ]]; then echo "no test results in $1"; failed=$((failed + 1)); return; fi
  total=$(sed -E 's/.*out of ([0-9]+).*/\1/' <<<"$line")
  bad=$(sed -E 's/.*passed, ([0-9]+) tests? failed.*/\1/' <<<"$line")
  passed=$((passed + total - bad))
  failed=$((failed + bad))
}

# Runs GoogleTest binary $1 in $2 shards, $JOBS at a time, one process per shard, logs in
# directory $3, and adds its tests to the totals. ctest runs one process per test, so each
# server test process built the demo town (repair, compile, search tables) for itself: under
# TSan that build was most of a server test's time. A shard builds it once for all its tests.
run_gtest_shards() {
  local binary=$1 shards=$2 logs=$3 i log ran bad passed0=$passed failed0=$failed
  mkdir -p "$logs"
  seq 0 $((shards - 1)) | xargs -P "$JOBS" -I{} bash -c \
    'GTEST_TOTAL_SHARDS=$1 GTEST_SHARD_INDEX=$2 timeout 1800 "$0" >"$3/shard-$2.log" 2>&1
     echo "shard exit $?" >>"$3/shard-$2.log"' "$binary" "$shards" {} "$logs"
  for ((i = 0; i < shards; i++)); do
    log=$logs/shard-$i.log
    ran=$(sed -nE 's/^\[==========\] ([0-9]+) tests? from .* ran.*/\1/p' "$log" | tail -1)
    bad=$(sed -nE 's/^\[  FAILED  \] ([0-9]+) tests?, listed below.*/\1/p' "$log" | tail -1)
    if [[ -z $ran ]] || { ! grep -q '^shard exit 0$' "$log" && [[ -z $bad ]]; }; then
      # It died before its summary (a sanitizer report aborts the process): count the shard.
      echo "$(basename "$binary") shard $i/$shards did not finish:"; tail -60 "$log"
      passed=$((passed + $(grep -c '^\[       OK \]' "$log" || true)))
      failed=$((failed + 1))
      continue
    fi
    bad=${bad:-0}
    passed=$((passed + ran - bad))
    failed=$((failed + bad))
    if ((bad > 0)); then
      echo "$(basename "$binary") shard $i/$shards: $bad failed"
      grep -E '^\[  FAILED  \] [A-Za-z]' "$log" | sort -u
      tail -80 "$log"
    fi
  done
  echo "$(basename "$binary") in $shards shards: $((passed - passed0)) passed," \
    "$((failed - failed0)) failed (logs: $logs)"
}

echo "== ASan+UBSan: build and run all tests"
cmake -S . -B "$BUILD/asan" -G Ninja "${SANITIZER_FLAGS[@]}" \
  -DWAYMESH_SANITIZE=address,undefined -DWAYMESH_BENCH=OFF >/dev/null
ninja -C "$BUILD/asan" -j"$JOBS"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
(cd "$BUILD/asan" && ctest -j"$JOBS" --output-on-failure --timeout 900) | tee "$BUILD/asan.log" || true
count_ctest "$BUILD/asan.log"

echo "== TSan: the core and server suites (every concurrency test among them)"
cmake -S . -B "$BUILD/tsan" -G Ninja "${SANITIZER_FLAGS[@]}" \
  -DWAYMESH_SANITIZE=thread -DWAYMESH_BENCH=OFF >/dev/null
ninja -C "$BUILD/tsan" -j"$JOBS" core_tests server_tests
export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1
for suite in core server; do  # not in a pipe: the totals are this shell's variables
  run_gtest_shards "$BUILD/tsan/tests/${suite}_tests" 8 "$BUILD/tsan/shards-$suite"
done >"$BUILD/tsan.log" 2>&1
cat "$BUILD/tsan.log"

echo "== libFuzzer: ${FUZZ_SECONDS}s per target"
CC=clang-14 CXX=clang++-14 cmake -S . -B "$BUILD/fuzz" -G Ninja "${SANITIZER_FLAGS[@]}" \
  -DWAYMESH_FUZZ=ON -DWAYMESH_TESTS=ON -DWAYMESH_BENCH=OFF >/dev/null
mapfile -t fuzzers < <(ls tests/fuzz/fuzz_*.cc 2>/dev/null | xargs -n1 basename | sed 's/\.cc$//')
ninja -C "$BUILD/fuzz" -j"$JOBS" "${fuzzers[@]}"
for f in "${fuzzers[@]}"; do
  corpus="$BUILD/fuzz/corpus/$f"
  mkdir -p "$corpus"
  seeds=tests/fuzz/corpus/$f
  if "$BUILD/fuzz/tests/$f" -max_total_time="$FUZZ_SECONDS" -rss_limit_mb=2048 -timeout=10 \
       -print_final_stats=0 "$corpus" $( [[ -d $seeds ]] && echo "$seeds" ) \
       >"$BUILD/fuzz/$f.log" 2>&1; then
    # libFuzzer's closing line; progress lines are no good, as a recommended dictionary entry
    # printed after them can itself look like "#11".
    runs=$(sed -nE 's/^Done ([0-9]+) runs in .*/\1/p' "$BUILD/fuzz/$f.log" | tail -1)
    echo "fuzz $f: ok (${runs:-unknown} runs)"
    passed=$((passed + 1))
  else
    echo "fuzz $f: FAILED"; tail -40 "$BUILD/fuzz/$f.log"
    failed=$((failed + 1))
  fi
done

echo "== Deployment: Dockerfile, Kubernetes manifests, alert rules (offline)"
bash scripts/test_deploy.sh "$BUILD/asan" | tee "$BUILD/deploy.log" || true
count_plain "$BUILD/deploy.log" deploy

echo "== Go and Java example clients against a live server"
bash scripts/test_clients.sh "$BUILD/asan" | tee "$BUILD/clients.log" || true
count_plain "$BUILD/clients.log" clients

echo "== buf lint of the API (proto/)"
if (cd proto && timeout 300 npx --yes @bufbuild/buf lint) >"$BUILD/buf.log" 2>&1; then
  echo "buf lint: ok"
  passed=$((passed + 1))
else
  echo "buf lint: FAILED"; cat "$BUILD/buf.log"
  failed=$((failed + 1))
fi

echo "== The map viewer in a browser (headless chromium, puppeteer-core)"
SCREENSHOT="$BUILD/viewer.png" bash scripts/test_viewer.sh "$BUILD/asan" | tee "$BUILD/viewer.log" || true
count_plain "$BUILD/viewer.log" viewer

echo "== The documentation's commands (README.md, docs/*.md, loadtest/README.md)"
# A budget for all of them: they are examples, not benchmarks (about a minute under ASan).
timeout 240 python3 scripts/check_docs_commands.py "$BUILD/asan" --timeout 120 \
  | tee "$BUILD/docs.log" || true
count_plain "$BUILD/docs.log" docs

echo "waymesh: $passed passed, $failed failed"
[[ $failed -eq 0 && $passed -gt 0 ]]
