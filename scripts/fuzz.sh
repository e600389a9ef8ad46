#!/usr/bin/env bash
# Fuzz the crates (fuzz/) for a given number of minutes per target:
#   scripts/fuzz.sh [MINUTES] [TARGET...]
# Targets: ops (arbitrary operation sequences against a partition, invariants checked after each),
# scenario (arbitrary text parsed and replayed as a scenario file), lesson (arbitrary text parsed,
# checked and played as a lesson, and parsed as narration markup), journal (arbitrary text read
# and replayed as a saved moment), import_log (bytes as a segment's .log, read in chunks and
# imported), import_index (bytes as .index and .timeindex beside a real segment) and import_dump
# (text as kafka-dump-log output). Default: 5 minutes each.
set -euo pipefail
cd "$(dirname "$0")/.."
minutes="${1:-5}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(ops scenario lesson journal import_log import_index import_dump)
if ! command -v cargo-fuzz >/dev/null 2>&1; then
  echo "installing cargo-fuzz (once)"
  cargo install cargo-fuzz --locked
fi
for t in "${targets[@]}"; do
  echo "fuzzing $t for $minutes minute(s)"
  cargo +nightly fuzz run "$t" -- -max_total_time=$((minutes * 60)) -max_len=4096 -rss_limit_mb=4096
done
echo "fuzz: no crash in ${#targets[@]} target(s), $minutes minute(s) each"
