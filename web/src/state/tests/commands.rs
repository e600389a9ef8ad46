//! The reader's commands ([`CommandAction`]): advancing the clock, producing, configs, versions,
//! retention, DeleteRecords, remedies and lookups.

use super::*;

#[test]
fn advance_moves_the_one_clock() {
    let s = act(&loaded(LOOKUP_SCAN), CommandAction::Advance(3_600_000));
    let r = s.replay.runner().unwrap();
    assert_eq!(r.now(), Timestamp(T0 + 3_600_000));
    assert_eq!(r.partition().clock(), r.now());
    assert!(
        last_line(&s).starts_with("At 4 Nov 2025 11:00: the clock moved on; 1 scheduled"),
        "{}",
        last_line(&s)
    );
    assert_eq!(s.retention.command_error, None);
}

#[test]
fn produce_appends_or_shows_the_rejection() {
    let s = stepped(NANOSECONDS, 1);
    let ok = act(&s, CommandAction::Produce(BatchSpec::default()));
    assert!(matches!(
        ok.producer.last,
        Some(ProduceOutcome::Appended(ref a)) if a.base_offset == Offset(2)
    ));
    assert_eq!(ok.producer.rev, s.producer.rev + 1);
    let bad = act(
        &ok,
        CommandAction::Produce(BatchSpec {
            unit: Some(UnitMistake::Ns),
            ..BatchSpec::default()
        }),
    );
    assert!(matches!(
        bad.producer.last,
        Some(ProduceOutcome::Rejected(ref e)) if e.error.code() == 32
    ));
    assert!(last_line(&bad).contains("the broker rejected the batch with error 32"));
    assert_eq!(
        bad.replay.runner().unwrap().partition().log_end_offset(),
        Offset(3)
    );
}

/// A compacted topic refuses a null key (87) and appends an empty one: the producer panel's key
/// choice reaches the broker as it is.
#[test]
fn produce_tells_a_null_key_from_an_empty_one() {
    let s = inline(COMPACTED);
    let null = act(&s, CommandAction::Produce(BatchSpec::default()));
    assert!(matches!(
        null.producer.last,
        Some(ProduceOutcome::Rejected(ref e)) if e.error.code() == 87
    ));
    let empty = act(
        &null,
        CommandAction::Produce(BatchSpec {
            key: Some(0),
            ..BatchSpec::default()
        }),
    );
    assert!(matches!(
        empty.producer.last,
        Some(ProduceOutcome::Appended(ref a)) if a.base_offset == Offset(0)
    ));
    let sized = act(
        &empty,
        CommandAction::Produce(BatchSpec {
            key: Some(8),
            ..BatchSpec::default()
        }),
    );
    assert!(matches!(
        sized.producer.last,
        Some(ProduceOutcome::Appended(ref a)) if a.base_offset == Offset(1)
    ));
}

/// A batch larger than `segment.bytes` is error 18: the producer gets `Errors`' default
/// message, and the rejection keeps what the broker logs, which the narration also says.
#[test]
fn produce_of_an_oversized_batch_keeps_the_broker_log() {
    let s = act(
        &inline(COMPACTED),
        CommandAction::Produce(BatchSpec {
            key: Some(8),
            value_bytes: 2000,
            ..BatchSpec::default()
        }),
    );
    let Some(ProduceOutcome::Rejected(e)) = &s.producer.last else {
        panic!("{:?}", s.producer.last)
    };
    assert_eq!(e.error.code(), 18);
    assert_eq!(
        e.error_message,
        "The request included message batch larger than the configured segment size on the server."
    );
    assert_eq!(
        e.broker_log.as_deref().map(String::as_str),
        Some("Message batch size is 2078 bytes in append to partition clicks-0, which exceeds the maximum configured segment size of 1000.")
    );
    assert!(
        last_line(&s).contains("; the broker logs: \"Message batch size is 2078 bytes"),
        "{}",
        last_line(&s)
    );
}

#[test]
fn set_config_takes_kafka_values_and_durations() {
    let s = act(
        &loaded(LOOKUP_SCAN),
        CommandAction::SetConfig("retention.ms".into(), "1h".into()),
    );
    assert_eq!(config(&s).topic.retention_ms, 3_600_000);
    assert_eq!(s.config.error, None);
    assert!(last_line(&s).ends_with("config changed: retention.ms 604800000 → 3600000"));
    let bad = act(
        &s,
        CommandAction::SetConfig("retention.ms".into(), "-2".into()),
    );
    let (name, why) = bad.config.error.clone().unwrap();
    assert_eq!(name, "retention.ms");
    assert!(why.contains("value must be at least -1"), "{why}");
    assert!(last_line(&bad).starts_with("Config refused: "));
    assert_eq!(config(&bad).topic.retention_ms, 3_600_000);
    // A policy with compact: the narration says what the model leaves out, and the log
    // cleaner's passes take over from the retention task.
    let compact = act(
        &bad,
        CommandAction::SetConfig("cleanup.policy".into(), "compact".into()),
    );
    assert!(
        last_line(&compact).ends_with("; cleanup.policy compact: compaction is not modelled (no record is removed for a newer one with the same key); the log cleaner runs this topic's retention passes, every log.cleaner.backoff.ms (15 s) while it has nothing to compact, instead of the retention task"),
        "{}",
        last_line(&compact)
    );
    let r = compact.replay.runner().unwrap();
    assert_eq!(r.partition().next_retention_check(), Timestamp(T0 + 15_000));
}

#[test]
fn set_version_switches_the_preset() {
    let s = act(
        &loaded(LOOKUP_SCAN),
        CommandAction::SetVersion(KafkaVersion::V4_0),
    );
    assert_eq!(config(&s).version, KafkaVersion::V4_0);
    assert!(last_line(&s).contains("the broker now behaves as Kafka 4.x"));
}

#[test]
fn run_retention_shows_the_walk() {
    let s = stepped(LOOKUP_SCAN, 1);
    let rev = s.retention.rev;
    let s = act(&s, CommandAction::RunRetention);
    assert_eq!(s.retention.rev, rev + 1);
    assert_eq!(s.retention.cursor, 0);
    assert_eq!(s.retention.verdicts_len(), 1);
    assert!(last_line(&s).contains("a retention check ran: 0: kept"));
}

#[test]
fn delete_records_refused_or_done_then_checked() {
    let s = stepped(LOOKUP_SCAN, 3);
    let refused = act(
        &s,
        CommandAction::DeleteRecords {
            offset: 99,
            then_check: true,
        },
    );
    let e = refused.retention.command_error.as_deref().unwrap();
    assert!(e.starts_with("error 1 OFFSET_OUT_OF_RANGE"), "{e}");
    let done = act(
        &refused,
        CommandAction::DeleteRecords {
            offset: 1,
            then_check: true,
        },
    );
    assert_eq!(done.retention.command_error, None);
    let r = done.replay.runner().unwrap();
    assert_eq!(r.partition().log_start_offset(), Offset(1));
    assert!(done.retention.report.is_some(), "the check ran");
}

#[test]
fn remedy_sets_the_config_then_checks() {
    let s = act(
        &stepped(LOOKUP_SCAN, 3),
        CommandAction::Remedy {
            name: "retention.ms".into(),
            value: 1000,
        },
    );
    assert_eq!(config(&s).topic.retention_ms, 1000);
    assert!(s.retention.report.is_some());
    let bad = act(
        &s,
        CommandAction::Remedy {
            name: "retention.ms".into(),
            value: -5,
        },
    );
    assert!(bad.retention.command_error.is_some());
}

#[test]
fn lookup_walks_or_shows_the_refusal() {
    let s = stepped(LOOKUP_SCAN, 3);
    let found = act(
        &s,
        CommandAction::Lookup(OffsetSpec::Timestamp(Timestamp(T0 + 5000))),
    );
    assert_eq!(found.lookup.result.as_ref().unwrap().offset, Offset(3));
    assert_eq!(found.lookup.rev, s.lookup.rev + 1);
    assert!(last_line(&found).contains("returned offset 3"));
    let v4 = act(&found, CommandAction::SetVersion(KafkaVersion::V4_0));
    let refused = act(
        &v4,
        CommandAction::Lookup(OffsetSpec::Timestamp(Timestamp(-7))),
    );
    assert!(refused.lookup.result.is_none());
    assert!(refused
        .lookup
        .error
        .as_deref()
        .unwrap()
        .contains("UNSUPPORTED_VERSION"));
}
