//! Property test of the session journal: whatever a reader does (steps, batches, config and
//! version changes, DeleteRecords, retention checks, clock moves, lookups, null, empty and sized
//! keys, compacted topics, in any order, refused or not), writing the journal down (compact form or JSON) and replaying it rebuilds the same
//! partition, byte for byte; rewinding equals replaying the prefix.

use logtime_core::scenario::{parse, Journal, Session, Source};
use logtime_model::{Command, ConfigValue, KafkaVersion, OffsetSpec, Record, Timestamp};
use proptest::prelude::*;

const SCENARIO: &str = r#"{"kafka": "3.6", "start": "2027-03-12T09:00:00Z", "seed": 7,
  "topic": {"segment.bytes": 600, "retention.ms": "2h", "segment.jitter.ms": "10m", "segment.ms": "1h"},
  "steps": [
    {"produce": {"records": [{"timestamp": "now"}, {"timestamp": "now-5s"}]}},
    {"advance": "20m"},
    {"produce": {"batches": 5, "every": "1m", "records": [{"timestamp": "now"}]}},
    {"produce": {"records": [{"timestamp": "now+3y"}]}},
    {"retention": {}},
    {"advance": "3h"},
    {"lookup": {"timestamp": "now-2h"}}
  ]}"#;

#[derive(Clone, Debug)]
enum Act {
    Step,
    Produce {
        skew: i64,
        count: usize,
        value: u32,
        key: Option<u32>,
        ns: bool,
    },
    Tick(i64),
    Retention,
    Delete(i64),
    Config(usize, i64),
    Text(usize, String),
    Version(bool),
    Lookup(i64),
}

fn act() -> impl Strategy<Value = Act> {
    prop_oneof![
        3 => Just(Act::Step),
        3 => (-7_200_000i64..7_200_000, 1usize..4, 0u32..400, prop::option::of(0u32..20), prop::bool::weighted(0.1))
            .prop_map(|(skew, count, value, key, ns)| Act::Produce { skew, count, value, key, ns }),
        2 => (0i64..8_000_000).prop_map(Act::Tick),
        1 => Just(Act::Retention),
        1 => (-2i64..12).prop_map(Act::Delete),
        2 => (0usize..NUMERIC.len(), -2i64..5_000_000).prop_map(|(k, v)| Act::Config(k, v)),
        1 => (0usize..TEXT.len(), "[a-z0-9_.~*% ]{0,6}").prop_map(|(k, t)| Act::Text(k, t)),
        1 => any::<bool>().prop_map(Act::Version),
        1 => (-3i64..4_000_000).prop_map(Act::Lookup),
    ]
}

const NUMERIC: [&str; 6] = [
    "retention.ms",
    "segment.bytes",
    "segment.ms",
    "message.timestamp.after.max.ms",
    "retention.bytes",
    "log.cleaner.backoff.ms",
];
// A compacted topic refuses null keys and gets its retention passes from the log cleaner, so
// null, empty and sized keys and the cleaner's backoff all reach the journal.
const TEXT: [(&str, &str); 5] = [
    ("cleanup.policy", "compact,delete"),
    ("retention.ms", "1h30m"),
    ("message.timestamp.type", "LogAppendTime"),
    ("log.cleaner.backoff.ms", "30s"),
    ("cleanup.policy", "compact"),
];

fn perform(s: &mut Session, a: &Act) {
    let now = s.runner().now();
    let apply = |s: &mut Session, at: Timestamp, c: Command| {
        let _ = s.apply(at, c, &mut |_| {});
    };
    match a {
        Act::Step => {
            let _ = s.step(&mut |_| {});
        }
        Act::Produce {
            skew,
            count,
            value,
            key,
            ns,
        } => {
            let ts = now.0 + skew;
            let ts = if *ns {
                ts.saturating_mul(1_000_000)
            } else {
                ts
            };
            let r = Record::with_key(Timestamp(ts), *key, *value);
            apply(
                s,
                now,
                Command::Produce {
                    records: vec![r; *count],
                },
            );
        }
        Act::Tick(ms) => apply(s, Timestamp(now.0 + ms), Command::Tick),
        Act::Retention => apply(s, now, Command::RunRetention),
        Act::Delete(o) => apply(s, now, Command::DeleteRecords { offset: *o }),
        Act::Config(k, v) => apply(
            s,
            now,
            Command::SetConfig {
                name: NUMERIC[*k].into(),
                value: ConfigValue::Number(*v),
            },
        ),
        Act::Text(k, junk) => {
            let (name, good) = TEXT[*k];
            let value = if junk.len() % 2 == 0 {
                good.to_string()
            } else {
                junk.clone()
            };
            apply(
                s,
                now,
                Command::SetConfig {
                    name: name.into(),
                    value: ConfigValue::Text(value),
                },
            );
        }
        Act::Version(v4) => {
            let version = if *v4 {
                KafkaVersion::V4_0
            } else {
                KafkaVersion::V3_6
            };
            apply(s, now, Command::SetVersion { version });
        }
        Act::Lookup(t) => {
            let spec = if *t < 0 {
                OffsetSpec::from_wire(*t)
            } else {
                OffsetSpec::Timestamp(Timestamp(now.0 - t))
            };
            let _ = s.lookup(spec);
        }
    }
    s.runner().partition().check_invariants();
}

fn fingerprint(s: &Session) -> String {
    // Debug of the whole runner: the partition's segments, batches, indexes, config, clock,
    // retention schedule and jitter generator, and the scenario position.
    format!("{:?}", s.runner())
}

proptest! {
    #[test]
    fn journal_replay_reproduces_the_partition(acts in prop::collection::vec(act(), 0..40), cut in 0usize..50) {
        let scenario = parse(SCENARIO).unwrap();
        let mut s = Session::new(Source::Builtin("prop".into()), scenario.clone());
        for a in &acts {
            perform(&mut s, a);
        }
        let journal = s.journal().clone();

        let compact = journal.to_compact(Some(SCENARIO));
        let entries = Journal::entries_from_compact(&compact, Some(SCENARIO)).unwrap();
        prop_assert_eq!(&entries, &journal.entries, "compact form: {}", compact);
        let replayed = Journal { source: journal.source.clone(), entries }.replay(scenario.clone()).unwrap();
        prop_assert_eq!(fingerprint(&replayed), fingerprint(&s));
        prop_assert_eq!(replayed.journal(), &journal);

        let json = serde_json::to_string(&journal).unwrap();
        let back: Journal = serde_json::from_str(&json).unwrap();
        prop_assert_eq!(fingerprint(&back.replay(scenario.clone()).unwrap()), fingerprint(&s));

        // Rewinding to any prefix equals replaying that prefix from scratch.
        let keep = cut.min(journal.entries.len());
        let (rewound, dropped) = s.rewind(keep).unwrap();
        let prefix = Journal { source: journal.source.clone(), entries: journal.entries[..keep].to_vec() };
        prop_assert_eq!(fingerprint(&rewound), fingerprint(&prefix.replay(scenario).unwrap()));
        prop_assert_eq!(dropped.len(), journal.entries.len() - keep);
    }
}
