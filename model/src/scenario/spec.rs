//! What a written time means when the runner meets it: a [`TimeSpec`] resolves against the broker
//! clock of its step, and a producer's [`UnitMistake`] is applied to the resolved instant. The
//! grammar that reads times from text is `logtime-core`'s (`scenario::time`); these are here
//! because a replay resolves them step by step.

use super::UnitMistake;
use serde::{Deserialize, Serialize};

/// A time as written: absolute, or relative to the broker clock where it is used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "ms", rename_all = "snake_case")]
pub enum TimeSpec {
    /// An absolute value in ms (including `-1`, NO_TIMESTAMP).
    Absolute(i64),
    /// `now`, `now+D`, `now-D`: the broker clock plus this many ms.
    Now(i64),
}

impl TimeSpec {
    /// The instant this names when the broker clock reads `now`; `None` on overflow.
    pub fn resolve(self, now: i64) -> Option<i64> {
        match self {
            TimeSpec::Absolute(ms) => Some(ms),
            TimeSpec::Now(d) => now.checked_add(d),
        }
    }
}

/// Applies a producer's unit mistake to the intended time in ms, a clock reading, even one that
/// happens to be `-1` (`now-1s` at 00:00:01 UTC 1 Jan 1970). Only a record written with the
/// literal `-1` has no timestamp (NO_TIMESTAMP), and its callers leave it alone. `None` on
/// overflow.
pub fn apply_unit(ms: i64, unit: Option<UnitMistake>) -> Option<i64> {
    match unit {
        None => Some(ms),
        Some(UnitMistake::S) => Some(ms / 1000),
        Some(UnitMistake::Us) => ms.checked_mul(1000),
        Some(UnitMistake::Ns) => ms.checked_mul(1_000_000),
    }
}

/// The overflow reason for a record timestamp.
pub fn overflow_reason(unit: Option<UnitMistake>) -> String {
    match unit {
        Some(u) => {
            let name = match u {
                UnitMistake::S => "s",
                UnitMistake::Us => "us",
                UnitMistake::Ns => "ns",
            };
            format!("timestamp overflows a 64-bit long when written in {name}")
        }
        None => "timestamp overflows a 64-bit long".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units() {
        let ms = 1_700_000_000_123;
        assert_eq!(apply_unit(ms, None), Some(ms));
        assert_eq!(apply_unit(ms, Some(UnitMistake::S)), Some(1_700_000_000));
        assert_eq!(apply_unit(ms, Some(UnitMistake::Us)), Some(ms * 1000));
        assert_eq!(apply_unit(ms, Some(UnitMistake::Ns)), Some(ms * 1_000_000));
        // A clock reading of -1 ms is not NO_TIMESTAMP (the literal -1 never gets here).
        assert_eq!(apply_unit(-1, Some(UnitMistake::Ns)), Some(-1_000_000));
        assert_eq!(apply_unit(i64::MAX / 1000, Some(UnitMistake::Ns)), None);
        assert_eq!(
            apply_unit(-1999, Some(UnitMistake::S)),
            Some(-1),
            "Java truncates toward zero"
        );
        assert_eq!(TimeSpec::Now(1).resolve(i64::MAX), None);
        assert_eq!(TimeSpec::Now(-5).resolve(10), Some(5));
        assert_eq!(
            overflow_reason(Some(UnitMistake::Ns)),
            "timestamp overflows a 64-bit long when written in ns"
        );
    }
}
