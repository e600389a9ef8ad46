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
use logtime_model::units::{Offset, Timestamp};

mod config;
pub mod lane;
pub mod narrate;
mod processor;
pub(crate) mod section;

#[cfg(test)]
mod tests;

pub use config::{Semantics, StreamConfig, StreamConfigError, MAX_DURATION_MS};
pub use processor::{run, Processor, StreamReport};

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
