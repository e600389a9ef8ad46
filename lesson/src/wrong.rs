//! Feedback on a wrong answer: what the model says about the learner's own choice (why segment 0
//! goes, why offset 5 is not the lookup's answer), and which [`Misconception`] it shows. Nothing
//! here names a part of the right answer: segments or records the learner left out are counted,
//! not named, and a wrong error code is explained by what that code means.

use super::question::{accepts, label, pinning_segment, Answer, Ask, Evidence, Question, Solved};
use crate::feedback;
use crate::grade::next_pass;
use crate::misconception::Misconception;
use crate::stream::{StreamReport, Window};
use logtime_core::human::duration;
use logtime_core::scenario::narrate::{count, Sentence};
use logtime_model::lookup::{Lookup, OffsetSpec};
use logtime_model::partition::Partition;
use logtime_model::retention::{RetentionReport, SegmentVerdict, Verdict};
use logtime_model::units::Offset;

type Feedback = (Vec<Sentence>, Option<Misconception>);

/// Feedback on `given`, a wrong answer to `q`.
pub(crate) fn feedback(q: &Question, solved: &Solved, given: &Answer, p: &Partition) -> Feedback {
    match (&solved.evidence, given) {
        (Evidence::Retention(r), Answer::Segments(g)) => {
            let (mut out, class) = struck_segments(r, g, p);
            out.insert(0, next_pass(r, p));
            (out, class)
        }
        (Evidence::Retention(r), Answer::Records(g)) => {
            let (mut out, class) = struck_records(r, g, p);
            out.insert(0, next_pass(r, p));
            (out, class)
        }
        (Evidence::Retention(r), Answer::Segment(g)) => picked_segment(r, *g, p),
        (Evidence::Lookup(l), Answer::Offset(o)) => lookup(l, *o, p),
        (Evidence::Choose { .. }, Answer::Value(v)) => chosen(q, solved, *v, p),
        (Evidence::Stream { report, window }, given) => stream(report, *window, given),
        (Evidence::Outcome { .. }, Answer::ErrorCode(c)) => error_code(*c),
        _ => (vec![Sentence::plain("this is not the answer")], None),
    }
}

/// Why a segment the check keeps stays, without naming the segment the walk stopped at.
fn kept(v: &SegmentVerdict, r: &RetentionReport) -> Sentence {
    match v.verdict {
        Verdict::KeptBehind { expired, .. } => {
            let mut s = Sentence::plain("segment ");
            s.segment(v.base_offset);
            if expired {
                s.text(" is kept although its largest timestamp ")
                    .time(v.largest_timestamp)
                    .text(format!(
                        " is {} old: the walk stopped at a segment before it",
                        duration(r.at.wrapping_since(v.largest_timestamp))
                    ));
            } else {
                s.text(" is kept: it is not old enough, and the walk stopped at a segment before it anyway");
            }
            s
        }
        _ => feedback::segment_fate(v, r),
    }
}

/// The class of striking a segment the check keeps.
fn kept_class(v: &SegmentVerdict, r: &RetentionReport, p: &Partition) -> Misconception {
    match v.verdict {
        Verdict::KeptBehind { expired: true, .. } => Misconception::BehindPinning,
        Verdict::NotOldEnough { .. } => {
            let first = p
                .segment_of(v.base_offset)
                .and_then(|s| s.record_timestamps().first().copied());
            match first {
                Some(t) if r.at.0.saturating_sub(t) > r.retention_ms && r.retention_ms >= 0 => {
                    Misconception::FirstStamp
                }
                _ => Misconception::KeptStruck,
            }
        }
        _ => Misconception::KeptStruck,
    }
}

fn is_deleted(v: &SegmentVerdict) -> bool {
    matches!(v.verdict, Verdict::Deleted { .. })
}

/// `you left 2 segments the check deletes`.
fn missed(n: usize, one: &str, many: &str) -> Sentence {
    Sentence::plain(format!(
        "you left {} the check deletes",
        count(n as i64, one, many)
    ))
}

fn struck_segments(r: &RetentionReport, g: &[Offset], p: &Partition) -> Feedback {
    let mut out = Vec::new();
    let mut class = None;
    for v in r.verdicts.iter().filter(|v| g.contains(&v.base_offset)) {
        if !is_deleted(v) {
            out.push(kept(v, r));
            class = class.or(Some(kept_class(v, r, p)));
        }
    }
    let left = r
        .verdicts
        .iter()
        .filter(|v| is_deleted(v) && !g.contains(&v.base_offset))
        .count();
    if left > 0 {
        out.push(missed(left, "segment", "segments"));
        class = class.or(Some(Misconception::MissedDeleted));
    }
    (out, class)
}

/// Each segment's offsets, first and last, from the check's verdicts.
fn extents(r: &RetentionReport, p: &Partition) -> Vec<(Offset, Offset)> {
    let end = p.log_end_offset();
    r.verdicts
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let next = r.verdicts.get(i + 1).map_or(end, |w| w.base_offset);
            (v.base_offset, Offset(next.0 - 1))
        })
        .collect()
}

fn struck_records(r: &RetentionReport, g: &[(Offset, Offset)], p: &Partition) -> Feedback {
    let mut out = Vec::new();
    let mut class = None;
    let (mut left, mut partial) = (0, false);
    for (v, (first, last)) in r.verdicts.iter().zip(extents(r, p)) {
        let covered: i64 = g
            .iter()
            .map(|(a, b)| (b.0.min(last.0) - a.0.max(first.0) + 1).max(0))
            .sum();
        let all = last.0 - first.0 + 1;
        match (is_deleted(v), covered) {
            (false, c) if c > 0 => {
                out.push(kept(v, r));
                class = class.or(Some(kept_class(v, r, p)));
            }
            (true, 0) => left += 1,
            (true, c) if c < all => partial = true,
            _ => {}
        }
    }
    if partial {
        out.push(Sentence::plain(
            "you struck only part of a segment the check deletes",
        ));
        class = class.or(Some(Misconception::PartialSegment));
    }
    if left > 0 {
        out.push(missed(
            left,
            "a segment's records",
            "the records of segments",
        ));
        class = class.or(Some(Misconception::MissedDeleted));
    }
    (out, class)
}

fn picked_segment(r: &RetentionReport, g: Offset, p: &Partition) -> Feedback {
    let Some(v) = r.verdicts.iter().find(|v| v.base_offset == g) else {
        let mut s = Sentence::plain("no segment starts at offset ");
        s.offset(g);
        return (vec![s], Some(Misconception::NotASegment));
    };
    let active = p.active_segment().base_offset() == g;
    let class = match v.verdict {
        Verdict::Deleted { .. } => Misconception::DeletedSegment,
        _ if active => Misconception::ActiveSegment,
        Verdict::KeptBehind { .. } => Misconception::BehindPinning,
        _ if pinning_segment(r).is_none() => Misconception::DeletedSegment,
        _ => Misconception::BehindPinning,
    };
    (vec![kept_or_fate(v, r)], Some(class))
}

fn kept_or_fate(v: &SegmentVerdict, r: &RetentionReport) -> Sentence {
    if is_deleted(v) {
        feedback::segment_fate(v, r)
    } else {
        kept(v, r)
    }
}

fn lookup(l: &Lookup, given: Offset, p: &Partition) -> Feedback {
    let target = match l.spec {
        OffsetSpec::Timestamp(t) => Some(t),
        _ => None,
    };
    if given.0 < 0 {
        let s = Sentence::plain("the lookup does find a record: some segment's largest timestamp is at or after the target, and that segment holds a record stamped at or after it");
        return (vec![s], Some(Misconception::ExpectsNothing));
    }
    let mut s = Sentence::plain("offset ");
    s.offset(given);
    let (Some(ts), Some(t)) = (p.timestamp_at(given), target) else {
        if p.timestamp_at(given).is_none() {
            s.text(" holds no record the broker can return");
            return (vec![s], Some(Misconception::NoRecord));
        }
        s.text(" is not what ")
            .text(l.spec.to_string())
            .text(" returns");
        return (vec![s], Some(Misconception::SpecMeaning));
    };
    s.text(" is stamped ").time(ts);
    let class = if ts < t {
        s.text(", before the target ")
            .time(t)
            .text(", so the scan reads past it");
        Misconception::BeforeTarget
    } else if l.offset.0 >= 0 && given > l.offset {
        s.text(", at or after the target ").time(t).text(
            ", but an earlier offset is stamped at or after the target too, and the broker returns the first in offset order",
        );
        let right_is_exact = p.timestamp_at(l.offset) == Some(t);
        if right_is_exact && ts > t {
            Misconception::StrictlyAfter
        } else {
            Misconception::ClosestStamp
        }
    } else {
        s.text(", at or after the target ")
            .time(t)
            .text(", but the broker never reads it: it searches only the first segment whose largest timestamp is at or after the target");
        Misconception::OtherSegment
    };
    (vec![s], Some(class))
}

fn chosen(q: &Question, solved: &Solved, v: i64, p: &Partition) -> Feedback {
    let (
        Ask::Choose {
            config,
            accept,
            reject,
        },
        Answer::Values { min, max },
    ) = (&q.kind, &solved.answer)
    else {
        return (vec![], None);
    };
    let now = p.clock();
    let mut w = Sentence::new();
    w.config(config).text(format!(" = {v}: "));
    let low = v < *min;
    let probe = if low { accept } else { reject };
    match accepts(p, config, v, probe) {
        None => {
            w.text("not a valid value of this config");
            return (vec![w], Some(Misconception::InvalidValue));
        }
        Some(o) => {
            w.append(label(probe, now))
                .text(": ")
                .append(feedback::batch_answer(&o));
        }
    }
    let in_range = |x: i128| (*min as i128..=*max as i128).contains(&x);
    let class = if !low && in_range(v as i128 / 1_000_000) {
        Misconception::NanosForMillis
    } else if low && in_range(v as i128 * 1000) {
        Misconception::SecondsForMillis
    } else if low {
        Misconception::ValueTooSmall
    } else {
        Misconception::ValueTooLarge
    };
    (vec![w], Some(class))
}

fn stream(report: &StreamReport, window: Option<Window>, given: &Answer) -> Feedback {
    use crate::stream::narrate as ns;
    match (window, given) {
        (None, Answer::Records(g)) => {
            let struck = |o: Offset| g.iter().any(|(a, b)| *a <= o && o <= *b);
            let mut out: Vec<Sentence> = report
                .reads
                .iter()
                .filter(|r| struck(r.offset) && !r.fate.is_late())
                .take(5)
                .map(|r| ns::fate(r, report))
                .collect();
            if let Some((a, _)) = g.iter().find(|(a, b)| {
                (a.0..=b.0)
                    .take(10_000)
                    .any(|o| report.read_of(Offset(o)).is_none())
            }) {
                let o = (a.0..)
                    .find(|o| report.read_of(Offset(*o)).is_none())
                    .unwrap_or(a.0);
                let mut s = Sentence::plain("the processor reads no record at offset ");
                s.offset(Offset(o));
                out.push(s);
            }
            let mut class = (!out.is_empty()).then_some(Misconception::StruckOnTime);
            let left = report.late().filter(|r| !struck(r.offset)).count();
            if left > 0 {
                out.push(Sentence::plain(format!(
                    "you left {} the processor drops as late",
                    count(left as i64, "record", "records")
                )));
                class = class.or(Some(Misconception::MissedLate));
            }
            (out, class)
        }
        (Some(_), Answer::Offset(o)) => {
            let mut out = Vec::new();
            match report.read_of(*o) {
                Some(r) => {
                    let mut s = Sentence::plain("after record ");
                    s.offset(r.offset)
                        .text(": ")
                        .append(ns::progress(report.config(), r.after))
                        .text(", and the window is ")
                        .text(if r.offset < closing(report, window) {
                            "still open"
                        } else {
                            "already closed"
                        });
                    out.push(s);
                }
                None if o.0 < 0 => out.push(Sentence::plain(
                    "a record read so far does close the window",
                )),
                None => {
                    let mut s = Sentence::plain("the processor reads no record at offset ");
                    s.offset(*o);
                    out.push(s);
                }
            }
            (out, Some(Misconception::WrongCloser))
        }
        _ => (vec![Sentence::plain("this is not the answer")], None),
    }
}

/// The offset whose read closes `window` (`i64::MAX` while it is open), to say on which side of
/// it a picked record lies without naming it.
fn closing(report: &StreamReport, window: Option<Window>) -> Offset {
    window
        .and_then(|w| report.closing_of(w))
        .map_or(Offset(i64::MAX), |c| c.by)
}

/// What a code the broker does not answer here means.
fn error_code(c: i16) -> Feedback {
    let name = crate::errors::error_name(c).unwrap_or("UNKNOWN");
    if c == 0 {
        let s = Sentence::plain(
            "0 NONE would mean the broker takes the action as it is, and it does not",
        );
        return (vec![s], Some(Misconception::ExpectsAccept));
    }
    let meaning = match c {
        1 => "a DeleteRecords offset beyond the log end offset",
        10 => "a batch larger than max.message.bytes",
        18 => "a request whose batches together exceed the broker's limit",
        32 => "a record stamped outside message.timestamp.before.max.ms or message.timestamp.after.max.ms (difference.max.ms before 3.6) of the broker clock",
        44 => "an action a topic policy forbids",
        87 => "a record the broker refuses for its content (a compacted topic's record without a key)",
        _ => "none of the rules this lesson's broker checks",
    };
    let mut s = Sentence::plain(format!("error {c} {name} answers {meaning}; "));
    s.text("that is not what this action breaks");
    (vec![s], Some(Misconception::WrongError))
}
