//! Topic and broker configuration under Kafka's own names ([`keys`]), with the defaults and
//! rules of each version preset ([`preset`]: one table row per release line).
//!
//! Values are validated the way Kafka's `ConfigDef` validates them, and an error names the
//! config, the value and the range ([`ConfigError`]).

mod keys;
mod preset;

pub use keys::{ConfigKey, ConfigKind, ConfigUnit, CONFIG_KEYS};
pub use preset::KafkaVersion;

use crate::units::{Bytes, Timestamp};
use serde::{Deserialize, Serialize};
use std::fmt;

const LONG_MAX: i64 = i64::MAX;

/// `message.timestamp.type`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub enum TimestampType {
    /// The producer's timestamp is kept (after range validation).
    #[default]
    CreateTime,
    /// The broker overwrites the batch's timestamp with its clock.
    LogAppendTime,
}

impl TimestampType {
    /// Kafka's spelling.
    pub fn name(self) -> &'static str {
        match self {
            TimestampType::CreateTime => "CreateTime",
            TimestampType::LogAppendTime => "LogAppendTime",
        }
    }
}

/// `cleanup.policy`: a non-empty subset of {compact, delete}.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct CleanupPolicy {
    /// The list contains `compact`.
    pub compact: bool,
    /// The list contains `delete`.
    pub delete: bool,
}

impl Default for CleanupPolicy {
    fn default() -> Self {
        CleanupPolicy {
            compact: false,
            delete: true,
        }
    }
}

impl CleanupPolicy {
    /// `cleanup.policy` read as `ConfigDef`'s list validator reads it: one or more of `words`
    /// (`compact`, `delete`), comma-separated; the reason when it is not.
    fn parse(s: &str, words: &[&str]) -> Result<CleanupPolicy, String> {
        let mut policy = CleanupPolicy {
            compact: false,
            delete: false,
        };
        if s.trim().is_empty() {
            return Err(format!(
                "the list is empty; expected one or more of: {}",
                words.join(", ")
            ));
        }
        for item in s.split(',').map(str::trim) {
            match item {
                "compact" => policy.compact = true,
                "delete" => policy.delete = true,
                _ => return Err(format!("string must be one of: {}", words.join(", "))),
            }
        }
        Ok(policy)
    }

    /// Kafka's spelling (`delete`, `compact` or `compact,delete`).
    pub fn name(self) -> &'static str {
        match (self.compact, self.delete) {
            (true, true) => "compact,delete",
            (true, false) => "compact",
            _ => "delete",
        }
    }
}

/// The topic configs the model uses, by their Kafka names.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TopicConfig {
    /// `message.timestamp.type`.
    pub message_timestamp_type: TimestampType,
    /// `message.timestamp.before.max.ms` as configured (see [`Config::effective_before_max_ms`]).
    pub message_timestamp_before_max_ms: i64,
    /// `message.timestamp.after.max.ms` as configured (see [`Config::effective_after_max_ms`]).
    pub message_timestamp_after_max_ms: i64,
    /// `message.timestamp.difference.max.ms`; exists only in 3.6–3.9.
    pub message_timestamp_difference_max_ms: i64,
    /// `retention.ms`; negative means no time limit.
    pub retention_ms: i64,
    /// `retention.bytes`; negative means no size limit.
    pub retention_bytes: i64,
    /// `segment.bytes` (a Java `int`).
    pub segment_bytes: i64,
    /// `segment.ms`.
    pub segment_ms: i64,
    /// `segment.jitter.ms`.
    pub segment_jitter_ms: i64,
    /// `segment.index.bytes` (a Java `int`).
    pub segment_index_bytes: i64,
    /// `index.interval.bytes` (a Java `int`).
    pub index_interval_bytes: i64,
    /// `max.message.bytes` (a Java `int`): the largest record batch the broker accepts.
    pub max_message_bytes: i64,
    /// `cleanup.policy`.
    pub cleanup_policy: CleanupPolicy,
}

/// The broker-level settings the model uses.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BrokerConfig {
    /// `log.retention.check.interval.ms`: the period of the retention task, which runs
    /// retention on topics whose `cleanup.policy` lacks `compact`.
    pub log_retention_check_interval_ms: i64,
    /// `log.cleaner.backoff.ms`: how long the log cleaner sleeps when it had nothing to compact.
    /// Topics whose `cleanup.policy` includes `compact` get their retention passes from the
    /// cleaner's loop instead of the retention task.
    #[serde(default = "default_cleaner_backoff_ms")]
    pub log_cleaner_backoff_ms: i64,
}

fn default_cleaner_backoff_ms() -> i64 {
    15_000
}

/// A version preset together with the topic and broker configs in force.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Config {
    /// Which release line's defaults and ranges apply.
    pub version: KafkaVersion,
    /// Topic-level configs.
    pub topic: TopicConfig,
    /// Broker-level configs.
    pub broker: BrokerConfig,
}

/// Why a config could not be set.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ConfigError {
    /// No config by that name exists in this version.
    Unknown {
        /// The name given.
        name: String,
        /// The version in force.
        version: KafkaVersion,
    },
    /// The value is not of the config's type (not a number, not one of the words).
    NotParsable {
        /// The config.
        name: String,
        /// The value as given.
        value: String,
        /// What was expected.
        expected: String,
    },
    /// The value is outside the config's valid range in this version.
    OutOfRange {
        /// The config.
        name: String,
        /// The value.
        value: i64,
        /// Lowest valid value.
        min: i64,
        /// Highest valid value.
        max: i64,
        /// The version whose range applies.
        version: KafkaVersion,
    },
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::Unknown { name, version } => match version.removal_note(name) {
                Some(note) => write!(f, "unknown config {name}: {note}"),
                None => write!(f, "unknown config {name} for {}", version.label()),
            },
            ConfigError::NotParsable {
                name,
                value,
                expected,
            } => {
                // An empty value would read "invalid value  for": show it quoted.
                let shown = if value.trim().is_empty() {
                    format!("{value:?}")
                } else {
                    value.clone()
                };
                write!(
                    f,
                    "invalid value {shown} for configuration {name}: {expected}"
                )
            }
            ConfigError::OutOfRange {
                name,
                value,
                min,
                max,
                version,
            } => {
                let hi = if *max == LONG_MAX {
                    "...".to_string()
                } else {
                    max.to_string()
                };
                let bound = if *value > *max {
                    format!("at most {max}")
                } else {
                    format!("at least {min}")
                };
                write!(f, "invalid value {value} for configuration {name}: value must be {bound} (valid range [{min}, {hi}] in {})", version.label())
            }
        }
    }
}

impl std::error::Error for ConfigError {}

/// A config value as given by a user: a JSON number or a string.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ConfigValue {
    /// A number.
    Number(i64),
    /// A string (numbers may also come as strings, as Kafka's tools pass them).
    Text(String),
}

impl fmt::Display for ConfigValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigValue::Number(n) => n.fmt(f),
            ConfigValue::Text(s) => s.fmt(f),
        }
    }
}

impl Config {
    /// The defaults of a version preset.
    pub fn defaults(version: KafkaVersion) -> Config {
        Config {
            version,
            topic: TopicConfig {
                message_timestamp_type: TimestampType::CreateTime,
                message_timestamp_before_max_ms: LONG_MAX,
                message_timestamp_after_max_ms: version.after_max_ms_default(),
                message_timestamp_difference_max_ms: LONG_MAX,
                retention_ms: 604_800_000,
                retention_bytes: -1,
                segment_bytes: 1_073_741_824,
                segment_ms: 604_800_000,
                segment_jitter_ms: 0,
                segment_index_bytes: 10_485_760,
                index_interval_bytes: 4096,
                max_message_bytes: 1_048_588,
                cleanup_policy: CleanupPolicy::default(),
            },
            broker: BrokerConfig {
                log_retention_check_interval_ms: 300_000,
                log_cleaner_backoff_ms: default_cleaner_backoff_ms(),
            },
        }
    }

    /// The before bound validation uses: where the preset keeps
    /// `message.timestamp.difference.max.ms` (3.6–3.9), a `Long.MAX` before falls back to it.
    pub fn effective_before_max_ms(&self) -> i64 {
        self.with_fallback(self.topic.message_timestamp_before_max_ms)
    }

    /// The after bound validation uses (same fallback rule as the before bound).
    pub fn effective_after_max_ms(&self) -> i64 {
        self.with_fallback(self.topic.message_timestamp_after_max_ms)
    }

    fn with_fallback(&self, bound: i64) -> i64 {
        if bound == LONG_MAX && self.version.difference_is_fallback() {
            self.topic.message_timestamp_difference_max_ms
        } else {
            bound
        }
    }

    /// `segment.bytes` as a byte count.
    pub fn segment_bytes(&self) -> Bytes {
        Bytes(self.topic.segment_bytes)
    }

    /// The retention task's first due instant after `start`; `Long.MAX` (never) when that is
    /// beyond the clock's range.
    pub fn first_retention_check(&self, start: Timestamp) -> Timestamp {
        Timestamp(
            start
                .0
                .saturating_add(self.broker.log_retention_check_interval_ms),
        )
    }

    /// The log cleaner's first retention pass after `start` (compacted topics); `Long.MAX` (never)
    /// when that is beyond the clock's range. A backoff of 0 (the cleaner never sleeps) is a pass
    /// every millisecond, the clock's resolution.
    pub fn first_cleaner_pass(&self, start: Timestamp) -> Timestamp {
        Timestamp(start.0.saturating_add(self.cleaner_backoff_ms()))
    }

    /// `log.cleaner.backoff.ms` as the period of the cleaner's passes (at least 1 ms).
    pub fn cleaner_backoff_ms(&self) -> i64 {
        self.broker.log_cleaner_backoff_ms.max(1)
    }

    /// Whether retention passes on this topic come from the log cleaner (`cleanup.policy`
    /// includes `compact`) rather than from the retention task.
    pub fn retention_by_cleaner(&self) -> bool {
        self.topic.cleanup_policy.compact
    }

    /// Sets a config by its Kafka name, validating type and range for this version.
    /// On error nothing changes.
    pub fn set(&mut self, name: &str, value: &ConfigValue) -> Result<(), ConfigError> {
        let key = ConfigKey::find(name)
            .filter(|k| k.exists_in(self.version))
            .ok_or_else(|| ConfigError::Unknown {
                name: name.to_string(),
                version: self.version,
            })?;
        let text = value.to_string();
        let not_parsable = |expected: String| ConfigError::NotParsable {
            name: name.to_string(),
            value: text.clone(),
            expected,
        };
        match key.kind {
            ConfigKind::Choice(words) => {
                let word = match value {
                    ConfigValue::Text(s) => s.trim(),
                    ConfigValue::Number(_) => "",
                };
                let t = match word {
                    "CreateTime" => TimestampType::CreateTime,
                    "LogAppendTime" => TimestampType::LogAppendTime,
                    _ => {
                        return Err(not_parsable(format!(
                            "string must be one of: {}",
                            words.join(", ")
                        )))
                    }
                };
                self.topic.message_timestamp_type = t;
            }
            ConfigKind::List(words) => {
                let s = match value {
                    ConfigValue::Text(s) => s.as_str(),
                    ConfigValue::Number(_) => "",
                };
                self.topic.cleanup_policy = CleanupPolicy::parse(s, words).map_err(not_parsable)?;
            }
            ConfigKind::Long | ConfigKind::Int => {
                let n = match value {
                    ConfigValue::Number(n) => *n,
                    ConfigValue::Text(s) => key.parse_number(s).map_err(not_parsable)?,
                };
                let (min, max) = key.range(self.version);
                if n < min || n > max {
                    return Err(ConfigError::OutOfRange {
                        name: name.to_string(),
                        value: n,
                        min,
                        max,
                        version: self.version,
                    });
                }
                *self
                    .number_mut(name)
                    .expect("every numeric key has a field") = n;
            }
        }
        Ok(())
    }

    fn number_mut(&mut self, name: &str) -> Option<&mut i64> {
        let t = &mut self.topic;
        Some(match name {
            "message.timestamp.before.max.ms" => &mut t.message_timestamp_before_max_ms,
            "message.timestamp.after.max.ms" => &mut t.message_timestamp_after_max_ms,
            "message.timestamp.difference.max.ms" => &mut t.message_timestamp_difference_max_ms,
            "retention.ms" => &mut t.retention_ms,
            "retention.bytes" => &mut t.retention_bytes,
            "segment.bytes" => &mut t.segment_bytes,
            "segment.ms" => &mut t.segment_ms,
            "segment.jitter.ms" => &mut t.segment_jitter_ms,
            "segment.index.bytes" => &mut t.segment_index_bytes,
            "index.interval.bytes" => &mut t.index_interval_bytes,
            "max.message.bytes" => &mut t.max_message_bytes,
            "log.retention.check.interval.ms" => &mut self.broker.log_retention_check_interval_ms,
            "log.cleaner.backoff.ms" => &mut self.broker.log_cleaner_backoff_ms,
            _ => return None,
        })
    }

    /// The current value of a config by its Kafka name, as Kafka would print it.
    pub fn get(&self, name: &str) -> Option<ConfigValue> {
        let key = ConfigKey::find(name).filter(|k| k.exists_in(self.version))?;
        Some(match key.kind {
            ConfigKind::Choice(_) => {
                ConfigValue::Text(self.topic.message_timestamp_type.name().into())
            }
            ConfigKind::List(_) => ConfigValue::Text(self.topic.cleanup_policy.name().into()),
            _ => ConfigValue::Number(*self.clone().number_mut(name)?),
        })
    }

    /// Every config that exists in this version with its current value, in display order.
    pub fn entries(&self) -> Vec<(&'static ConfigKey, ConfigValue)> {
        CONFIG_KEYS
            .iter()
            .filter(|k| k.exists_in(self.version))
            .filter_map(|k| Some((k, self.get(k.name)?)))
            .collect()
    }

    /// Switches the version preset, resetting every config that still holds the old preset's
    /// default to the new preset's default and keeping explicit settings that are valid in the new
    /// preset. Returns the names of settings that had to be dropped because the new preset does
    /// not accept them.
    pub fn with_version(&self, version: KafkaVersion) -> (Config, Vec<String>) {
        let old_defaults = Config::defaults(self.version);
        let mut next = Config::defaults(version);
        let mut dropped = Vec::new();
        for (key, value) in self.entries() {
            if old_defaults.get(key.name).as_ref() == Some(&value) {
                continue;
            }
            if next.set(key.name, &value).is_err() {
                dropped.push(key.name.to_string());
            }
        }
        (next, dropped)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_differ_where_kip_1030_says() {
        let v3 = Config::defaults(KafkaVersion::V3_6);
        let v4 = Config::defaults(KafkaVersion::V4_0);
        assert_eq!(v3.effective_after_max_ms(), i64::MAX);
        assert_eq!(v4.effective_after_max_ms(), 3_600_000);
        assert_eq!(v3.effective_before_max_ms(), i64::MAX);
    }

    /// `LogConfigTest.testTimestampBeforeMaxMsUsesDeprecatedConfig` (A10).
    #[test]
    fn difference_is_the_fallback_in_3_x() {
        let mut c = Config::defaults(KafkaVersion::V3_6);
        c.set(
            "message.timestamp.difference.max.ms",
            &ConfigValue::Number(86_400_000),
        )
        .unwrap();
        assert_eq!(c.effective_before_max_ms(), 86_400_000);
        assert_eq!(c.effective_after_max_ms(), 86_400_000);
        c.set(
            "message.timestamp.before.max.ms",
            &ConfigValue::Number(1000),
        )
        .unwrap();
        assert_eq!(c.effective_before_max_ms(), 1000);
        assert_eq!(c.effective_after_max_ms(), 86_400_000);
    }

    #[test]
    fn difference_is_unknown_in_4_0() {
        let mut c = Config::defaults(KafkaVersion::V4_0);
        let e = c
            .set(
                "message.timestamp.difference.max.ms",
                &ConfigValue::Number(1),
            )
            .unwrap_err();
        assert!(e.to_string().contains("removed in kafka 4.0"), "{e}");
    }

    #[test]
    fn ranges_name_the_config_value_and_range() {
        let mut c = Config::defaults(KafkaVersion::V4_0);
        let e = c
            .set("segment.bytes", &ConfigValue::Number(1000))
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "invalid value 1000 for configuration segment.bytes: value must be at least 1048576 (valid range [1048576, 2147483647] in Kafka 4.x)"
        );
        let mut c3 = Config::defaults(KafkaVersion::V3_6);
        c3.set("segment.bytes", &ConfigValue::Number(1000)).unwrap();
        assert!(c.set("retention.ms", &ConfigValue::Number(-2)).is_err());
        c.set("retention.ms", &ConfigValue::Number(-1)).unwrap();
        c.set("retention.bytes", &ConfigValue::Number(i64::MIN))
            .unwrap();
        let e = c
            .set("segment.bytes", &ConfigValue::Number(i64::MAX))
            .unwrap_err();
        assert!(e.to_string().contains("at most 2147483647"), "{e}");
        let e = c
            .set("segment.ms", &ConfigValue::Text("soon".into()))
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "invalid value soon for configuration segment.ms: not a number of type LONG nor a duration like 7d or 1h30m (malformed duration \"soon\": expected digits at \"soon\")"
        );
        // Every *.ms config takes a duration and every *.bytes config a byte size; the value
        // stored is the exact number Kafka would hold.
        c.set("retention.ms", &ConfigValue::Text("7d".into()))
            .unwrap();
        assert_eq!(c.topic.retention_ms, 604_800_000);
        c.set("segment.bytes", &ConfigValue::Text("1GiB".into()))
            .unwrap();
        assert_eq!(c.topic.segment_bytes, 1_073_741_824);
        c.set("max.message.bytes", &ConfigValue::Text("1MB".into()))
            .unwrap();
        assert_eq!(c.topic.max_message_bytes, 1_000_000);
        let e = c
            .set("segment.bytes", &ConfigValue::Text("4GiB".into()))
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "invalid value 4294967296 for configuration segment.bytes: value must be at most 2147483647 (valid range [1048576, 2147483647] in Kafka 4.x)"
        );
        let e = c
            .set("cleanup.policy", &ConfigValue::Text(" ".into()))
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "invalid value \" \" for configuration cleanup.policy: the list is empty; expected one or more of: compact, delete"
        );
        assert!(c
            .set(
                "cleanup.policy",
                &ConfigValue::Text("compact, delete".into())
            )
            .is_ok());
        assert_eq!(
            c.topic.cleanup_policy,
            CleanupPolicy {
                compact: true,
                delete: true
            }
        );
        assert!(c
            .set("cleanup.policy", &ConfigValue::Text("".into()))
            .is_err());
        assert!(c.set("no.such.config", &ConfigValue::Number(1)).is_err());
    }

    #[test]
    fn version_switch_keeps_explicit_settings() {
        let mut c = Config::defaults(KafkaVersion::V3_6);
        c.set("retention.ms", &ConfigValue::Number(1000)).unwrap();
        c.set("segment.bytes", &ConfigValue::Number(1000)).unwrap();
        let (next, dropped) = c.with_version(KafkaVersion::V4_0);
        assert_eq!(next.topic.retention_ms, 1000);
        assert_eq!(next.topic.message_timestamp_after_max_ms, 3_600_000);
        assert_eq!(dropped, vec!["segment.bytes".to_string()]);
    }
}
