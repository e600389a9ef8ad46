//! `kafka-dump-log` text as people paste it (typed after `DumpLogSegments.dumpLog` and
//! `printBatchLevel`): several partitions in one text, `--skip-record-metadata`, prompts, command
//! lines and `#` comments around the output, a lost `Dumping` line, index files alone; and what is
//! truly outside (Kafka 0.x, elided or wrapped text) refused saying so.

use logtime_core::import::{parse_dump, DumpSplitError, DumpedContent};
use logtime_model::{Config, KafkaVersion, Offset, Timestamp};

const B0: &str = "baseOffset: 0 lastOffset: 1 count: 2 baseSequence: -1 lastSequence: -1 producerId: -1 producerEpoch: -1 partitionLeaderEpoch: 0 isTransactional: false isControl: false deleteHorizonMs: OptionalLong.empty position: 0 CreateTime: 1762250404000 size: 156 magic: 2 compresscodec: none crc: 2060802636 isvalid: true";
const B2: &str = "baseOffset: 2 lastOffset: 2 count: 1 baseSequence: -1 lastSequence: -1 producerId: -1 producerEpoch: -1 partitionLeaderEpoch: 0 isTransactional: false isControl: false deleteHorizonMs: OptionalLong.empty position: 156 CreateTime: 1762250402000 size: 108 magic: 2 compresscodec: none crc: 57628571 isvalid: true";
const R0: &str =
    "| offset: 0 CreateTime: 1762250400000 keySize: -1 valueSize: 40 sequence: -1 headerKeys: []";
const R1: &str =
    "| offset: 1 CreateTime: 1762250404000 keySize: -1 valueSize: 40 sequence: -1 headerKeys: []";
const R2: &str =
    "| offset: 2 CreateTime: 1762250402000 keySize: -1 valueSize: 40 sequence: -1 headerKeys: []";

fn log(path: &str) -> String {
    format!("Dumping {path}\nLog starting offset: 0\n{B0}\n{R0}\n{R1}\n{B2}\n{R2}\n")
}

fn err(text: &str) -> String {
    parse_dump(text).unwrap_err().to_string()
}

#[test]
fn two_dumping_blocks_are_two_partitions() {
    // `kafka-dump-log.sh --deep-iteration --files a-0/…0.log,b-0/…0.log`.
    let text =
        log("/data/a-0/00000000000000000000.log") + &log("/data/b-0/00000000000000000000.log");
    let parts = parse_dump(&text).unwrap().partitions().unwrap();
    let names: Vec<_> = parts.iter().map(|(t, _)| t.clone()).collect();
    assert_eq!(names, [Some("a-0".to_string()), Some("b-0".to_string())]);
    for (tp, part) in parts {
        let imported = part
            .into_import(&tp.unwrap(), Config::defaults(KafkaVersion::V4_0))
            .finish(Timestamp(1_762_250_404_000), None)
            .unwrap();
        assert_eq!(imported.partition.log_end_offset(), Offset(3));
    }
}

#[test]
fn the_same_file_twice_is_refused_naming_both() {
    let text = log("00000000000000000000.log") + &log("00000000000000000000.log");
    let e = parse_dump(&text).unwrap().partitions().unwrap_err();
    assert!(matches!(e, DumpSplitError::Twice { .. }), "{e:?}");
    assert_eq!(
        e.to_string(),
        "00000000000000000000.log and 00000000000000000000.log are the same segment file: two partitions' files cannot be told apart without their folders; dump each by its path (topic-N/NNN.log)"
    );
}

#[test]
fn unnamed_files_beside_two_partitions_are_refused() {
    let text = log("/d/a-0/00000000000000000000.log")
        + &log("/d/b-0/00000000000000000000.log")
        + "Dumping ./00000000000000000000.index\noffset: 1 position: 0\n";
    let e = parse_dump(&text).unwrap().partitions().unwrap_err();
    assert_eq!(
        e.to_string(),
        "./00000000000000000000.index names no partition folder, and the dump holds several partitions (a-0, b-0): dump each file by its path (topic-N/NNN.log) so that it can be told apart"
    );
}

#[test]
fn dot_slash_paths_name_no_partition() {
    let out = parse_dump(&log("./00000000000000000000.log")).unwrap();
    assert_eq!(out.topic_partition(), None);
    let parts = out.partitions().unwrap();
    assert_eq!(parts.len(), 1);
    assert_eq!(parts[0].0, None);
}

#[test]
fn skip_record_metadata_reads_the_batches() {
    // `--deep-iteration --print-data-log --skip-record-metadata`: `| key: … payload: …`, and a
    // bare `|` without --print-data-log.
    let text = format!(
        "Dumping /d/c-0/00000000000000000000.log\nLog starting offset: 0\n{B0}\n| payload: {{\"a\":1}}\n| key: k payload: v\n{B2}\n|\n"
    );
    let out = parse_dump(&text).unwrap();
    let DumpedContent::Log(log) = &out.files[0].content else {
        panic!("a log")
    };
    assert_eq!(log.batches.len(), 2);
    assert!(
        !log.unexpanded.is_empty(),
        "records without offsets stay unread"
    );
    let imported = out
        .into_import("c-0", Config::defaults(KafkaVersion::V4_0))
        .finish(Timestamp(1_762_250_404_000), None)
        .unwrap();
    assert_eq!(imported.partition.log_end_offset(), Offset(3));
}

#[test]
fn prompts_command_lines_and_comments_are_skipped() {
    let plain = parse_dump(&log("/d/c-0/00000000000000000000.log")).unwrap();
    let text = format!(
        "# on broker 1, after the incident\n$ bin/kafka-dump-log.sh --deep-iteration --files /d/c-0/00000000000000000000.log\n{}[root@b1 ~]# kafka-run-class.sh kafka.tools.DumpLogSegments --files x\n$\n",
        log("/d/c-0/00000000000000000000.log")
    );
    assert_eq!(parse_dump(&text).unwrap(), plain);
}

#[test]
fn a_lost_dumping_line_is_read_from_the_starting_offset() {
    let text = format!(
        "Starting offset: 18\n{}",
        log("x").lines().skip(2).collect::<Vec<_>>().join("\n")
    )
    .replace(
        "baseOffset: 0 lastOffset: 1",
        "baseOffset: 18 lastOffset: 19",
    )
    .replace(
        "baseOffset: 2 lastOffset: 2",
        "baseOffset: 20 lastOffset: 20",
    )
    .replace("| offset: 0 ", "| offset: 18 ")
    .replace("| offset: 1 ", "| offset: 19 ")
    .replace("| offset: 2 ", "| offset: 20 ");
    let out = parse_dump(&text).unwrap();
    assert_eq!(out.files[0].base_offset, Offset(18));
    assert_eq!(out.topic_partition(), None);
    let imported = out
        .into_import("p", Config::defaults(KafkaVersion::V4_0))
        .finish(Timestamp(1_762_250_404_000), None)
        .unwrap();
    assert_eq!(imported.partition.log_end_offset(), Offset(21));
}

#[test]
fn index_only_dumps_are_read() {
    let text = "Dumping /d/c-0/00000000000000000018.index\noffset: 20 position: 340\noffset: 22 position: 680\nDumping /d/c-0/00000000000000000018.timeindex\ntimestamp: 1803927600000 offset: 20\ntimestamp: 1803934800000 offset: 22\n";
    let out = parse_dump(text).unwrap();
    assert!(out.index_only());
    let rows = out.index_rows();
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].base_offset, Offset(18));
    assert_eq!(rows[0].offset_entries, Some(2));
    assert_eq!(rows[0].last_indexed.map(|x| x.0), Some(Offset(22)));
    assert_eq!(
        rows[0].largest_indexed,
        Some((Timestamp(1_803_934_800_000), Offset(22)))
    );
    // Beside a .log, the same index files are checked against it by the import.
    assert!(!parse_dump(&log("/d/c-0/00000000000000000000.log"))
        .unwrap()
        .index_only());
}

#[test]
fn kafka_0x_output_is_refused_as_such() {
    let text = "Dumping /d/c-0/00000000000000000000.log\nStarting offset: 0\noffset: 0 position: 0 isvalid: true payloadsize: 5 magic: 0 compresscodec: NoCompressionCodec crc: 1234 keysize: -1 key:  payload: hello\n";
    assert_eq!(
        err(text),
        "line 3: kafka 0.x output is not supported (a \"payloadsize:\" line, \"offset: 0 position: 0 isvalid: true payloadsize: 5 magic: 0 compresscodec: NoCom\"): dump the files again with kafka-dump-log.sh of kafka 1.0 or later, which reads their messages"
    );
}

#[test]
fn elided_output_is_refused_as_such() {
    let text = format!(
        "{}...\n{B2}\n",
        log("/d/c-0/00000000000000000000.log")
            .lines()
            .take(5)
            .collect::<Vec<_>>()
            .join("\n")
            + "\n"
    );
    assert_eq!(
        err(&text),
        "line 6: the output was elided here (\"...\"): a shortened paste leaves out batches, and their offsets and sizes cannot be told; paste the whole output"
    );
}

#[test]
fn wrapped_lines_are_refused_as_such() {
    let (head, tail) = B0.split_at(B0.find(" size:").unwrap());
    let text = format!("Dumping /d/c-0/00000000000000000000.log\n{head}\n{tail}\n");
    assert_eq!(
        err(&text),
        "line 2: this batch line stops before its magic: field: the text was wrapped or cut (kafka-dump-log writes each batch on one line); paste the output unwrapped"
    );
}
