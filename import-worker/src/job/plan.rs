//! Which dropped files make the partition, and in what order they are read: a partition
//! folder's segment files as `LogManager.loadLogs` finds them (`LocalLog`'s file names: the base
//! offset, then `.log`, `.index` or `.timeindex`), the KRaft metadata log and `meta.properties`
//! of the same log directory first, and anything else as `kafka-dump-log` text.

use logtime_core::import::{segment_file, SegmentFileKind, MAX_INDEX_BYTES};
use logtime_model::Offset;

/// A file the reader dropped or picked.
#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize)]
pub struct Picked {
    /// File name.
    pub name: String,
    /// Path inside a dropped or picked folder (`clicks-0/00000000000000000000.log`), or the name.
    pub path: String,
    /// Size in bytes.
    pub size: u64,
    /// Modification time (ms since the epoch), when the browser gives one.
    pub modified: Option<i64>,
}

/// What a file is read as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A segment file with its base offset.
    Segment(Offset, SegmentFileKind),
    /// `kafka-dump-log` text.
    Dump,
    /// A `.log` of the broker's KRaft metadata log (`__cluster_metadata-0`), dropped with the
    /// partition folder: the topic's real configs.
    Metadata,
    /// The log directory's `meta.properties`, dropped with the metadata log: the node id whose
    /// dynamic broker configs apply.
    MetaProperties,
}

/// The folder of the KRaft metadata log.
pub(super) const METADATA_FOLDER: &str = "__cluster_metadata-0";

/// The last component of a path's folder (`kafka-logs/clicks-0/x.log`: `clicks-0`).
fn folder_name(path: &str) -> &str {
    folder(path).rsplit(['/', '\\']).next().unwrap_or("")
}

/// Whether the files hold a metadata log beside another partition's segment files: a broker's
/// log directory, or the two folders picked together.
fn with_metadata(files: &[Picked], reads: &[(usize, Kind)]) -> bool {
    let mut names = reads.iter().map(|(i, _)| folder_name(&files[*i].path));
    names.clone().any(|n| n == METADATA_FOLDER) && names.any(|n| n != METADATA_FOLDER)
}

/// The files to read, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// `topic-partition`, from the folder's name.
    pub topic_partition: String,
    /// Index into the picked files, and what each is.
    pub reads: Vec<(usize, Kind)>,
    /// Files left aside (snapshots, checkpoints, metadata), by name.
    pub skipped: Vec<String>,
    /// Bytes to read in all.
    pub total: u64,
}

/// The folder a path is in (`""` for a bare name).
fn folder(path: &str) -> &str {
    path.rsplit_once(['/', '\\']).map_or("", |(d, _)| d)
}

/// When the files hold a metadata log beside a partition: its `.log` files become
/// [`Kind::Metadata`] reads (its index files are left aside), and `meta.properties` is read too.
fn route_metadata(files: &[Picked], reads: &mut Vec<(usize, Kind)>) {
    if !with_metadata(files, reads) {
        return;
    }
    reads.retain_mut(|(i, k)| {
        if folder_name(&files[*i].path) != METADATA_FOLDER {
            return true;
        }
        let log = matches!(k, Kind::Segment(_, SegmentFileKind::Log));
        if log {
            *k = Kind::Metadata;
        }
        log
    });
    reads.extend(
        files
            .iter()
            .enumerate()
            .filter(|(_, f)| f.name == "meta.properties" && f.size <= 64 * 1024)
            .map(|(i, _)| (i, Kind::MetaProperties)),
    );
}

/// Decides what to read: a partition's segment files (other files in the folder are skipped), or,
/// when there are none, every file as `kafka-dump-log` text.
pub fn plan(files: &[Picked]) -> Result<Plan, String> {
    if files.is_empty() {
        return Err("no files were given".into());
    }
    let mut reads: Vec<(usize, Kind)> = files
        .iter()
        .enumerate()
        .filter_map(|(i, f)| segment_file(&f.name).map(|(b, k)| (i, Kind::Segment(b, k))))
        .collect();
    if reads.is_empty() {
        return Ok(Plan {
            topic_partition: String::new(),
            reads: (0..files.len()).map(|i| (i, Kind::Dump)).collect(),
            skipped: Vec::new(),
            total: files.iter().map(|f| f.size).sum(),
        });
    }
    route_metadata(files, &mut reads);
    let mut folders: Vec<&str> = reads
        .iter()
        .filter(|(_, k)| matches!(k, Kind::Segment(..)))
        .map(|(i, _)| folder(&files[*i].path))
        .collect();
    folders.sort_unstable();
    folders.dedup();
    if folders.len() > 1 {
        return Err(format!(
            "these segment files come from {} folders ({}): import one partition folder at a time",
            folders.len(),
            folders.join(", ")
        ));
    }
    for (i, k) in &reads {
        if *k == Kind::Metadata && files[*i].size > MAX_INDEX_BYTES {
            return Err(format!(
                "{}/{}: a metadata log segment of {} bytes, larger than the {} read here: import the partition folder alone, or run logtime inspect on the log directory",
                METADATA_FOLDER, files[*i].name, files[*i].size, MAX_INDEX_BYTES
            ));
        }
        if matches!(k, Kind::Segment(_, SegmentFileKind::OffsetIndex | SegmentFileKind::TimeIndex) if files[*i].size > MAX_INDEX_BYTES)
        {
            return Err(format!(
                "{}: {} bytes is larger than any index Kafka writes ({} at most here)",
                files[*i].name, files[*i].size, MAX_INDEX_BYTES
            ));
        }
    }
    // The metadata log and meta.properties first: they decide the configs the segments are
    // read under.
    reads.sort_by_key(|(i, k)| {
        (
            matches!(k, Kind::Segment(..)),
            *k != Kind::MetaProperties,
            files[*i].name.clone(),
        )
    });
    let topic_partition = folders[0]
        .rsplit(['/', '\\'])
        .next()
        .filter(|s| !s.is_empty())
        .unwrap_or("partition")
        .to_string();
    let skipped = files
        .iter()
        .enumerate()
        .filter(|(i, _)| !reads.iter().any(|(r, _)| r == i))
        .map(|(_, f)| f.name.clone())
        .collect();
    let total = reads.iter().map(|(i, _)| files[*i].size).sum();
    Ok(Plan {
        topic_partition,
        reads,
        skipped,
        total,
    })
}
