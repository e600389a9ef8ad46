#!/usr/bin/env bash
# Builds the explorer (release, offline) and serves dist/ on 127.0.0.1.
# Usage: scripts/serve.sh [PORT]   (default 8080, or the first free port after it)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export PATH="$HOME/.cargo/bin:$ROOT/tests/e2e/node_modules/.bin:$PATH"

bash scripts/setup.sh
echo "[serve] trunk build --release --offline"
trunk build --release --offline

port_free() {
  python3 - "$1" <<'PY'
import socket, sys
s = socket.socket()
try:
    s.bind(("127.0.0.1", int(sys.argv[1])))
except OSError:
    sys.exit(1)
finally:
    s.close()
PY
}

if [ $# -ge 1 ]; then
  PORT="$1"
  port_free "$PORT" || { echo "[serve] port $PORT is in use" >&2; exit 1; }
else
  PORT=8080
  while ! port_free "$PORT"; do
    PORT=$((PORT + 1))
    [ "$PORT" -le 8180 ] || { echo "[serve] no free port in 8080-8180" >&2; exit 1; }
  done
fi

echo "Logtime explorer: http://127.0.0.1:${PORT}/"
echo "Embedding example: http://127.0.0.1:${PORT}/embed-example.html"
echo "(Ctrl-C to stop)"
# python's http.server knows .wasm → application/wasm (3.8+).
exec python3 -m http.server "$PORT" --bind 127.0.0.1 --directory dist
