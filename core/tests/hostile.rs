//! Hostile input (issue 41): small inputs that describe gigabytes or minutes of work are refused
//! early, naming the field and the limit, or read in bounded memory and time. The inputs are
//! generated here; none is a large fixture.

use logtime_core::import::{
    scenario_text, LogReader, PartitionImport, SegmentReader, MAX_UNREAD_RECORDS,
};
use logtime_core::scenario::{
    parse, Runner, MAX_REPLAY_VERDICTS, MAX_RETENTION_LISTING, MAX_SCENARIO_BYTES,
};
use logtime_model::{Config, KafkaVersion, Offset, Timestamp};
use serde_json::json;
use std::time::Instant;

const CRC32C: crc::Crc<u32> = crc::Crc::<u32>::new(&crc::CRC_32_ISCSI);

/// A v2 batch of `count` offsets from `base` over `records` (codec in the attributes).
fn batch(base: i64, count: i32, records: &[u8], codec: i16) -> Vec<u8> {
    let mut after = Vec::new();
    after.extend_from_slice(&codec.to_be_bytes());
    after.extend_from_slice(&(count - 1).to_be_bytes());
    after.extend_from_slice(&1_804_842_000_000i64.to_be_bytes());
    after.extend_from_slice(&1_804_842_000_000i64.to_be_bytes());
    after.extend_from_slice(&(-1i64).to_be_bytes());
    after.extend_from_slice(&(-1i16).to_be_bytes());
    after.extend_from_slice(&(-1i32).to_be_bytes());
    after.extend_from_slice(&count.to_be_bytes());
    after.extend_from_slice(records);
    let mut b = Vec::new();
    b.extend_from_slice(&base.to_be_bytes());
    b.extend_from_slice(&((4 + 1 + 4 + after.len()) as i32).to_be_bytes());
    b.extend_from_slice(&0i32.to_be_bytes());
    b.push(2);
    b.extend_from_slice(&CRC32C.checksum(&after).to_be_bytes());
    b.extend_from_slice(&after);
    b
}

/// Finding 2: retention steps over very many segments are refused before the replay.
#[test]
fn retention_listing_is_bounded() {
    let produce = json!({"produce": {"batches": 10_000, "every": "1ms",
        "records": [{"timestamp": "now"}]}});
    let mut steps = vec![produce; 21];
    steps.push(json!({"retention": {}}));
    let doc = json!({"kafka": "3.6", "start": "2027-03-12T09:00:00Z",
        "topic": {"segment.bytes": 170, "retention.ms": -1}, "steps": steps});
    let e = parse(&doc.to_string()).unwrap_err().to_string();
    assert!(e.starts_with("step 21: retention: "), "{e}");
    assert!(
        e.contains(&format!("may list at most {MAX_RETENTION_LISTING}")),
        "{e}"
    );
}

/// Replays `doc` step by step, keeping no report, to its first error.
fn replay_error(doc: &serde_json::Value) -> logtime_core::scenario::ScenarioError {
    let mut r = Runner::new(parse(&doc.to_string()).expect("parses"));
    while let Some(step) = r.step_summary() {
        if let Err(e) = step {
            return e;
        }
    }
    panic!("the replay finished");
}

/// Finding 2: scheduled checks over many segments, each step far under any per-step limit,
/// are bounded over the whole replay, naming the step and the limit.
#[test]
fn scheduled_checks_are_bounded_over_the_replay() {
    let one = json!({"records": [{"timestamp": "now"}]});
    let mut steps = vec![json!({"produce": {"batches": 100_000, "every": "1ms",
        "records": [{"timestamp": "now"}]}})];
    for _ in 0..60 {
        steps.push(json!({"produce": one}));
        steps.push(json!({"advance": "5m"}));
    }
    let doc = json!({"kafka": "3.6", "start": "2027-03-12T09:00:00Z",
        "topic": {"segment.bytes": 170, "retention.bytes": 17_000_000}, "steps": steps});
    let e = replay_error(&doc);
    let text = e.to_string();
    assert_eq!(e.field, "advance", "{text}");
    // About 100,000 verdicts a check: the 50th check (step 100) passes five million.
    assert_eq!(e.step, Some(100), "{text}");
    assert!(
        text.contains(&format!(
            "a replay may list at most {MAX_REPLAY_VERDICTS} in all"
        )),
        "{text}"
    );
}

/// Finding 2: retention steps over segments rolled by time (which the parser cannot count)
/// are counted together in the replay.
#[test]
fn retention_steps_are_bounded_over_the_replay() {
    let mut steps = vec![json!({"produce": {"batches": 1_000, "every": "2ms",
        "records": [{"timestamp": "now"}]}})];
    steps.extend(std::iter::repeat_n(json!({"retention": {}}), 1_000));
    let doc = json!({"kafka": "3.6", "start": "2027-03-12T09:00:00Z",
        "topic": {"segment.ms": 1, "retention.ms": -1}, "steps": steps});
    let e = replay_error(&doc);
    let text = e.to_string();
    assert_eq!(e.field, "retention", "{text}");
    assert!(
        text.contains(&format!(
            "a scenario's retention steps may list at most {MAX_RETENTION_LISTING}"
        )),
        "{text}"
    );
    // 1,000 segments a step: the 201st step passes 200,000.
    assert_eq!(e.step, Some(201), "{text}");
}

/// Finding 3: headers that claim millions of records each are bounded per segment.
#[test]
fn claimed_record_counts_are_bounded() {
    let n = MAX_UNREAD_RECORDS as i32;
    let b = batch(0, n, &[], 7);
    let mut r = SegmentReader::new(Offset(0));
    for i in 0..16i64 {
        let mut one = b.clone();
        one[..8].copy_from_slice(&(i * n as i64).to_be_bytes());
        r.feed(&one);
    }
    let log = r.finish();
    let p = log.problem.expect("refused");
    assert!(p.contains(&format!("at most {MAX_UNREAD_RECORDS}")), "{p}");
    assert!(log.timestamps.len() as i64 <= MAX_UNREAD_RECORDS);
}

/// Compaction gaps are bounded across batches: each batch may skip up to the per-batch bound,
/// but a file of many such batches would hold 8 bytes for every offset skipped.
#[test]
fn compaction_gaps_are_bounded_across_batches() {
    // One record: attributes, timestamp and offset deltas 0, null key and value, no headers.
    let record = [0x0c, 0, 0, 0, 1, 1, 0];
    let b = batch(0, 1, &record, 0);
    let mut r = SegmentReader::new(Offset(0));
    for i in 0..10i64 {
        let mut one = b.clone();
        one[..8].copy_from_slice(&(i * 10_000_000).to_be_bytes());
        r.feed(&one);
    }
    let log = r.finish();
    let p = log.problem.expect("refused");
    assert!(
        p.contains(&format!(
            "this segment's offsets removed by compaction count 39999996 by now; logtime holds at most {MAX_UNREAD_RECORDS} such offsets"
        )),
        "{p}"
    );
    assert!(log.timestamps.len() as i64 <= MAX_UNREAD_RECORDS);
}

/// Finding 5: one batch declared 2 GiB long is read in linear time (it was copied whole for
/// every chunk).
#[test]
fn a_huge_declared_batch_is_linear() {
    let mut r = LogReader::new();
    let mut header = vec![0u8; 17];
    header[8..12].copy_from_slice(&i32::MAX.to_be_bytes());
    header[16] = 2;
    r.feed(&header, &mut |_| {});
    let zeros = vec![0u8; 64 << 10];
    let t = Instant::now();
    for _ in 0..(128 << 20) / zeros.len() {
        r.feed(&zeros, &mut |_| {});
    }
    assert!(t.elapsed().as_secs() < 20, "{:?}", t.elapsed());
    let end = r.finish();
    assert!(end.damage.is_some());
    assert_eq!(end.valid_bytes, 0);
}

/// Finding 6 (core side): the rest of a damaged file can be counted without being read.
#[test]
fn a_stopped_reader_counts_what_it_skips() {
    let mut r = SegmentReader::new(Offset(0));
    r.feed(&[0u8; 64]);
    assert!(r.stopped());
    r.skip(100 << 30);
    let log = r.finish();
    assert_eq!(log.end.file_bytes, 64 + (100 << 30));
    assert_eq!(log.end.valid_bytes, 0);
}

/// Finding 8: segments are found by base offset in constant time.
#[test]
fn many_segments_import_in_linear_time() {
    let one = batch(0, 1, &[], 0);
    let mut import = PartitionImport::new("p-0", Config::defaults(KafkaVersion::V3_6));
    let t = Instant::now();
    for i in 0..20_000i64 {
        let mut r = SegmentReader::new(Offset(i));
        let mut b = one.clone();
        b[..8].copy_from_slice(&i.to_be_bytes());
        r.feed(&b);
        import.add_log(Offset(i), r.finish(), Some(Timestamp(1_804_842_000_000)));
    }
    assert!(t.elapsed().as_secs() < 30, "{:?}", t.elapsed());
}

/// Finding 9: an export is a file `run` reads back: pretty, compact, or refused with its size.
#[test]
fn exports_fit_a_scenario_or_are_refused() {
    let doc = json!({"start": "2027-03-12T09:00:00Z", "steps": [
        {"produce": {"batches": 2_000, "every": "1ms", "records": [{"timestamp": "now"}]}}]});
    let s = parse(&doc.to_string()).unwrap();
    let mut runner = Runner::new(s);
    while let Some(step) = runner.step(&mut |_| {}) {
        step.unwrap();
    }
    let text = scenario_text(runner.partition(), "t").unwrap();
    assert!(text.len() as u64 <= MAX_SCENARIO_BYTES);
    assert!(text.contains("\n  \""), "small exports stay pretty");
    assert!(parse(&text).is_ok());
}

/// Finding 13: a key named twice is refused, naming it.
#[test]
fn duplicate_keys_are_refused() {
    let text = r#"{"start": "2027-03-12T09:00:00Z", "steps": [{"advance": "1s"}], "steps": []}"#;
    let e = parse(text).unwrap_err().to_string();
    assert!(e.contains("duplicate key \"steps\""), "{e}");
    // The lesson parser's half of this finding is in lesson/tests/hostile.rs.
}

/// Finding 14: a number of ms past the 64-bit range says so, not "expected '-'".
#[test]
fn out_of_range_times_say_so() {
    let doc = json!({"start": "2027-03-12T09:00:00Z",
        "steps": [{"lookup": {"timestamp": "99999999999999999999"}}]});
    let e = parse(&doc.to_string()).unwrap_err().to_string();
    assert!(
        e.contains("is out of range: ms since the epoch are a 64-bit integer"),
        "{e}"
    );
}

/// Finding 14: snappy's errors read "snappy: ..." once.
#[cfg(feature = "codecs")]
#[test]
fn snappy_errors_are_prefixed_once() {
    use logtime_core::import::{read_log, Records};
    let (batches, _) = read_log(&batch(0, 2, &[5, 0x10, b'a'], 2));
    let Records::NotExpanded { why } = &batches[0].records else {
        panic!("garbage does not expand");
    };
    let why = why.to_string();
    assert!(
        why.contains("snappy: ") && !why.contains("snappy: snappy:"),
        "{why}"
    );
}

/// Finding 4: a file's batches may inflate to 64 times its bytes (plus 256 MiB) in all.
#[cfg(feature = "codecs")]
#[test]
fn decompression_is_bounded_per_file() {
    use logtime_core::import::MAX_INFLATION;
    use std::io::Write;
    let mut z = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    z.write_all(&vec![0u8; 16 << 20]).unwrap();
    let z = z.finish().unwrap();
    let one = batch(0, 1000, &z, 1);
    let mut r = LogReader::new();
    let mut why = Vec::new();
    let t = Instant::now();
    for i in 0..40i64 {
        let mut b = one.clone();
        b[..8].copy_from_slice(&(i * 1000).to_be_bytes());
        r.feed(&b, &mut |b| {
            if let logtime_core::import::Records::NotExpanded { why: w } = b.records {
                why.push(w.to_string());
            }
        });
    }
    assert!(t.elapsed().as_secs() < 60, "{:?}", t.elapsed());
    assert!(
        why.iter()
            .any(|w| w.contains(&format!("more than {MAX_INFLATION} times its bytes"))),
        "{why:?}"
    );
}
