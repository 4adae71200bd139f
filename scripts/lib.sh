# shellcheck shell=bash disable=SC2034  # (variables set here are used by the sourcing scripts)
# Shared setup of the end-to-end check scripts (test_deploy.sh, test_clients.sh, test_viewer.sh);
# sourced, not run: source "$(dirname "$0")/lib.sh" SUITE [BIN_DIR]
# Moves to the repository root and sets BIN_DIR (WAYMESH_BIN_DIR, else BIN_DIR, else
# build/release), WAYMESH and SERVER (the binaries there, which may not exist) and TMP (a
# scratch dir removed at exit, after the script's own at_exit function if it defines one).
# pass/fail/check count the checks; finish prints "SUITE: N passed, M failed" and exits with
# their verdict.
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
SUITE=$1
BIN_DIR=${WAYMESH_BIN_DIR:-${2:-build/release}}
WAYMESH=$BIN_DIR/waymesh
SERVER=$BIN_DIR/server/waymesh-server
TMP=$(mktemp -d)
cleanup() {
  if declare -F at_exit >/dev/null; then at_exit; fi
  rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

passed=0
failed=0
pass() { echo "PASS $1"; passed=$((passed + 1)); }
fail() { echo "FAIL $1"; failed=$((failed + 1)); }
finish() {
  echo "$SUITE: $passed passed, $failed failed"
  [[ $failed -eq 0 ]]
  exit
}
# check NAME TIMEOUT_S CMD...: one check; on failure its output is shown.
check() {
  local name=$1 limit=$2
  shift 2
  if timeout "$limit" "$@" >"$TMP/out" 2>&1; then pass "$name"; else
    fail "$name"
    sed 's/^/    /' "$TMP/out" | tail -n 40
  fi
}
# wait_for_line FILE PATTERN PID: prints the first line of FILE matching PATTERN (grep), waiting
# up to 30 s while process PID lives; prints nothing when none came.
wait_for_line() {
  local line
  for _ in $(seq 1 300); do
    if line=$(grep -m1 "$2" "$1"); then echo "$line"; return; fi
    kill -0 "$3" 2>/dev/null || return
    sleep 0.1
  done
}
# require_tools TOOL...: a failed check for each tool missing from PATH.
require_tools() {
  local tool
  for tool in "$@"; do
    command -v "$tool" >/dev/null || fail "tool $tool present (run scripts/deps.sh)"
  done
}
# launch_server NAME ARGS...: a real waymesh-server on loopback serving $MAPS with ARGS, its log
# in $TMP/server-NAME.log. Sets SERVER_PID, SERVER_LINE (its "serving" log line, which names
# every port it bound: port 0 picks a free one) and GRPC_PORT; when it does not come up within
# 30 s, server_failed NAME.
launch_server() {
  local name=$1
  shift
  "$SERVER" --maps-dir="$MAPS" --listen-address=127.0.0.1 --port=0 --reload-interval=0 \
    --shutdown-grace=2s "$@" >"$TMP/server-$name.log" 2>&1 &
  SERVER_PID=$!
  SERVER_LINE=$(wait_for_line "$TMP/server-$name.log" 'waymesh-server serving' "$SERVER_PID")
  GRPC_PORT=$(echo "$SERVER_LINE" | sed -n 's/.* on 127\.0\.0\.1:\([0-9]*\) .*/\1/p')
  [[ -n $GRPC_PORT ]] || server_failed "$name"
}
# server_failed NAME: a failed start check with the server's log tail, and the end of the run.
server_failed() {
  fail "waymesh-server ($1) starts on 127.0.0.1"
  sed 's/^/    /' "$TMP/server-$1.log" | tail -n 20
  finish
}
# stop_server NAME: SIGTERM drains and exits 0 (within --shutdown-grace=2s plus a margin; else
# it is killed).
stop_server() {
  local status=timeout
  kill -TERM "$SERVER_PID"
  for _ in $(seq 1 100); do
    if ! kill -0 "$SERVER_PID" 2>/dev/null; then
      wait "$SERVER_PID"
      status=$?
      break
    fi
    sleep 0.1
  done
  if [[ $status == 0 ]]; then pass "waymesh-server ($1) exits 0 on SIGTERM"; else
    fail "waymesh-server ($1) exits 0 on SIGTERM (exit status: $status)"
    sed 's/^/    /' "$TMP/server-$1.log" | tail -n 20
    kill -KILL "$SERVER_PID" 2>/dev/null
    wait "$SERVER_PID" 2>/dev/null
  fi
  SERVER_PID=""
}
