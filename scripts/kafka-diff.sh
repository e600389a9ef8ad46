#!/usr/bin/env bash
# kafka-diff.sh [N] [SEED]: replays N generated scenarios (default 200, seed 1) through
# `logtime run` and through Apache Kafka 4.1.1's own storage code (the oracle in
# ../shared/kafka-oracle, or $LOGTIME_ORACLE), compares every field both report, prints each
# disagreement with the saved scenario's path, and ends with `agree: A/N`. Exit 0 when all
# agree, 1 on a disagreement, 2 when the oracle or Java is missing.
#
# The generator is `logtime gen --seed S` (scenario i of seed SEED is S = SEED * 1000000 + i);
# the comparison is cli/src/compare/; the runner is cli/src/bin/kafka-diff.rs. Scenarios are
# written to target/kafka-diff/seed-SEED/. Extra arguments go to the runner (--jobs J,
# --out DIR, --files FILE...).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export PATH="$HOME/.cargo/bin:$PATH"
N="${1:-200}"
SEED="${2:-1}"
shift $(( $# < 2 ? $# : 2 ))
cargo build -q -p logtime-cli --bins
exec "$ROOT/target/debug/kafka-diff" "$N" "$SEED" "$@"
