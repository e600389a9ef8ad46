#!/usr/bin/env bash
# Measures `logtime inspect` on one large segment: wall time, peak memory (max RSS) and speed
# beside `cat`'s on the same file in the same run (both from the page cache: the file is read
# once before either is timed); then a broker log directory of 1,000 partitions.
#   [RUNS=3] [BEFORE=path/to/an/older/logtime] scripts/measure-import.sh [MIB] [RECORDS_PER_BATCH] [VALUE_BYTES] [PARTITIONS] [PARTITION_MIB]
# BEFORE times another build of logtime beside this one in each run (and checks that its report
# is byte-identical), so a change's before and after share the machine's load.
# Default: a 1024 MiB segment of 16-record batches of 1000-byte values (about 16 KB a batch, a
# common producer batch). The segment is written to a temporary folder with Python's standard
# library only: one v2 batch (CRC-32C computed here) repeated with increasing base offsets (the
# base offset is outside the CRC), stamps one second apart per batch. The directory holds
# PARTITIONS (1000) folders of one PARTITION_MIB (1) MiB segment each, built the same way.
set -euo pipefail
cd "$(dirname "$0")/.."
mib="${1:-1024}"
per_batch="${2:-16}"
value="${3:-1000}"
partitions="${4:-1000}"
part_mib="${5:-1}"
dir="$(mktemp -d)/bench-0"
mkdir -p "$dir"
python3 - "$dir/00000000000000000000.log" "$mib" "$per_batch" "$value" <<'EOF'
import struct, sys
path, mib, n, vbytes = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
T = [0] * 256
for i in range(256):
    c = i
    for _ in range(8):
        c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
    T[i] = c
def crc32c(b):
    c = 0xFFFFFFFF
    for x in b:
        c = T[(c ^ x) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF
def varint(v):
    v = (v << 1) ^ (v >> 63)
    out = bytearray()
    while v >= 0x80:
        out.append((v & 0x7F) | 0x80)
        v >>= 7
    out.append(v)
    return bytes(out)
def batch(base_ts):
    recs = bytearray()
    for i in range(n):
        body = b"\x00" + varint(0) + varint(i) + varint(-1) + varint(vbytes) + bytes(vbytes) + varint(0)
        recs += varint(len(body)) + body
    after_crc = struct.pack(">hiqqqhii", 0, n - 1, base_ts, base_ts, -1, -1, -1, n) + recs
    head = struct.pack(">qiib", 0, 4 + 1 + 4 + len(after_crc), 0, 2)
    return bytearray(head + struct.pack(">I", crc32c(after_crc)) + after_crc)
t0 = 1_804_928_400_000
tmpl = batch(t0)
size = len(tmpl)
count = mib * 1024 * 1024 // size
with open(path, "wb") as f:
    buf = bytearray()
    for k in range(count):
        struct.pack_into(">q", tmpl, 0, k * n)
        buf += tmpl
        if len(buf) > (8 << 20):
            f.write(buf)
            buf.clear()
    f.write(buf)
print(f"segment: {count} batches of {n} records ({size} bytes each), {count * size} bytes, {count * n} records")
EOF
cargo build --release -p logtime-cli --quiet
seg="$dir/00000000000000000000.log"
bytes=$(stat -c %s "$seg")
now() { date +%s.%N; }
speed() { python3 -c "import sys; b,t=int(sys.argv[1]),float(sys.argv[2]); print(f'{t:.2f} s, {b/t/1e9:.2f} GB/s')" "$@"; }
cat "$seg" >/dev/null
/usr/bin/time -v target/release/logtime inspect "$dir" --now 2027-03-20T00:00:00Z >/dev/null 2>"$dir/../time.txt"
grep -E "Maximum resident" "$dir/../time.txt"
# RUNS pairs, cat then inspect, each with its wall time and the CPU time it used (user + sys):
# on a machine shared with other work the wall times swing, the CPU times much less.
timed() { /usr/bin/time -f "%e %U %S" "$@" 2>&1 >/dev/null | tail -1; }
line() {
  python3 - "$bytes" "$@" <<'PY'
import sys
b, name, cw, w, u, s = int(sys.argv[1]), sys.argv[2], *map(float, sys.argv[3:])
cw, w = max(cw, 0.01), max(w, 0.01)
tail = "" if name == "cat" else f": {cw/w*100:.0f}% of cat's speed"
print(f"{name + ':':9}{w:.2f} s, {b/w/1e9:.2f} GB/s (cpu user {u:.2f} s + sys {s:.2f} s){tail}")
PY
}
if [ -n "${BEFORE:-}" ]; then
  "$BEFORE" inspect "$dir" --now 2027-03-20T00:00:00Z >"$dir/../before.txt"
  target/release/logtime inspect "$dir" --now 2027-03-20T00:00:00Z >"$dir/../after.txt"
  cmp "$dir/../before.txt" "$dir/../after.txt" && echo "reports of before and after: byte-identical"
fi
for run in $(seq 1 "${RUNS:-3}"); do
  echo "run $run, load average $(cut -d' ' -f1-3 /proc/loadavg)"
  read -r cw cu cs < <(timed cat "$seg")
  line cat "$cw" "$cw" "$cu" "$cs"
  if [ -n "${BEFORE:-}" ]; then
    read -r bw bu bs < <(timed "$BEFORE" inspect "$dir" --now 2027-03-20T00:00:00Z)
    line before "$cw" "$bw" "$bu" "$bs"
  fi
  read -r iw iu is < <(timed target/release/logtime inspect "$dir" --now 2027-03-20T00:00:00Z)
  line inspect "$cw" "$iw" "$iu" "$is"
done
rm -rf "$(dirname "$dir")"

# A broker directory: PARTITIONS folders of one segment each.
logdir="$(mktemp -d)/kafka-logs"
mkdir -p "$logdir"
python3 - "$logdir" "$partitions" "$part_mib" "$per_batch" "$value" <<'EOF'
import os, struct, sys
logdir, parts, mib, n, vbytes = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
T = [0] * 256
for i in range(256):
    c = i
    for _ in range(8):
        c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
    T[i] = c
def crc32c(b):
    c = 0xFFFFFFFF
    for x in b:
        c = T[(c ^ x) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF
def varint(v):
    v = (v << 1) ^ (v >> 63)
    out = bytearray()
    while v >= 0x80:
        out.append((v & 0x7F) | 0x80)
        v >>= 7
    out.append(v)
    return bytes(out)
recs = bytearray()
for i in range(n):
    body = b"\x00" + varint(0) + varint(i) + varint(-1) + varint(vbytes) + bytes(vbytes) + varint(0)
    recs += varint(len(body)) + body
t0 = 1_804_928_400_000
after_crc = struct.pack(">hiqqqhii", 0, n - 1, t0, t0, -1, -1, -1, n) + recs
head = struct.pack(">qiib", 0, 4 + 1 + 4 + len(after_crc), 0, 2)
tmpl = bytearray(head + struct.pack(">I", crc32c(after_crc)) + after_crc)
count = max(1, mib * 1024 * 1024 // len(tmpl))
buf = bytearray()
for k in range(count):
    struct.pack_into(">q", tmpl, 0, k * n)
    buf += tmpl
total = 0
for p in range(parts):
    d = os.path.join(logdir, f"topic{p // 100}-{p % 100}")
    os.mkdir(d)
    with open(os.path.join(d, "00000000000000000000.log"), "wb") as f:
        f.write(buf)
    total += len(buf)
print(f"log directory: {parts} partitions of {len(buf)} bytes, {total} bytes")
EOF
dir_bytes=$(du -sb "$logdir" | cut -f1)
cat "$logdir"/*/*.log >/dev/null
t4=$(now)
target/release/logtime inspect "$logdir" --now 2027-03-20T00:00:00Z >/dev/null
t5=$(now)
dir_s=$(python3 -c "print($t5-$t4)")
echo "log directory of $partitions partitions: $(speed "$dir_bytes" "$dir_s")"
python3 -c "import sys; b,t=int(sys.argv[1]),float(sys.argv[2]); s=100e9/(b/t); print(f'100 GB at that speed: {s:.0f} s ({s/60:.1f} min)')" "$dir_bytes" "$dir_s"
rm -rf "$(dirname "$logdir")"
