//! Every config the model knows: its Kafka name, value type, unit, scope and valid range.

use super::preset::{KafkaVersion, DIFFERENCE_MAX_MS};
use super::ConfigValue;
use crate::quantity::{parse_bytes, parse_duration};

const LONG_MAX: i64 = i64::MAX;
const INT_MAX: i64 = i32::MAX as i64;

/// What kind of value a config takes, which decides how it is parsed and validated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConfigKind {
    /// A Java `long` in `[min, max]`.
    Long,
    /// A Java `int` in `[min, max]`.
    Int,
    /// One of a fixed set of words.
    Choice(&'static [&'static str]),
    /// A comma-separated, non-empty list of words from a fixed set.
    List(&'static [&'static str]),
}

/// How to read a config's numeric value, for people.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConfigUnit {
    /// Milliseconds.
    Millis,
    /// Bytes.
    Bytes,
    /// Not a number.
    None,
}

/// Static description of one config: its name, type, unit, scope and documentation.
#[derive(Clone, Copy, Debug)]
pub struct ConfigKey {
    /// Kafka's name.
    pub name: &'static str,
    /// Value type.
    pub kind: ConfigKind,
    /// How to read the value.
    pub unit: ConfigUnit,
    /// `true` for a broker config, `false` for a topic config.
    pub broker: bool,
    /// One sentence on what it does here.
    pub doc: &'static str,
}

const TS_TYPES: &[&str] = &["CreateTime", "LogAppendTime"];
const POLICIES: &[&str] = &["compact", "delete"];

/// Every config the model knows, in display order. A preset may lack some of them
/// (`message.timestamp.difference.max.ms` is gone from 4.0; see [`ConfigKey::exists_in`]).
/// A `static`, not a `const`: a `const` table is a copy of its own in every crate that reads it
/// (the explorer's wasm held two copies of every doc sentence).
pub static CONFIG_KEYS: &[ConfigKey] = &[
    ConfigKey { name: "message.timestamp.type", kind: ConfigKind::Choice(TS_TYPES), unit: ConfigUnit::None, broker: false,
        doc: "Whose clock stamps records: the producer's (CreateTime) or the broker's at append (LogAppendTime)." },
    ConfigKey { name: "message.timestamp.before.max.ms", kind: ConfigKind::Long, unit: ConfigUnit::Millis, broker: false,
        doc: "How far behind the broker clock a CreateTime stamp may be before the batch is rejected (strict >)." },
    ConfigKey { name: "message.timestamp.after.max.ms", kind: ConfigKind::Long, unit: ConfigUnit::Millis, broker: false,
        doc: "How far ahead of the broker clock a CreateTime stamp may be before the batch is rejected (strict >)." },
    ConfigKey { name: DIFFERENCE_MAX_MS, kind: ConfigKind::Long, unit: ConfigUnit::Millis, broker: false,
        doc: "Deprecated symmetric limit; in 3.6–3.9 it stands in for before/after when those are Long.MAX. Removed in 4.0." },
    ConfigKey { name: "retention.ms", kind: ConfigKind::Long, unit: ConfigUnit::Millis, broker: false,
        doc: "A segment is deleted once now minus its largest timestamp exceeds this; -1 means no time limit." },
    ConfigKey { name: "retention.bytes", kind: ConfigKind::Long, unit: ConfigUnit::Bytes, broker: false,
        doc: "Oldest segments are deleted while the partition is larger than this; negative means no size limit." },
    ConfigKey { name: "segment.bytes", kind: ConfigKind::Int, unit: ConfigUnit::Bytes, broker: false,
        doc: "The active segment rolls when the next batch would take it past this size." },
    ConfigKey { name: "segment.ms", kind: ConfigKind::Long, unit: ConfigUnit::Millis, broker: false,
        doc: "The active segment rolls on append when the incoming stamp is this far past its first batch's stamp." },
    ConfigKey { name: "segment.jitter.ms", kind: ConfigKind::Long, unit: ConfigUnit::Millis, broker: false,
        doc: "A random amount, drawn per segment, subtracted from segment.ms to spread rolls out." },
    ConfigKey { name: "segment.index.bytes", kind: ConfigKind::Int, unit: ConfigUnit::Bytes, broker: false,
        doc: "Size of each index file: 8-byte offset entries, 12-byte time entries; a full index rolls the segment." },
    ConfigKey { name: "index.interval.bytes", kind: ConfigKind::Int, unit: ConfigUnit::Bytes, broker: false,
        doc: "Bytes appended between index entries (strict >, counted before the current append)." },
    ConfigKey { name: "max.message.bytes", kind: ConfigKind::Int, unit: ConfigUnit::Bytes, broker: false,
        doc: "The largest record batch the broker accepts." },
    ConfigKey { name: "cleanup.policy", kind: ConfigKind::List(POLICIES), unit: ConfigUnit::None, broker: false,
        doc: "delete runs time and size retention; compact alone keeps only the log-start-offset pass." },
    ConfigKey { name: "log.retention.check.interval.ms", kind: ConfigKind::Long, unit: ConfigUnit::Millis, broker: true,
        doc: "How often the broker's retention task runs (topics whose cleanup.policy lacks compact)." },
    ConfigKey { name: "log.cleaner.backoff.ms", kind: ConfigKind::Long, unit: ConfigUnit::Millis, broker: true,
        doc: "How long the log cleaner sleeps when it has nothing to compact; compacted topics get a retention pass on each of its loops." },
];

impl ConfigKey {
    /// Looks a config up by its Kafka name.
    pub fn find(name: &str) -> Option<&'static ConfigKey> {
        CONFIG_KEYS.iter().find(|k| k.name == name)
    }

    /// A value as a person types it, passed on for [`super::Config::set`] to read: an integer as
    /// a number, anything else as text (a duration for a `*.ms` config, a byte size for a
    /// `*.bytes` one, a word for the others).
    pub fn parse_input(&self, text: &str) -> ConfigValue {
        let t = text.trim();
        match t.parse::<i64>() {
            Ok(n) => ConfigValue::Number(n),
            Err(_) => ConfigValue::Text(t.to_string()),
        }
    }

    /// Reads a numeric config written as text: an integer as Kafka takes it, a duration
    /// (`7d`, `1h30m`) for a millisecond config or a byte size (`1GiB`, `512KB`) for a byte
    /// config, in the grammar of [`crate::quantity`]. The error says what was expected.
    pub fn parse_number(&self, text: &str) -> Result<i64, String> {
        let t = text.trim();
        if let Ok(n) = t.parse::<i64>() {
            return Ok(n);
        }
        let type_name = if self.kind == ConfigKind::Int {
            "INT"
        } else {
            "LONG"
        };
        match self.unit {
            ConfigUnit::Millis => parse_duration(t).map_err(|e| {
                format!("not a number of type {type_name} nor a duration like 7d or 1h30m ({e})")
            }),
            ConfigUnit::Bytes => parse_bytes(t).map_err(|e| {
                format!("not a number of type {type_name} nor a byte size like 1GiB or 512KB ({e})")
            }),
            ConfigUnit::None => Err(format!("not a number of type {type_name}")),
        }
    }

    /// Whether the config exists in the given version.
    pub fn exists_in(&self, version: KafkaVersion) -> bool {
        version.has_config(self.name)
    }

    /// The valid numeric range `[min, max]` in the given version (numbers only).
    pub fn range(&self, version: KafkaVersion) -> (i64, i64) {
        match self.name {
            "retention.ms" => (-1, LONG_MAX),
            "retention.bytes" => (i64::MIN, LONG_MAX),
            "segment.bytes" => (version.segment_bytes_min(), INT_MAX),
            "segment.ms" | "log.retention.check.interval.ms" => (1, LONG_MAX),
            // Kafka's validator says at least 4, but a file smaller than one 12-byte time-index
            // entry makes segment creation throw `Invalid max index size`, so the model refuses it.
            "segment.index.bytes" => (12, INT_MAX),
            _ => match self.kind {
                ConfigKind::Int => (0, INT_MAX),
                _ => (0, LONG_MAX),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_values_are_numbers_or_text_for_config_set() {
        let key = |n| ConfigKey::find(n).unwrap();
        assert_eq!(
            key("retention.ms").parse_input(" 7d "),
            ConfigValue::Text("7d".into())
        );
        assert_eq!(
            key("retention.ms").parse_input("-1"),
            ConfigValue::Number(-1)
        );
        assert_eq!(
            key("cleanup.policy").parse_input("compact, delete"),
            ConfigValue::Text("compact, delete".into())
        );
    }

    #[test]
    fn numbers_durations_and_byte_sizes() {
        let key = |n| ConfigKey::find(n).unwrap();
        assert_eq!(key("retention.ms").parse_number("7d"), Ok(604_800_000));
        assert_eq!(key("retention.ms").parse_number("1.5h"), Ok(5_400_000));
        assert_eq!(key("segment.bytes").parse_number("1GiB"), Ok(1_073_741_824));
        assert_eq!(key("retention.bytes").parse_number("-1"), Ok(-1));
        assert_eq!(
            key("segment.bytes").parse_number("1h"),
            Err("not a number of type INT nor a byte size like 1GiB or 512KB (malformed byte size \"1h\": unknown unit \"h\" (use B, KB, MB, GB, TB, KiB, MiB, GiB or TiB))".into())
        );
        assert_eq!(
            key("segment.ms").parse_number("soon"),
            Err("not a number of type LONG nor a duration like 7d or 1h30m (malformed duration \"soon\": expected digits at \"soon\")".into())
        );
        assert_eq!(
            key("log.cleaner.backoff.ms").parse_number("30s"),
            Ok(30_000)
        );
    }

    /// The grammar follows the name: every `*.ms` config, broker ones included, takes a
    /// duration and every `*.bytes` config a byte size, so a config added later cannot miss it.
    #[test]
    fn every_ms_and_bytes_config_has_its_unit() {
        for k in CONFIG_KEYS {
            if k.name.ends_with(".ms") {
                assert_eq!(k.unit, ConfigUnit::Millis, "{}", k.name);
                assert_eq!(k.parse_number("1m"), Ok(60_000), "{}", k.name);
            }
            if k.name.ends_with(".bytes") {
                assert_eq!(k.unit, ConfigUnit::Bytes, "{}", k.name);
                assert_eq!(k.parse_number("1KiB"), Ok(1024), "{}", k.name);
            }
        }
    }
}
