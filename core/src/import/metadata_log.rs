//! KRaft's metadata log (`__cluster_metadata-0`): the topic and broker configs a broker really
//! had. Each record's value is an `ApiMessageAndVersion` framed by `MetadataRecordSerde` (frame
//! version, api key, version, as unsigned varints, then the message); Logtime reads three types
//! of `MetadataRecordType`: `TopicRecord` (2: name, topic id), `ConfigRecord` (4: resource type,
//! resource name, config name, value; a null value deletes the config) and `RemoveTopicRecord`
//! (9: topic id), replayed in offset order, so a later record overrides an earlier one. Control
//! batches (snapshot and KRaft markers) are skipped; compressed batches are refused by name.
//!
//! The log is untrusted input read whole: its bytes ([`MAX_METADATA_LOG_BYTES`] for all its
//! segments), its records ([`MAX_METADATA_RECORDS`]) and `meta.properties`
//! ([`MAX_META_PROPERTIES_BYTES`]) are bounded, and every record costs logarithmic time (a
//! removal finds its topic by id, not by a walk over every topic).

use super::wire::{Cursor, WireError};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt;

/// The most bytes the metadata log's `.log` segments may hold in all (each is read whole). A
/// cluster's metadata is a few MB; Kafka snapshots it and deletes older segments.
pub const MAX_METADATA_LOG_BYTES: u64 = 256 << 20;

/// The most records a metadata log may replay.
pub const MAX_METADATA_RECORDS: u64 = 10_000_000;

/// The largest `meta.properties` read (Kafka writes a few hundred bytes).
pub const MAX_META_PROPERTIES_BYTES: u64 = 64 << 10;

/// `ConfigResource.Type.TOPIC`.
const TOPIC: i8 = 2;
/// `ConfigResource.Type.BROKER`.
const BROKER: i8 = 4;

/// Why a metadata log could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum MetadataError {
    /// Bytes that are not a v2 batch or a record as Kafka frames them.
    Malformed {
        /// Byte position in the file.
        position: u64,
        /// Lowercase reason.
        reason: String,
    },
    /// A batch compressed with a codec (the metadata log is written uncompressed by default).
    Compressed {
        /// Byte position of the batch.
        position: u64,
    },
    /// More bytes than [`MAX_METADATA_LOG_BYTES`] in all (refused before they are read).
    TooLarge {
        /// The bytes the segments hold by the one that passed the limit.
        bytes: u64,
    },
    /// More records than [`MAX_METADATA_RECORDS`].
    TooManyRecords {
        /// Byte position of the batch that passed the limit.
        position: u64,
    },
}

impl fmt::Display for MetadataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MetadataError::Malformed { position, reason } => {
                write!(f, "byte {position}: {reason}")
            }
            MetadataError::Compressed { position } => write!(
                f,
                "byte {position}: a compressed metadata batch, which logtime does not read"
            ),
            MetadataError::TooLarge { bytes } => write!(
                f,
                "its segments hold {bytes} bytes; logtime reads at most {MAX_METADATA_LOG_BYTES} bytes of metadata log"
            ),
            MetadataError::TooManyRecords { position } => write!(
                f,
                "byte {position}: more than {MAX_METADATA_RECORDS} records; logtime replays at most {MAX_METADATA_RECORDS} of a metadata log"
            ),
        }
    }
}

impl std::error::Error for MetadataError {}

impl From<WireError> for MetadataError {
    fn from(e: WireError) -> MetadataError {
        MetadataError::Malformed {
            position: e.position,
            reason: format!("{}: {}", e.what, e.reason),
        }
    }
}

/// A topic as the metadata log last described it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MetadataTopic {
    /// Its id, as hex.
    pub id: String,
    /// Its configs (`ConfigRecord`s of resource type TOPIC), by Kafka name.
    pub configs: BTreeMap<String, String>,
}

/// The configs a metadata log holds after replay.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MetadataConfigs {
    /// Live topics by name.
    pub topics: BTreeMap<String, MetadataTopic>,
    /// Dynamic broker configs by resource name (`""`: the cluster-wide default, else a node id).
    pub brokers: BTreeMap<String, BTreeMap<String, String>>,
    /// Topics a `RemoveTopicRecord` deleted (and not made again since).
    pub removed: BTreeSet<String>,
    /// Records replayed.
    pub records: u64,
    /// Bytes of segments read so far ([`MetadataConfigs::read_log`]).
    #[serde(skip)]
    bytes: u64,
    /// Live topics' names by id, for `RemoveTopicRecord`.
    #[serde(skip)]
    by_id: HashMap<String, String>,
}

/// The broker config that sets a topic config's default (`LogConfig`'s synonyms).
const BROKER_SYNONYMS: [(&str, &str); 10] = [
    ("retention.ms", "log.retention.ms"),
    ("retention.bytes", "log.retention.bytes"),
    ("cleanup.policy", "log.cleanup.policy"),
    ("segment.bytes", "log.segment.bytes"),
    ("segment.ms", "log.roll.ms"),
    ("segment.jitter.ms", "log.roll.jitter.ms"),
    ("segment.index.bytes", "log.index.size.max.bytes"),
    ("index.interval.bytes", "log.index.interval.bytes"),
    ("message.timestamp.type", "log.message.timestamp.type"),
    (
        "message.timestamp.after.max.ms",
        "log.message.timestamp.after.max.ms",
    ),
];

impl MetadataConfigs {
    /// The topic configs the log gives `topic` on node `node`: the topic's own, then the
    /// node's dynamic broker configs, then the cluster-wide ones (Kafka's order of precedence;
    /// `server.properties` is not in the log). Each value with the record kind it came from.
    pub fn topic_configs(&self, topic: &str, node: Option<&str>) -> Vec<(String, String)> {
        let mut out: BTreeMap<String, String> = BTreeMap::new();
        for scope in ["", node.unwrap_or("-")] {
            if let Some(b) = self.brokers.get(scope) {
                for (topic_name, broker_name) in BROKER_SYNONYMS {
                    if let Some(v) = b.get(broker_name) {
                        out.insert(topic_name.to_string(), v.clone());
                    }
                }
                if let Some(v) = b.get("log.message.timestamp.before.max.ms") {
                    out.insert("message.timestamp.before.max.ms".into(), v.clone());
                }
            }
        }
        if let Some(t) = self.topics.get(topic) {
            out.extend(t.configs.iter().map(|(k, v)| (k.clone(), v.clone())));
        }
        out.into_iter().collect()
    }

    /// [`Self::topic_configs`] for a partition folder's name (`clicks-0`: topic `clicks`). None
    /// for the metadata log itself: it is no topic, and `KafkaRaftClient` trims it by its own
    /// `metadata.*` settings, so the dynamic `log.*` broker configs do not reach it.
    pub fn partition_configs(
        &self,
        topic_partition: &str,
        node: Option<&str>,
    ) -> Vec<(String, String)> {
        if topic_partition.starts_with("__cluster_metadata-") {
            return Vec::new();
        }
        let topic = match topic_partition.rsplit_once('-') {
            Some((t, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => t,
            _ => topic_partition,
        };
        self.topic_configs(topic, node)
    }

    /// Counts a segment of `len` bytes against [`MAX_METADATA_LOG_BYTES`], before it is read
    /// ([`MetadataConfigs::read_log`] counts it again, so a caller may skip this).
    pub fn will_read(&self, len: u64) -> Result<(), MetadataError> {
        let bytes = self.bytes.saturating_add(len);
        if bytes > MAX_METADATA_LOG_BYTES {
            return Err(MetadataError::TooLarge { bytes });
        }
        Ok(())
    }

    /// Replays the records of one `.log` of the metadata log (segments in offset order).
    pub fn read_log(&mut self, bytes: &[u8]) -> Result<(), MetadataError> {
        self.will_read(bytes.len() as u64)?;
        self.bytes += bytes.len() as u64;
        let mut at = 0usize;
        while bytes.len() - at >= 61 {
            let mut c = Cursor::new(&bytes[at..], at as u64);
            c.i64("base offset")?;
            let len = c.i32("batch length")?;
            let total = 12 + usize::try_from(len).unwrap_or(0);
            if len < 49 || bytes.len() - at < total {
                // A torn tail, as Kafka's recovery would cut it.
                break;
            }
            c.i32("partition leader epoch")?;
            let magic = c.i8("magic")?;
            if magic != 2 {
                return Err(MetadataError::Malformed {
                    position: at as u64,
                    reason: format!("magic {magic}: the metadata log holds v2 batches"),
                });
            }
            c.u32("crc")?;
            let attributes = c.i16("attributes")?;
            c.bytes(4 + 8 + 8 + 8 + 2 + 4, "batch header")?;
            let count = c.i32("record count")?;
            if attributes & 0x07 != 0 {
                return Err(MetadataError::Compressed {
                    position: at as u64,
                });
            }
            if attributes & 0x20 == 0 {
                if self.records.saturating_add(count.max(0) as u64) > MAX_METADATA_RECORDS {
                    return Err(MetadataError::TooManyRecords {
                        position: at as u64,
                    });
                }
                let mut r = Cursor::new(&bytes[at + 61..at + total], at as u64 + 61);
                for _ in 0..count.max(0) {
                    self.record(&mut r)?;
                }
            }
            at += total;
        }
        Ok(())
    }

    fn record(&mut self, c: &mut Cursor<'_>) -> Result<(), MetadataError> {
        c.varint("record length")?;
        c.i8("record attributes")?;
        c.varlong("timestamp delta")?;
        c.varint("offset delta")?;
        let key = c.varint("key length")?;
        if key > 0 {
            c.bytes(key as usize, "key")?;
        }
        let len = c.varint("value length")?;
        let value = if len >= 0 {
            Some(c.bytes(len as usize, "value")?)
        } else {
            None
        };
        for _ in 0..c.varint("header count")?.max(0) {
            let k = c.varint("header key length")?;
            c.bytes(k.max(0) as usize, "header key")?;
            let v = c.varint("header value length")?;
            if v > 0 {
                c.bytes(v as usize, "header value")?;
            }
        }
        if let Some(v) = value {
            self.records += 1;
            self.apply(v, c.position())?;
        }
        Ok(())
    }

    fn apply(&mut self, value: &[u8], position: u64) -> Result<(), MetadataError> {
        let mut c = Cursor::new(value, position);
        c.uvarint("frame version")?;
        let api_key = c.uvarint("api key")?;
        let version = c.uvarint("record version")?;
        match api_key {
            2 => {
                let name = string(&mut c, true)?.unwrap_or_default();
                let id = hex(c.bytes(16, "topic id")?);
                self.removed.remove(&name);
                let old = self.topics.insert(
                    name.clone(),
                    MetadataTopic {
                        id: id.clone(),
                        configs: BTreeMap::new(),
                    },
                );
                // A name made again with another id: its old id names nothing any more.
                if let Some(old) = old.filter(|o| o.id != id) {
                    if self.by_id.get(&old.id) == Some(&name) {
                        self.by_id.remove(&old.id);
                    }
                }
                self.by_id.insert(id, name);
            }
            4 => {
                let kind = c.i8("resource type")?;
                let resource = string(&mut c, true)?.unwrap_or_default();
                let name = string(&mut c, true)?.unwrap_or_default();
                let value = string(&mut c, true)?;
                let map = match kind {
                    TOPIC => match self.topics.get_mut(&resource) {
                        Some(t) => &mut t.configs,
                        None => return Ok(()),
                    },
                    BROKER => self.brokers.entry(resource).or_default(),
                    _ => return Ok(()),
                };
                match value {
                    Some(v) => map.insert(name, v),
                    None => map.remove(&name),
                };
            }
            9 => {
                let id = hex(c.bytes(16, "topic id")?);
                if let Some(name) = self.by_id.remove(&id) {
                    self.topics.remove(&name);
                    self.removed.insert(name);
                }
            }
            _ => {}
        }
        let _ = version;
        Ok(())
    }
}

/// A flexible-version (compact) nullable string: unsigned varint length + 1, 0 for null.
fn string(c: &mut Cursor<'_>, _flexible: bool) -> Result<Option<String>, MetadataError> {
    let n = c.uvarint("string length")?;
    if n == 0 {
        return Ok(None);
    }
    let b = c.bytes(n as usize - 1, "string")?;
    Ok(Some(String::from_utf8_lossy(b).into_owned()))
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// `meta.properties` of a log directory: `cluster.id` and `node.id` (`broker.id` before KRaft).
pub fn meta_properties(text: &str) -> (Option<String>, Option<String>) {
    let get = |key: &str| {
        text.lines()
            .filter(|l| !l.trim_start().starts_with('#'))
            .find_map(|l| {
                let (k, v) = l.split_once('=')?;
                (k.trim() == key).then(|| v.trim().to_string())
            })
    };
    (
        get("cluster.id"),
        get("node.id").or_else(|| get("broker.id")),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A metadata log segment written by Kafka's own code (`scripts/kafka-metadata-log`):
    /// a LeaderChange control batch, then TopicRecords, ConfigRecords (topic and cluster-wide
    /// and node 3's broker configs, a later override, a deletion by a null value) and a
    /// RemoveTopicRecord, framed by `MetadataRecordSerde` and batched by raft's `BatchBuilder`.
    const KAFKA_WRITTEN: &[u8] = include_bytes!(
        "../../../tests/import/kafka/metadata-log/__cluster_metadata-0/00000000000000000000.log"
    );

    #[test]
    fn a_metadata_log_kafka_wrote_gives_the_configs_it_records() {
        let mut m = MetadataConfigs::default();
        m.read_log(KAFKA_WRITTEN).unwrap();
        // Ten records: the control batch's LeaderChange is not one of them.
        assert_eq!(m.records, 10);
        assert_eq!(m.topics.keys().collect::<Vec<_>>(), ["clicks", "views"]);
        assert_eq!(m.removed.iter().collect::<Vec<_>>(), ["gone"]);
        // Uuid.fromString("Y2xpY2tzQ2xpY2tzQ2xpYw"): the id's 16 bytes, as the record holds them.
        assert_eq!(m.topics["clicks"].id, hex(b"clicksClicksClic"));
        // The later retention.ms wins, and the null value deleted segment.ms.
        assert_eq!(
            m.topics["clicks"].configs.iter().collect::<Vec<_>>(),
            [(&"retention.ms".to_string(), &"7200000".to_string())]
        );
        assert!(m.topics["views"].configs.is_empty());
        assert_eq!(m.brokers[""]["log.retention.ms"], "86400000");
        assert_eq!(m.brokers["3"]["log.cleanup.policy"], "compact");
        let on = |topic, node| m.topic_configs(topic, node);
        assert_eq!(
            on("clicks", Some("3")),
            [
                ("cleanup.policy".to_string(), "compact".to_string()),
                ("retention.ms".to_string(), "7200000".to_string())
            ]
        );
        assert_eq!(
            on("views", Some("1")),
            [("retention.ms".to_string(), "86400000".to_string())]
        );
        assert_eq!(
            m.partition_configs("clicks-0", Some("1")),
            on("clicks", Some("1"))
        );
        // The cluster-wide log.retention.ms does not reach the metadata log itself.
        assert!(m
            .partition_configs("__cluster_metadata-0", Some("1"))
            .is_empty());
    }

    /// A v2 batch header of `count` records over `records` (the reader checks no CRC).
    fn batch(count: i32, records: &[u8]) -> Vec<u8> {
        let mut b = vec![0u8; 8];
        b.extend((49 + records.len() as i32).to_be_bytes());
        b.extend([0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0]);
        b.extend([0u8; 4 + 8 + 8 + 8 + 2 + 4]);
        b.extend(count.to_be_bytes());
        b.extend(records);
        assert_eq!(b.len(), 61 + records.len());
        b
    }

    fn uvarint(out: &mut Vec<u8>, mut v: u64) {
        while v >= 0x80 {
            out.push((v as u8) | 0x80);
            v >>= 7;
        }
        out.push(v as u8);
    }

    /// One record (no key, no headers) whose value is `message` under `api_key`.
    fn record(api_key: u64, message: &[u8]) -> Vec<u8> {
        let mut value = vec![1];
        uvarint(&mut value, api_key);
        value.push(0);
        value.extend(message);
        let mut r = vec![0, 0, 0, 1]; // attributes, deltas 0, key length -1
        uvarint(&mut r, (value.len() as u64) << 1);
        r.extend(value);
        r.push(0); // no headers
        let mut out = vec![];
        uvarint(&mut out, (r.len() as u64) << 1);
        out.extend(r);
        out
    }

    fn topic(name: &str, id: u32) -> Vec<u8> {
        let mut m = vec![];
        uvarint(&mut m, name.len() as u64 + 1);
        m.extend(name.as_bytes());
        m.extend([0u8; 12]);
        m.extend(id.to_be_bytes());
        record(2, &m)
    }

    fn remove(id: u32) -> Vec<u8> {
        let mut m = vec![0u8; 12];
        m.extend(id.to_be_bytes());
        record(9, &m)
    }

    #[test]
    fn a_batch_claiming_too_many_records_is_refused_before_reading() {
        let mut m = MetadataConfigs::default();
        let e = m.read_log(&batch(i32::MAX, &[])).unwrap_err();
        assert_eq!(
            e.to_string(),
            "byte 0: more than 10000000 records; logtime replays at most 10000000 of a metadata log"
        );
    }

    #[test]
    fn the_segments_bytes_are_bounded_in_all() {
        let mut m = MetadataConfigs::default();
        assert!(m.will_read(MAX_METADATA_LOG_BYTES).is_ok());
        m.read_log(&batch(0, &[])).unwrap();
        assert_eq!(
            m.will_read(MAX_METADATA_LOG_BYTES).unwrap_err().to_string(),
            "its segments hold 268435517 bytes; logtime reads at most 268435456 bytes of metadata log"
        );
    }

    /// 20,000 topics made, then removed in the reverse order: each removal finds its topic by
    /// id (a walk over every topic made this quadratic), and a name made again is live.
    #[test]
    fn removals_find_topics_by_id() {
        let n = 20_000u32;
        let mut records = vec![];
        for i in 0..n {
            records.extend(topic(&format!("t{i}"), i));
        }
        for i in (0..n).rev() {
            records.extend(remove(i));
        }
        records.extend(topic("t7", n + 7));
        let mut m = MetadataConfigs::default();
        let start = std::time::Instant::now();
        m.read_log(&batch(2 * n as i32 + 1, &records)).unwrap();
        assert!(start.elapsed().as_secs() < 20, "{:?}", start.elapsed());
        assert_eq!(m.records, 2 * n as u64 + 1);
        assert_eq!(m.topics.len(), 1);
        assert_eq!(m.removed.len(), n as usize - 1);
        assert!(!m.removed.contains("t7"));
        // The old id of t7 no longer removes it.
        m.read_log(&batch(1, &remove(7))).unwrap();
        assert_eq!(m.topics.len(), 1);
        m.read_log(&batch(1, &remove(n + 7))).unwrap();
        assert!(m.topics.is_empty());
    }
}
