#!/usr/bin/env bash
# Measures the release web build in headless Chromium; prints `name: value` lines:
# page_gzip_bytes_total, first_partition_ms, frame_p95_ms, axe_violations.
# Extra arguments go to tests/e2e/measure.mjs (e.g. --enforce: exit 1 when over a budget).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export PATH="$HOME/.cargo/bin:$ROOT/tests/e2e/node_modules/.bin:$PATH"

bash scripts/setup.sh
echo "[measure] trunk build --release --offline" >&2
trunk build --release --offline >&2
echo "[measure] node tests/e2e/measure.mjs $*" >&2
exec node tests/e2e/measure.mjs "$@"
