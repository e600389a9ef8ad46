//! Arbitrary `.index` and `.timeindex` bytes beside a real segment: parsing never panics, and
//! comparing them with Kafka's rules and building the partition either uses them (when they fit
//! the batches) or falls back to the rules' indexes, the partition's invariants holding.
#![no_main]

use libfuzzer_sys::fuzz_target;
use logtime_core::import::{
    parse_offset_index, parse_time_index, read_log, PartitionImport, SegmentLogBuilder,
};
use logtime_model::{Config, KafkaVersion, Offset, OffsetSpec, Timestamp};

const LOG: &[u8] = include_bytes!("../../tests/import/kafka/lookup-out-of-order/live/clicks-0/00000000000000000000.log");

fuzz_target!(|data: &[u8]| {
    let Some((&split, rest)) = data.split_first() else {
        return;
    };
    let at = (split as usize * 4).min(rest.len());
    let (oi, ti) = rest.split_at(at);
    let base = Offset(0);
    let oi = parse_offset_index(base, oi);
    let ti = parse_time_index(base, ti);
    for n in oi.notes.iter().chain(&ti.notes) {
        let _ = n.to_string();
    }
    let (batches, end) = read_log(LOG);
    let mut seg = SegmentLogBuilder::new(base);
    for b in batches {
        seg.push(b);
    }
    let mut import = PartitionImport::new("fuzz-0", Config::defaults(KafkaVersion::V3_6));
    import.add_log(base, seg.finish(end), None);
    import.add_offset_index(base, oi);
    import.add_time_index(base, ti);
    let imported = import
        .finish(Timestamp(1_800_000_000_000), None)
        .expect("a valid log imports whatever its indexes");
    imported.partition.check_invariants();
    for t in [0, 1_762_250_402_000, 1_762_250_409_000] {
        let _ = imported.partition.lookup(OffsetSpec::Timestamp(Timestamp(t)));
    }
});
