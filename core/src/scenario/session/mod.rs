//! A session: a scenario being replayed plus a journal of everything the reader did, so that the
//! exact moment can be written down, shared and rebuilt.
//!
//! A [`Journal`] is the scenario's [`Source`] and, in order, every [`Entry`]: scenario steps run,
//! commands sent between steps (batches, config and version changes, DeleteRecords, retention
//! checks, clock moves), each at its broker time, and lookups. Replaying a journal against the
//! same scenario rebuilds the same partition byte for byte: the model is deterministic (time is
//! passed in, jitter comes from the scenario's seed), and a journal records only what succeeded
//! (a refused command changes nothing, so it is not needed to rebuild the state).
//!
//! A [`Session`] keeps the journal as it goes: run steps, commands and lookups through it
//! instead of through the [`Runner`]. [`Session::rewind`] rebuilds an earlier moment and hands
//! back the entries it undid, so a caller can ask before dropping them or keep them as a branch.
//!
//! [`Journal::to_compact`] writes the entries in a short, URL-safe, versioned text form
//! (documented on [`COMPACT_VERSION`]); [`Journal::entries_from_compact`] reads it back and
//! says exactly what is wrong with a damaged or foreign one. The whole journal also serialises
//! with serde.
//!
//! Uses beyond moment links:
//! * keeping a learner's branch: `rewind(journal.prefix_for_steps(k))` returns the entries it
//!   undid; store them (or the whole [`Journal`], with serde) and replay them later with
//!   [`Session::replay_entry`];
//! * replaying in chunks: a caller that must yield (a progress bar) replays one entry at a time
//!   with [`Session::replay_entry`], which records each entry as it goes;
//! * a new command kind: a [`Command`] variant needs a compact form in `compact_command` and
//!   `parse_entry` (the property test in `core/tests/session.rs` then covers it); changing an
//!   existing form means a new [`COMPACT_VERSION`], with the old one still read.

mod compact;
mod play;

pub use play::{Replayed, Session};

use std::fmt;

use serde::{Deserialize, Serialize};

use super::{narrate, Scenario, ViewMarks};
use logtime_model::lookup::OffsetSpec;
use logtime_model::partition::Command;
use logtime_model::units::Timestamp;

/// Where the scenario came from, as the reader's page named it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "value", rename_all = "snake_case")]
pub enum Source {
    /// A built-in scenario, by name (`lookup-scan`).
    Builtin(String),
    /// A scenario document at a URL.
    Url(String),
    /// The scenario's JSON itself (inline in a page, or edited).
    Inline(String),
}

/// One thing that happened to the partition, in order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Entry {
    /// The next scenario step ran.
    Step,
    /// A command between steps, at broker time `at` (a batch sent, a config or version changed,
    /// DeleteRecords, a retention check, the clock moved to `at`).
    Command {
        /// Broker time.
        at: Timestamp,
        /// What was done.
        command: Command,
    },
    /// A consumer's lookup, at the broker clock of that moment (it changes nothing).
    Lookup(OffsetSpec),
}

impl Entry {
    /// Whether the reader did this (a command), as opposed to running the scenario or looking.
    pub fn is_action(&self) -> bool {
        matches!(self, Entry::Command { .. })
    }

    /// A few words for people: `sent a batch of 3 records`, `set retention.ms to 7d`.
    pub fn describe(&self) -> String {
        match self {
            Entry::Step => "ran a step".into(),
            Entry::Lookup(spec) => format!("looked up {spec}"),
            Entry::Command { command, .. } => match command {
                Command::Tick => "moved the clock".into(),
                Command::Produce { records } => format!(
                    "sent a batch of {}",
                    narrate::count(records.len() as u64, "record", "records")
                ),
                Command::RunRetention => "ran a retention check".into(),
                Command::DeleteRecords { offset } => format!("deleted records to offset {offset}"),
                Command::SetConfig { name, value } => format!("set {name} to {value}"),
                Command::SetVersion { version } => format!("switched to {}", version.label()),
                Command::SetHighWatermark { offset } => {
                    format!("set the high watermark to {offset}")
                }
            },
        }
    }
}

/// The scenario's source and everything done to its partition, in order.
///
/// Invariant (kept by [`Session`]): replaying the entries against the scenario succeeds and
/// rebuilds the session's partition exactly.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Journal {
    /// Where the scenario came from.
    pub source: Source,
    /// What happened, in order.
    pub entries: Vec<Entry>,
}

/// The version of the compact form written by [`Journal::to_compact`].
///
/// Version 1: `1` then, when a scenario text is given, `.` and the FNV-1a hash of that text
/// (8 hex digits), then each entry after a `~`:
///
/// | entry | form |
/// | --- | --- |
/// | steps | `s` or `s<n>` (n steps in a row) |
/// | clock moved to `at` | `t<at>` |
/// | batch | `p<at>_<record>*<record>…`; a record is its timestamp minus `at` (or `@<ms>`), then `k<key bytes>` (none: a null key; `k0`: an empty key), `v<value bytes>` (if not 100), `e<key>,<value>` per header, `x<n>` (n identical records) |
/// | retention check | `r<at>` |
/// | DeleteRecords | `d<at>_<offset>` |
/// | config | `c<at>_<name>_n<number>` or `c<at>_<name>_<text>` (`%`, `~`, `_`, `*` escaped as `%25`, `%7E`, `%5F`, `%2A`) |
/// | version | `v<at>_<key>` (`3.6`, `4.0`) |
/// | high watermark | `h<at>_<offset>` |
/// | lookup | `l<spec>` (`earliest`, `latest`, `max-timestamp`, or ms) |
///
/// Times are ms since the epoch. Every character is one that `encodeURIComponent` leaves alone.
pub const COMPACT_VERSION: u32 = 1;

/// The most entries a compact journal may hold (a link is untrusted input: its size must not
/// decide how much memory the reader's browser spends).
pub const MAX_ENTRIES: usize = 100_000;

/// The most records one batch entry of a compact journal may hold.
pub const MAX_BATCH_RECORDS: usize = 100_000;

/// The most records all the batch entries of a compact journal may hold together. A record is
/// a few characters of a link (`x100000` repeats one) but tens of bytes in memory and a step of
/// the replay, so 2,000 batches of 100,000 records in a 48 KB link would ask the browser for
/// gigabytes; a million is far more than anyone sends by hand in the explorer.
pub const MAX_MOMENT_RECORDS: usize = 1_000_000;

/// Why a journal could not be read or replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JournalError {
    /// The compact form is damaged: what was wrong, and at which entry (0-based) if known.
    Malformed {
        /// The entry, when the header was fine.
        entry: Option<usize>,
        /// Lowercase reason.
        reason: String,
    },
    /// Written by a Logtime whose compact form this one does not read.
    UnsupportedVersion(String),
    /// Written against a different text of the scenario (a built-in that changed since, an
    /// edited file): the moment would not be the same.
    ScenarioChanged,
    /// An entry cannot be replayed: the link was edited, or the scenario changed.
    Replay {
        /// 0-based entry index.
        entry: usize,
        /// What went wrong.
        reason: String,
    },
}

impl fmt::Display for JournalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JournalError::Malformed { entry: Some(i), reason } => {
                write!(f, "the saved moment is damaged (truncated or edited): entry {i}: {reason}")
            }
            JournalError::Malformed { entry: None, reason } => {
                write!(f, "the saved moment is damaged (truncated or edited): {reason}")
            }
            JournalError::UnsupportedVersion(v) => write!(
                f,
                "the saved moment is in format {v:?}, which this version of Logtime cannot read (it reads format {COMPACT_VERSION})"
            ),
            JournalError::ScenarioChanged => f.write_str(
                "the saved moment was made with a different version of this scenario, so it cannot be rebuilt exactly",
            ),
            JournalError::Replay { entry, reason } => {
                write!(f, "the saved moment cannot be replayed: entry {entry}: {reason}")
            }
        }
    }
}

impl std::error::Error for JournalError {}

/// FNV-1a (32 bits) of a scenario's text: the fingerprint a compact journal carries, so that a
/// link made against another text of the scenario is refused instead of replayed wrongly.
pub fn fingerprint(text: &str) -> u32 {
    text.bytes().fold(0x811c_9dc5, |h: u32, b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    })
}

impl Journal {
    /// An empty journal: the scenario loaded, nothing run yet.
    pub fn new(source: Source) -> Journal {
        Journal {
            source,
            entries: Vec::new(),
        }
    }

    /// Scenario steps run.
    pub fn steps_run(&self) -> usize {
        self.entries.iter().filter(|e| **e == Entry::Step).count()
    }

    /// The reader's own commands (not steps or lookups).
    pub fn actions(&self) -> impl Iterator<Item = &Entry> {
        self.entries.iter().filter(|e| e.is_action())
    }

    /// How many entries come before the `(k+1)`-th step: the prefix that rebuilds the moment
    /// after `k` steps (commands done after step `k` are not in it).
    pub fn prefix_for_steps(&self, k: usize) -> usize {
        let mut steps = 0;
        for (i, e) in self.entries.iter().enumerate() {
            if *e == Entry::Step {
                if steps == k {
                    return i;
                }
                steps += 1;
            }
        }
        self.entries.len()
    }

    /// Replays the journal against `scenario` (which must be the scenario its source names),
    /// with no callbacks: the session at the journal's end.
    pub fn replay(&self, scenario: Scenario) -> Result<Session, JournalError> {
        let mut session = Session::new(self.source.clone(), scenario);
        for (i, entry) in self.entries.iter().enumerate() {
            session.replay_entry_marks(i, entry, &mut ViewMarks::default())?;
        }
        Ok(session)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::parse;
    use logtime_model::batch::{Header, Record};
    use logtime_model::config::{ConfigValue, KafkaVersion};

    const SCENARIO: &str = r#"{"start": "2027-03-12T09:00:00Z", "topic": {"segment.bytes": "1MiB", "retention.ms": "1h"},
        "steps": [{"produce": {"records": [{"timestamp": "now"}]}}, {"advance": "10m"}, {"produce": {"records": [{"timestamp": "now+1h"}]}}]}"#;
    const T0: i64 = 1_804_842_000_000;

    fn session() -> Session {
        Session::new(Source::Builtin("t".into()), parse(SCENARIO).unwrap())
    }

    #[test]
    fn compact_round_trip_and_replay() {
        let mut s = session();
        s.step(&mut |_| {}).unwrap().unwrap();
        let now = s.runner().now();
        let records = vec![
            Record::at(now),
            Record::at(now),
            Record {
                timestamp: Timestamp(-1),
                key_bytes: 8,
                empty_key: false,
                value_bytes: 7,
                headers: vec![Header {
                    key_bytes: 1,
                    value_bytes: 2,
                }],
            },
            Record::with_key(now, Some(0), 100),
        ];
        s.apply(now, Command::Produce { records }, &mut |_| {})
            .unwrap();
        s.apply(
            now,
            Command::SetConfig {
                name: "cleanup.policy".into(),
                value: ConfigValue::Text("compact,delete".into()),
            },
            &mut |_| {},
        )
        .unwrap();
        s.apply(
            now,
            Command::SetConfig {
                name: "retention.ms".into(),
                value: ConfigValue::Number(-1),
            },
            &mut |_| {},
        )
        .unwrap();
        s.apply(
            now,
            Command::SetVersion {
                version: KafkaVersion::V3_6,
            },
            &mut |_| {},
        )
        .unwrap();
        s.lookup(OffsetSpec::Timestamp(now)).unwrap();
        s.lookup(OffsetSpec::MaxTimestamp).unwrap();
        s.apply(Timestamp(now.0 + 3_600_000), Command::Tick, &mut |_| {})
            .unwrap();
        s.apply(
            Timestamp(now.0 + 3_600_000),
            Command::DeleteRecords { offset: 1 },
            &mut |_| {},
        )
        .unwrap();
        s.apply(
            Timestamp(now.0 + 3_600_000),
            Command::RunRetention,
            &mut |_| {},
        )
        .unwrap();
        s.step(&mut |_| {}).unwrap().unwrap();
        s.step(&mut |_| {}).unwrap().unwrap();
        let text = SCENARIO;
        let compact = s.journal().to_compact(Some(text));
        assert!(compact.starts_with("1."), "{compact}");
        assert!(
            compact.contains(&format!("~p{T0}_0x2*@-1k8v7e1,2*0k0~")),
            "{compact}"
        );
        assert!(compact.ends_with("~s2"), "{compact}");
        let entries = Journal::entries_from_compact(&compact, Some(text)).unwrap();
        assert_eq!(entries, s.journal().entries);
        let journal = Journal {
            source: s.journal().source.clone(),
            entries,
        };
        let again = journal.replay(parse(text).unwrap()).unwrap();
        assert_eq!(format!("{:?}", again.runner()), format!("{:?}", s.runner()));
        // serde too
        let json = serde_json::to_string(s.journal()).unwrap();
        assert_eq!(
            serde_json::from_str::<Journal>(&json).unwrap(),
            *s.journal()
        );
    }

    #[test]
    fn damaged_and_foreign_journals_say_why() {
        let err = |c: &str| {
            Journal::entries_from_compact(c, Some(SCENARIO))
                .unwrap_err()
                .to_string()
        };
        assert_eq!(err("2~s"), "the saved moment is in format \"2\", which this version of Logtime cannot read (it reads format 1)");
        assert_eq!(err("x~s"), "the saved moment is damaged (truncated or edited): expected a format number at the start, found \"x\"");
        assert_eq!(err("1.00000000~s"), "the saved moment was made with a different version of this scenario, so it cannot be rebuilt exactly");
        assert_eq!(err("1~s~p12_0k"), "the saved moment is damaged (truncated or edited): entry 1: the key size \"\" is not a number");
        assert_eq!(err("1~s~p"), "the saved moment is damaged (truncated or edited): entry 1: the time \"\" is not a number");
        assert_eq!(
            err("1~q"),
            "the saved moment is damaged (truncated or edited): entry 0: unknown entry kind 'q'"
        );
        assert_eq!(err("1~c5_a%7"), "the saved moment is damaged (truncated or edited): entry 0: unknown escape \"%7\" in \"a%7\"");
        assert_eq!(err("1~c5_a"), "the saved moment is damaged (truncated or edited): entry 0: a config entry has no value");
        assert_eq!(err("1~v5_2.8"), "the saved moment is damaged (truncated or edited): entry 0: unknown Kafka version \"2.8\"");
        // Sizes a link may ask for are bounded before anything is allocated.
        assert_eq!(err("1~s100001"), "the saved moment is damaged (truncated or edited): entry 0: the step count 100001 is out of range (a saved moment holds at most 100000 entries)");
        assert!(err("1~s99999~s2").contains("entry 1: the step count 2 is out of range"));
        assert!(
            err("1~s100000~r5").contains("entry 1: a saved moment holds at most 100000 entries")
        );
        assert!(err("1~p5_0x100001").contains("the repeat count 100001 is out of range"));
        assert!(err("1~p5_0x100000*0").contains("the repeat count 1 is out of range"));
        // 2,000 batches of 100,000 records (a 48 KB link): refused at the eleventh batch.
        let bomb = format!("1{}", "~p5_0x100000".repeat(2_000));
        assert_eq!(err(&bomb), "the saved moment is damaged (truncated or edited): entry 10: the batches hold 1100000 records by this entry; a saved moment holds at most 1000000");
        assert!(Journal::entries_from_compact(
            &"~p5_0x100000".repeat(10).replacen('~', "1~", 1),
            None
        )
        .is_ok());
        // Well-formed but not replayable: the clock would go backwards, or too many steps.
        let journal = Journal {
            source: Source::Builtin("t".into()),
            entries: Journal::entries_from_compact("1~s4", None).unwrap(),
        };
        let e = journal.replay(parse(SCENARIO).unwrap()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the saved moment cannot be replayed: entry 3: the scenario has only 3 steps"
        );
        let journal = Journal {
            source: Source::Builtin("t".into()),
            entries: Journal::entries_from_compact("1~t5", None).unwrap(),
        };
        assert!(journal
            .replay(parse(SCENARIO).unwrap())
            .unwrap_err()
            .to_string()
            .contains("entry 0"));
    }

    #[test]
    fn rewind_keeps_the_prefix_and_hands_back_the_rest() {
        let mut s = session();
        s.step(&mut |_| {}).unwrap().unwrap();
        let now = s.runner().now();
        s.apply(
            now,
            Command::Produce {
                records: vec![Record::at(now)],
            },
            &mut |_| {},
        )
        .unwrap();
        s.step(&mut |_| {}).unwrap().unwrap();
        assert_eq!(s.journal().steps_run(), 2);
        assert_eq!(s.journal().actions().count(), 1);
        let keep = s.journal().prefix_for_steps(1);
        assert_eq!(keep, 2, "step 1 and the batch after it");
        let (back, dropped) = s.rewind(keep).unwrap();
        assert_eq!(dropped, vec![Entry::Step]);
        assert_eq!(back.runner().partition().record_count(), 2);
        let (start, dropped) = s.rewind(s.journal().prefix_for_steps(0)).unwrap();
        assert_eq!(dropped.len(), 3);
        assert_eq!(start.runner().partition().record_count(), 0);
        assert_eq!(dropped[1].describe(), "sent a batch of 1 record");
    }
}
