//! What narration points at ([`Target`]: a segment, an offset or a range of them, a config, a
//! panel ([`Panel`], the narrator's), an instant) and the affordances a lesson can hide
//! until a question is answered ([`Affordance`]).
//!
//! Targets have one text form, used in `show` lists and in markup links alike:
//! `segment:20000`, `segment-of:20005` (the segment holding that offset), `offset:24` (or
//! `record:24`), `offsets:24-28` (or `records:24-28`), `config:retention.ms`, `panel:lookup`,
//! `time:2027-03-12T09:00:00Z` (or epoch ms). A target is resolved against the partition at the
//! step it belongs to, so a lesson cannot point at a segment that is not there.

use logtime_core::scenario::narrate::{Mention, Panel};
use logtime_core::scenario::time::parse_time;
use logtime_core::scenario::TimeSpec;
use logtime_model::partition::Partition;
use logtime_model::units::{Offset, Timestamp};
use std::fmt;

/// Something on screen that can give an answer away, hidden until the question that hides it is
/// answered (or its task solved, or either revealed).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Affordance {
    /// The remedy buttons (lower the after window, DeleteRecords pre-filled with the offset).
    Remedies,
    /// Retention verdicts: per-segment "deleted", "kept", and the generated narration of a check.
    Verdicts,
    /// The badges on segment cards that name a pinning segment: "pinned", "behind" and "future".
    PinnedBadges,
    /// The lookup's step-by-step trace and its answer.
    LookupTrace,
    /// The panel that shows a question's answer and explanation.
    AnswerPanel,
    /// What the downstream stream processor did: its late marks, window closings and the
    /// narration of its reads.
    StreamVerdicts,
    /// What tells a stamp's age at a glance: the record tiles' age colours and icons, the
    /// density bars' colours and ▲ caps, the chart's ▲ marks for stamps ahead of the clock, and
    /// the words that class a stamp ("stamped in the future", "older than retention.ms", "in
    /// 3 y") in labels and titles. The stamps themselves stay: the learner reasons from them.
    AgeMarks,
}

impl Affordance {
    /// Every affordance.
    pub const ALL: [Affordance; 7] = [
        Affordance::Remedies,
        Affordance::Verdicts,
        Affordance::PinnedBadges,
        Affordance::LookupTrace,
        Affordance::AnswerPanel,
        Affordance::StreamVerdicts,
        Affordance::AgeMarks,
    ];

    /// The key in lesson files.
    pub fn key(self) -> &'static str {
        match self {
            Affordance::Remedies => "remedies",
            Affordance::Verdicts => "verdicts",
            Affordance::PinnedBadges => "pinned_badges",
            Affordance::LookupTrace => "lookup_trace",
            Affordance::AnswerPanel => "answer_panel",
            Affordance::StreamVerdicts => "stream_verdicts",
            Affordance::AgeMarks => "age_marks",
        }
    }

    /// What an author sees beside the box that hides it: a label in sentence case, then what
    /// it covers (for a tooltip).
    pub fn words(self) -> (&'static str, &'static str) {
        match self {
            Affordance::Remedies => (
                "Remedy buttons",
                "the buttons that fix the partition: lower the after window, DeleteRecords pre-filled with the offset",
            ),
            Affordance::Verdicts => (
                "Retention verdicts",
                "each segment's deleted or kept, and the narration of a retention check",
            ),
            Affordance::PinnedBadges => (
                "Pinned, behind and future badges",
                "the badges on segment cards that name a pinning segment",
            ),
            Affordance::LookupTrace => (
                "Lookup trace",
                "the lookup's step-by-step trace and its answer",
            ),
            Affordance::AnswerPanel => (
                "Answer panel",
                "the panel that shows a question's answer and explanation",
            ),
            Affordance::StreamVerdicts => (
                "Stream verdicts",
                "the stream processor's late marks, window closings and the narration of its reads",
            ),
            Affordance::AgeMarks => (
                "Age marks",
                "age colours and icons on records, the density and chart's ▲ marks, and words such as \"stamped in the future\"; the stamps themselves stay",
            ),
        }
    }

    /// The affordance with this key.
    pub fn parse(key: &str) -> Result<Affordance, String> {
        Affordance::ALL
            .into_iter()
            .find(|a| a.key() == key)
            .ok_or_else(|| {
                format!(
                    "unknown affordance {key:?} (expected one of: {})",
                    Affordance::ALL.map(Affordance::key).join(", ")
                )
            })
    }

    fn bit(self) -> u8 {
        1 << (self as u8)
    }
}

/// A set of [`Affordance`]s.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Affordances(u8);

impl Affordances {
    /// No affordance.
    pub const NONE: Affordances = Affordances(0);

    /// The set of these.
    pub fn of(items: &[Affordance]) -> Affordances {
        Affordances(items.iter().fold(0, |acc, a| acc | a.bit()))
    }

    /// Whether `a` is in the set.
    pub fn contains(self, a: Affordance) -> bool {
        self.0 & a.bit() != 0
    }

    /// Adds `a`.
    pub fn insert(&mut self, a: Affordance) {
        self.0 |= a.bit();
    }

    /// Both sets together.
    pub fn union(self, other: Affordances) -> Affordances {
        Affordances(self.0 | other.0)
    }

    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The members, in [`Affordance::ALL`] order.
    pub fn iter(self) -> impl Iterator<Item = Affordance> {
        Affordance::ALL
            .into_iter()
            .filter(move |a| self.contains(*a))
    }
}

impl fmt::Display for Affordances {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let keys: Vec<&str> = self.iter().map(Affordance::key).collect();
        if keys.is_empty() {
            f.write_str("nothing")
        } else {
            f.write_str(&keys.join(", "))
        }
    }
}

/// What a piece of narration points at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// A segment by its base offset (`segment:20000`).
    Segment(Offset),
    /// The segment holding an offset (`segment-of:20005`), for lessons whose variants move
    /// segment boundaries.
    SegmentOf(Offset),
    /// One record (`offset:24` or `record:24`).
    Offset(Offset),
    /// Records from `first` to `last`, both included (`offsets:24-28` or `records:24-28`).
    Offsets {
        /// First offset.
        first: Offset,
        /// Last offset.
        last: Offset,
    },
    /// A config by its Kafka name (`config:retention.ms`).
    Config(String),
    /// A panel (`panel:lookup`).
    Panel(Panel),
    /// An instant (`time:2027-03-12T09:00:00Z` or epoch ms).
    Time(Timestamp),
}

/// The kinds of target, for error messages.
const KINDS: &str = "segment, segment-of, offset, record, offsets, records, config, panel, time";

fn offset(s: &str) -> Result<Offset, String> {
    match s.trim().parse::<i64>() {
        Ok(n) if n >= 0 => Ok(Offset(n)),
        _ => Err(format!("expected an offset (an integer ≥ 0), got {s:?}")),
    }
}

impl Target {
    /// Parses the text form (`segment:20000`, `offsets:24-28`, ...).
    pub fn parse(s: &str) -> Result<Target, String> {
        let Some((kind, value)) = s.split_once(':') else {
            return Err(format!(
                "malformed target {s:?}: expected kind:value, with kind one of {KINDS}"
            ));
        };
        let value = value.trim();
        match kind.trim() {
            "segment" => Ok(Target::Segment(offset(value)?)),
            "segment-of" => Ok(Target::SegmentOf(offset(value)?)),
            "offset" | "record" => Ok(Target::Offset(offset(value)?)),
            "offsets" | "records" => {
                let Some((a, b)) = value.split_once('-') else {
                    return Err(format!(
                        "malformed range {value:?}: expected first-last, like 24-28"
                    ));
                };
                let (first, last) = (offset(a)?, offset(b)?);
                if first > last {
                    return Err(format!("range {value:?} ends before it starts"));
                }
                Ok(Target::Offsets { first, last })
            }
            "config" if !value.is_empty() => Ok(Target::Config(value.to_string())),
            "config" => Err("config: expected a config name, like config:retention.ms".into()),
            "panel" => Ok(Target::Panel(Panel::parse(value)?)),
            "time" => match parse_time(value)? {
                TimeSpec::Absolute(ms) => Ok(Target::Time(Timestamp(ms))),
                TimeSpec::Now(_) => Err(format!(
                    "time target {value:?} must be absolute (ms or RFC 3339)"
                )),
            },
            other => Err(format!(
                "unknown target kind {other:?} (expected one of: {KINDS})"
            )),
        }
    }

    /// What this names in the partition as it is now, as a narration [`Mention`]; an error says
    /// why the target does not exist (a segment deleted, an offset not written yet, ...).
    pub fn resolve(&self, p: &Partition) -> Result<Mention, String> {
        let records = || match (p.segments().first(), p.log_end_offset()) {
            (Some(s), end) if end > s.base_offset() => {
                format!("records at this step: {} to {}", s.base_offset(), end.0 - 1)
            }
            _ => "the partition holds no record at this step".to_string(),
        };
        let stored = |o: Offset| -> Result<(), String> {
            if p.timestamp_at(o).is_some() {
                Ok(())
            } else {
                Err(format!("no record at offset {o} ({})", records()))
            }
        };
        match self {
            Target::Segment(base) => {
                if p.segments().iter().any(|s| s.base_offset() == *base) {
                    Ok(Mention::Segment(*base))
                } else {
                    let bases: Vec<String> = p
                        .segments()
                        .iter()
                        .map(|s| s.base_offset().to_string())
                        .collect();
                    Err(format!(
                        "no segment with base offset {base} (segments at this step: {})",
                        bases.join(", ")
                    ))
                }
            }
            Target::SegmentOf(o) => p
                .segment_of(*o)
                .filter(|s| s.next_offset() > *o)
                .map(|s| Mention::Segment(s.base_offset()))
                .ok_or_else(|| format!("no segment holds offset {o} ({})", records())),
            Target::Offset(o) => stored(*o).map(|()| Mention::Offset(*o)),
            Target::Offsets { first, last } => {
                stored(*first)?;
                stored(*last)?;
                Ok(Mention::Offsets {
                    first: *first,
                    last: *last,
                })
            }
            Target::Config(name) => match p.config().get(name) {
                Some(_) => Ok(Mention::Config(name.clone())),
                None => Err(format!(
                    "unknown config {name} for {}",
                    p.config().version.label()
                )),
            },
            Target::Panel(panel) => Ok(Mention::Panel(*panel)),
            Target::Time(t) => Ok(Mention::Time(*t)),
        }
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Target::Segment(b) => write!(f, "segment:{b}"),
            Target::SegmentOf(o) => write!(f, "segment-of:{o}"),
            Target::Offset(o) => write!(f, "offset:{o}"),
            Target::Offsets { first, last } => write!(f, "offsets:{first}-{last}"),
            Target::Config(n) => write!(f, "config:{n}"),
            Target::Panel(p) => write!(f, "panel:{}", p.key()),
            Target::Time(t) => write!(f, "time:{t}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use logtime_model::batch::Record;
    use logtime_model::config::{Config, KafkaVersion};
    use logtime_model::partition::Command;

    #[test]
    fn every_affordance_has_distinct_words() {
        let words: Vec<_> = Affordance::ALL.map(Affordance::words).to_vec();
        for (short, long) in &words {
            assert!(!short.is_empty() && !long.is_empty());
            assert!(
                short.starts_with(char::is_uppercase),
                "a label in sentence case: {short}"
            );
        }
        let mut shorts: Vec<_> = words.iter().map(|w| w.0).collect();
        shorts.sort_unstable();
        shorts.dedup();
        assert_eq!(shorts.len(), Affordance::ALL.len());
    }

    #[test]
    fn targets_parse_and_print() {
        for s in [
            "segment:20000",
            "segment-of:20005",
            "offset:24",
            "offsets:24-28",
            "config:retention.ms",
            "panel:lookup",
            "time:1804842000000",
        ] {
            assert_eq!(Target::parse(s).unwrap().to_string(), s);
        }
        assert_eq!(
            Target::parse("record:3").unwrap(),
            Target::Offset(Offset(3))
        );
        assert_eq!(
            Target::parse("time:2027-03-12T09:00:00Z").unwrap(),
            Target::Time(Timestamp(1_804_842_000_000))
        );
        assert_eq!(
            Target::parse("segment 3").unwrap_err(),
            "malformed target \"segment 3\": expected kind:value, with kind one of segment, segment-of, offset, record, offsets, records, config, panel, time"
        );
        assert_eq!(
            Target::parse("offsets:28-24").unwrap_err(),
            "range \"28-24\" ends before it starts"
        );
        assert_eq!(
            Target::parse("panel:remedies").unwrap_err(),
            "unknown panel \"remedies\" (expected one of: partition, lookup, retention, log, producer, config, chart, disk, import, clock)"
        );
        assert!(Target::parse("offset:-1").is_err());
        assert!(Target::parse("time:now").is_err());
    }

    #[test]
    fn targets_resolve_against_the_partition() {
        let t = Timestamp(1_804_842_000_000);
        let mut p = Partition::new(Config::defaults(KafkaVersion::V4_0), "clicks-0", t, 0);
        p.apply(
            t,
            Command::Produce {
                records: vec![Record::at(t); 3],
            },
        )
        .unwrap();
        assert_eq!(
            Target::SegmentOf(Offset(2)).resolve(&p),
            Ok(Mention::Segment(Offset(0)))
        );
        assert_eq!(
            Target::Segment(Offset(1)).resolve(&p).unwrap_err(),
            "no segment with base offset 1 (segments at this step: 0)"
        );
        assert_eq!(
            Target::Offset(Offset(3)).resolve(&p).unwrap_err(),
            "no record at offset 3 (records at this step: 0 to 2)"
        );
        assert_eq!(
            Target::Config("message.timestamp.difference.max.ms".into())
                .resolve(&p)
                .unwrap_err(),
            "unknown config message.timestamp.difference.max.ms for Kafka 4.x"
        );
        assert!(Target::Offsets {
            first: Offset(0),
            last: Offset(2)
        }
        .resolve(&p)
        .is_ok());
    }

    #[test]
    fn affordance_sets() {
        let mut s = Affordances::of(&[Affordance::Verdicts]);
        s.insert(Affordance::AnswerPanel);
        assert!(s.contains(Affordance::Verdicts) && !s.contains(Affordance::Remedies));
        assert_eq!(s.to_string(), "verdicts, answer_panel");
        assert_eq!(Affordances::NONE.to_string(), "nothing");
        assert_eq!(
            Affordance::parse("pinned_badges"),
            Ok(Affordance::PinnedBadges)
        );
    }
}
