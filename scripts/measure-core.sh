#!/usr/bin/env bash
# Usage: scripts/measure-core.sh [CASE...]
#
# The command line's memory on large inputs: writes each scenario (Python standard library
# only) to target/measure-core/, runs `/usr/bin/time -v logtime run` (stdout to /dev/null) and
# `logtime check` on it, and prints one line per run: the case, the command, the exit code, the
# wall time, the peak memory (max RSS) and the first line of stderr (the error, when refused).
#
# Cases (all by default):
#   lookups      100,000 one-record batches, then 100,000 lookup steps (a 3.4 MB file)
#   snapshots    100,000 batches, then 20,000 snapshot steps (over the snapshot budget: refused)
#   snapshots-5k 5,000 batches, then 20,000 snapshot steps (within it: streamed)
#   tiny-10m     10,000,000 records in one-record segments (segment.bytes 170): over the segment
#                budget, refused before the replay
#   tiny-1m      1,000,000 one-record segments (the budget's limit)
#   play-10m     1,000 steps of 10,000 one-record batches (the explorer's 10M play)
#   churn        1,000,000 batches a second apart into one-record segments under a day's
#                retention: every 5-minute check lists ~86,400 verdicts (over the step's
#                verdict budget: stops with the error once it is passed)
#   lookup-past-1m  1,000,000 one-record segments, then a lookup near the newest record: it
#                passes 999,000 segments (the trace keeps 100 and folds the rest into one step)
#   lookup-unindexed  10,000,000 one-record batches (two segments) with index.interval.bytes
#                2^31-1 (no index entry), then a lookup near the newest: a scan of most of its segment
#   dev-zero     logtime run /dev/zero (refused after 16 MiB)
#
# Hostile cases of issue 41 (scripts/gen-hostile.py writes them; each must stay under 1 GB and
# 30 s, or be refused before the work):
#   h1-variant-bomb     a 1 MB lesson whose note references a 1 MB choice 1,000 times (check)
#   h1-variants         1,000 variants each adding 16 MB to a note (check stops at 256 MiB)
#   h2-retention-1m     1,000,000 one-record segments under retention.ms -1, then a retention step
#   h2-retention-checks 100,000 one-record segments, then 1,000 scheduled checks each deleting
#                       one and listing 100,000 verdicts (over the replay's verdict budget)
#   h2-retention-steps  1,000 retention steps over 1,000 segments rolled by time (over the
#                       retention steps' budget, which the parser cannot see)
#   h3-header-counts    976 bytes: 16 v2 batches, unknown codec, each claiming 38M records
#   h4-gzip-bomb        26 MB: 400 gzip batches inflating to 64 MiB each
#   h5-huge-declared    a header declaring 2 GiB - 1 over 512 MiB of zeros (sparse)
#   h6-dev-zero-log     a .log that is a symlink to /dev/zero
#   h6-fifo-log         a FIFO named like a segment
#   h6-sparse-damaged   a 100 GB sparse .log, damaged at byte 0
#   h6-dev-zero         logtime inspect /dev/zero
#   h7-timeindex-2g     a 2 GiB - 1 sparse .timeindex
#   h8-segments-100k    100,000 one-record segment files (text and --json)
#   h8-dump-200k        kafka-dump-log text of 200,000 empty sections
#   h9-export-1m        a 1,000,000-record segment exported with --export-scenario, then run
set -euo pipefail
cd "$(dirname "$0")/.."
out=target/measure-core
mkdir -p "$out"
cargo build --release -q -p logtime-cli
bin=target/release/logtime

gen() { # gen NAME: writes $out/NAME.json
  python3 - "$out/$1.json" "$1" <<'PY'
import json, sys
path, case = sys.argv[1], sys.argv[2]
start = "2027-03-12T09:00:00Z"
one = {"records": [{"timestamp": "now"}]}
def traffic(n, every="1ms"):
    return {"produce": {"batches": n, "every": every, **one}}
if case == "lookups":
    steps = [traffic(100_000)]
    # Targets over the records' 100 seconds and 10 more past the newest record (misses).
    t0 = 1_804_842_000_000
    steps += [{"lookup": {"timestamp": t0 + (i * 7919) % 110_000}} for i in range(100_000)]
    s = {"start": start, "steps": steps}
elif case in ("snapshots", "snapshots-5k"):
    n = 100_000 if case == "snapshots" else 5_000
    s = {"start": start, "steps": [traffic(n)] + [{"snapshot": {}}] * 20_000}
elif case in ("tiny-10m", "tiny-1m"):
    steps_n = 1000 if case == "tiny-10m" else 100
    s = {"kafka": "3.6", "start": start, "topic": {"segment.bytes": 170},
         "steps": [traffic(10_000) for _ in range(steps_n)]}
elif case == "churn":
    s = {"kafka": "3.6", "start": start,
         "topic": {"segment.bytes": 170, "retention.ms": 86_400_000},
         "steps": [traffic(1_000_000, "1s")]}
elif case == "lookup-past-1m":
    s = {"kafka": "3.6", "start": start, "topic": {"segment.bytes": 170},
         "steps": [traffic(10_000) for _ in range(100)]
                  + [{"lookup": {"timestamp": 1_804_842_000_000 + 999_000}}]}
elif case == "lookup-unindexed":
    s = {"kafka": "3.6", "start": start, "topic": {"index.interval.bytes": 2**31 - 1},
         "steps": [traffic(10_000) for _ in range(1000)]
                  + [{"lookup": {"timestamp": 1_804_842_000_000 + 9_990_000}}]}
elif case == "play-10m":
    s = {"title": "Ten million records", "start": start,
         "steps": [traffic(10_000) for _ in range(1000)]}
json.dump(s, open(path, "w"), separators=(",", ":"))
PY
}

measure() { # measure CASE COMMAND FILE [ARG...]
  local err=$out/$1.$2.err rc
  set +e
  # check prints its verdict on stdout (kept after stderr); run's report goes to /dev/null.
  # A case that never ends is stopped after 120 s (rc=124).
  if [ "$2" = check ]; then
    timeout 120 /usr/bin/time -v -o "$out/$1.$2.time" "$bin" "${@:2}" >"$err.out" 2>"$err"
    rc=$?
    head -1 "$err.out" >>"$err"
  else
    timeout 120 /usr/bin/time -v -o "$out/$1.$2.time" "$bin" "${@:2}" >/dev/null 2>"$err"
    rc=$?
  fi
  set -e
  local wall rss
  # A run stopped by the timeout leaves no figures.
  wall=$(grep "Elapsed (wall clock)" "$out/$1.$2.time" | awk '{print $NF}' || true)
  rss=$(grep "Maximum resident set size" "$out/$1.$2.time" | awk '{print $NF}' || true)
  [ -n "$wall" ] || { wall=">120s"; rss=0; }
  printf '%-16s %-6s rc=%s wall=%s max_rss_mb=%s  %s\n' "$1" "$2" "$rc" "$wall" \
    "$((rss / 1024))" "$(head -c 400 "$err" | head -1 | sed "s#^$out/##; s#^logtime: $out/##")"
}

hostile() { # hostile CASE: generates scripts/gen-hostile.py's case and measures its commands
  local c=${1#h?-} arg
  arg=$(python3 scripts/gen-hostile.py "$c" "$out/hostile" | tail -1)
  case "$c" in
    variant-bomb | variants) measure "$1" check "$arg" ;;
    retention-*) measure "$1" run "$arg"; measure "$1" check "$arg" ;;
    segments-100k)
      measure "$1" inspect "$arg"
      measure "$1" inspect "$arg" --json ;;
    export-1m)
      rm -f "$out/export-1m.json"
      measure "$1" inspect "$arg" --export-scenario "$out/export-1m.json"
      [ -e "$out/export-1m.json" ] && measure "$1" run "$out/export-1m.json" ;;
    *) measure "$1" inspect "$arg" ;;
  esac
}

cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=(lookups snapshots snapshots-5k tiny-10m tiny-1m play-10m churn
  lookup-past-1m lookup-unindexed dev-zero h1-variant-bomb h1-variants h2-retention-1m h2-retention-checks
  h2-retention-steps h3-header-counts
  h4-gzip-bomb h5-huge-declared h6-dev-zero-log h6-fifo-log h6-sparse-damaged h6-dev-zero
  h7-timeindex-2g h8-segments-100k h8-dump-200k h9-export-1m)
echo "load: $(uptime | sed 's/.*load average: //')"
for c in "${cases[@]}"; do
  if [ "$c" = dev-zero ]; then
    measure dev-zero run /dev/zero
    continue
  fi
  if [ "$c" = h6-dev-zero ]; then
    measure h6-dev-zero inspect /dev/zero
    continue
  fi
  if [[ "$c" == h?-* ]]; then
    hostile "$c"
    continue
  fi
  [ -e "$out/$c.json" ] || gen "$c"
  echo "# $c: $(stat -c %s "$out/$c.json") bytes"
  measure "$c" run "$out/$c.json"
  measure "$c" check "$out/$c.json"
done
