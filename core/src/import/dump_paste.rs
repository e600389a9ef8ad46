//! What people paste of `kafka-dump-log.sh` output (`DumpLogSegments`) around and instead of
//! what the tool prints: shell prompts, command lines and `#` comments; several partitions'
//! files in one text (`--files a-0/…,b-0/…`); index files dumped alone; and what is truly
//! outside (Kafka 0.x lines, elided or wrapped text), refused with the reason.

use super::dump_lines::clip;
use super::dump_log::{DumpFile, DumpOutput, DumpedContent};
use logtime_model::units::{Bytes, Offset, Timestamp};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Why a dump's files could not be split into partitions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum DumpSplitError {
    /// Files whose `Dumping` path names no partition folder, beside several partitions.
    Ambiguous {
        /// The paths that name no folder.
        files: Vec<String>,
        /// The partitions they could belong to.
        partitions: Vec<String>,
    },
    /// The same segment file dumped twice for one partition (two partitions' files dumped
    /// from their own folders, so that the paths cannot tell them apart).
    Twice {
        /// The partition, when the paths name one.
        partition: Option<String>,
        /// The first path.
        first: String,
        /// The second.
        second: String,
    },
}

impl fmt::Display for DumpSplitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DumpSplitError::Ambiguous { files, partitions } => write!(
                f,
                "{} name{} no partition folder, and the dump holds several partitions ({}): dump each file by its path (topic-N/NNN.log) so that it can be told apart",
                files.join(", "),
                if files.len() == 1 { "s" } else { "" },
                partitions.join(", ")
            ),
            DumpSplitError::Twice {
                partition,
                first,
                second,
            } => write!(
                f,
                "{first} and {second} are the same segment file{}: two partitions' files cannot be told apart without their folders; dump each by its path (topic-N/NNN.log)",
                partition
                    .as_ref()
                    .map_or(String::new(), |p| format!(" of {p}"))
            ),
        }
    }
}

impl std::error::Error for DumpSplitError {}

/// The partition folder a dumped path names (`/var/lib/kafka/clicks-0/000….log` → `clicks-0`);
/// `./000….log` and a bare file name name none.
pub(super) fn folder_of(path: &str) -> Option<String> {
    let mut parts = path.rsplit(['/', '\\']);
    parts.next()?;
    parts
        .next()
        .filter(|s| !s.is_empty() && *s != "." && *s != "..")
        .map(str::to_string)
}

impl DumpOutput {
    /// The files split by partition, in the order each partition first appears: one group per
    /// partition folder named in the `Dumping` paths (`kafka-dump-log.sh --files a-0/…,b-0/…`
    /// writes several). Files whose path names no folder join the only named partition, or
    /// form one partition of their own when no path names one; a mix that cannot be told apart
    /// (unnamed files beside several named partitions, or the same file twice in one
    /// partition) is refused naming the files.
    pub fn partitions(self) -> Result<Vec<(Option<String>, DumpOutput)>, DumpSplitError> {
        let mut groups: Vec<(Option<String>, DumpOutput)> = Vec::new();
        let mut unnamed: Vec<DumpFile> = Vec::new();
        for f in self.files {
            match folder_of(&f.path) {
                None => unnamed.push(f),
                Some(tp) => match groups.iter_mut().find(|(t, _)| t.as_deref() == Some(&tp)) {
                    Some((_, g)) => g.files.push(f),
                    None => groups.push((Some(tp), DumpOutput { files: vec![f] })),
                },
            }
        }
        if !unnamed.is_empty() {
            match groups.len() {
                0 => groups.push((None, DumpOutput { files: unnamed })),
                1 => groups[0].1.files.extend(unnamed),
                _ => {
                    return Err(DumpSplitError::Ambiguous {
                        files: unnamed.into_iter().map(|f| f.path).collect(),
                        partitions: groups.into_iter().filter_map(|(t, _)| t).collect(),
                    })
                }
            }
        }
        for (tp, g) in &groups {
            for (i, a) in g.files.iter().enumerate() {
                let twin = g.files[i + 1..].iter().find(|b| {
                    b.base_offset == a.base_offset
                        && std::mem::discriminant(&b.content) == std::mem::discriminant(&a.content)
                });
                if let Some(b) = twin {
                    return Err(DumpSplitError::Twice {
                        partition: tp.clone(),
                        first: a.path.clone(),
                        second: b.path.clone(),
                    });
                }
            }
        }
        Ok(groups)
    }

    /// Whether the dump holds only index files (`.index`, `.timeindex`), no `.log`.
    pub fn index_only(&self) -> bool {
        !self.files.is_empty()
            && self
                .files
                .iter()
                .all(|f| !matches!(f.content, DumpedContent::Log(_)))
    }

    /// The index files of a dump that holds no `.log`, one row per segment: what they say
    /// about the segment without its data (the time index's last entry is the largest stamp
    /// Kafka had indexed, a lower bound of the segment's largest timestamp).
    pub fn index_rows(&self) -> Vec<IndexOnlyRow> {
        let mut rows: Vec<IndexOnlyRow> = Vec::new();
        for f in &self.files {
            let at = match rows.iter().position(|r| r.base_offset == f.base_offset) {
                Some(at) => at,
                None => {
                    rows.push(IndexOnlyRow {
                        base_offset: f.base_offset,
                        offset_entries: None,
                        last_indexed: None,
                        time_entries: None,
                        largest_indexed: None,
                    });
                    rows.len() - 1
                }
            };
            let row = &mut rows[at];
            match &f.content {
                DumpedContent::Log(_) => {}
                DumpedContent::OffsetIndex(i) => {
                    row.offset_entries = Some(i.entries.len());
                    if let Some(e) = i.entries.last() {
                        row.last_indexed = Some((e.offset, e.position));
                    }
                }
                DumpedContent::TimeIndex(i) => {
                    row.time_entries = Some(i.entries.len());
                    row.largest_indexed = i
                        .entries
                        .iter()
                        .max_by_key(|e| e.timestamp)
                        .map(|e| (e.timestamp, e.offset));
                }
            }
        }
        rows.sort_by_key(|r| r.base_offset);
        rows
    }
}

/// One segment's index files dumped without its `.log`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct IndexOnlyRow {
    /// The segment's base offset (from the file names).
    pub base_offset: Offset,
    /// Entries of its `.index`, when dumped.
    pub offset_entries: Option<usize>,
    /// The `.index`'s last entry: offset and byte position.
    pub last_indexed: Option<(Offset, Bytes)>,
    /// Entries of its `.timeindex`, when dumped.
    pub time_entries: Option<usize>,
    /// The `.timeindex`'s largest stamp and its offset.
    pub largest_indexed: Option<(Timestamp, Offset)>,
}

/// Lines a paste keeps around the output: the shell prompt and command line
/// (`$ bin/kafka-dump-log.sh --files …`, `[root@b1 ~]# kafka-run-class.sh
/// kafka.tools.DumpLogSegments …`) and `#` comments.
pub(super) fn is_paste_furniture(t: &str) -> bool {
    if t.starts_with('#') || t.starts_with("$ ") || t == "$" {
        return true;
    }
    const COMMANDS: &[&str] = &[
        "kafka-dump-log",
        "DumpLogSegments",
        "kafka-run-class",
        "kafka-storage",
    ];
    let first = t.split_whitespace().next().unwrap_or("");
    // A record line or a field never starts a command: only prompts and command names do.
    !first.ends_with(':') && !t.starts_with('|') && COMMANDS.iter().any(|c| t.contains(c))
}

/// Output Logtime knows and cannot read, with the reason said exactly.
pub(super) fn outside(t: &str) -> Option<String> {
    if t.contains("payloadsize:") {
        return Some(format!(
            "kafka 0.x output is not supported (a \"payloadsize:\" line, {:?}): dump the files again with kafka-dump-log.sh of kafka 1.0 or later, which reads their messages",
            clip(t)
        ));
    }
    let elided = t.trim_matches(|c: char| c == '[' || c == ']' || c == '(' || c == ')');
    if elided == "..." || elided == "…" || elided.ends_with(" ...") && !t.contains(':') {
        return Some(
            "the output was elided here (\"...\"): a shortened paste leaves out batches, and their offsets and sizes cannot be told; paste the whole output".into(),
        );
    }
    None
}

/// `Log starting offset: N` (`Starting offset: N` before 2.x), the first line `dumpLog` prints.
pub(super) fn starting_offset(t: &str) -> Option<i64> {
    let rest = t
        .strip_prefix("Log starting offset:")
        .or_else(|| t.strip_prefix("Starting offset:"))?;
    rest.trim().parse().ok()
}
