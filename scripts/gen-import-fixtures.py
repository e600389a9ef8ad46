#!/usr/bin/env python3
"""Writes the segment-file fixtures under tests/import/encoded/ with an encoder independent of
Logtime: the record batch builders of the PyPI package kafka-python (v2 `DefaultRecordBatchBuilder`,
v0/v1 `LegacyRecordBatchBuilder`), with gzip, snappy, lz4 and zstd compression.

Run by hand when the fixtures change (the tests only read the committed files):

    python3 -m venv /tmp/venv && /tmp/venv/bin/pip install kafka-python lz4 python-snappy zstandard crc32c xxhash
    /tmp/venv/bin/python scripts/gen-import-fixtures.py

A producer's builder leaves the broker's part undone, so this script does it the way a broker's
append does: it assigns offsets (the v2 baseOffset, a v0/v1 message's offset field, a compressed
v0/v1 wrapper's offset = its last inner offset), sets the wrapper's timestamp to the largest inner
one, and, under LogAppendTime, sets the attribute bit and maxTimestamp (recomputing the CRC).

Each folder gets NNNNNNNNNNNNNNNNNNNN.log and expected.json: per batch the position, size, magic,
codec, offsets, max timestamp and every record's timestamp as a reader sees it, plus for damaged
copies the valid size Kafka's recovery keeps and the position of the first invalid batch.
"""

import json
import os
import struct
import zlib

import crc32c
from kafka.record.default_records import DefaultRecordBatchBuilder
from kafka.record.legacy_records import LegacyRecordBatchBuilder

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "import", "encoded")
T0 = 1_804_928_400_000  # 2027-03-13T09:00:00Z
CODECS = {"none": 0, "gzip": 1, "snappy": 2, "lz4": 3, "zstd": 4}


def value(i, n):
    # Repetitive, so every codec actually compresses (the builder sends uncompressed otherwise).
    return (b"logtime-%03d " % i) * n


class Segment:
    def __init__(self, base):
        self.base = base
        self.next = base
        self.data = bytearray()
        self.batches = []

    def add(self, raw, magic, codec, first, last, max_ts, stamps, log_append_time=False):
        self.batches.append({
            "position": len(self.data), "size": len(raw), "magic": magic, "codec": codec,
            "base_offset": first, "last_offset": last, "max_timestamp": max_ts,
            "timestamps": stamps, "log_append_time": log_append_time,
        })
        self.data += raw
        self.next = last + 1

    def v2(self, codec, records, log_append_time=None, producer=(-1, -1, -1)):
        """records: [(timestamp, key, value, headers)]"""
        b = DefaultRecordBatchBuilder(2, CODECS[codec], False, producer[0], producer[1],
                                      producer[2], 1 << 20)
        for i, (ts, key, val, headers) in enumerate(records):
            assert b.append(i, ts, key, val, headers) is not None
        raw = bytearray(b.build())
        first = self.next
        struct.pack_into(">q", raw, 0, first)  # baseOffset, assigned by the broker
        max_ts = max([-1] + [r[0] for r in records])
        stamps = [r[0] for r in records]
        if log_append_time is not None:
            attrs = struct.unpack_from(">h", raw, 21)[0] | 0x08
            struct.pack_into(">h", raw, 21, attrs)
            struct.pack_into(">q", raw, 35, log_append_time)
            struct.pack_into(">I", raw, 17, crc32c.crc32c(bytes(raw[21:])))
            max_ts = log_append_time
            stamps = [log_append_time] * len(records)
        assert (struct.unpack_from(">h", raw, 21)[0] & 7) == CODECS[codec], "compressed"
        self.add(bytes(raw), 2, codec, first, first + len(records) - 1, max_ts, stamps,
                 log_append_time is not None)

    def legacy(self, magic, codec, records):
        """records: [(timestamp, key, value)]; one message each when uncompressed."""
        first = self.next
        if codec == "none":
            for i, (ts, key, val) in enumerate(records):
                b = LegacyRecordBatchBuilder(magic, 0, 1 << 20)
                assert b.append(first + i, ts, key, val) is not None
                ts_read = ts if magic == 1 else -1
                self.add(bytes(b.build()), magic, codec, first + i, first + i, ts_read, [ts_read])
            return
        b = LegacyRecordBatchBuilder(magic, CODECS[codec], 1 << 20)
        for i, (ts, key, val) in enumerate(records):
            # v1 inner offsets are relative to the wrapper, v0 inner offsets absolute.
            assert b.append(i if magic == 1 else first + i, ts, key, val) is not None
        raw = bytearray(b.build())
        last = first + len(records) - 1
        struct.pack_into(">q", raw, 0, last)
        max_ts = max(r[0] for r in records) if magic == 1 else -1
        if magic == 1:
            struct.pack_into(">q", raw, 18, max_ts)
            struct.pack_into(">I", raw, 12, zlib.crc32(bytes(raw[16:])) & 0xFFFFFFFF)
        stamps = [r[0] if magic == 1 else -1 for r in records]
        assert raw[17] & 7 == CODECS[codec]
        self.add(bytes(raw), magic, codec, first, last, max_ts, stamps)

    def write(self, name, damage=None, data=None):
        d = os.path.join(ROOT, name)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "%020d.log" % self.base), "wb") as f:
            f.write(self.data if data is None else data)
        batches = self.batches
        valid = len(self.data)
        if damage is not None:
            valid = damage["position"]
            batches = [b for b in batches if b["position"] < valid]
        with open(os.path.join(d, "expected.json"), "w") as f:
            json.dump({"base_offset": self.base, "valid_bytes": valid, "damage": damage,
                       "batches": batches}, f, indent=1)
            f.write("\n")


def v2_segment():
    s = Segment(1_843_200)
    s.v2("none", [(T0, None, value(0, 3), []), (T0 + 5, b"", value(1, 3), [("h", b"v")])])
    s.v2("gzip", [(T0 + 1000 + i, b"k%d" % i, value(i, 20), []) for i in range(5)])
    s.v2("snappy", [(T0 + 3000 - i, None, value(i, 20), [("trace", b"abc")]) for i in range(4)])
    s.v2("lz4", [(T0 + 4000, b"key", value(i, 20), []) for i in range(6)])
    s.v2("zstd", [(T0 + 5000 + 7 * i, None, value(i, 20), []) for i in range(3)])
    # A record without a timestamp inside a stamped batch (a negative delta).
    s.v2("gzip", [(T0 + 6000, None, value(1, 20), []), (-1, None, value(2, 20), [])])
    # LogAppendTime set by the broker on a compressed batch: records read the append time.
    s.v2("gzip", [(T0 - 86_400_000, None, value(i, 20), []) for i in range(3)],
         log_append_time=T0 + 7000)
    # An idempotent producer's batch.
    s.v2("snappy", [(T0 + 8000, None, value(i, 20), []) for i in range(2)], producer=(42, 0, 7))
    return s


def legacy_segment():
    s = Segment(0)
    s.legacy(0, "none", [(-1, None, value(0, 2)), (-1, b"k", value(1, 2))])
    s.legacy(0, "gzip", [(-1, None, value(i, 20)) for i in range(3)])
    s.legacy(0, "snappy", [(-1, b"", value(i, 20)) for i in range(2)])
    s.legacy(0, "lz4", [(-1, None, value(i, 20)) for i in range(2)])  # KAFKA-3160 checksum
    s.legacy(1, "none", [(T0 + i, None, value(i, 2)) for i in range(2)])
    s.legacy(1, "gzip", [(T0 + 100 - i, b"k", value(i, 20)) for i in range(4)])
    s.legacy(1, "snappy", [(T0 + 200 + i, None, value(i, 20)) for i in range(3)])
    s.legacy(1, "lz4", [(T0 + 300, None, value(i, 20)) for i in range(2)])
    return s


def main():
    v2_segment().write("v2-compressed")
    legacy_segment().write("legacy-v0-v1")

    # Damage: a write cut short inside the last batch.
    s = v2_segment()
    last = s.batches[-1]
    cut = bytes(s.data[: last["position"] + last["size"] // 2])
    s.write("truncated-tail", {"position": last["position"], "kind": "truncated"}, cut)

    # A flipped byte inside the fourth batch's records: its CRC-32C no longer matches.
    s = v2_segment()
    b = s.batches[3]
    data = bytearray(s.data)
    data[b["position"] + 70] ^= 0xFF
    s.write("flipped-crc", {"position": b["position"], "kind": "crc_mismatch"}, bytes(data))

    # A legacy message with a flipped value byte: its CRC-32 no longer matches.
    s = legacy_segment()
    b = s.batches[5]
    data = bytearray(s.data)
    data[b["position"] + b["size"] - 3] ^= 0x01
    s.write("legacy-flipped-crc", {"position": b["position"], "kind": "crc_mismatch"}, bytes(data))

    # A size field below the minimum record overhead after the second batch (zeros written
    # over the rest of the file, as a crash can leave a preallocated file).
    s = v2_segment()
    b = s.batches[2]
    data = bytes(s.data[: b["position"]]) + bytes(64)
    s.write("zeroed-tail", {"position": b["position"], "kind": "size_too_small"}, data)


if __name__ == "__main__":
    main()
