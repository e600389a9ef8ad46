#!/usr/bin/env bash
# Usage: scripts/measure-author.sh
#
# Author mode's latency natively: how long one command takes with the live check it re-runs
# (parse, up to four variants checked, the default variant walked), for issue 38's drill, for
# lessons of 100 and 1,000 recorded batches, and for walkthroughs started from imported
# partitions of 10,000 and 100,000 records. One line per case: the median and the slowest
# command in ms (lesson/examples/author_latency.rs). The web runs the same code as wasm, which
# is slower than native (see scripts/measure-web.sh for that ratio on a replay).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo run --quiet --release -p logtime-lesson --example author_latency
