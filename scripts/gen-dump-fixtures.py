#!/usr/bin/env python3
"""Writes kafka-dump-log.sh text for some of the segment-file fixtures, under tests/import/dump/,
in the formats DumpLogSegments prints (read from its source: printBatchLevel, dumpLog, dumpIndex,
dumpTimeIndex), parsing the .log files with kafka-python's record classes (independent of
Logtime). Run by hand when the fixtures change:

    /tmp/venv/bin/python scripts/gen-dump-fixtures.py     (venv as in gen-import-fixtures.py)

Formats:
* 3x:  Kafka 3.x/4.x: `Log starting offset:`, a batch line with count, deleteHorizonMs and a
       lower-case codec; records (--deep-iteration) as `| offset: ... keySize: ... valueSize:`,
       with ` key: ... payload: ...` under --print-data-log.
* 2x:  Kafka 2.2-2.7: `Starting offset:`, no count/deleteHorizonMs, upper-case codec,
       `| offset: ... keysize: ... valuesize:` records.
* 1x:  Kafka 0.11-2.1 without --deep-iteration: one shallow line per batch naming only its
       last offset (`offset: N position: P CreateTime: T isvalid: true size: S magic: 2 ...`).
Index files are dumped as `offset: N position: P` and `timestamp: T offset: O` (absolute
offsets), stopping at the zero-filled tail as dumpIndex does (an empty preallocated file prints
its zero slot 0 as `(base offset, 0)`).
"""

import glob
import os
import struct

from kafka.record.default_records import DefaultRecordBatch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "tests", "import")
CODECS = {0: "none", 1: "gzip", 2: "snappy", 3: "lz4", 4: "zstd"}


def batches(path):
    data = open(path, "rb").read()
    pos = 0
    while pos + 12 <= len(data):
        size = struct.unpack_from(">i", data, pos + 8)[0] + 12
        if pos + size > len(data):
            break
        yield pos, DefaultRecordBatch(bytes(data[pos:pos + size]))
        pos += size


def ts_type(b):
    return "LogAppendTime" if b.timestamp_type == 1 else "CreateTime"


def dump_log(path, style, data_log=False, deep=False):
    base = int(os.path.basename(path).split(".")[0])
    out = ["Dumping %s" % path.split("tests/import/")[-1]]
    out.append(("Log starting offset: %d" if style == "3x" else "Starting offset: %d") % base)
    for pos, b in batches(path):
        codec = CODECS[b.compression_type]
        if style == "1x":
            out.append(
                "offset: %d position: %d %s: %d isvalid: true size: %d magic: 2 compresscodec: %s "
                "producerId: %d producerEpoch: %d sequence: %d isTransactional: %s headerKeys: []"
                % (b.last_offset, pos, ts_type(b), b.max_timestamp, b.size_in_bytes,
                   codec.upper(), b.producer_id, b.producer_epoch, b.base_sequence,
                   str(b.is_transactional).lower()))
            continue
        line = ("baseOffset: %d lastOffset: %d " % (b.base_offset, b.last_offset))
        if style == "3x":
            line += "count: %d " % b.records_count
        line += ("baseSequence: %d lastSequence: %d producerId: %d producerEpoch: %d "
                 "partitionLeaderEpoch: %d isTransactional: %s isControl: %s "
                 % (b.base_sequence, b.last_sequence, b.producer_id, b.producer_epoch,
                    b.leader_epoch, str(b.is_transactional).lower(),
                    str(b.is_control_batch).lower()))
        if style == "3x":
            line += "deleteHorizonMs: OptionalLong.empty "
        line += ("position: %d %s: %d size: %d magic: 2 compresscodec: %s crc: %d isvalid: true"
                 % (pos, ts_type(b), b.max_timestamp, b.size_in_bytes,
                    codec if style == "3x" else codec.upper(), b.crc))
        out.append(line)
        if not (deep or data_log):
            continue
        for r in b:
            k = len(r.key) if r.key is not None else -1
            v = len(r.value) if r.value is not None else -1
            sizes = ("keySize: %d valueSize: %d" if style == "3x" else "keysize: %d valuesize: %d")
            rec = "| offset: %d %s: %d %s sequence: %d headerKeys: [%s]" % (
                r.offset, ts_type(b), r.timestamp, sizes % (k, v),
                -1 if b.base_sequence < 0 else b.base_sequence + (r.offset - b.base_offset),
                ",".join(h[0] for h in r.headers))
            if data_log:
                if r.key is not None:
                    rec += " key: %s" % r.key.decode("latin-1")
                if r.value is not None:
                    rec += " payload: %s" % r.value.decode("latin-1")
            out.append(rec)
    return out


def dump_index(path):
    base = int(os.path.basename(path).split(".")[0])
    data = open(path, "rb").read()
    out = ["Dumping %s" % path.split("tests/import/")[-1]]
    n = len(data) // 8
    if n == 0:
        return out + ["%s is empty." % path.split("tests/import/")[-1]]
    for i in range(n):
        rel, pos = struct.unpack_from(">ii", data, i * 8)
        if rel == 0 and i > 0:
            break
        out.append("offset: %d position: %d" % (base + rel, pos))
    return out


def dump_time_index(path):
    base = int(os.path.basename(path).split(".")[0])
    data = open(path, "rb").read()
    out = ["Dumping %s" % path.split("tests/import/")[-1]]
    for i in range(len(data) // 12):
        ts, rel = struct.unpack_from(">qi", data, i * 12)
        if rel == 0 and i > 0:
            break
        out.append("timestamp: %d offset: %d" % (ts, base + rel))
    return out


def partition(folder, style, deep=False, data_log=False, indexes=True):
    lines = []
    for log in sorted(glob.glob(os.path.join(ROOT, folder, "*.log"))):
        lines += dump_log(log, style, data_log=data_log, deep=deep)
        stem = log[:-4]
        if indexes and os.path.exists(stem + ".index"):
            lines += dump_index(stem + ".index")
            lines += dump_time_index(stem + ".timeindex")
    return "\n".join(lines) + "\n"


def main():
    out = os.path.join(ROOT, "dump")
    os.makedirs(out, exist_ok=True)
    jobs = {
        "lookup-out-of-order-live-3x.txt": ("kafka/lookup-out-of-order/live/clicks-0", "3x", False, False),
        "lookup-out-of-order-live-3x-deep.txt": ("kafka/lookup-out-of-order/live/clicks-0", "3x", True, False),
        "no-timestamp-and-keys-closed-3x-data.txt": ("kafka/no-timestamp-and-keys/closed/clicks-0", "3x", True, True),
        "log-append-time-live-2x-deep.txt": ("kafka/log-append-time/live/clicks-0", "2x", True, False),
        "pinned-retention-closed-1x.txt": ("kafka/pinned-retention/closed/clicks-0", "1x", False, False),
        "far-offsets-closed-3x.txt": ("kafka/far-offsets/closed/clicks-0", "3x", False, False),
        "v2-compressed-3x-data.txt": ("encoded/v2-compressed", "3x", True, True),
    }
    for name, (folder, style, deep, data_log) in jobs.items():
        with open(os.path.join(out, name), "w", encoding="latin-1") as f:
            f.write(partition(folder, style, deep=deep, data_log=data_log))


if __name__ == "__main__":
    main()
