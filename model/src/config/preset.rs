//! The version presets, and every way Kafka's behaviour differs between them, in one table.
//!
//! Each row of [`PRESETS`] is one release line; each method of [`KafkaVersion`] reads one column.
//! Adding a preset is one variant, one row and its tests: the scenario parser, the command line's
//! usage text and the explorer's version menu all list [`KafkaVersion::ALL`].

use serde::{Deserialize, Serialize};

/// Which Kafka release line's defaults, ranges and rules are in force.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub enum KafkaVersion {
    /// Kafka 3.6 to 3.9.
    #[serde(rename = "3.6")]
    V3_6,
    /// Kafka 4.x.
    #[default]
    #[serde(rename = "4.0")]
    V4_0,
    /// Kafka 4.1 and later: 4.0's rules, and the `LogFutureTimestampLogger` WARN line.
    #[serde(rename = "4.1")]
    V4_1,
}

/// `message.timestamp.difference.max.ms`, the config the 4.0 line removed.
pub(crate) const DIFFERENCE_MAX_MS: &str = "message.timestamp.difference.max.ms";

/// One release line: its names and every version-dependent fact the model uses.
struct Preset {
    /// The short key used in scenario files.
    key: &'static str,
    /// Other spellings a scenario or a person may use for it.
    aliases: &'static [&'static str],
    /// The release range it stands for, for people.
    label: &'static str,
    /// `message.timestamp.after.max.ms` by default: `Long.MAX` before KIP-1030, 1 h from 4.0.
    after_max_ms_default: i64,
    /// The lowest valid `segment.bytes` (`LogConfig`: 14 before 4.0, 1 MiB from 4.0).
    segment_bytes_min: i64,
    /// Configs that do not exist in this line, with what Kafka's own error would add.
    removed: &'static [(&'static str, &'static str)],
    /// ListOffsets refuses negative targets other than the special values with
    /// UNSUPPORTED_VERSION (4.x); before, they are searched as times.
    refuses_negative_lookup_target: bool,
    /// `LogFutureTimestampLogger` warns about segments stamped in the future (KAFKA-18929).
    warns_future_timestamps: bool,
    /// Whether the narration quotes that WARN line. The 4.0 row records the segments too (its
    /// reports keep them), but only the 4.1 row, whose release has the logger
    /// (`UnifiedLog.deleteRetentionMsBreachedSegments` in 4.1.1), quotes it.
    quotes_future_timestamp_warning: bool,
}

/// The configs Kafka 4.0 removed, with what to use instead (every 4.x preset refuses them).
const REMOVED_IN_4_0: &[(&str, &str)] = &[(
    DIFFERENCE_MAX_MS,
    "it was removed in kafka 4.0 (KAFKA-17997); use message.timestamp.before.max.ms and message.timestamp.after.max.ms",
)];

/// The presets, in [`KafkaVersion::ALL`] order.
const PRESETS: [Preset; 3] = [
    Preset {
        key: "3.6",
        aliases: &["3.7", "3.8", "3.9", "3.6-3.9", "3.x"],
        label: "Kafka 3.6–3.9",
        after_max_ms_default: i64::MAX,
        segment_bytes_min: 14,
        removed: &[],
        refuses_negative_lookup_target: false,
        warns_future_timestamps: false,
        quotes_future_timestamp_warning: false,
    },
    Preset {
        key: "4.0",
        aliases: &["4", "4.x"],
        label: "Kafka 4.x",
        after_max_ms_default: 3_600_000,
        segment_bytes_min: 1_048_576,
        removed: REMOVED_IN_4_0,
        refuses_negative_lookup_target: true,
        warns_future_timestamps: true,
        quotes_future_timestamp_warning: false,
    },
    Preset {
        key: "4.1",
        aliases: &["4.1.0", "4.1.1", "4.2"],
        label: "Kafka 4.1+",
        after_max_ms_default: 3_600_000,
        segment_bytes_min: 1_048_576,
        removed: REMOVED_IN_4_0,
        refuses_negative_lookup_target: true,
        warns_future_timestamps: true,
        quotes_future_timestamp_warning: true,
    },
];

impl KafkaVersion {
    /// Every preset, oldest first.
    pub const ALL: [KafkaVersion; 3] = [KafkaVersion::V3_6, KafkaVersion::V4_0, KafkaVersion::V4_1];

    fn preset(self) -> &'static Preset {
        &PRESETS[self as usize]
    }

    /// Parses a preset's key (`"3.6"`, `"4.0"`) or one of its aliases (`"3.9"`, `"4.x"`, ...).
    pub fn parse(s: &str) -> Option<KafkaVersion> {
        let s = s.trim();
        KafkaVersion::ALL
            .into_iter()
            .find(|v| v.key() == s || v.preset().aliases.contains(&s))
    }

    /// The other names [`KafkaVersion::parse`] reads as this preset (`"3.9"`, `"4.x"`, ...): the
    /// schema of scenario files lists them.
    pub fn aliases(self) -> &'static [&'static str] {
        self.preset().aliases
    }

    /// The short key used in scenario files: `"3.6"` or `"4.0"`.
    pub fn key(self) -> &'static str {
        self.preset().key
    }

    /// The release range the preset stands for, for people.
    pub fn label(self) -> &'static str {
        self.preset().label
    }

    /// Every preset's key, quoted, as a list for messages: `"3.6" or "4.0"`.
    pub fn keys_for_people() -> String {
        let keys: Vec<String> = KafkaVersion::ALL
            .iter()
            .map(|v| format!("{:?}", v.key()))
            .collect();
        match keys.split_last() {
            Some((last, [])) => last.clone(),
            Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
            None => String::new(),
        }
    }

    /// The default `message.timestamp.after.max.ms`.
    pub fn after_max_ms_default(self) -> i64 {
        self.preset().after_max_ms_default
    }

    /// The lowest valid `segment.bytes`.
    pub fn segment_bytes_min(self) -> i64 {
        self.preset().segment_bytes_min
    }

    /// Whether the config exists in this line.
    pub fn has_config(self, name: &str) -> bool {
        self.removal_note(name).is_none()
    }

    /// For a config this line removed, what Kafka's error adds about it.
    pub fn removal_note(self, name: &str) -> Option<&'static str> {
        self.preset()
            .removed
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, note)| *note)
    }

    /// Whether `message.timestamp.difference.max.ms` stands in for a before or after bound left at
    /// `Long.MAX` (`LogConfig.java:458-478`): true exactly where the config exists.
    pub fn difference_is_fallback(self) -> bool {
        self.has_config(DIFFERENCE_MAX_MS)
    }

    /// Whether ListOffsets refuses a negative target that is not a special value
    /// (UNSUPPORTED_VERSION) instead of searching it as a time.
    pub fn refuses_negative_lookup_target(self) -> bool {
        self.preset().refuses_negative_lookup_target
    }

    /// Whether a retention check logs `FutureTimestampWarning` for segments stamped ahead of the
    /// broker clock.
    pub fn warns_future_timestamps(self) -> bool {
        self.preset().warns_future_timestamps
    }

    /// Whether narrations quote Kafka's WARN line for such a segment
    /// ([`future_timestamp_warning`](crate::retention::future_timestamp_warning)): the 4.1 row.
    pub fn quotes_future_timestamp_warning(self) -> bool {
        self.preset().quotes_future_timestamp_warning
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_has_one_row_per_preset_in_order() {
        assert_eq!(PRESETS.len(), KafkaVersion::ALL.len());
        for (i, v) in KafkaVersion::ALL.into_iter().enumerate() {
            assert_eq!(v as usize, i);
            assert_eq!(KafkaVersion::parse(v.key()), Some(v));
            for alias in v.preset().aliases {
                assert_eq!(KafkaVersion::parse(alias), Some(v), "{alias}");
            }
            // The serde name is the key.
            assert_eq!(serde_json::to_value(v).unwrap(), v.key());
        }
        assert_eq!(KafkaVersion::parse("2.8"), None);
        assert_eq!(
            KafkaVersion::keys_for_people(),
            "\"3.6\", \"4.0\" or \"4.1\""
        );
    }

    #[test]
    fn kafka_3_6_to_3_9() {
        let v = KafkaVersion::V3_6;
        assert_eq!(v.label(), "Kafka 3.6–3.9");
        assert_eq!(v.after_max_ms_default(), i64::MAX);
        assert_eq!(v.segment_bytes_min(), 14);
        assert!(v.has_config(DIFFERENCE_MAX_MS));
        assert!(v.difference_is_fallback());
        assert!(!v.refuses_negative_lookup_target());
        assert!(!v.warns_future_timestamps());
    }

    #[test]
    fn kafka_4_x() {
        let v = KafkaVersion::V4_0;
        assert_eq!(v.label(), "Kafka 4.x");
        assert_eq!(v.after_max_ms_default(), 3_600_000);
        assert_eq!(v.segment_bytes_min(), 1_048_576);
        assert!(!v.has_config(DIFFERENCE_MAX_MS));
        assert!(v
            .removal_note(DIFFERENCE_MAX_MS)
            .unwrap()
            .contains("KAFKA-17997"));
        assert!(!v.difference_is_fallback());
        assert!(v.refuses_negative_lookup_target());
        assert!(v.warns_future_timestamps());
        assert!(!v.quotes_future_timestamp_warning());
        assert_eq!(KafkaVersion::default(), v);
    }

    #[test]
    fn kafka_4_1() {
        let v = KafkaVersion::V4_1;
        assert_eq!(KafkaVersion::parse("4.1"), Some(v));
        assert_eq!(KafkaVersion::parse("4.1.1"), Some(v));
        assert_eq!(v.label(), "Kafka 4.1+");
        assert_eq!(v.after_max_ms_default(), 3_600_000);
        assert_eq!(v.segment_bytes_min(), 1_048_576);
        assert!(!v.has_config(DIFFERENCE_MAX_MS));
        assert!(v.refuses_negative_lookup_target());
        assert!(v.warns_future_timestamps());
        assert!(v.quotes_future_timestamp_warning());
    }
}
