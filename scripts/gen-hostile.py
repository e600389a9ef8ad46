#!/usr/bin/env python3
"""Hostile inputs for scripts/measure-core.sh (issue 41), standard library only.

    gen-hostile.py CASE OUT_DIR

Each case writes small files (sparse where large) under OUT_DIR/CASE and prints the command
arguments to give `logtime`, one per line. Batches are Kafka v2 record batches with a valid
CRC-32C; the CRC leaves out the base offset, so one batch body serves every offset.
"""
import gzip, json, os, struct, sys

def crc32c(data, _t=[]):
    if not _t:
        for i in range(256):
            c = i
            for _ in range(8):
                c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
            _t.append(c)
    c = 0xFFFFFFFF
    for b in data:
        c = _t[(c ^ b) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF

def varint(n):
    n = (n << 1) ^ (n >> 63)
    out = bytearray()
    while True:
        if n < 0x80:
            out.append(n)
            return bytes(out)
        out.append((n & 0x7F) | 0x80)
        n >>= 7

def record(i):
    body = b"\x00" + varint(0) + varint(i) + varint(-1) + varint(-1) + varint(0)
    return varint(len(body)) + body

T0 = 1_804_842_000_000

def batch(base, count, records, codec=0):
    """A v2 batch of `count` offsets starting at `base` over the given records section."""
    after_crc = struct.pack(">hiqqqhii", codec, count - 1, T0, T0, -1, -1, -1, count) + records
    crc = crc32c(after_crc)
    length = 4 + 1 + 4 + len(after_crc)
    return struct.pack(">qiibI", base, length, 0, 2, crc) + after_crc

def rebase(b, base):
    return struct.pack(">q", base) + b[8:]

def main():
    case, out = sys.argv[1], sys.argv[2]
    d = os.path.join(out, case)
    os.makedirs(d, exist_ok=True)
    seg = lambda base=0, ext="log": os.path.join(d, f"{base:020d}.{ext}")
    if case == "variant-bomb":
        big = "x" * 1_000_000
        lesson = {"title": "hostile", "start": "2027-03-12T09:00:00Z",
                  "variants": {"big": {"choices": [big]}},
                  "steps": [{"note": "${big}" * 1000}]}
        p = os.path.join(d, "lesson.json")
        json.dump(lesson, open(p, "w"))
        print(p)
    elif case == "variants":
        # 1,000 variants, each putting 16 MB of text into one note.
        lesson = {"title": "hostile", "start": "2027-03-12T09:00:00Z",
                  "variants": {"big": {"choices": ["x" * 16_000]}, "n": {"from": 0, "to": 999}},
                  "steps": [{"note": "${big}" * 1000}]}
        p = os.path.join(d, "lesson.json")
        json.dump(lesson, open(p, "w"))
        print(p)
    elif case == "retention-1m":
        s = {"kafka": "3.6", "start": "2027-03-12T09:00:00Z",
             "topic": {"segment.bytes": 170, "retention.ms": -1},
             "steps": [{"produce": {"batches": 10_000, "every": "1ms",
                                    "records": [{"timestamp": "now"}]}}] * 100
                      + [{"retention": {}}]}
        p = os.path.join(d, "scenario.json")
        json.dump(s, open(p, "w"))
        print(p)
    elif case == "retention-checks":
        # 100,000 one-record segments under retention.bytes, then 1,000 rounds of one more batch
        # and five minutes: every scheduled check deletes the oldest segment and lists all
        # 100,000 verdicts (10 GB of report in all); each step is far under any per-step
        # limit, the replay is not.
        one = {"records": [{"timestamp": "now"}]}
        s = {"kafka": "3.6", "start": "2027-03-12T09:00:00Z",
             "topic": {"segment.bytes": 170, "retention.bytes": 17_000_000},
             "steps": [{"produce": {"batches": 100_000, "every": "1ms", **one}}]
                      + [{"produce": one}, {"advance": "5m"}] * 1_000}
        p = os.path.join(d, "scenario.json")
        json.dump(s, open(p, "w"))
        print(p)
    elif case == "retention-steps":
        # 1,000 retention steps over 1,000 segments rolled by time (segment.ms), which the
        # parser cannot count: the replay counts what they list in all.
        one = {"records": [{"timestamp": "now"}]}
        s = {"kafka": "3.6", "start": "2027-03-12T09:00:00Z",
             "topic": {"segment.ms": 1, "retention.ms": -1},
             "steps": [{"produce": {"batches": 1_000, "every": "2ms", **one}}]
                      + [{"retention": {}}] * 1_000}
        p = os.path.join(d, "scenario.json")
        json.dump(s, open(p, "w"))
        print(p)
    elif case == "header-counts":
        # 16 batches of 61 bytes, an unknown codec (7), each claiming 38 million records.
        n = (256 << 20) // 7
        b = batch(0, n, b"", codec=7)
        with open(seg(), "wb") as f:
            for i in range(16):
                f.write(rebase(b, i * n))
        print(seg())
    elif case == "gzip-bomb":
        # 400 batches, each 64 MiB of zeros gzipped (~64 KB): 26 MB that inflate to 25 GB.
        z = gzip.compress(b"\x00" * (64 << 20), 9)
        b = batch(0, 1000, z, codec=1)
        with open(seg(), "wb") as f:
            for i in range(400):
                f.write(rebase(b, i * 1000))
        print(seg())
    elif case == "huge-declared":
        # One header declaring 2 GiB - 1 over 512 MiB of zeros (sparse).
        with open(seg(), "wb") as f:
            f.write(struct.pack(">qiib", 0, 2**31 - 1, 0, 2))
            f.truncate(512 << 20)
        print(seg())
    elif case == "dev-zero-log":
        p = seg()
        if not os.path.lexists(p):
            os.symlink("/dev/zero", p)
        print(d)
    elif case == "fifo-log":
        p = seg()
        if not os.path.exists(p):
            os.mkfifo(p)
        print(d)
    elif case == "sparse-damaged":
        with open(seg(), "wb") as f:
            f.truncate(100 << 30)
        print(seg())
    elif case == "timeindex-2g":
        b = batch(0, 1, record(0))
        open(seg(), "wb").write(b)
        with open(seg(ext="timeindex"), "wb") as f:
            f.truncate(2**31 - 1)
        print(d)
    elif case == "segments-100k":
        b = batch(0, 1, record(0))
        for i in range(100_000):
            p = seg(i)
            if not os.path.exists(p):
                open(p, "wb").write(rebase(b, i))
        print(d)
    elif case == "dump-200k":
        # 200,000 empty sections of kafka-dump-log text (16 MB).
        p = os.path.join(d, "dump.txt")
        with open(p, "w") as f:
            for i in range(200_000):
                f.write(f"Dumping /var/lib/kafka/clicks-0/{i:020d}.log\nLog starting offset: {i}\n")
        print(p)
    elif case == "export-1m":
        recs = b"".join(record(i) for i in range(100))
        b = batch(0, 100, recs)
        with open(seg(), "wb") as f:
            for i in range(10_000):
                f.write(rebase(b, i * 100))
        print(d)
    else:
        sys.exit(f"unknown case {case}")

main()
