#!/usr/bin/env bash
# Measures `logtime inspect` on one large segment: wall time and peak memory (max RSS).
#   scripts/measure-import.sh [MIB] [RECORDS_PER_BATCH] [VALUE_BYTES]
# Default: a 1024 MiB segment of 16-record batches of 1000-byte values (about 16 KB a batch, a
# common producer batch). The segment is written to a temporary folder with Python's standard
# library only: one v2 batch (CRC-32C computed here) repeated with increasing base offsets (the
# base offset is outside the CRC), stamps one second apart per batch.
set -euo pipefail
cd "$(dirname "$0")/.."
mib="${1:-1024}"
per_batch="${2:-16}"
value="${3:-1000}"
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
/usr/bin/time -v target/release/logtime inspect "$dir" --now 2027-03-20T00:00:00Z >/dev/null 2>"$dir/../time.txt"
grep -E "Elapsed|Maximum resident" "$dir/../time.txt"
rm -rf "$(dirname "$dir")"
