//! What a produce does to the partition when Kafka refuses it or stamps it itself, and the
//! clock's limits (`LogValidatorTest`; conformance: `a*_*`).

use super::*;

/// An error leaves everything unchanged, the clock included.
#[test]
fn errors_are_atomic() {
    let mut p = P::new(KafkaVersion::V4_0, &[]);
    p.produce(&[T0]);
    let before = p.p.state();
    p.now = T0 + 900_000;
    let e = p
        .apply(Command::Produce {
            records: vec![Record::at(Timestamp(T0 * 1_000_000))],
        })
        .unwrap_err();
    assert!(matches!(e, Error::Produce(ref pe) if pe.error.code() == 32));
    assert_eq!(p.p.state(), before);
    assert_eq!(p.p.clock(), Timestamp(T0));
    p.now = T0 - 1;
    assert!(matches!(
        p.apply(Command::Tick),
        Err(Error::ClockWentBackwards { .. })
    ));
}

/// LogAppendTime: every record reads `now`; the time roll measures wall time since the first append.
#[test]
fn log_append_time_overwrites() {
    let mut p = P::v3(&[]);
    p.set(
        "message.timestamp.type",
        ConfigValue::Text("LogAppendTime".into()),
    );
    let ev = p.produce(&[1234, 1234, 1234]);
    let Some(Event::BatchAppended(a)) = ev.iter().find(|e| matches!(e, Event::BatchAppended(_)))
    else {
        panic!()
    };
    assert_eq!(a.log_append_time, Some(Timestamp(T0)));
    assert_eq!(p.p.active_segment().record_timestamps(), &[T0, T0, T0]);
    assert_eq!(p.spec(OffsetSpec::MaxTimestamp), (0, T0));
}

/// Found by fuzzing: a start near Long.MAX must not wrap the first retention check into the past.
#[test]
fn start_near_long_max() {
    let mut p = Partition::new(
        Config::defaults(KafkaVersion::V4_0),
        "t-0",
        Timestamp(i64::MAX - 8),
        0,
    );
    p.check_invariants();
    assert!(p
        .apply(
            Timestamp(i64::MAX - 8),
            Command::Produce { records: vec![] }
        )
        .is_ok());
    p.check_invariants();
}
