//! A broker's log directory as KRaft leaves it: `meta.properties` (cluster and node ids) and the
//! metadata log `__cluster_metadata-0`, whose TopicRecords and ConfigRecords give each topic the
//! configs the broker really had (read by core's `import::MetadataConfigs`).

use super::read::{io_err, regular_file};
use super::{fail, Fail, Options};
use logtime_core::import::{
    meta_properties, segment_file, MetadataConfigs, SegmentFileKind, MAX_META_PROPERTIES_BYTES,
};
use std::io::Read as _;
use std::path::Path;

/// What a log directory says about its broker.
pub(crate) struct Broker {
    pub(super) cluster_id: Option<String>,
    pub(super) node_id: Option<String>,
    /// The replayed metadata log, when the directory holds `__cluster_metadata-0`.
    pub(super) metadata: Option<MetadataConfigs>,
}

/// Reads `meta.properties` and `__cluster_metadata-0/*.log` of `dir`, when there.
pub(super) fn broker(dir: &Path) -> Result<Option<Broker>, Fail> {
    let meta = dir.join("__cluster_metadata-0");
    let props = properties(&dir.join("meta.properties"))?;
    if !meta.is_dir() && props.is_none() {
        return Ok(None);
    }
    let (cluster_id, node_id) = props.as_deref().map_or((None, None), meta_properties);
    let metadata = if meta.is_dir() {
        let mut logs: Vec<_> = std::fs::read_dir(&meta)
            .map_err(|e| io_err(&meta, e))?
            .filter_map(|e| e.ok())
            .filter_map(|e| {
                let name = e.file_name().to_string_lossy().to_string();
                match segment_file(&name) {
                    Some((base, SegmentFileKind::Log)) => Some((base, e.path())),
                    _ => None,
                }
            })
            .collect();
        logs.sort();
        let mut configs = MetadataConfigs::default();
        for (_, path) in logs {
            let refused = |e| {
                Fail(format!(
                    "{}: the kraft metadata log could not be read: {e}",
                    path.display()
                ))
            };
            // As for a partition's segment files: a device or a FIFO never ends. The size is
            // checked before the file is read whole, and the read stops there whatever the
            // size said.
            let len = regular_file(&path)?;
            configs.will_read(len).map_err(refused)?;
            let mut bytes = Vec::new();
            std::fs::File::open(&path)
                .and_then(|f| f.take(len.saturating_add(1)).read_to_end(&mut bytes))
                .map_err(|e| io_err(&path, e))?;
            configs.read_log(&bytes).map_err(refused)?;
        }
        Some(configs)
    } else {
        None
    };
    Ok(Some(Broker {
        cluster_id,
        node_id,
        metadata,
    }))
}

/// `meta.properties` as text, when there: a regular file of at most
/// [`MAX_META_PROPERTIES_BYTES`] (a device or a huge file is refused, naming the limit).
fn properties(path: &Path) -> Result<Option<String>, Fail> {
    let Ok(m) = std::fs::metadata(path) else {
        return Ok(None);
    };
    let len = m.len();
    if !m.is_file() {
        return fail(format!(
            "{}: not a regular file (a device, a FIFO or a socket), so not a meta.properties",
            path.display()
        ));
    }
    if len > MAX_META_PROPERTIES_BYTES {
        return fail(format!(
            "{}: {len} bytes, more than the {MAX_META_PROPERTIES_BYTES} bytes a meta.properties may be",
            path.display()
        ));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_META_PROPERTIES_BYTES).read_to_end(&mut bytes))
        .map_err(|e| io_err(path, e))?;
    // As before: a file that is not text gives no ids.
    Ok(String::from_utf8(bytes).ok())
}

impl Options {
    /// The configs the metadata log gives the topic of `topic_partition` (empty without one).
    pub(super) fn metadata_for(&self, topic_partition: &str) -> Vec<(String, String)> {
        let Some(Broker {
            metadata: Some(m),
            node_id,
            ..
        }) = &self.broker
        else {
            return Vec::new();
        };
        m.partition_configs(topic_partition, node_id.as_deref())
    }

    /// The line a log directory's report opens with, when it is a broker's.
    pub(super) fn broker_line(&self) -> Option<String> {
        let b = self.broker.as_ref()?;
        let mut s = format!(
            "broker: cluster {}, node {}",
            b.cluster_id.as_deref().unwrap_or("unknown"),
            b.node_id.as_deref().unwrap_or("unknown")
        );
        match &b.metadata {
            Some(m) => s.push_str(&format!(
                "; topic configs from the kraft metadata log ({} records: {} topics, {} deleted)",
                m.records,
                m.topics.len(),
                m.removed.len()
            )),
            None => s.push_str("; no __cluster_metadata-0 here: topic configs are kafka's defaults and the options"),
        }
        Some(s)
    }
}
