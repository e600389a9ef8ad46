//! Arbitrary bytes as a segment's `.log`: reading never panics, gives the same batches in any
//! chunking, stops with a byte position, and whatever imports satisfies the partition's
//! invariants and answers lookups and retention.
#![no_main]

use libfuzzer_sys::fuzz_target;
use logtime_core::import::{inspect, read_log, LogReader, PartitionImport, SegmentLogBuilder};
use logtime_model::{Config, KafkaVersion, Offset, OffsetSpec, Timestamp};

fuzz_target!(|data: &[u8]| {
    let Some((&chunk, bytes)) = data.split_first() else {
        return;
    };
    let (whole, end) = read_log(bytes);
    let mut reader = LogReader::new();
    let mut seg = SegmentLogBuilder::new(Offset(0));
    let mut chunked = Vec::new();
    for c in bytes.chunks(chunk as usize + 1) {
        reader.feed(c, &mut |b| {
            chunked.push(b.clone());
            seg.push(b)
        });
    }
    let end2 = reader.finish();
    assert_eq!(whole, chunked);
    assert_eq!(end, end2);
    assert!(end.valid_bytes <= end.file_bytes);
    if let Some(d) = &end.damage {
        assert_eq!(d.position, end.valid_bytes);
        let _ = d.to_string();
    }
    let mut import = PartitionImport::new("fuzz-0", Config::defaults(KafkaVersion::V3_6));
    import.add_log(Offset(0), seg.finish(end), None);
    if let Ok(imported) = import.finish(Timestamp(1_800_000_000_000), None) {
        imported.partition.check_invariants();
        let r = inspect(
            &imported,
            Timestamp(1_800_000_000_000),
            Some(OffsetSpec::Timestamp(Timestamp(1_700_000_000_000))),
        );
        let _ = r.summary("fuzz-0");
        let _ = imported.partition.offset_for(OffsetSpec::MaxTimestamp);
    }
});
