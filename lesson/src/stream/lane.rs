//! The words of the stream lane, the panel that shows what the downstream processor has done
//! after its first `cursor` reads: its figures, a line per window, the key and a paragraph for a
//! picture's description. The explorer's lane and `logtime render`'s lane panel both say these,
//! so the page and the picture never word the processor differently.

use crate::stream::{Fate, Semantics, StreamReport, Window};
use logtime_core::human::date;
use logtime_core::scenario::narrate::count;
use logtime_model::units::{Offset, Timestamp};
use std::collections::BTreeMap;

/// The lane panel's heading.
pub const HEADING: &str = "Downstream: stream processor";

/// The key under the lane: a read counted, a read dropped, a window's bar.
pub const KEY: [&str; 3] = [
    "counted in its window",
    "dropped as late",
    "a window, from its first record to the read that closed it",
];

/// Said before the first read.
pub const NOTHING_READ: &str =
    "Nothing read yet: the processor reads each record as it is appended.";

/// What the processor has done after its first `cursor` reads, in figures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tally {
    /// Records read (at most the report's).
    pub read: usize,
    /// Records the report reads in all.
    pub total: usize,
    /// Counted in a window (late but within Flink's allowed lateness included).
    pub counted: usize,
    /// Dropped as late.
    pub late: usize,
    /// Windows that received a record.
    pub windows: usize,
    /// Of those, the ones closed by a read so far.
    pub closed: usize,
    /// Stream time after the last read.
    pub stream_time: Option<Timestamp>,
    /// The close time (Kafka Streams) or the watermark (Flink) after it.
    pub watermark: Option<Timestamp>,
}

/// The figures after the first `cursor` reads of `rep` (all of them when `cursor` is larger).
pub fn tally(rep: &StreamReport, cursor: usize) -> Tally {
    let reads = &rep.reads[..cursor.min(rep.reads.len())];
    let last: Option<Offset> = reads.last().map(|r| r.offset);
    let windows: BTreeMap<i64, Window> = reads
        .iter()
        .filter_map(|r| r.window)
        .map(|w| (w.start.0, w))
        .collect();
    let closed = windows
        .values()
        .filter(|w| {
            rep.closing_of(**w)
                .is_some_and(|c| last.is_some_and(|l| c.by <= l))
        })
        .count();
    Tally {
        read: reads.len(),
        total: rep.reads.len(),
        counted: reads
            .iter()
            .filter(|r| matches!(r.fate, Fate::OnTime | Fate::LateAccepted))
            .count(),
        late: reads.iter().filter(|r| r.fate.is_late()).count(),
        windows: windows.len(),
        closed,
        stream_time: reads.last().and_then(|r| r.after.stream_time),
        watermark: reads.last().and_then(|r| r.after.watermark),
    }
}

/// The name of the time that closes windows: Kafka Streams' close time or Flink's watermark.
pub fn close_name(s: Semantics) -> &'static str {
    match s {
        Semantics::KafkaStreams => "Close time",
        Semantics::Flink => "Watermark",
    }
}

/// The lane's figures as `(label, value)` pairs, in the order the panel lists them.
pub fn figures(rep: &StreamReport, t: &Tally) -> [(&'static str, String); 6] {
    let at = |t: Option<Timestamp>| t.map_or_else(|| "—".to_string(), |t| date(t.0));
    [
        ("Records read", format!("{} of {}", t.read, t.total)),
        ("Stream time", at(t.stream_time)),
        (close_name(rep.config().semantics()), at(t.watermark)),
        ("Counted", t.counted.to_string()),
        ("Dropped as late", t.late.to_string()),
        ("Windows closed", format!("{} of {}", t.closed, t.windows)),
    ]
}

/// One window, as the lane lists it: `12 Mar 2027 10:00–10:05: 3 counted, 1 late, closed by
/// record 4` (or `open`).
pub fn window_line(w: Window, counted: u64, late: u64, closed_by: Option<Offset>) -> String {
    let state = match closed_by {
        Some(by) => format!("closed by record {by}"),
        None => "open".to_string(),
    };
    format!(
        "{}: {counted} counted, {late} late, {state}",
        super::narrate::window_label(w)
    )
}

/// The line standing for windows not listed: `5 earlier windows`.
pub fn earlier(n: usize) -> String {
    count(n as u64, "earlier window", "earlier windows")
}

/// The lane in one line, for a screen reader (the canvas's label): `Stream processor lane: 6 of
/// 6 records read, 4 counted, 2 dropped as late, 3 windows (2 closed)`.
pub fn summary(t: &Tally) -> String {
    format!(
        "Stream processor lane: {} of {} records read, {} counted, {} dropped as late, {} ({} closed)",
        t.read,
        t.total,
        t.counted,
        t.late,
        count(t.windows as u64, "window", "windows"),
        t.closed
    )
}

/// A paragraph for a picture's description, after the partition's: what the lane below it shows.
pub fn describe(rep: &StreamReport) -> String {
    let t = tally(rep, usize::MAX);
    let who = match rep.config().semantics() {
        Semantics::KafkaStreams => "Kafka Streams application",
        Semantics::Flink => "Flink job",
    };
    let mut s = format!(
        "Below the partition, the event-time lane of the downstream {who}: {} read, {} counted, {} dropped as late, {} of which {} closed",
        count(t.read as u64, "record", "records"),
        t.counted,
        t.late,
        count(t.windows as u64, "window", "windows"),
        t.closed
    );
    if t.read > 0 {
        s.push_str("; ");
        s.push_str(&super::narrate::progress(rep.config(), rep.progress()).to_string());
    }
    s.push('.');
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stream::{run, StreamConfig};
    use logtime_model::{Command, Config, KafkaVersion, Partition, Record};

    const TEN: i64 = 1_804_845_600_000; // 2027-03-12T10:00:00Z
    const MIN: i64 = 60_000;

    /// 10:00, 09:59:55, a day ago, 10:01, a nanosecond stamp, 10:01:20.
    fn report() -> StreamReport {
        let mut p = Partition::new(
            Config::defaults(KafkaVersion::V3_6),
            "payments-0",
            Timestamp(TEN),
            0,
        );
        for ts in [
            TEN,
            TEN - 5_000,
            TEN - 86_400_000,
            TEN + MIN,
            (TEN + 70_000) * 1_000_000,
            TEN + 80_000,
        ] {
            p.apply(
                Timestamp(TEN + 90_000),
                Command::Produce {
                    records: vec![Record::with_key(Timestamp(ts), None, 100)],
                },
            )
            .unwrap();
        }
        run(&StreamConfig::new(5 * MIN, MIN).unwrap(), &p)
    }

    #[test]
    fn the_tally_follows_the_cursor() {
        let r = report();
        let none = tally(&r, 0);
        assert_eq!((none.read, none.total, none.windows), (0, 6, 0));
        assert_eq!(none.stream_time, None);
        let four = tally(&r, 4);
        // 10:00 and 09:55 counted, yesterday's dropped, 10:01 counted; 09:55 and yesterday's
        // windows closed by the reads of 0 and 3
        assert_eq!(
            (four.counted, four.late, four.windows, four.closed),
            (3, 1, 3, 2)
        );
        let all = tally(&r, usize::MAX);
        // the far-ahead record's own window stays open
        assert_eq!((all.read, all.late, all.windows, all.closed), (6, 2, 4, 3));
        assert_eq!(figures(&r, &all)[0], ("Records read", "6 of 6".to_string()));
        assert_eq!(figures(&r, &all)[2].0, "Close time");
        assert_eq!(
            summary(&all),
            format!(
                "Stream processor lane: 6 of 6 records read, 4 counted, 2 dropped as late, {} windows ({} closed)",
                all.windows, all.closed
            )
        );
    }

    #[test]
    fn a_picture_description_names_the_processor_and_its_figures() {
        let d = describe(&report());
        assert!(d.starts_with("Below the partition, the event-time lane of the downstream Kafka Streams application: 6 records read, 4 counted, 2 dropped as late"), "{d}");
        assert!(d.contains("stream time") && d.ends_with('.'), "{d}");
        let w = Window {
            start: Timestamp(TEN),
            end: Timestamp(TEN + 5 * MIN),
        };
        assert_eq!(
            window_line(w, 3, 1, Some(Offset(4))),
            "12 Mar 2027 10:00–10:05: 3 counted, 1 late, closed by record 4"
        );
        assert_eq!(
            window_line(w, 1, 0, None),
            "12 Mar 2027 10:00–10:05: 1 counted, 0 late, open"
        );
        assert_eq!(earlier(1), "1 earlier window");
    }
}
