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
