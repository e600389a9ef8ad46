//! The producer panel's batch: when it is stamped, a unit mistake, a skewed clock, how many
//! records and how big. Building the records is the producer's side; whether Kafka accepts
//! them is decided by `logtime-core`.

use logtime_model::scenario::{apply_unit, overflow_reason, UnitMistake};
use logtime_model::{Record, Timestamp};

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

/// The unit mistake the panel's select names (`ms`, or anything else: none). The mistake
/// itself is the scenario format's rule, [`apply_unit`], so a panel's batch and a scenario's
/// produce step stamp the same instant, or are refused for the same reason.
pub fn unit_of(select: &str) -> Option<UnitMistake> {
    match select {
        "s" => Some(UnitMistake::S),
        "us" => Some(UnitMistake::Us),
        "ns" => Some(UnitMistake::Ns),
        _ => None,
    }
}

/// The producer panel's key choice. Kafka tells a null key from an empty one (a compacted topic
/// refuses the first and accepts the second), so the panel offers both, and a sized key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyChoice {
    /// No key (key length -1).
    Null,
    /// A key of zero bytes (key length 0).
    Empty,
    /// A key of a given size.
    Sized,
}

impl KeyChoice {
    /// Every choice, in menu order.
    pub const ALL: [KeyChoice; 3] = [KeyChoice::Null, KeyChoice::Empty, KeyChoice::Sized];

    /// The select's value.
    pub fn value(self) -> &'static str {
        match self {
            KeyChoice::Null => "null",
            KeyChoice::Empty => "empty",
            KeyChoice::Sized => "sized",
        }
    }

    /// Parses the select's value (a null key for anything else).
    pub fn parse(s: &str) -> KeyChoice {
        match s {
            "empty" => KeyChoice::Empty,
            "sized" => KeyChoice::Sized,
            _ => KeyChoice::Null,
        }
    }

    /// The key, with `bytes` the size typed for a sized key (read only for [`KeyChoice::Sized`];
    /// `0` there is an empty key).
    pub fn key(self, bytes: &str) -> Result<Option<u32>, String> {
        match self {
            KeyChoice::Null => Ok(None),
            KeyChoice::Empty => Ok(Some(0)),
            KeyChoice::Sized => bytes
                .trim()
                .parse::<u32>()
                .ok()
                .filter(|n| *n <= i32::MAX as u32)
                .map(Some)
                .ok_or_else(|| {
                    format!("key bytes must be a whole number from 0 to 2147483647, not {bytes:?}")
                }),
        }
    }
}

/// A batch as composed in the panel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BatchSpec {
    /// The stamp.
    pub when: When,
    /// Unit written.
    pub unit: Option<UnitMistake>,
    /// Producer clock skew in ms (applies to `Now` and `Offset`).
    pub skew_ms: i64,
    /// Records in the batch.
    pub count: u32,
    /// Each record's key: `None` a null key, `Some(0)` an empty key, `Some(n)` `n` bytes (as
    /// [`Record::key_len`] reads it).
    pub key: Option<u32>,
    /// Value size per record.
    pub value_bytes: u32,
    /// Spread stamps: record `i` gets `+ i * spread_ms`.
    pub spread_ms: i64,
}

impl Default for BatchSpec {
    fn default() -> Self {
        BatchSpec {
            when: When::Now,
            unit: None,
            skew_ms: 0,
            count: 1,
            key: None,
            value_bytes: 100,
            spread_ms: 0,
        }
    }
}

impl BatchSpec {
    /// The stamp record `i` carries, with the broker clock at `now`; the scenario format's
    /// reason when the unit mistake overflows a 64-bit long.
    pub fn timestamp(&self, now: Timestamp, i: u32) -> Result<Timestamp, String> {
        let ms = match self.when {
            When::Now => now.0.saturating_add(self.skew_ms),
            When::Offset(d) => now.0.saturating_add(d).saturating_add(self.skew_ms),
            When::Absolute(t) => t.0,
        };
        let ms = ms.saturating_add(self.spread_ms.saturating_mul(i as i64));
        apply_unit(ms, self.unit)
            .map(Timestamp)
            .ok_or_else(|| overflow_reason(self.unit))
    }

    /// The records to send (at least one, at most 10 000), or why they cannot be stamped.
    pub fn records(&self, now: Timestamp) -> Result<Vec<Record>, String> {
        (0..self.count.clamp(1, 10_000))
            .map(|i| {
                Ok(Record::with_key(
                    self.timestamp(now, i)?,
                    self.key,
                    self.value_bytes,
                ))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use logtime_model::batch_size;

    const NOW: Timestamp = Timestamp(1_773_306_000_000); // 12 Mar 2026 09:00 UTC

    #[test]
    fn unit_mistakes_follow_the_scenario_format() {
        let stamp = |unit| {
            BatchSpec {
                unit: unit_of(unit),
                ..BatchSpec::default()
            }
            .timestamp(NOW, 0)
        };
        assert_eq!(stamp("s"), Ok(Timestamp(1_773_306_000)));
        assert_eq!(stamp("us"), Ok(Timestamp(NOW.0 * 1000)));
        assert_eq!(stamp("ns"), Ok(Timestamp(NOW.0 * 1_000_000)));
        assert_eq!(stamp("ms"), Ok(NOW));
        assert_eq!(stamp("bogus"), Ok(NOW));
        // Past 2262 in nanoseconds a long overflows: refused as a scenario step is, not wrapped.
        let far = BatchSpec {
            unit: unit_of("ns"),
            when: When::Absolute(Timestamp(i64::MAX / 1000)),
            ..BatchSpec::default()
        };
        assert_eq!(far.timestamp(NOW, 0), Err(overflow_reason(unit_of("ns"))));
        assert!(far.records(NOW).is_err());
    }

    #[test]
    fn stamps_with_skew_and_offsets() {
        let mut b = BatchSpec {
            skew_ms: 4000,
            ..BatchSpec::default()
        };
        assert_eq!(b.timestamp(NOW, 0), Ok(Timestamp(NOW.0 + 4000)));
        b.when = When::Offset(-3_600_000);
        assert_eq!(b.timestamp(NOW, 0), Ok(Timestamp(NOW.0 - 3_600_000 + 4000)));
        b.when = When::Absolute(Timestamp(42));
        assert_eq!(
            b.timestamp(NOW, 0),
            Ok(Timestamp(42)),
            "skew does not move an absolute stamp"
        );
        b.spread_ms = 10;
        assert_eq!(b.timestamp(NOW, 3), Ok(Timestamp(72)));
    }

    #[test]
    fn records_have_sizes_and_count() {
        let b = BatchSpec {
            count: 3,
            key: Some(8),
            value_bytes: 50,
            unit: Some(UnitMistake::Ns),
            ..BatchSpec::default()
        };
        let r = b.records(NOW).unwrap();
        assert_eq!(r.len(), 3);
        assert!(r
            .iter()
            .all(|x| x.key_len() == Some(8) && x.value_bytes == 50));
        assert_eq!(r[0].timestamp, Timestamp(NOW.0 * 1_000_000));
        assert_eq!(
            BatchSpec {
                count: 0,
                ..BatchSpec::default()
            }
            .records(NOW)
            .map(|r| r.len()),
            Ok(1)
        );
    }

    #[test]
    fn key_choices() {
        for c in KeyChoice::ALL {
            assert_eq!(KeyChoice::parse(c.value()), c);
        }
        assert_eq!(KeyChoice::parse("bogus"), KeyChoice::Null);
        assert_eq!(KeyChoice::Null.key("12"), Ok(None));
        assert_eq!(KeyChoice::Empty.key("12"), Ok(Some(0)));
        assert_eq!(KeyChoice::Sized.key(" 12 "), Ok(Some(12)));
        assert_eq!(KeyChoice::Sized.key("0"), Ok(Some(0)));
        assert_eq!(
            KeyChoice::Sized.key("-1"),
            Err("key bytes must be a whole number from 0 to 2147483647, not \"-1\"".into())
        );
        assert!(KeyChoice::Sized.key("2147483648").is_err());
    }

    /// A null key and an empty key reach the broker as different things (a compacted topic
    /// refuses the first, accepts the second), and the batch is the same size either way.
    #[test]
    fn null_empty_and_sized_keys() {
        let keyed = |key| {
            BatchSpec {
                key,
                ..BatchSpec::default()
            }
            .records(NOW)
            .unwrap()
        };
        let (null, empty, sized) = (keyed(None), keyed(Some(0)), keyed(Some(4)));
        assert_eq!(null[0].key_len(), None);
        assert!(!null[0].has_key());
        assert_eq!(empty[0].key_len(), Some(0));
        assert!(empty[0].has_key());
        assert_eq!(sized[0].key_len(), Some(4));
        assert_eq!(batch_size(&null), batch_size(&empty));
        assert_eq!(BatchSpec::default().key, None, "a null key by default");
    }
}
