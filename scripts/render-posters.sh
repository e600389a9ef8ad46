#!/usr/bin/env bash
# Writes the pictures that are committed: a poster for every built-in scenario, lesson and
# incident (static/posters/NAME.svg: the built-in at its last step, 736 px, the width of a docs
# column; the embed loader shows it until the reader engages; its link is relative to
# static/posters/, so it opens the explorer page at the root) and the README's pictures
# (docs/pictures/). cli/tests/render.rs (committed_pictures_are_fresh) renders with the very
# same flags and fails when a committed picture is stale.
#
# Usage: scripts/render-posters.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --quiet --release -p logtime-cli
bin=target/release/logtime
mkdir -p static/posters docs/pictures
# A built-in's name is its file's; an incident's has incident- before it (cli/src/builtins.rs).
names=$(
  for f in static/scenarios/*.json static/lessons/*.json; do basename "$f" .json; done
  for f in static/incidents/*.json; do echo "incident-$(basename "$f" .json)"; done
)
n=0
for name in $names; do
  "$bin" render "$name" --step end --width 736 --page ../../index.html -o "static/posters/$name.svg"
  n=$((n + 1))
done
"$bin" render future-pins-retention --step end --panels retention --width 880 \
  -o docs/pictures/pinned-retention.svg
"$bin" render lookup-scan --step end --lookup 2025-11-04T10:00:05Z --panels lookup --width 880 \
  -o docs/pictures/lookup-scan.svg
"$bin" render incident-08-event-time-downstream-walkthrough --step end --panels lane --width 880 \
  -o docs/pictures/event-time-lane.svg
echo "wrote $n posters in static/posters/ and 3 pictures in docs/pictures/"
