//! The processor's settings: whose rules it follows, the window and the delay (grace), Flink's
//! allowed lateness and where it starts reading, checked once so that every later query holds.

use super::Window;
use logtime_model::units::{Offset, Timestamp};
use std::fmt;

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
    pub(super) fn watermark_for(&self, max: i64) -> Option<Timestamp> {
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
