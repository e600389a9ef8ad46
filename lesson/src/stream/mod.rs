//! Event time downstream: a stream processor that reads the partition in offset order and counts
//! records in tumbling event-time windows, closing each window when its watermark passes the
//! window's end and dropping records whose window has already closed. No I/O, no clock: the
//! input is `(offset, timestamp)` pairs in offset order, and the same input always gives the same
//! windows, verdicts and watermark.
//!
//! # The rules (Kafka Streams, followed exactly)
//!
//! The default [`Semantics::KafkaStreams`] is a windowed aggregation built with
//! `groupByKey().windowedBy(TimeWindows.ofSizeAndGrace(window, delay)).count()` on a single-key
//! stream, as Kafka Streams runs it (`KStreamWindowAggregate.process`, `TimeWindows.windowsFor`,
//! `RecordQueue.updateHead`, 4.0 sources):
//!
//! 1. A record with a negative timestamp never reaches the aggregation. `RecordQueue` skips it
//!    when the `TimestampExtractor` returns a negative value (`LogAndSkipOnInvalidTimestamp`);
//!    the default `FailOnInvalidTimestamp` throws instead and stops the application. Here it is
//!    [`Fate::Skipped`] with [`Skip::NegativeTimestamp`] and changes nothing.
//! 2. **Stream time** is the largest timestamp read so far (`observedStreamTime`, updated by the
//!    record *before* its own check). The **close time** is `stream time − grace`; this module
//!    calls it the watermark.
//! 3. The record's window is `[start, start + window)` with `start = timestamp − timestamp mod
//!    window` (windows are aligned to the epoch; the end is exclusive).
//! 4. If `end > close time` the record is counted ([`Fate::OnTime`]). Otherwise the window has
//!    closed and the record is dropped ([`Fate::Late`]: Kafka Streams logs "Skipping record for
//!    expired window" and counts it in `dropped-records`). In Kafka's words: the record is
//!    aggregated iff `windowEnd > observedStreamTime - gracePeriodMs`
//!    (`KStreamWindowAggregate.process`, after `updateObservedStreamTime`).
//! 5. A window closes once `close time ≥ end`, i.e. at the first record that moves stream time to
//!    `end + grace` or beyond. (With `Suppressed.untilWindowCloses` or `EmitStrategy.onWindowClose`
//!    that is also when its final count is emitted.) A record can never close its own window, so
//!    one record stamped far ahead closes every window ending up to its stamp minus the grace,
//!    and every on-time record that follows is then late.
//!
//! # Flink (an option)
//!
//! [`Semantics::Flink`] follows `WatermarkStrategy.forBoundedOutOfOrderness(delay)` with
//! `TumblingEventTimeWindows.of(window)` and `allowedLateness(lateness)`
//! (`BoundedOutOfOrdernessWatermarks`, `WindowOperator`, `EventTimeTrigger`):
//!
//! * the watermark is `max timestamp − delay − 1`; a record is judged against the watermark in
//!   force *before* it (the generator emits after `onEvent`), and negative timestamps are
//!   ordinary event times (only `Long.MIN_VALUE` has no window);
//! * a window fires when `watermark ≥ end − 1` (its `maxTimestamp`), and is late, so that a
//!   record for it is dropped, when `end − 1 + lateness ≤ watermark`; in between, a record is
//!   counted and fires the window again ([`Fate::LateAccepted`]).
//!
//! Flink emits the watermark every `pipeline.auto-watermark-interval` (200 ms) of processing
//! time, not after every record; here it is emitted after every record, the earliest a real job
//! could have it, so a real job drops at most the records this model drops. With
//! `lateness = 0` the two frameworks agree record for record (`grace` = `delay`): Kafka Streams
//! drops when `end ≤ max − grace`, Flink when `end − 1 ≤ max − delay − 1`.
//!
//! # What is not modelled
//!
//! Keys (every record counts in one key's windows; Kafka Streams would skip a record with a null
//! key), several input partitions (a Kafka Streams task tracks stream time per task, and a Flink
//! source takes the *minimum* watermark over its partitions, so there a partition whose stamps
//! lag holds every window back), and the emitted results themselves.

use logtime_model::partition::Partition;
use logtime_model::units::{Offset, Timestamp};
use std::collections::BTreeMap;
use std::fmt;

pub mod lane;
pub mod narrate;
pub(crate) mod section;

#[cfg(test)]
mod tests;

/// Whose rules the processor follows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Semantics {
    /// Kafka Streams: stream time, `TimeWindows.ofSizeAndGrace(window, delay)`.
    #[default]
    KafkaStreams,
    /// Flink: a bounded-out-of-orderness watermark, tumbling event-time windows, allowed
    /// lateness.
    Flink,
}

impl Semantics {
    /// `kafka-streams` or `flink`.
    pub fn key(self) -> &'static str {
        match self {
            Semantics::KafkaStreams => "kafka-streams",
            Semantics::Flink => "flink",
        }
    }

    /// The semantics with this key.
    pub fn parse(key: &str) -> Option<Semantics> {
        match key {
            "kafka-streams" => Some(Semantics::KafkaStreams),
            "flink" => Some(Semantics::Flink),
            _ => None,
        }
    }

    /// The framework's name for people.
    pub fn label(self) -> &'static str {
        match self {
            Semantics::KafkaStreams => "Kafka Streams",
            Semantics::Flink => "Flink",
        }
    }
}

/// The longest window, delay or lateness accepted: 100 years, so that no sum of a timestamp
/// read from the partition's range and a duration needs more care than a checked add.
pub const MAX_DURATION_MS: i64 = 100 * 365 * 86_400_000;

/// Why a processor config is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StreamConfigError {
    /// The window size is not from 1 ms to [`MAX_DURATION_MS`].
    Window(i64),
    /// The delay (grace, out-of-orderness bound) is not from 0 to [`MAX_DURATION_MS`].
    Delay(i64),
    /// The allowed lateness is not from 0 to [`MAX_DURATION_MS`].
    Lateness(i64),
    /// Allowed lateness is a Flink setting; Kafka Streams has only the grace period.
    LatenessNeedsFlink,
}

impl fmt::Display for StreamConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let max = logtime_core::human::duration(MAX_DURATION_MS);
        match self {
            StreamConfigError::Window(v) => {
                write!(f, "window size {v} ms is not from 1 ms to {max}")
            }
            StreamConfigError::Delay(v) => write!(f, "delay {v} ms is not from 0 to {max}"),
            StreamConfigError::Lateness(v) => {
                write!(f, "allowed lateness {v} ms is not from 0 to {max}")
            }
            StreamConfigError::LatenessNeedsFlink => f.write_str(
                "allowed lateness is a Flink setting (Kafka Streams has only the grace period, which is the delay)",
            ),
        }
    }
}

impl std::error::Error for StreamConfigError {}

/// How the processor windows and when it closes them.
///
/// Invariant: `1 ≤ window_ms`, every duration `≤ MAX_DURATION_MS`, and `allowed_lateness_ms` is
/// 0 unless the semantics are Flink's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StreamConfig {
    window_ms: i64,
    delay_ms: i64,
    allowed_lateness_ms: i64,
    semantics: Semantics,
    from: Option<Offset>,
}

impl StreamConfig {
    /// Tumbling windows of `window_ms` under Kafka Streams' rules with a grace of `delay_ms`,
    /// reading from the log start offset.
    pub fn new(window_ms: i64, delay_ms: i64) -> Result<StreamConfig, StreamConfigError> {
        StreamConfig {
            window_ms,
            delay_ms,
            allowed_lateness_ms: 0,
            semantics: Semantics::KafkaStreams,
            from: None,
        }
        .validated()
    }

    /// The same config under other rules; lateness must be 0 for Kafka Streams.
    pub fn with_semantics(
        self,
        semantics: Semantics,
        allowed_lateness_ms: i64,
    ) -> Result<StreamConfig, StreamConfigError> {
        StreamConfig {
            semantics,
            allowed_lateness_ms,
            ..self
        }
        .validated()
    }

    /// The same config, reading from `from` (or the log start offset when it is higher).
    pub fn starting_at(self, from: Option<Offset>) -> StreamConfig {
        StreamConfig { from, ..self }
    }

    fn validated(self) -> Result<StreamConfig, StreamConfigError> {
        if !(1..=MAX_DURATION_MS).contains(&self.window_ms) {
            return Err(StreamConfigError::Window(self.window_ms));
        }
        if !(0..=MAX_DURATION_MS).contains(&self.delay_ms) {
            return Err(StreamConfigError::Delay(self.delay_ms));
        }
        if !(0..=MAX_DURATION_MS).contains(&self.allowed_lateness_ms) {
            return Err(StreamConfigError::Lateness(self.allowed_lateness_ms));
        }
        if self.allowed_lateness_ms != 0 && self.semantics == Semantics::KafkaStreams {
            return Err(StreamConfigError::LatenessNeedsFlink);
        }
        Ok(self)
    }

    /// The window size in ms.
    pub fn window_ms(&self) -> i64 {
        self.window_ms
    }
    /// The grace period (Kafka Streams) or out-of-orderness bound (Flink), in ms.
    pub fn delay_ms(&self) -> i64 {
        self.delay_ms
    }
    /// Flink's allowed lateness, in ms (0 for Kafka Streams).
    pub fn allowed_lateness_ms(&self) -> i64 {
        self.allowed_lateness_ms
    }
    /// Whose rules.
    pub fn semantics(&self) -> Semantics {
        self.semantics
    }
    /// Where reading starts (`None`: the log start offset).
    pub fn from(&self) -> Option<Offset> {
        self.from
    }

    /// The window a record stamped `ts` belongs to, or `None` when it has none (a negative stamp
    /// under Kafka Streams, `Long.MIN_VALUE` under Flink, or a window whose end would overflow a
    /// long).
    pub fn window_of(&self, ts: Timestamp) -> Option<Window> {
        if ts.0 < 0 && self.semantics == Semantics::KafkaStreams || ts.0 == i64::MIN {
            return None;
        }
        let start = ts.0 - ts.0.rem_euclid(self.window_ms);
        let end = start.checked_add(self.window_ms)?;
        Some(Window {
            start: Timestamp(start),
            end: Timestamp(end),
        })
    }

    /// The watermark after reading up to `max`, the largest valid timestamp read (`None` below
    /// the smallest long).
    fn watermark_for(&self, max: i64) -> Option<Timestamp> {
        let wm = match self.semantics {
            Semantics::KafkaStreams => max.checked_sub(self.delay_ms),
            Semantics::Flink => max.checked_sub(self.delay_ms)?.checked_sub(1),
        };
        wm.map(Timestamp)
    }

    /// Whether `w` has closed under watermark `wm`: records for it are dropped from then on.
    pub fn is_closed(&self, w: Window, wm: Option<Timestamp>) -> bool {
        let Some(wm) = wm else { return false };
        match self.semantics {
            Semantics::KafkaStreams => w.end <= wm,
            // cleanupTime = maxTimestamp + allowedLateness, Long.MAX when that overflows.
            Semantics::Flink => (w.end.0 - 1)
                .checked_add(self.allowed_lateness_ms)
                .is_some_and(|cleanup| cleanup <= wm.0),
        }
    }

    /// Whether `w` has fired under watermark `wm` (Flink's `EventTimeTrigger`: `maxTimestamp ≤
    /// watermark`); under Kafka Streams a window's final result comes when it closes.
    pub fn has_fired(&self, w: Window, wm: Option<Timestamp>) -> bool {
        match (self.semantics, wm) {
            (Semantics::Flink, Some(wm)) => w.end.0 - 1 <= wm.0,
            _ => self.is_closed(w, wm),
        }
    }
}

/// A tumbling window: `[start, end)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Window {
    /// The first instant inside it.
    pub start: Timestamp,
    /// The first instant after it.
    pub end: Timestamp,
}

/// Where event time stands: the largest timestamp read and the watermark it gives.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// The largest valid timestamp read (Kafka Streams' stream time), `None` before any.
    pub stream_time: Option<Timestamp>,
    /// Kafka Streams' close time (`stream time − grace`) or Flink's watermark (`max − delay −
    /// 1`), `None` before any valid record.
    pub watermark: Option<Timestamp>,
}

/// Why a record was not processed at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Skip {
    /// Kafka Streams skips a negative timestamp before any processor sees it (or stops, with the
    /// default `FailOnInvalidTimestamp` extractor).
    NegativeTimestamp,
    /// No window can hold it (`Long.MIN_VALUE` in Flink, or an end beyond `Long.MAX`, where
    /// both frameworks throw).
    NoWindow,
}

/// What the processor did with one record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fate {
    /// Counted in its window, which was still open.
    OnTime,
    /// Flink only: its window had fired but is within the allowed lateness, so the record is
    /// counted and the window fires again.
    LateAccepted,
    /// Dropped: its window had closed.
    Late {
        /// The record whose read closed the window.
        closed_by: Offset,
    },
    /// Not processed.
    Skipped(Skip),
}

impl Fate {
    /// Whether the record is dropped as late.
    pub fn is_late(self) -> bool {
        matches!(self, Fate::Late { .. })
    }
}

/// One record read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Read {
    /// Its offset.
    pub offset: Offset,
    /// Its timestamp.
    pub timestamp: Timestamp,
    /// Its window, if it has one.
    pub window: Option<Window>,
    /// What happened to it.
    pub fate: Fate,
    /// Event time when it was read (what it was judged against, for Flink).
    pub before: Progress,
    /// Event time after it.
    pub after: Progress,
    /// The windows holding records that its read closed, oldest first.
    pub closed: Vec<Window>,
}

/// How a window closed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Closing {
    /// The record whose read closed it.
    pub by: Offset,
    /// That record's timestamp.
    pub by_timestamp: Timestamp,
    /// The watermark after that read.
    pub watermark: Timestamp,
}

/// A window that received at least one record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WindowState {
    /// The window.
    pub window: Window,
    /// Records counted in it.
    pub counted: u64,
    /// Records dropped because it had closed.
    pub late: u64,
    /// When it first fired (Flink), or closed (Kafka Streams), if it did while it held records.
    pub fired: Option<Closing>,
    /// When it closed, if it did while it held records.
    pub closed: Option<Closing>,
}

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
        if ts.0 < 0 && self.config.semantics == Semantics::KafkaStreams {
            return skipped(Skip::NegativeTimestamp);
        }
        let Some(w) = self.config.window_of(ts) else {
            return skipped(Skip::NoWindow);
        };
        // Kafka Streams judges the record after it moved stream time; Flink against the
        // watermark emitted before it. A record never closes its own window, so both orders give
        // the same fate for the same watermark rule.
        let judged_by = match self.config.semantics {
            Semantics::KafkaStreams => {
                let max = self.max.map_or(ts.0, |m| m.max(ts.0));
                self.config.watermark_for(max)
            }
            Semantics::Flink => before.watermark,
        };
        let fate = if self.config.is_closed(w, judged_by) {
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
        };
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
        self.max = Some(self.max.map_or(ts.0, |m| m.max(ts.0)));
        let after = self.progress();
        let mut closed = Vec::new();
        if after.watermark > before.watermark {
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
            if self.config.semantics == Semantics::Flink && self.config.allowed_lateness_ms > 0 {
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
        }
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
