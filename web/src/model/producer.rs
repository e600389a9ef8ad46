//! The producer panel's batch: when it is stamped, a unit mistake, a skewed clock, how many
//! records and how big. Building the records is the producer's side; whether Kafka accepts
//! them is decided by `logtime-core`.

use logtime_core::{Record, Timestamp};

/// What the producer puts in the timestamp field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum When {
    /// The broker clock (plus skew).
    Now,
    /// The broker clock plus this many ms (negative = behind).
    Offset(i64),
    /// An absolute instant.
    Absolute(Timestamp),
}

/// The unit the producer (wrongly or rightly) writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// Milliseconds (correct).
    Ms,
    /// Seconds.
    S,
    /// Microseconds.
    Us,
    /// Nanoseconds.
    Ns,
}

impl Unit {
    /// Parses the select's value.
    pub fn parse(s: &str) -> Unit {
        match s {
            "s" => Unit::S,
            "us" => Unit::Us,
            "ns" => Unit::Ns,
            _ => Unit::Ms,
        }
    }

    /// Applies the mistake to a millisecond value as a Java producer would (truncating division,
    /// wrapping multiplication).
    pub fn apply(self, ms: i64) -> i64 {
        match self {
            Unit::Ms => ms,
            Unit::S => ms / 1000,
            Unit::Us => ms.wrapping_mul(1000),
            Unit::Ns => ms.wrapping_mul(1_000_000),
        }
    }
}

/// A batch as composed in the panel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BatchSpec {
    /// The stamp.
    pub when: When,
    /// Unit written.
    pub unit: Unit,
    /// Producer clock skew in ms (applies to `Now` and `Offset`).
    pub skew_ms: i64,
    /// Records in the batch.
    pub count: u32,
    /// Key size per record.
    pub key_bytes: u32,
    /// Value size per record.
    pub value_bytes: u32,
    /// Spread stamps: record `i` gets `+ i * spread_ms`.
    pub spread_ms: i64,
}

impl Default for BatchSpec {
    fn default() -> Self {
        BatchSpec {
            when: When::Now,
            unit: Unit::Ms,
            skew_ms: 0,
            count: 1,
            key_bytes: 0,
            value_bytes: 100,
            spread_ms: 0,
        }
    }
}

impl BatchSpec {
    /// The stamp record `i` carries, with the broker clock at `now`.
    pub fn timestamp(&self, now: Timestamp, i: u32) -> Timestamp {
        let ms = match self.when {
            When::Now => now.0.saturating_add(self.skew_ms),
            When::Offset(d) => now.0.saturating_add(d).saturating_add(self.skew_ms),
            When::Absolute(t) => t.0,
        };
        let ms = ms.saturating_add(self.spread_ms.saturating_mul(i as i64));
        Timestamp(self.unit.apply(ms))
    }

    /// The records to send (at least one, at most 10 000).
    pub fn records(&self, now: Timestamp) -> Vec<Record> {
        (0..self.count.clamp(1, 10_000))
            .map(|i| {
                let mut r = Record::at(self.timestamp(now, i));
                r.key_bytes = self.key_bytes;
                r.value_bytes = self.value_bytes;
                r
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: Timestamp = Timestamp(1_773_306_000_000); // 12 Mar 2026 09:00 UTC

    #[test]
    fn unit_mistakes() {
        assert_eq!(Unit::S.apply(NOW.0), 1_773_306_000);
        assert_eq!(Unit::Us.apply(NOW.0), NOW.0 * 1000);
        assert_eq!(Unit::Ns.apply(NOW.0), NOW.0 * 1_000_000);
        assert_eq!(Unit::Ms.apply(NOW.0), NOW.0);
        assert_eq!(Unit::parse("ns"), Unit::Ns);
        assert_eq!(Unit::parse("bogus"), Unit::Ms);
    }

    #[test]
    fn stamps_with_skew_and_offsets() {
        let mut b = BatchSpec {
            skew_ms: 4000,
            ..BatchSpec::default()
        };
        assert_eq!(b.timestamp(NOW, 0), Timestamp(NOW.0 + 4000));
        b.when = When::Offset(-3_600_000);
        assert_eq!(b.timestamp(NOW, 0), Timestamp(NOW.0 - 3_600_000 + 4000));
        b.when = When::Absolute(Timestamp(42));
        assert_eq!(
            b.timestamp(NOW, 0),
            Timestamp(42),
            "skew does not move an absolute stamp"
        );
        b.spread_ms = 10;
        assert_eq!(b.timestamp(NOW, 3), Timestamp(72));
    }

    #[test]
    fn records_have_sizes_and_count() {
        let b = BatchSpec {
            count: 3,
            key_bytes: 8,
            value_bytes: 50,
            unit: Unit::Ns,
            ..BatchSpec::default()
        };
        let r = b.records(NOW);
        assert_eq!(r.len(), 3);
        assert!(r.iter().all(|x| x.key_bytes == 8 && x.value_bytes == 50));
        assert_eq!(r[0].timestamp, Timestamp(NOW.0 * 1_000_000));
        assert_eq!(
            BatchSpec {
                count: 0,
                ..BatchSpec::default()
            }
            .records(NOW)
            .len(),
            1
        );
    }
}
