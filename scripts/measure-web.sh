#!/usr/bin/env bash
# Measures the release web build in headless Chromium; prints `name: value` lines:
# page_gzip_bytes_total, first_partition_ms, frame_p95_ms, axe_violations, the ten-million-record
# play at 64× (play10m_*) and the same replay in the page's wasm and natively (replay10m_*).
# Then, when `twiggy` is installed (`cargo install --locked twiggy`), the wasm's size by crate
# (wasm_crate_bytes{crate=..}, from a copy optimised like the page's but keeping its names).
# Last, the floor of the page's module (wasm_floor_bytes, wasm_floor_gzip_bytes: scripts/wasm-floor/,
# a scenario parsed, replayed and narrated with no UI at all).
# Extra arguments go to tests/e2e/measure.mjs (e.g. --enforce: exit 1 when over a budget;
# --no-10m: skip the ten-million-record figures; --no-segments: the one-record-segment ones;
# --only-replay10m: only the wasm-versus-native replay; --only-bytes: only the pages' bytes;
# --only-docs: only docs-example.html before and after its explorers load: bytes idle, wasm
# requests before and after scrolling through, each embed's height at 375, 736 and 1280 px).
# --only-hostile: only the JS heap and wasm memory after hostile links (issue 41), which
# --hostile adds to the rest).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export PATH="$HOME/.cargo/bin:$ROOT/tests/e2e/node_modules/.bin:$PATH"

bash scripts/setup.sh
echo "[measure] trunk build --release --offline" >&2
trunk build --release --offline >&2
only_hostile=0
case " $* " in *" --only-hostile "*) only_hostile=1 ;; esac
if [ "$only_hostile" = 0 ]; then
  echo "[measure] cargo build --release -p logtime-core --example replay" >&2
  cargo build --release -p logtime-core --example replay >&2
  export LOGTIME_NATIVE_REPLAY="$ROOT/target/release/examples/replay"
fi
echo "[measure] node tests/e2e/measure.mjs $*" >&2
status=0
node tests/e2e/measure.mjs "$@" || status=$?
# The page's memory around hostile input only: no sizes or floor.
[ "$only_hostile" = 0 ] || exit "$status"

if command -v twiggy >/dev/null; then
  # The wasm as cargo built it for the page (wasm-release profile), through the same
  # wasm-bindgen and wasm-opt -Oz, with the name section kept (-g) so functions have names.
  tmp="$(mktemp -d)"
  trap 'rm -rf "$tmp"' EXIT
  echo "[measure] size by crate (twiggy)" >&2
  wasm-bindgen --target web --out-dir "$tmp" --out-name w \
    target/wasm32-unknown-unknown/wasm-release/logtime_web.wasm
  wasm-opt -Oz -g --low-memory-unused --zero-filled-memory "$tmp/w_bg.wasm" -o "$tmp/named.wasm"
  node scripts/wasm-breakdown.mjs "$tmp/named.wasm" 30
else
  echo "[measure] no twiggy: skipping the size by crate (cargo install --locked twiggy)" >&2
fi
# The floor (scripts/wasm-floor/): parse, replay and narrate a scenario, no UI, through the same
# profile, wasm-bindgen and wasm-opt flags as the page's module. What a module that shows
# a scenario weighs before any renderer, component, state or stylesheet.
floor="$(mktemp -d)"
echo "[measure] the module's floor (scripts/wasm-floor)" >&2
cargo build --profile wasm-release --target wasm32-unknown-unknown -p logtime-wasm-floor >&2
wasm-bindgen --target web --out-dir "$floor" --out-name f \
  target/wasm32-unknown-unknown/wasm-release/logtime_wasm_floor.wasm
wasm-opt -Oz --converge --low-memory-unused --zero-filled-memory --strip-producers \
  "$floor/f_bg.wasm" -o "$floor/f.wasm"
echo "wasm_floor_bytes: $(wc -c <"$floor/f.wasm")"
echo "wasm_floor_gzip_bytes: $(gzip -9c "$floor/f.wasm" | wc -c)"
rm -rf "$floor"
exit "$status"
