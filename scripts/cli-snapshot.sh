#!/usr/bin/env bash
# Usage: scripts/cli-snapshot.sh LOGTIME_BINARY OUT_DIR
#
# Writes what `logtime run`, `check` and `explain` print (stdout and stderr, then `rc=N`) for
# every built-in scenario, lesson and incident and every conformance scenario, one file each
# (the input's path with / turned into _, then .run, .check or .explain). Two snapshots made by
# two builds compare with `diff -r`: a refactor that keeps the command line's behaviour leaves
# no difference.
set -u
bin="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
out="$2"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
cd "$(dirname "$0")/.."
for f in static/scenarios/*.json static/lessons/*.json static/incidents/*.json tests/conformance/*.json; do
  case "$f" in *.expected.json) continue ;; esac
  n=$(echo "$f" | tr '/' '_')
  for c in run check explain; do
    "$bin" "$c" "$f" >"$out/$n.$c" 2>&1
    echo "rc=$?" >>"$out/$n.$c"
  done
done
echo "$(ls "$out" | wc -l) outputs in $out"
