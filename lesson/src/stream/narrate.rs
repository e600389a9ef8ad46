//! Sentences about the downstream stream processor ([`crate::stream`]): its setting, what it did
//! with the records a step wrote, why a record was dropped as late, when a window closed.

use crate::stream::{Fate, Progress, Read, Semantics, Skip, StreamConfig, StreamReport, Window};
use logtime_core::human::{date, duration, time_of_day};
use logtime_core::scenario::narrate::{count, list, Mention, Sentence, Style};
use logtime_model::units::{Offset, Timestamp};

/// `12 Mar 2027 10:00–10:05` (the end's date too when it falls on another day).
pub fn window_label(w: Window) -> String {
    let day = |t: i64| t.div_euclid(86_400_000);
    // The end is exclusive: a window ending at midnight is the same day's.
    if day(w.start.0) == day(w.end.0 - 1) && w.end.0 - w.start.0 < 86_400_000 {
        let end = time_of_day(w.end.0);
        let end = end.strip_suffix(":00").unwrap_or(&end);
        format!("{}–{end}", date(w.start.0))
    } else {
        format!("{} – {}", date(w.start.0), date(w.end.0))
    }
}

fn window(s: &mut Sentence, w: Window) {
    s.mention(
        window_label(w),
        Mention::Window {
            start: w.start,
            end: w.end,
        },
    );
}

/// What the processor is: `a Kafka Streams application counts the records in tumbling 5 min
/// windows with a grace of 1 min (TimeWindows.ofSizeAndGrace), reading from the log start
/// offset`.
pub fn setting(c: &StreamConfig) -> Sentence {
    let mut s = Sentence::new();
    let size = duration(c.window_ms());
    let delay = duration(c.delay_ms());
    match c.semantics() {
        Semantics::KafkaStreams => {
            s.text(format!(
                "downstream, a Kafka Streams application counts the records in tumbling {size} windows with a grace of {delay} ("
            ))
            .styled("windowedBy(TimeWindows.ofSizeAndGrace(...))", Style::Code)
            .text("): a window closes once stream time, the largest timestamp read, minus the grace reaches its end, and a record for a closed window is dropped");
        }
        Semantics::Flink => {
            s.text(format!(
                "downstream, a Flink job counts the records in tumbling {size} event-time windows under a bounded-out-of-orderness watermark ("
            ))
            .styled("forBoundedOutOfOrderness", Style::Code)
            .text(format!(
                ", {delay}: watermark = largest timestamp − {delay} − 1 ms) with an allowed lateness of {}: a window fires when the watermark reaches its last millisecond, and a record for a window past its lateness is dropped",
                duration(c.allowed_lateness_ms())
            ));
        }
    }
    match c.from() {
        None => s.text("; it reads the partition from the log start offset"),
        Some(o) => s.text("; it reads the partition from offset ").offset(o),
    };
    s
}

/// Where event time stands: `stream time 10:01:20, close time 10:00:20`.
pub fn progress(c: &StreamConfig, p: Progress) -> Sentence {
    let mut s = Sentence::new();
    let name = match c.semantics() {
        Semantics::KafkaStreams => "close time",
        Semantics::Flink => "watermark",
    };
    match (p.stream_time, p.watermark) {
        (None, _) => s.text("no event time yet"),
        (Some(st), Some(wm)) => s
            .text("stream time ")
            .time(st)
            .text(format!(", {name} "))
            .time(wm),
        (Some(st), None) => s.text("stream time ").time(st),
    };
    s
}

/// Where a read moved event time: `stream time to 10:01:20 (close time 10:00:20)`.
fn moved_to(c: &StreamConfig, p: Progress) -> Sentence {
    let mut s = Sentence::new();
    let name = match c.semantics() {
        Semantics::KafkaStreams => "close time",
        Semantics::Flink => "watermark",
    };
    if let Some(st) = p.stream_time {
        s.text("stream time to ").time(st);
        if let Some(wm) = p.watermark {
            s.text(format!(" ({name} ")).time(wm).text(")");
        }
    }
    s
}

fn record(s: &mut Sentence, offset: Offset, ts: Timestamp) {
    s.text("record ")
        .offset(offset)
        .text(" (stamped ")
        .time(ts)
        .text(")");
}

/// Why a record was dropped, or what happened to it: `record 6 (stamped 12 Mar 2027 10:02) is
/// dropped as late: its window 12 Mar 2027 10:00–10:05 closed when record 5 (stamped ...) moved
/// the close time to ...`.
pub fn fate(r: &Read, rep: &StreamReport) -> Sentence {
    let mut s = Sentence::new();
    record(&mut s, r.offset, r.timestamp);
    let c = rep.config();
    match (r.fate, r.window) {
        (Fate::Skipped(Skip::NegativeTimestamp), _) => {
            s.text(" is skipped: Kafka Streams drops a record with a negative timestamp before any window sees it (the default FailOnInvalidTimestamp extractor would stop the application instead)");
        }
        (Fate::Skipped(Skip::NoWindow), _) => {
            s.text(" has no window: its window would end past Long.MAX (the framework throws)");
        }
        (Fate::Late { closed_by }, Some(w)) => {
            s.text(" is dropped as late: its window ");
            window(&mut s, w);
            s.text(" had closed when ");
            match rep.read_of(closed_by) {
                Some(b) if b.offset == r.offset => {
                    s.text("it was read");
                }
                Some(b) => {
                    record(&mut s, b.offset, b.timestamp);
                    s.text(" moved ");
                    s.append(moved_to(c, b.after));
                }
                None => {
                    s.text("record ").offset(closed_by).text(" was read");
                }
            }
        }
        (Fate::LateAccepted, Some(w)) => {
            s.text(" is late but within the allowed lateness: counted in ");
            window(&mut s, w);
            s.text(", which fires again");
        }
        (_, Some(w)) => {
            s.text(" is counted in ");
            window(&mut s, w);
        }
        (_, None) => {
            s.text(" has no window");
        }
    }
    s
}

/// When window `w` closes: `window 12 Mar 2027 10:00–10:05 closes when record 5 (stamped ...) is
/// read: it moves the close time to ..., at or past the window's end`, or that it is still open.
pub fn window_closing(w: Window, rep: &StreamReport) -> Sentence {
    let mut s = Sentence::plain("window ");
    window(&mut s, w);
    let c = rep.config();
    match rep.closing_of(w) {
        Some(cl) => {
            s.text(" closes when ");
            record(&mut s, cl.by, cl.by_timestamp);
            s.text(" is read: it moves ");
            if let Some(r) = rep.read_of(cl.by) {
                s.append(moved_to(c, r.after));
            }
            s.text(match c.semantics() {
                Semantics::KafkaStreams => ", at or past the window's end",
                Semantics::Flink if c.allowed_lateness_ms() > 0 => {
                    ", past the window's last millisecond plus the allowed lateness"
                }
                Semantics::Flink => ", at or past the window's last millisecond",
            });
        }
        None => {
            s.text(" is still open after the last record read: ");
            s.append(progress(c, rep.progress()));
        }
    }
    if let Some(state) = rep.window(w) {
        s.text(format!(
            "; it counted {} and dropped {}",
            count(state.counted, "record", "records"),
            state.late
        ));
    }
    s
}

/// What the processor did with the records from `first` to `last` (those a step wrote), as
/// clauses: a count, then every record that was dropped, skipped or closed windows.
pub fn reads(rep: &StreamReport, first: Offset, last: Offset) -> Vec<Sentence> {
    let reads: Vec<&Read> = rep
        .reads
        .iter()
        .filter(|r| r.offset >= first && r.offset <= last)
        .collect();
    let (Some(a), Some(b)) = (reads.first(), reads.last()) else {
        return Vec::new();
    };
    let late = reads.iter().filter(|r| r.fate.is_late()).count();
    let counted = reads
        .iter()
        .filter(|r| matches!(r.fate, Fate::OnTime | Fate::LateAccepted))
        .count();
    let mut head = Sentence::plain("the stream processor reads ");
    if a.offset == b.offset {
        head.text("record ").offset(a.offset);
    } else {
        head.offsets(
            format!("records {} to {}", a.offset, b.offset),
            a.offset,
            b.offset,
        );
    }
    head.text(format!(": {counted} counted, {late} dropped as late; "))
        .append(progress(rep.config(), b.after));
    let mut out = vec![head];
    for r in reads {
        if !r.closed.is_empty() {
            let mut s = Sentence::new();
            record(&mut s, r.offset, r.timestamp);
            s.text(" moves ")
                .append(moved_to(rep.config(), r.after))
                .text(" and closes ");
            match &r.closed[..] {
                [first, .., last] if r.closed.len() > 4 => {
                    s.text(format!("{} windows, from ", r.closed.len()));
                    window(&mut s, *first);
                    s.text(" to ");
                    window(&mut s, *last);
                }
                closed => {
                    let closed = closed.iter().map(|w| {
                        let mut one = Sentence::plain("window ");
                        window(&mut one, *w);
                        one
                    });
                    s.append(list(closed.collect()));
                }
            }
            out.push(s);
        }
        if !matches!(r.fate, Fate::OnTime | Fate::LateAccepted) {
            out.push(fate(r, rep));
        }
    }
    out
}

/// The records dropped as late, for an answer: `records 2, 6 to 8`.
pub fn late_records(rep: &StreamReport) -> Sentence {
    let late: Vec<&Read> = rep.late().collect();
    let mut s = Sentence::new();
    if late.is_empty() {
        s.text("no record is dropped as late");
        return s;
    }
    s.text("the processor drops ");
    let mut parts = Vec::new();
    let mut i = 0;
    while i < late.len() {
        let mut j = i;
        while j + 1 < late.len() && late[j + 1].offset.0 == late[j].offset.0 + 1 {
            j += 1;
        }
        let mut one = Sentence::new();
        if i == j {
            one.offset(late[i].offset);
        } else {
            one.offsets(
                format!("{} to {}", late[i].offset, late[j].offset),
                late[i].offset,
                late[j].offset,
            );
        }
        parts.push(one);
        i = j + 1;
    }
    s.text(if late.len() == 1 {
        "record "
    } else {
        "records "
    })
    .append(list(parts))
    .text(" as late");
    s
}
