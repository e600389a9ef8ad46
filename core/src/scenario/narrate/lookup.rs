//! Offset-for-time lookups: the answer and the trace of what the broker read.

use super::Sentence;
use crate::human::time_of_day;
use logtime_model::index::{Comparison, Probe};
use logtime_model::lookup::{Elided, Lookup, LookupError, OffsetSpec, RecordMatch, TraceStep};
use logtime_model::units::{Offset, Timestamp};
use std::fmt::Write;

/// What a lookup asked for: `4 Nov 2025 10:00:05 (1762250405000)`, `earliest`, ...
pub fn lookup_target(spec: OffsetSpec) -> Sentence {
    let mut s = Sentence::new();
    target(&mut s, spec);
    s
}

fn target(s: &mut Sentence, spec: OffsetSpec) {
    match spec {
        OffsetSpec::Timestamp(t) if t.0 >= 0 => {
            s.time(t).text(format!(" ({t})"));
        }
        other => {
            s.text(other.to_string());
        }
    }
}

/// A lookup's answer with the steps that explain it: the segment chosen, the time-index entry,
/// the offsets the scan read; or the broker's refusal.
pub fn lookup(spec: OffsetSpec, result: &Result<Lookup, LookupError>) -> Sentence {
    let mut s = Sentence::plain("lookup for ");
    let l = match result {
        Ok(l) => l,
        Err(e) => {
            let _ = write!(
                s,
                "{spec} refused with error {} UNSUPPORTED_VERSION: {}",
                e.error_code, e.message
            );
            return s;
        }
    };
    target(&mut s, spec);
    if l.offset.0 >= 0 {
        s.text(" returned offset ").offset(l.offset);
    } else {
        s.text(" found nothing (-1)");
    }
    if l.timestamp.0 >= 0 {
        s.text(" (stamped ").time(l.timestamp).text(")");
    }
    for t in &l.trace {
        clause(&mut s, t);
    }
    if let Some((scanned, first, last)) = scanned(&l.trace) {
        s.text("; the scan read ")
            .offsets(format!("offsets {}", scanned.join(", ")), first, last);
    }
    s
}

/// The clause a step of the trace adds to a lookup's answer (the records scanned are
/// summed up after every clause, by [`scanned`]).
fn clause(s: &mut Sentence, t: &TraceStep) {
    match t {
        TraceStep::SegmentChosen {
            segment,
            largest_timestamp,
            ..
        } => {
            s.text("; segment ")
                .segment(*segment)
                .text(" is the first whose largest timestamp (")
                .time(*largest_timestamp)
                .text(") is at or after the target");
        }
        TraceStep::TimeIndexSearch {
            found_timestamp,
            found_offset,
            ..
        } => {
            let _ = write!(
                s,
                "; its time index gives ({found_timestamp}, {found_offset})"
            );
        }
        TraceStep::NoSegment => {
            s.text("; no segment has a largest timestamp at or after the target");
        }
        TraceStep::NotInSegment => {
            s.text(
                "; the chosen segment held no qualifying record and later segments are not tried",
            );
        }
        TraceStep::HighWatermarkFilter {
            offset,
            high_watermark,
        } => {
            s.text("; offset ")
                .offset(*offset)
                .text(" is at or above the high watermark ")
                .offset(*high_watermark)
                .text(", so a consumer gets -1");
        }
        TraceStep::MaxTimestampSegment {
            segment,
            max_timestamp,
            ..
        } => {
            s.text("; segment ")
                .segment(*segment)
                .text(format!(" holds the largest timestamp {max_timestamp}"));
        }
        _ => {}
    }
}

/// The offsets the scan read up to the answer (a folded run as `N more from a to b`), with the
/// first and the last; `None` when the lookup scanned nothing.
fn scanned(trace: &[TraceStep]) -> Option<(Vec<String>, Offset, Offset)> {
    let mut scanned: Vec<String> = Vec::new();
    let (mut first_scanned, mut last_scanned) = (None, None);
    let mut matched = false;
    for t in trace {
        match t {
            TraceStep::RecordScanned { offset, result, .. } => {
                if !matched {
                    scanned.push(offset.to_string());
                    first_scanned = first_scanned.or(Some(*offset));
                    last_scanned = Some(*offset);
                }
                matched |= *result == RecordMatch::Match;
            }
            TraceStep::Elided {
                what: Elided::RecordsScanned,
                count,
                first,
                last,
            } if !matched => {
                scanned.push(format!("{count} more from {first} to {last}"));
                first_scanned = first_scanned.or(Some(*first));
                last_scanned = Some(*last);
            }
            _ => {}
        }
    }
    Some((scanned, first_scanned?, last_scanned?))
}

/// One step of a lookup's trace, as the lookup panel lists them (`T` is the target).
pub fn trace_step(step: &TraceStep, spec: OffsetSpec) -> Sentence {
    let max = matches!(spec, OffsetSpec::MaxTimestamp);
    let mut s = Sentence::new();
    match step {
        TraceStep::SegmentPassed {
            segment,
            largest_timestamp,
            ..
        } => {
            s.text("pass over segment ")
                .segment(*segment)
                .text(": its largest timestamp ")
                .time(*largest_timestamp)
                .text(" is before T");
        }
        TraceStep::SegmentChosen {
            segment,
            largest_timestamp,
            ..
        } => {
            s.text("choose segment ")
                .segment(*segment)
                .text(": the first whose largest timestamp (")
                .time(*largest_timestamp)
                .text(") is at or after T");
        }
        TraceStep::TimeIndexSearch {
            probes,
            found_timestamp,
            found_offset,
            ..
        } => time_index_search(&mut s, probes, *found_timestamp, *found_offset),
        TraceStep::OffsetIndexSearch {
            target,
            found_offset,
            position,
            ..
        } => {
            s.text(format!("offset index: largest entry ≤ {target} is "))
                .offset(*found_offset)
                .text(format!(" at byte {position}"));
        }
        TraceStep::BatchSkipped { .. }
        | TraceStep::BatchOpened { .. }
        | TraceStep::RecordScanned { .. } => batch_step(&mut s, step, max),
        TraceStep::Elided {
            what,
            count,
            first,
            last,
        } => elided(&mut s, *what, *count, (*first, *last), max),
        _ => answer_step(&mut s, step),
    }
    s
}

/// The binary search of a segment's time index: the slots probed and the entry found.
fn time_index_search(
    s: &mut Sentence,
    probes: &[Probe],
    found_timestamp: Timestamp,
    found_offset: Offset,
) {
    let ps: Vec<String> = probes
        .iter()
        .map(|p| {
            let cmp = match p.comparison {
                Comparison::Below => "<",
                Comparison::Equal => "=",
                Comparison::Above => ">",
            };
            format!("slot {} ({} {cmp} T)", p.slot, time_of_day(p.key))
        })
        .collect();
    if ps.is_empty() {
        s.text("time index is empty: ");
    } else {
        s.text(format!(
            "binary search of the time index: {} → ",
            ps.join(", ")
        ));
    }
    if found_timestamp.0 < 0 {
        s.text("no entry ≤ T, start at the segment base ")
            .offset(found_offset);
    } else {
        s.text(format!("entry ({}, ", time_of_day(found_timestamp.0)))
            .offset(found_offset)
            .text(")");
    }
}

/// The steps inside the chosen segment: a batch skipped or opened, a record read.
fn batch_step(s: &mut Sentence, step: &TraceStep, max: bool) {
    match step {
        TraceStep::BatchSkipped {
            base_offset,
            last_offset,
            max_timestamp,
            ..
        } => {
            s.text("skip ")
                .offsets(
                    format!("batch {base_offset}–{last_offset}"),
                    *base_offset,
                    *last_offset,
                )
                .text(": its max ")
                .time(*max_timestamp)
                .text(if max {
                    " is not the largest timestamp"
                } else {
                    " is before T"
                });
        }
        TraceStep::BatchOpened {
            base_offset,
            last_offset,
            ..
        } => {
            s.text("open ")
                .offsets(
                    format!("batch {base_offset}–{last_offset}"),
                    *base_offset,
                    *last_offset,
                )
                .text(" and read record by record");
        }
        TraceStep::RecordScanned {
            offset,
            timestamp,
            result,
        } => {
            s.text("read offset ")
                .offset(*offset)
                .text(" stamped ")
                .time(*timestamp)
                .text(": ")
                .text(match (result, max) {
                    (RecordMatch::Match, false) => "at or after T, the answer",
                    (RecordMatch::Match, true) => "it carries the largest timestamp, the answer",
                    (RecordMatch::Earlier, false) => "before T, keep scanning",
                    (RecordMatch::Earlier, true) => "not the largest timestamp, keep scanning",
                    (RecordMatch::BelowLogStart, _) => "below the log start offset, skip",
                });
        }
        // The other steps are worded by `trace_step` and `answer_step`.
        _ => {}
    }
}

/// A run of like steps folded into one line: `count` of them, from `first` to `last`.
fn elided(s: &mut Sentence, what: Elided, count: u64, (first, last): (Offset, Offset), max: bool) {
    let more =
        |one: &str, many: &str| format!("{count} more {}", if count == 1 { one } else { many });
    match what {
        Elided::SegmentsPassed => {
            s.text(format!("pass over {}, ", more("segment", "segments")))
                .segment(first)
                .text(" to ")
                .segment(last)
                .text(": the largest timestamp of each is before T");
        }
        Elided::BatchesSkipped | Elided::RecordsScanned => {
            let (verb, what, why) = match (what, max) {
                (Elided::BatchesSkipped, true) => (
                    "skip ",
                    more("batch", "batches"),
                    ": no max among them is the largest timestamp",
                ),
                (Elided::BatchesSkipped, false) => (
                    "skip ",
                    more("batch", "batches"),
                    ": the max of each is before T",
                ),
                (_, true) => (
                    "read ",
                    more("record", "records"),
                    ": none carries the largest timestamp",
                ),
                (_, false) => (
                    "read ",
                    more("record", "records"),
                    ": none is the answer (each is before T or below the log start offset)",
                ),
            };
            s.text(verb)
                .offsets(format!("{what}, offsets {first}–{last}"), first, last)
                .text(why);
        }
    }
}

/// The steps that settle the answer without a scan: the segment holding the largest
/// timestamp, no segment, an empty chosen segment, a special offset, the high watermark.
fn answer_step(s: &mut Sentence, step: &TraceStep) {
    match step {
        TraceStep::MaxTimestampSegment {
            segment,
            max_timestamp,
            shallow_offset,
        } => {
            s.text("segment ")
                .segment(*segment)
                .text(" holds the largest timestamp ")
                .time(*max_timestamp)
                .text(" (first reached by the batch ending at ")
                .offset(*shallow_offset)
                .text(")");
        }
        TraceStep::NoSegment => {
            s.text("no segment has a largest timestamp at or after T: the answer is -1");
        }
        TraceStep::NotInSegment => {
            s.text("the chosen segment held no qualifying record; later segments are not tried");
        }
        TraceStep::Special { spec } => {
            s.text(format!("{spec}: read off the partition"));
        }
        TraceStep::HighWatermarkFilter {
            offset,
            high_watermark,
        } => {
            s.text("offset ")
                .offset(*offset)
                .text(" is at or above the high watermark ")
                .offset(*high_watermark)
                .text(": a consumer gets -1");
        }
        // The other steps are worded by `trace_step` and `batch_step`.
        _ => {}
    }
}
