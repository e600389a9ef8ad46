//! Kafka's internal topics and the configs Kafka creates them with, which differ from the
//! broker defaults a plain topic gets: `GroupCoordinator.groupMetadataTopicConfigs`
//! (`__consumer_offsets`), `TransactionCoordinator.transactionTopicConfigs`
//! (`__transaction_state`), `ShareCoordinatorService.shareGroupStateTopicConfigs`
//! (`__share_group_state`), `TopicBasedRemoteLogMetadataManager` (`__remote_log_metadata`), and
//! the KRaft metadata log `__cluster_metadata`, which is no topic at all: `KafkaRaftClient`
//! trims it after snapshots (`metadata.max.retention.ms`/`.bytes`), never by `retention.ms`.
//!
//! A partition read from disk carries its folder name only; without the broker's metadata log
//! these are the configs it most likely had, and every report says where they came from.

use logtime_model::config::{Config, ConfigValue};
use serde::{Deserialize, Serialize};

/// An internal topic and the configs Kafka gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InternalTopic {
    /// The topic's name.
    pub name: &'static str,
    /// The topic configs Kafka sets when it creates it (defaults of their broker configs).
    pub configs: &'static [(&'static str, &'static str)],
    /// The Kafka code that sets them.
    pub created_by: &'static str,
    /// What retention means for it, when more than its configs say.
    pub note: Option<&'static str>,
}

const MIB_100: &str = "104857600";

/// The known internal topics.
pub const INTERNAL_TOPICS: [InternalTopic; 5] = [
    InternalTopic {
        name: "__consumer_offsets",
        configs: &[("cleanup.policy", "compact"), ("segment.bytes", MIB_100)],
        created_by: "GroupCoordinator.groupMetadataTopicConfigs (offsets.topic.segment.bytes)",
        note: None,
    },
    InternalTopic {
        name: "__transaction_state",
        configs: &[("cleanup.policy", "compact"), ("segment.bytes", MIB_100)],
        created_by: "TransactionCoordinator.transactionTopicConfigs (transaction.state.log.segment.bytes)",
        note: None,
    },
    InternalTopic {
        name: "__share_group_state",
        configs: &[("cleanup.policy", "delete"), ("segment.bytes", MIB_100)],
        created_by: "ShareCoordinatorService.shareGroupStateTopicConfigs (share.coordinator.state.topic.segment.bytes)",
        note: Some("the share coordinator also trims it with DeleteRecords as share-group state is superseded"),
    },
    InternalTopic {
        name: "__remote_log_metadata",
        configs: &[("cleanup.policy", "delete"), ("retention.ms", "-1")],
        created_by: "TopicBasedRemoteLogMetadataManager (remote.log.metadata.topic.retention.ms, default -1)",
        note: None,
    },
    InternalTopic {
        name: "__cluster_metadata",
        configs: &[
            ("retention.ms", "-1"),
            ("retention.bytes", "-1"),
            ("segment.bytes", "1073741824"),
        ],
        created_by: "KafkaRaftClient's metadata log (metadata.log.segment.bytes)",
        note: Some("the KRaft metadata log is trimmed after snapshots (metadata.max.retention.ms, metadata.max.retention.bytes, only segments a snapshot covers), never by retention.ms: no time or size verdict applies"),
    },
];

/// The internal topic a partition (`__consumer_offsets-7`) belongs to.
pub fn internal_topic(topic_partition: &str) -> Option<&'static InternalTopic> {
    let topic = match topic_partition.rsplit_once('-') {
        Some((t, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => t,
        _ => topic_partition,
    };
    INTERNAL_TOPICS.iter().find(|t| t.name == topic)
}

/// Where a config in force came from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ConfigOrigin {
    /// Kafka's default for the preset (nothing else set it).
    KafkaDefault,
    /// Given by the person (a `--config`/`--retention-ms` option, a field of the import panel).
    Option,
    /// The configs Kafka creates an internal topic with.
    InternalTopic {
        /// The topic.
        topic: String,
        /// The Kafka code that sets them.
        created_by: String,
    },
    /// The broker's KRaft metadata log (a `ConfigRecord`).
    MetadataLog,
}

/// One config in force and where it came from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConfigInForce {
    /// Kafka's name.
    pub name: String,
    /// The value, as Kafka prints it.
    pub value: String,
    /// Its origin.
    pub origin: ConfigOrigin,
}

/// `config` with the internal topic's configs applied where `given` (the names the person set)
/// did not set them, and the configs that differ from Kafka's defaults with their origin. An
/// internal topic's value that this preset cannot hold is left at the default (it is listed
/// with the default's origin).
pub fn configs_for(
    topic_partition: &str,
    config: &Config,
    given: &[String],
) -> (Config, Vec<ConfigInForce>) {
    configs_with_metadata(topic_partition, config, given, &[])
}

/// [`configs_for`] with the configs the broker's metadata log gives the topic
/// ([`MetadataConfigs::topic_configs`](super::MetadataConfigs::topic_configs)), which come
/// before an internal topic's (Kafka records those too) and after the person's.
pub fn configs_with_metadata(
    topic_partition: &str,
    config: &Config,
    given: &[String],
    metadata: &[(String, String)],
) -> (Config, Vec<ConfigInForce>) {
    let mut out = config.clone();
    let internal = internal_topic(topic_partition);
    let mut from_topic: Vec<&str> = Vec::new();
    let mut from_log: Vec<&str> = Vec::new();
    let value = |v: &str| {
        v.parse::<i64>()
            .map_or(ConfigValue::Text(v.to_string()), ConfigValue::Number)
    };
    if let Some(t) = internal {
        for (name, v) in t.configs {
            if !given.iter().any(|g| g == name) && out.set(name, &value(v)).is_ok() {
                from_topic.push(name);
            }
        }
    }
    for (name, v) in metadata {
        if !given.iter().any(|g| g == name) && out.set(name, &value(v)).is_ok() {
            from_log.push(name);
            from_topic.retain(|n| n != name);
        }
    }
    let defaults = Config::defaults(config.version);
    let mut list = Vec::new();
    for (key, value) in out.entries() {
        let origin = if given.iter().any(|g| g == key.name) {
            ConfigOrigin::Option
        } else if from_log.contains(&key.name) {
            ConfigOrigin::MetadataLog
        } else if from_topic.contains(&key.name) {
            let t = internal.expect("set from an internal topic");
            ConfigOrigin::InternalTopic {
                topic: t.name.to_string(),
                created_by: t.created_by.to_string(),
            }
        } else if defaults.get(key.name).as_ref() == Some(&value) {
            continue;
        } else {
            ConfigOrigin::KafkaDefault
        };
        list.push(ConfigInForce {
            name: key.name.to_string(),
            value: value.to_string(),
            origin,
        });
    }
    (out, list)
}
