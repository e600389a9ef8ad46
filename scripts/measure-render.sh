#!/usr/bin/env bash
# Usage: scripts/measure-render.sh
#
# `logtime render`'s speed and output size: for a small moment (lookup-scan at its lookup) and a
# big one (million, 1,786 segments), the median wall time of 5 runs writing SVG and PNG (the PNG
# through resvg at 2x, in the DejaVu fonts), and each file's bytes raw and gzip -9; then the
# size of the release binary (resvg, usvg, tiny-skia, fontdb and rustybuzz are in it for PNG).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --quiet --release -p logtime-cli
bin=target/release/logtime
out=target/measure-render
mkdir -p "$out"
median_ms() {
  local times=()
  for _ in 1 2 3 4 5; do
    local t0 t1
    t0=$(date +%s%N)
    "$@" >/dev/null
    t1=$(date +%s%N)
    times+=($(((t1 - t0) / 1000000)))
  done
  printf '%s\n' "${times[@]}" | sort -n | sed -n 3p
}
run() {
  local label=$1
  shift
  for ext in svg png; do
    local f="$out/$label.$ext"
    local ms
    ms=$(median_ms "$bin" render "$@" -o "$f")
    printf '%-12s %s  %5d ms  %8d B  %7d B gzip\n' "$label" "$ext" "$ms" \
      "$(wc -c <"$f")" "$(gzip -9c "$f" | wc -c)"
  done
}
run lookup-scan lookup-scan --step end --lookup 2025-11-04T10:00:05Z --panels all --width 960
run million million --step end --panels all --width 960
printf 'release binary: %d B\n' "$(wc -c <"$bin")"
