//! The processor itself, one record at a time, and its run over what a consumer can read from a
//! partition, following the rules in the [module documentation](super).

use super::{Closing, Fate, Progress, Read, Semantics, Skip, StreamConfig, Window, WindowState};
use logtime_model::partition::Partition;
use logtime_model::units::{Offset, Timestamp};
use std::collections::BTreeMap;

/// A stream processor reading one partition. Feed it records in offset order with
/// [`Processor::read`]; queries take `&self`.
///
/// Invariants (checked by [`Processor::check_invariants`]): the watermark and stream time never
/// go back; every window in the table received a record; a window is marked closed exactly when
/// the watermark has passed it; offsets read increase.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Processor {
    config: StreamConfig,
    max: Option<i64>,
    windows: BTreeMap<Timestamp, WindowState>,
    /// Starts of windows holding records that have not closed yet.
    open: BTreeMap<Timestamp, ()>,
    /// `(offset, timestamp, watermark after)` at every read that raised the watermark.
    advances: Vec<(Offset, Timestamp, Timestamp)>,
    last_offset: Option<Offset>,
}

impl Processor {
    /// A processor that has read nothing.
    pub fn new(config: StreamConfig) -> Processor {
        Processor {
            config,
            max: None,
            windows: BTreeMap::new(),
            open: BTreeMap::new(),
            advances: Vec::new(),
            last_offset: None,
        }
    }

    /// Its config.
    pub fn config(&self) -> &StreamConfig {
        &self.config
    }

    /// Event time now.
    pub fn progress(&self) -> Progress {
        Progress {
            stream_time: self.max.map(Timestamp),
            watermark: self.max.and_then(|m| self.config.watermark_for(m)),
        }
    }

    /// Every window that received a record, oldest first.
    pub fn windows(&self) -> impl Iterator<Item = &WindowState> {
        self.windows.values()
    }

    /// The record whose read closed `w` (whether or not `w` held records), with the watermark
    /// after it; `None` while it is open.
    pub fn closing_of(&self, w: Window) -> Option<Closing> {
        let i = self
            .advances
            .partition_point(|(_, _, wm)| !self.config.is_closed(w, Some(*wm)));
        self.advances
            .get(i)
            .map(|&(by, by_timestamp, watermark)| Closing {
                by,
                by_timestamp,
                watermark,
            })
    }

    /// Reads the record at `offset` stamped `ts`. Offsets must increase.
    pub fn read(&mut self, offset: Offset, ts: Timestamp) -> Read {
        debug_assert!(self.last_offset.is_none_or(|l| l < offset));
        self.last_offset = Some(offset);
        let before = self.progress();
        let skipped = |skip| Read {
            offset,
            timestamp: ts,
            window: None,
            fate: Fate::Skipped(skip),
            before,
            after: before,
            closed: Vec::new(),
        };
        if ts.0 < 0 && self.config.semantics() == Semantics::KafkaStreams {
            return skipped(Skip::NegativeTimestamp);
        }
        let Some(w) = self.config.window_of(ts) else {
            return skipped(Skip::NoWindow);
        };
        let fate = self.fate_of(w, ts, before);
        self.count(w, fate, (offset, ts), before);
        self.max = Some(self.max.map_or(ts.0, |m| m.max(ts.0)));
        let after = self.progress();
        let closed = self.advance(offset, ts, before, after);
        Read {
            offset,
            timestamp: ts,
            window: Some(w),
            fate,
            before,
            after,
            closed,
        }
    }

    /// A record's fate in window `w`, judged by the watermark its framework judges it by.
    fn fate_of(&self, w: Window, ts: Timestamp, before: Progress) -> Fate {
        // Kafka Streams judges the record after it moved stream time; Flink against the
        // watermark emitted before it. A record never closes its own window, so both orders give
        // the same fate for the same watermark rule.
        let judged_by = match self.config.semantics() {
            Semantics::KafkaStreams => {
                let max = self.max.map_or(ts.0, |m| m.max(ts.0));
                self.config.watermark_for(max)
            }
            Semantics::Flink => before.watermark,
        };
        if self.config.is_closed(w, judged_by) {
            Fate::Late {
                closed_by: self
                    .closing_of(w)
                    .expect("a closed window was closed by a read")
                    .by,
            }
        } else if self.config.has_fired(w, judged_by) {
            Fate::LateAccepted
        } else {
            Fate::OnTime
        }
    }

    /// Counts the record read at `(offset, ts)` in its window `w`, on time or late.
    fn count(
        &mut self,
        w: Window,
        fate: Fate,
        (offset, ts): (Offset, Timestamp),
        before: Progress,
    ) {
        let closing = match fate {
            Fate::Late { .. } => self.closing_of(w),
            _ => None,
        };
        let state = self.windows.entry(w.start).or_insert(WindowState {
            window: w,
            counted: 0,
            late: 0,
            fired: None,
            closed: None,
        });
        match fate {
            Fate::Late { .. } => {
                state.late += 1;
                if state.counted == 0 {
                    // A window that only ever received late records never existed downstream:
                    // it closed at the read that closed every window ending where it ends.
                    state.closed = closing;
                    state.fired = closing;
                }
            }
            _ => {
                state.counted += 1;
                if fate == Fate::LateAccepted && state.fired.is_none() {
                    // Flink's trigger fires a window at once for an element it gets after the
                    // watermark passed the window's end.
                    state.fired = Some(Closing {
                        by: offset,
                        by_timestamp: ts,
                        watermark: before.watermark.expect("a fired window has a watermark"),
                    });
                }
                if state.closed.is_none() {
                    self.open.insert(w.start, ());
                }
            }
        }
    }

    /// After a read that raised the watermark from `before` to `after`: records the advance and
    /// fires and closes the windows it passed; the windows closed, in order.
    fn advance(
        &mut self,
        offset: Offset,
        ts: Timestamp,
        before: Progress,
        after: Progress,
    ) -> Vec<Window> {
        let mut closed = Vec::new();
        if after.watermark <= before.watermark {
            return closed;
        }
        let wm = after.watermark.expect("a raised watermark exists");
        self.advances.push((offset, ts, wm));
        let closing = Closing {
            by: offset,
            by_timestamp: ts,
            watermark: wm,
        };
        // Open windows close in order of their ends, which is the order of their starts.
        while let Some((&start, _)) = self.open.first_key_value() {
            let s = self
                .windows
                .get_mut(&start)
                .expect("open windows are in the table");
            if s.fired.is_none() && self.config.has_fired(s.window, after.watermark) {
                s.fired = Some(closing);
            }
            if !self.config.is_closed(s.window, after.watermark) {
                break;
            }
            s.closed = Some(closing);
            closed.push(s.window);
            self.open.remove(&start);
        }
        // Flink with lateness: later windows may have fired without closing.
        if self.config.semantics() == Semantics::Flink && self.config.allowed_lateness_ms() > 0 {
            for start in self.open.keys() {
                let s = self
                    .windows
                    .get_mut(start)
                    .expect("open windows are in the table");
                if s.fired.is_none() && self.config.has_fired(s.window, after.watermark) {
                    s.fired = Some(closing);
                }
            }
        }
        closed
    }

    /// Panics if an invariant is broken (tests run it after every read).
    pub fn check_invariants(&self) {
        let wm = self.progress().watermark;
        for w in self.advances.windows(2) {
            assert!(
                w[0].0 < w[1].0 && w[0].2 < w[1].2,
                "the watermark only rises"
            );
        }
        if let Some(&(_, _, last)) = self.advances.last() {
            assert_eq!(Some(last), wm, "the last advance is the watermark");
        }
        for (start, s) in &self.windows {
            assert_eq!(*start, s.window.start);
            assert!(
                s.counted + s.late > 0,
                "a window in the table received a record"
            );
            assert_eq!(
                s.closed.is_some(),
                self.config.is_closed(s.window, wm),
                "window {:?} is marked closed exactly when the watermark passed it",
                s.window
            );
            assert_eq!(self.open.contains_key(start), s.closed.is_none());
            if let Some(c) = s.closed {
                assert_eq!(Some(c), self.closing_of(s.window));
            }
        }
    }
}

/// The processor's run over a partition: every record read, every window, and where event time
/// stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StreamReport {
    /// The first offset read.
    pub from: Offset,
    /// The offset after the last one read (the high watermark).
    pub to: Offset,
    /// Every record read, in offset order.
    pub reads: Vec<Read>,
    processor: Processor,
}

impl StreamReport {
    /// The config it ran with.
    pub fn config(&self) -> &StreamConfig {
        self.processor.config()
    }

    /// Event time after the last record.
    pub fn progress(&self) -> Progress {
        self.processor.progress()
    }

    /// Every window that received a record, oldest first.
    pub fn windows(&self) -> impl Iterator<Item = &WindowState> {
        self.processor.windows()
    }

    /// The records dropped as late.
    pub fn late(&self) -> impl Iterator<Item = &Read> {
        self.reads.iter().filter(|r| r.fate.is_late())
    }

    /// The read of `offset`, if it was read.
    pub fn read_of(&self, offset: Offset) -> Option<&Read> {
        let i = self.reads.partition_point(|r| r.offset < offset);
        self.reads.get(i).filter(|r| r.offset == offset)
    }

    /// The read that closed `w`, if one did.
    pub fn closing_of(&self, w: Window) -> Option<Closing> {
        self.processor.closing_of(w)
    }

    /// The state of window `w`, if it received a record.
    pub fn window(&self, w: Window) -> Option<&WindowState> {
        self.processor.windows.get(&w.start)
    }
}

/// Runs the processor over what a consumer can read from `p` now: from `config.from()` (or the
/// log start offset, where a consumer below it is reset to) up to the high watermark, in offset
/// order.
pub fn run(config: &StreamConfig, p: &Partition) -> StreamReport {
    let from = config
        .from()
        .map_or(p.log_start_offset(), |f| f.max(p.log_start_offset()));
    let to = p.high_watermark().max(from);
    let mut processor = Processor::new(*config);
    let mut reads = Vec::new();
    for s in p.segments_from(from) {
        let base = s.base_offset().0;
        for (i, &ts) in s.record_timestamps().iter().enumerate() {
            let offset = Offset(base + i as i64);
            if offset < from {
                continue;
            }
            if offset >= to {
                break;
            }
            reads.push(processor.read(offset, Timestamp(ts)));
        }
    }
    StreamReport {
        from,
        to,
        reads,
        processor,
    }
}
