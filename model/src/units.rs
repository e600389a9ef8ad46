//! Unit newtypes: a millisecond [`Timestamp`], a log [`Offset`] and a byte count [`Bytes`].
//!
//! All three wrap `i64` because Kafka's wire and config types are Java `long`s (or `int`s that we
//! widen), and because Kafka lets negative values through in places (a timestamp of `-5`, a
//! `retention.bytes` of `-1`). Arithmetic that mirrors Kafka's Java code uses the explicit
//! `wrapping_*` helpers so that the overflow behaviour is bit-identical to the JVM.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Milliseconds since the Unix epoch, as Kafka stores them: any `i64`.
///
/// `-1` is Kafka's `RecordBatch.NO_TIMESTAMP`: a record without a timestamp.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Timestamp(pub i64);

impl Timestamp {
    /// Kafka's `RecordBatch.NO_TIMESTAMP`.
    pub const NONE: Timestamp = Timestamp(-1);

    /// The raw millisecond value.
    pub const fn ms(self) -> i64 {
        self.0
    }

    /// `self + ms` with Java `long` wrap-around.
    pub const fn wrapping_add(self, ms: i64) -> Timestamp {
        Timestamp(self.0.wrapping_add(ms))
    }

    /// `self - other` in milliseconds, with Java `long` wrap-around.
    pub const fn wrapping_since(self, other: Timestamp) -> i64 {
        self.0.wrapping_sub(other.0)
    }
}

impl From<i64> for Timestamp {
    fn from(ms: i64) -> Self {
        Timestamp(ms)
    }
}

impl fmt::Display for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// A log offset: the position of a record in the partition, counted from 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Offset(pub i64);

impl Offset {
    /// The raw value.
    pub const fn value(self) -> i64 {
        self.0
    }

    /// The offset `n` records further on.
    pub const fn plus(self, n: i64) -> Offset {
        Offset(self.0 + n)
    }
}

impl From<i64> for Offset {
    fn from(v: i64) -> Self {
        Offset(v)
    }
}

impl fmt::Display for Offset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// A size in bytes.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct Bytes(pub i64);

impl Bytes {
    /// The raw value.
    pub const fn value(self) -> i64 {
        self.0
    }
}

impl From<i64> for Bytes {
    fn from(v: i64) -> Self {
        Bytes(v)
    }
}

impl fmt::Display for Bytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}
