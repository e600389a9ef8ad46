//! The narrator: every sentence Logtime says about what Kafka did, and why, for `logtime explain`
//! and the explorer's "What happened" list, panels and cards alike.
//!
//! A [`Sentence`] is text in [`Span`]s; a span may carry a [`Mention`] of what it names (a
//! segment, an offset or a range of them, a config, an instant), so a UI can link and highlight
//! it, and a [`Style`]. Generated narration is built here from typed step outcomes; authored
//! narration (a lesson's own words, in a small markup) is meant to parse into the same type, so
//! both can stand side by side.
//!
//! * [`step`]: what one step (or one command between steps) did, as clauses;
//! * [`produce`], [`retention`], [`lookup`]: the sentences for batches, rolls, verdicts and
//!   lookups that panels show on their own;
//! * [`describe`]: what a picture of a moment shows, in one paragraph;
//! * [`Panel`]: the explorer's panels, which authored narration may mention.
//!
//! Lessons (`logtime-lesson`) build their feedback and their stream processor's sentences on this
//! module; nothing here knows about lessons.

pub mod describe;
mod lookup;
mod panel;
mod produce;
mod retention;

pub use lookup::{lookup, lookup_target, trace_step};
pub use panel::Panel;
pub use produce::{broker_log, diagnosis, key, rejection, roll, roll_reason};
pub use retention::{
    compaction_note, future_timestamp_warnings, next_pass_label, pass_name, retention_story,
    scheduled_passes, verdict, verdict_brief,
};

use super::Scenario;
use super::{StepOutcome, StepReport};
use crate::human::{date, duration};
use logtime_model::config::{Config, ConfigValue};
use logtime_model::units::{Offset, Timestamp};
use std::fmt;

/// What a span of a sentence names.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Mention {
    /// A segment, by its base offset.
    Segment(Offset),
    /// One offset (a record).
    Offset(Offset),
    /// The offsets from `first` to `last`, both included.
    Offsets {
        /// First offset.
        first: Offset,
        /// Last offset.
        last: Offset,
    },
    /// A config, by its Kafka name.
    Config(String),
    /// An instant.
    Time(Timestamp),
    /// A panel of the explorer (authored narration only).
    Panel(Panel),
    /// A page of Kafka's documentation, by its `https` URL (authored narration only).
    Link(String),
    /// A stream processor's time window, `[start, end)` (authored by `logtime-lesson`'s stream
    /// processor).
    Window {
        /// The first instant inside it.
        start: Timestamp,
        /// The first instant after it.
        end: Timestamp,
    },
}

/// How a span is set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Style {
    /// Running text.
    #[default]
    Plain,
    /// A name or value as typed (`retention.ms`).
    Code,
    /// Emphasis.
    Strong,
}

/// A run of text with one style and at most one mention.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Span {
    /// The text.
    pub text: String,
    /// How it is set.
    pub style: Style,
    /// What it names, if anything.
    pub mention: Option<Mention>,
}

/// Where a piece of narration comes from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Origin {
    /// Built by this module from the model's outcomes and events.
    #[default]
    Generated,
    /// Written by a person (a lesson or walkthrough's own narration).
    Authored,
}

/// A sentence for people: spans of text, some of which mention part of the partition.
///
/// Invariant: no span is empty, and two neighbouring plain spans without a mention are merged,
/// so equal texts with equal mentions compare equal.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sentence {
    spans: Vec<Span>,
}

impl Sentence {
    /// An empty sentence.
    pub fn new() -> Sentence {
        Sentence::default()
    }

    /// A sentence of plain text.
    pub fn plain(text: impl AsRef<str>) -> Sentence {
        let mut s = Sentence::new();
        s.text(text);
        s
    }

    /// The spans, in order.
    pub fn spans(&self) -> &[Span] {
        &self.spans
    }

    /// What the sentence mentions, in order.
    pub fn mentions(&self) -> impl Iterator<Item = &Mention> {
        self.spans.iter().filter_map(|s| s.mention.as_ref())
    }

    /// Whether it has no text.
    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    fn push(&mut self, text: &str, style: Style, mention: Option<Mention>) -> &mut Self {
        if text.is_empty() {
            return self;
        }
        if let Some(last) = self.spans.last_mut() {
            if mention.is_none() && last.mention.is_none() && last.style == style {
                last.text.push_str(text);
                return self;
            }
        }
        self.spans.push(Span {
            text: text.to_string(),
            style,
            mention,
        });
        self
    }

    /// Appends plain text.
    pub fn text(&mut self, text: impl AsRef<str>) -> &mut Self {
        self.push(text.as_ref(), Style::Plain, None)
    }

    /// Appends text set in a style.
    pub fn styled(&mut self, text: impl AsRef<str>, style: Style) -> &mut Self {
        self.push(text.as_ref(), style, None)
    }

    /// Appends text that mentions something.
    pub fn mention(&mut self, text: impl AsRef<str>, mention: Mention) -> &mut Self {
        self.push(text.as_ref(), Style::Plain, Some(mention))
    }

    /// Appends text set in a style that mentions something (authored narration: a bold link).
    pub fn styled_mention(
        &mut self,
        text: impl AsRef<str>,
        style: Style,
        mention: Mention,
    ) -> &mut Self {
        self.push(text.as_ref(), style, Some(mention))
    }

    /// Appends a segment's base offset, mentioning the segment.
    pub fn segment(&mut self, base: Offset) -> &mut Self {
        self.mention(base.to_string(), Mention::Segment(base))
    }

    /// Appends an offset, mentioning it.
    pub fn offset(&mut self, offset: Offset) -> &mut Self {
        self.mention(offset.to_string(), Mention::Offset(offset))
    }

    /// Appends `text`, mentioning the offsets from `first` to `last`.
    pub fn offsets(&mut self, text: impl AsRef<str>, first: Offset, last: Offset) -> &mut Self {
        self.mention(text, Mention::Offsets { first, last })
    }

    /// Appends a config's Kafka name, mentioning it.
    pub fn config(&mut self, name: &str) -> &mut Self {
        self.mention(name, Mention::Config(name.to_string()))
    }

    /// Appends an instant as a date for people (`12 Mar 2027 09:00`, UTC), mentioning it.
    pub fn time(&mut self, t: Timestamp) -> &mut Self {
        self.mention(date(t.0), Mention::Time(t))
    }

    /// Starts the sentence with a capital letter (for a list item or a line of its own).
    pub fn capitalize(&mut self) -> &mut Self {
        if let Some(c) = self.spans.first_mut().and_then(|s| s.text.get_mut(0..1)) {
            c.make_ascii_uppercase();
        }
        self
    }

    /// Appends another sentence.
    pub fn append(&mut self, other: Sentence) -> &mut Self {
        for s in other.spans {
            self.push(&s.text, s.style, s.mention);
        }
        self
    }

    /// The sentences one after the other, `separator` between them.
    pub fn join(parts: impl IntoIterator<Item = Sentence>, separator: &str) -> Sentence {
        let mut out = Sentence::new();
        for (i, p) in parts.into_iter().enumerate() {
            if i > 0 {
                out.text(separator);
            }
            out.append(p);
        }
        out
    }
}

/// Plain text through `write!`.
impl fmt::Write for Sentence {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.text(s);
        Ok(())
    }
}

impl fmt::Display for Sentence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for s in &self.spans {
            f.write_str(&s.text)?;
        }
        Ok(())
    }
}

/// `n` and its noun, singular for exactly one: `1 record`, `0 records`, `10000 batches`.
pub fn count(n: impl Into<i128>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

/// `offset 7` for one offset, `offsets 3 to 9` for a range.
pub fn offset_range(first: Offset, last: Offset) -> String {
    if first == last {
        format!("offset {first}")
    } else {
        format!("offsets {first} to {last}")
    }
}

/// `a`, `a and b`, `a, b and c`.
pub fn list(items: Vec<Sentence>) -> Sentence {
    let n = items.len();
    let mut out = Sentence::new();
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 {
            out.text(if i + 1 == n { " and " } else { ", " });
        }
        out.append(item);
    }
    out
}

/// The scenario's setting on one line: version, partition, timestamp type, the limits that
/// matter and the clock at the start.
pub fn setting(s: &Scenario) -> Sentence {
    let c = &s.config;
    let mut out = Sentence::plain(s.kafka.label());
    out.text(format!(" · partition {} · ", s.topic_partition));
    out.text(c.topic.message_timestamp_type.name());
    out.text(" · ")
        .config("retention.ms")
        .text(format!(" {} · ", duration(c.topic.retention_ms)))
        .config("segment.bytes")
        .text(format!(" {} · ", c.topic.segment_bytes))
        .config("message.timestamp.after.max.ms")
        .text(format!(
            " {} · clock starts ",
            duration(c.effective_after_max_ms())
        ))
        .time(s.start)
        .text(" UTC");
    out
}

/// Where a step's narration starts: `step 3 at 12 Mar 2027 09:05 (+5 min)`, the time since
/// `previous` shown when the clock moved. `number` is the step as the reader counts it: the
/// command line gives the step's index in the file (the report's `index`), the explorer the
/// count of steps run (its step counter's).
pub fn heading(number: usize, now: Timestamp, previous: Timestamp) -> Sentence {
    let mut out = Sentence::plain(format!("step {number} at "));
    out.time(now);
    let delta = now.0.wrapping_sub(previous.0);
    if delta > 0 {
        out.text(format!(" (+{})", duration(delta)));
    }
    out
}

/// The partition at the end of a replay, on one line: its segments (the first eight and the
/// last four of a longer list, with their count, so that a million segments stay one line).
/// It reads the partition itself: a [`logtime_model::PartitionState`] snapshot would copy every index.
pub fn end(p: &logtime_model::Partition) -> Sentence {
    let segments = p.segments();
    let n = segments.len();
    let mut out = Sentence::plain(if n == 1 {
        "at the end: segment "
    } else {
        "at the end: segments "
    });
    let bases = |gs: &[Box<logtime_model::Segment>]| {
        Sentence::join(
            gs.iter().map(|g| {
                let mut s = Sentence::new();
                s.segment(g.base_offset());
                s
            }),
            ", ",
        )
    };
    if n <= 16 {
        out.append(bases(segments));
    } else {
        out.append(bases(&segments[..8]));
        out.text(", …, ");
        out.append(bases(&segments[n - 4..]));
        out.text(format!(" ({n} segments)"));
    }
    out.text(format!(
        "; log start offset {}, log end offset {}, high watermark {}",
        p.log_start_offset(),
        p.log_end_offset(),
        p.high_watermark()
    ));
    out
}

/// A config value as the JSON report prints it: numbers bare, text quoted. A changed config's
/// text is always one of Kafka's own words (`CreateTime`, `compact,delete`), so quoting needs
/// no escapes.
fn json_value(v: &ConfigValue) -> String {
    match v {
        ConfigValue::Number(n) => n.to_string(),
        ConfigValue::Text(t) => format!("\"{t}\""),
    }
}

/// What one step (or one command between steps) did, as clauses for people, in order: the
/// step's own outcome, then the story of every retention check that deleted something.
/// `config` is the config in force after the step: it says which schedule ran the retention
/// passes, and a `cleanup.policy` change to one with `compact` adds [`compaction_note`].
pub fn step(r: &StepReport, config: &Config) -> Vec<Sentence> {
    let mut parts = match &r.outcome {
        StepOutcome::Produce(p) => produce::outcome(p, r),
        StepOutcome::Advance(c) | StepOutcome::At(c) => vec![Sentence::plain(format!(
            "the clock moved on; {} ran",
            scheduled_passes(config, c.checks as u64)
        ))],
        StepOutcome::Retention(_) if !r.rolls.is_empty() || !r.retention.is_empty() => {
            vec![Sentence::plain("a retention check ran")]
        }
        StepOutcome::Retention(rep) => {
            let mut s = Sentence::plain("a retention check ran: ");
            let verdicts = rep.verdicts.iter().map(|v| {
                let mut one = Sentence::new();
                one.segment(v.base_offset)
                    .text(": ")
                    .append(verdict(v, rep));
                one
            });
            s.append(Sentence::join(verdicts, "; "));
            let mut parts = vec![s];
            parts.extend(future_timestamp_warnings(rep));
            parts
        }
        StepOutcome::Lookup { spec, result } => vec![lookup(*spec, result)],
        StepOutcome::DeleteRecords { offset, result } => {
            let mut s = Sentence::plain(format!("DeleteRecords to {offset}"));
            match result {
                Err(e) => {
                    s.text(format!(
                        " refused with error {} {}: \"{}\"",
                        e.error.code(),
                        e.error.name(),
                        e.error_message
                    ));
                }
                Ok(low_watermark) => {
                    s.text(": the log start offset (low watermark) is now ")
                        .offset(*low_watermark)
                        .text("; the files go at the next retention check");
                }
            }
            vec![s]
        }
        StepOutcome::Config(changes) => {
            let mut s = Sentence::plain("config changed: ");
            let each = changes.iter().map(|c| {
                let mut one = Sentence::new();
                one.config(&c.name).text(format!(
                    " {} → {}",
                    json_value(&c.old),
                    json_value(&c.new)
                ));
                one
            });
            s.append(Sentence::join(each, ", "));
            let mut parts = vec![s];
            if changes.iter().any(|c| c.name == "cleanup.policy") {
                parts.extend(compaction_note(config));
            }
            parts
        }
        StepOutcome::Version(v) => {
            let mut s = Sentence::plain(format!("the broker now behaves as {}", v.to.label()));
            if !v.reset.is_empty() {
                s.text(" (reset to defaults: ");
                let names = v.reset.iter().map(|n| {
                    let mut one = Sentence::new();
                    one.config(n);
                    one
                });
                s.append(Sentence::join(names, ", ")).text(")");
            }
            vec![s]
        }
        StepOutcome::Snapshot(state) => {
            let mut s = Sentence::plain(format!(
                "snapshot: log start offset {}, log end offset {}, high watermark {}; segments ",
                state.log_start_offset, state.log_end_offset, state.high_watermark
            ));
            let segs = state.segments.iter().map(|g| {
                let mut one = Sentence::new();
                one.segment(g.base_offset)
                    .text(format!(
                        " ({}, largest timestamp ",
                        count(g.records, "record", "records")
                    ))
                    .time(g.largest_timestamp)
                    .text(")");
                one
            });
            s.append(Sentence::join(segs, ", "));
            vec![s]
        }
        StepOutcome::HighWatermark(hw) => {
            let mut s = Sentence::plain("the high watermark is set to ");
            s.offset(*hw).text(" (a lagging follower)");
            vec![s]
        }
    };
    parts.extend(r.retention.iter().map(retention_story));
    parts
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fmt::Write;

    /// A count says its noun in the singular only for one; a range of one offset is that offset.
    #[test]
    fn counts_and_ranges_read_as_english() {
        assert_eq!(count(1u64, "record", "records"), "1 record");
        assert_eq!(count(0u64, "record", "records"), "0 records");
        assert_eq!(count(10_000u64, "batch", "batches"), "10000 batches");
        assert_eq!(count(-1i64, "record", "records"), "-1 records");
        assert_eq!(offset_range(Offset(7), Offset(7)), "offset 7");
        assert_eq!(offset_range(Offset(3), Offset(9)), "offsets 3 to 9");
    }

    /// A long segment list keeps its ends and its count; a lookup's folded run reads as one line.
    #[test]
    fn long_lists_stay_one_short_line() {
        use logtime_model::lookup::{Elided, TraceStep};
        let mut p = logtime_model::Partition::new(
            Config::defaults(logtime_model::KafkaVersion::V3_6),
            "t-0",
            Timestamp(0),
            0,
        );
        let size = logtime_model::batch_size(&[logtime_model::Record::at(Timestamp(0))]).0;
        p.apply(
            Timestamp(0),
            logtime_model::Command::SetConfig {
                name: "segment.bytes".into(),
                value: ConfigValue::Number(size),
            },
        )
        .unwrap();
        for i in 0..20 {
            p.produce_unchecked(Timestamp(i), &[logtime_model::Record::at(Timestamp(i))])
                .unwrap();
        }
        assert_eq!(
            end(&p).to_string(),
            "at the end: segments 0, 1, 2, 3, 4, 5, 6, 7, …, 16, 17, 18, 19 (20 segments); \
             log start offset 0, log end offset 20, high watermark 20"
        );
        let folded = TraceStep::Elided {
            what: Elided::SegmentsPassed,
            count: 199,
            first: Offset(100),
            last: Offset(298),
        };
        assert_eq!(
            trace_step(&folded, logtime_model::OffsetSpec::Timestamp(Timestamp(5))).to_string(),
            "pass over 199 more segments, 100 to 298: the largest timestamp of each is before T"
        );
        let (at, max) = (
            logtime_model::OffsetSpec::Timestamp(Timestamp(5)),
            logtime_model::OffsetSpec::MaxTimestamp,
        );
        let fold = |what, count| TraceStep::Elided {
            what,
            count,
            first: Offset(3),
            last: Offset(9),
        };
        for (step, spec, want) in [
            (fold(Elided::BatchesSkipped, 2), at, "skip 2 more batches, offsets 3–9: the max of each is before T"),
            (fold(Elided::BatchesSkipped, 1), max, "skip 1 more batch, offsets 3–9: no max among them is the largest timestamp"),
            (fold(Elided::RecordsScanned, 7), at, "read 7 more records, offsets 3–9: none is the answer (each is before T or below the log start offset)"),
            (fold(Elided::RecordsScanned, 7), max, "read 7 more records, offsets 3–9: none carries the largest timestamp"),
        ] {
            assert_eq!(trace_step(&step, spec).to_string(), want);
        }
    }

    #[test]
    fn sentences_merge_plain_text_and_keep_mentions() {
        let mut s = Sentence::plain("segment ");
        s.segment(Offset(20_000))
            .text(" is kept until ")
            .time(Timestamp(0));
        let _ = write!(s, " ({} more)", 2);
        assert_eq!(
            s.to_string(),
            "segment 20000 is kept until 1 Jan 1970 00:00 (2 more)"
        );
        assert_eq!(s.spans().len(), 5);
        assert_eq!(
            s.mentions().collect::<Vec<_>>(),
            vec![
                &Mention::Segment(Offset(20_000)),
                &Mention::Time(Timestamp(0))
            ]
        );
        let joined = Sentence::join([Sentence::plain("a"), s.clone()], "; ");
        assert!(joined.to_string().starts_with("a; segment 20000"));
        assert_eq!(joined.mentions().count(), 2);
        assert!(Sentence::plain("").is_empty());
        assert_eq!(Sentence::plain("step 1").capitalize().to_string(), "Step 1");
        assert_eq!(Sentence::plain("→ x").capitalize().to_string(), "→ x");
        let three = list(vec![
            Sentence::plain("1"),
            Sentence::plain("2"),
            Sentence::plain("3"),
        ]);
        assert_eq!(three.to_string(), "1, 2 and 3");
    }

    /// Wherever the policy includes `compact`, the narration says compaction is not modelled and
    /// names the log cleaner's passes; without it, nothing is said and the retention task runs.
    #[test]
    fn compacted_topics_say_compaction_is_not_modelled() {
        use logtime_model::config::KafkaVersion;
        let mut c = Config::defaults(KafkaVersion::V4_0);
        assert_eq!(compaction_note(&c), None);
        assert_eq!(next_pass_label(&c), "next retention check");
        assert_eq!(scheduled_passes(&c, 2), "2 scheduled retention checks");
        assert_eq!(scheduled_passes(&c, 1), "1 scheduled retention check");
        c.set(
            "cleanup.policy",
            &ConfigValue::Text("compact,delete".into()),
        )
        .unwrap();
        let note = compaction_note(&c).unwrap();
        assert_eq!(
            note.to_string(),
            "cleanup.policy compact,delete: compaction is not modelled (no record is removed for a newer one with the same key); the log cleaner runs this topic's retention passes, every log.cleaner.backoff.ms (15 s) while it has nothing to compact, instead of the retention task"
        );
        assert_eq!(
            note.mentions().collect::<Vec<_>>(),
            vec![
                &Mention::Config("cleanup.policy".into()),
                &Mention::Config("log.cleaner.backoff.ms".into())
            ]
        );
        assert_eq!(next_pass_label(&c), "next log cleaner pass");
        assert_eq!(scheduled_passes(&c, 0), "0 log cleaner retention passes");
        assert_eq!(scheduled_passes(&c, 1), "1 log cleaner retention pass");
    }

    #[test]
    fn headings_show_the_time_since_the_previous_step() {
        let t = Timestamp(1_804_842_000_000);
        assert_eq!(
            heading(3, Timestamp(t.0 + 300_000), t).to_string(),
            "step 3 at 12 Mar 2027 09:05 (+5 min)"
        );
        assert_eq!(heading(0, t, t).to_string(), "step 0 at 12 Mar 2027 09:00");
    }
}
