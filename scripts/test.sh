#!/usr/bin/env bash
# Runs every Logtime test: formatting, clippy, native tests, 200 generated scenarios replayed
# against Apache Kafka's own storage code (when Java and the oracle in ../shared/kafka-oracle or
# $LOGTIME_ORACLE are present), the web crate's browser tests (wasm-bindgen-test in headless
# Chromium), the release web build and the end-to-end tests.
# Every step runs (except e2e when the build failed); exits non-zero if any step failed.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export PATH="$HOME/.cargo/bin:$ROOT/tests/e2e/node_modules/.bin:$PATH"
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"
# A run from a clean checkout gains nothing from incremental caches, which take gigabytes of disk.
if [ -n "${CI:-}" ]; then
  export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"
fi
# wasm-bindgen-test-runner drives this chromedriver (flags: web/webdriver.json).
export CHROMEDRIVER="${CHROMEDRIVER:-/usr/bin/chromedriver}"

bash scripts/setup.sh

passed=0
failed=0
failed_steps=()
step() {
  local name="$1"
  shift
  echo
  echo "=== [test] ${name}: $*"
  local start=$SECONDS
  if "$@"; then
    echo "=== [test] ${name}: ok ($((SECONDS - start)) s)"
    passed=$((passed + 1))
    return 0
  else
    local rc=$?
    echo "=== [test] ${name}: FAILED (exit ${rc}, $((SECONDS - start)) s)"
    failed=$((failed + 1))
    failed_steps+=("${name}")
    return 1
  fi
}

step fmt cargo fmt --all --check || true
step clippy cargo clippy --workspace --all-targets -- -D warnings || true
step native-tests cargo test --workspace || true
ORACLE="${LOGTIME_ORACLE:-$ROOT/../shared/kafka-oracle}"
if [ -x "$ORACLE/oracle-bin" ] && command -v java >/dev/null; then
  step kafka-diff bash scripts/kafka-diff.sh 200 "${KAFKA_DIFF_SEED:-1}" || true
else
  echo
  echo "=== [test] kafka-diff: skipped (needs Java and the Kafka oracle at $ORACLE; set LOGTIME_ORACLE)"
fi
# The browser-only code (cfg(target_arch = "wasm32")) is linted in the wasm build too.
step web-wasm-clippy cargo clippy -p logtime-web --lib --target wasm32-unknown-unknown -- -D warnings || true
step wasm-tests cargo test -p logtime-web --target wasm32-unknown-unknown --test browser --test components || true
if step web-build trunk build --release --offline; then
  step e2e node --test tests/e2e/ || true
else
  echo "=== [test] e2e: skipped (web build failed)"
  failed=$((failed + 1))
  failed_steps+=("e2e (not run)")
fi

echo
if [ "${failed}" -gt 0 ]; then
  echo "[test] failed steps: ${failed_steps[*]}"
fi
echo "summary: ${passed} passed, ${failed} failed"
[ "${failed}" -eq 0 ]
