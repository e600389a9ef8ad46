#!/usr/bin/env bash
# Installs everything Logtime's build and tests need on a fresh Debian 12 machine with
# Rust stable. Idempotent: each step is skipped when already present, so on a set-up
# machine this takes a second or two. Worst case (nothing installed) ~20 min on 2 cores.
#
# Installs: wasm32 target, trunk 0.21.14, wasm-bindgen-cli (= Cargo.lock's wasm-bindgen),
# chromium + chromium-driver (apt), tests/e2e npm packages (playwright-core, axe-core,
# binaryen for wasm-opt), and, when the Kafka oracle is present (../shared/kafka-oracle or
# $LOGTIME_ORACLE), the Java runtime and jars its README names (apt).
#
# Source it (`. scripts/setup.sh`) or run it; scripts that build put
# tests/e2e/node_modules/.bin (wasm-opt) and ~/.cargo/bin on PATH themselves.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TRUNK_VERSION="0.21.14"
export PATH="$HOME/.cargo/bin:$ROOT/tests/e2e/node_modules/.bin:$PATH"

say() { printf '[setup] %s\n' "$*"; }

# --- Rust wasm target ---------------------------------------------------------------
if rustup target list --installed 2>/dev/null | grep -qx 'wasm32-unknown-unknown'; then
  say "wasm32-unknown-unknown target: present"
else
  say "adding rust target wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi

# --- Trunk --------------------------------------------------------------------------
if command -v trunk >/dev/null && trunk --version 2>/dev/null | grep -q " ${TRUNK_VERSION}\$"; then
  say "trunk ${TRUNK_VERSION}: present"
else
  say "installing trunk ${TRUNK_VERSION} (cargo install --locked; ~10 min on 2 cores)"
  cargo install trunk --version "${TRUNK_VERSION}" --locked
fi

# --- wasm-bindgen CLI: exactly the version in Cargo.lock ------------------------------
WBG_VERSION="$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' "$ROOT/Cargo.lock")"
if [ -z "${WBG_VERSION}" ]; then
  echo "[setup] ERROR: no wasm-bindgen in Cargo.lock" >&2
  exit 1
fi
TRUNK_PIN="$(sed -n 's/^wasm_bindgen *= *"\(.*\)".*/\1/p' "$ROOT/Trunk.toml" || true)"
if [ -n "${TRUNK_PIN}" ] && [ "${TRUNK_PIN}" != "${WBG_VERSION}" ]; then
  echo "[setup] ERROR: Trunk.toml pins wasm_bindgen ${TRUNK_PIN} but Cargo.lock has ${WBG_VERSION}; make them equal" >&2
  exit 1
fi
if command -v wasm-bindgen >/dev/null && [ "$(wasm-bindgen --version | awk '{print $2}')" = "${WBG_VERSION}" ] \
  && command -v wasm-bindgen-test-runner >/dev/null; then
  say "wasm-bindgen-cli ${WBG_VERSION}: present"
else
  # Not --locked: its lock file names a crate version the registry lacks.
  say "installing wasm-bindgen-cli ${WBG_VERSION} (no --locked; ~6 min on 2 cores)"
  cargo install wasm-bindgen-cli --version "${WBG_VERSION}" --force
fi

# --- Chromium + chromedriver ------------------------------------------------------------
if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; then
  say "chromium + chromedriver: present"
else
  say "installing chromium chromium-driver (apt)"
  SUDO=""
  if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -q
  $SUDO apt-get install -y -q chromium chromium-driver </dev/null
fi

# --- node packages for e2e tests and wasm-opt -------------------------------------------
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  say "installing nodejs npm (apt)"
  SUDO=""
  if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -q
  $SUDO apt-get install -y -q nodejs npm </dev/null
fi
E2E="$ROOT/tests/e2e"
# Present when every devDependency is installed at exactly the version package.json names.
if (cd "$E2E" && node -e '
    const deps = require("./package.json").devDependencies;
    for (const [name, want] of Object.entries(deps)) {
      let have; try { have = require(`./node_modules/${name}/package.json`).version; } catch { process.exit(1); }
      if (have !== want) process.exit(1);
    }') 2>/dev/null && [ -x "$E2E/node_modules/.bin/wasm-opt" ]; then
  say "tests/e2e node_modules: present"
else
  say "npm ci in tests/e2e (playwright-core, axe-core, binaryen)"
  (cd "$E2E" && npm ci --no-audit --no-fund)
fi

# --- Kafka oracle's runtime (only when the oracle is there) -------------------------------
# The packages its README names; they provide every jar of its lib/classpath.
ORACLE="${LOGTIME_ORACLE:-$ROOT/../shared/kafka-oracle}"
ORACLE_PKGS=(default-jre-headless libjackson2-databind-java libslf4j-java liblz4-java libsnappy-java libzstd-jni-java)
if [ ! -x "$ORACLE/oracle-bin" ]; then
  say "kafka oracle: not present at $ORACLE (kafka-diff will be skipped)"
elif command -v java >/dev/null && dpkg-query -W -f='${Status}\n' "${ORACLE_PKGS[@]}" 2>/dev/null \
    | grep -c '^install ok installed$' | grep -qx "${#ORACLE_PKGS[@]}"; then
  say "kafka oracle runtime (java + jars): present"
else
  say "installing the kafka oracle's runtime (apt): ${ORACLE_PKGS[*]}"
  SUDO=""
  if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -q
  $SUDO apt-get install -y -q -o DPkg::Lock::Timeout=300 "${ORACLE_PKGS[@]}" </dev/null
fi

say "wasm-opt: $(wasm-opt --version)"
say "done"
