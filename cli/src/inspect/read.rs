//! Finding a partition's files and reading them: `.log` streamed in chunks with a progress bar,
//! index files whole, modification times and `log-start-offset-checkpoint`.

use super::{fail, Fail, Options};
use logtime_core::human::bytes;
use logtime_core::import::{
    configs_with_metadata, internal_topic, parse_dump, parse_offset_index, parse_time_index,
    segment_file, segment_file_refusal, DumpError, DumpOutput, ImportError, Imported,
    PartitionImport, SegmentFileKind, SegmentLog, SegmentReader, MAX_INDEX_BYTES,
};
use logtime_model::{Offset, Timestamp};
use std::io::{IsTerminal, Read as _, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::UNIX_EPOCH;

/// One partition's inputs.
pub(super) struct Source {
    pub(super) topic_partition: String,
    /// Segment files: path, base offset, kind, size.
    pub(super) files: Vec<(PathBuf, Offset, SegmentFileKind, u64)>,
    /// `kafka-dump-log` text files (`-`: stdin).
    pub(super) dumps: Vec<String>,
    pub(super) log_start_offset: Option<Offset>,
}

impl Source {
    pub(super) fn log_bytes(&self) -> u64 {
        self.files
            .iter()
            .filter(|f| f.2 == SegmentFileKind::Log)
            .map(|f| f.3)
            .sum()
    }
}

pub(super) fn io_err(path: &Path, e: std::io::Error) -> Fail {
    Fail(format!(
        "{}: {}",
        path.display(),
        e.to_string().to_lowercase()
    ))
}

/// The segment files of a partition folder (other files are skipped).
fn segment_files(dir: &Path) -> Result<Vec<(PathBuf, Offset, SegmentFileKind, u64)>, Fail> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).map_err(|e| io_err(dir, e))? {
        let e = e.map_err(|e| io_err(dir, e))?;
        let name = e.file_name().to_string_lossy().to_string();
        if let Some(r) = segment_file_refusal(&name) {
            return fail(format!("{}: {r}", dir.display()));
        }
        if let Some((base, kind)) = segment_file(&name) {
            let len = regular_file(&e.path())?;
            out.push((e.path(), base, kind, len));
        }
    }
    out.sort_by(|a, b| (a.1, &a.0).cmp(&(b.1, &b.0)));
    // Kafka reads `1.log` and `00000000000000000001.log` as the same segment: which one it
    // would use depends on the order it lists the folder, so neither is chosen silently.
    let mut seen = std::collections::HashMap::new();
    for (path, base, kind, _) in &out {
        if let Some(other) = seen.insert((*base, kind_name(*kind)), path) {
            return fail(format!(
                "{} and {} are both the {} file of the segment at offset {}: keep one",
                other.display(),
                path.display(),
                kind_name(*kind),
                base.0
            ));
        }
    }
    Ok(out)
}

fn kind_name(k: SegmentFileKind) -> &'static str {
    match k {
        SegmentFileKind::Log => ".log",
        SegmentFileKind::OffsetIndex => ".index",
        SegmentFileKind::TimeIndex => ".timeindex",
    }
}

/// The length of a segment file, refused when it is not a regular file (after symlinks): a
/// device (`/dev/zero`) never ends and a FIFO blocks the read forever.
pub(super) fn regular_file(path: &Path) -> Result<u64, Fail> {
    let m = std::fs::metadata(path).map_err(|e| io_err(path, e))?;
    if !m.is_file() {
        return fail(format!(
            "{}: not a regular file (a device, a FIFO or a socket), so not a segment file",
            path.display()
        ));
    }
    Ok(m.len())
}

/// `log-start-offset-checkpoint` of a broker log directory: `topic partition offset` lines.
fn checkpoint(log_dir: &Path) -> Vec<(String, Offset)> {
    let Ok(text) = std::fs::read_to_string(log_dir.join("log-start-offset-checkpoint")) else {
        return Vec::new();
    };
    text.lines()
        .skip(2)
        .filter_map(|l| {
            let mut p = l.split_whitespace();
            let (t, n, o) = (p.next()?, p.next()?, p.next()?);
            Some((format!("{t}-{n}"), Offset(o.parse().ok()?)))
        })
        .collect()
}

fn folder_name(p: &Path) -> String {
    p.canonicalize()
        .ok()
        .and_then(|c| c.file_name().map(|n| n.to_string_lossy().to_string()))
        .unwrap_or_else(|| "partition".into())
}

/// Finds what the inputs are: one partition, or (a directory of partition folders) many.
pub(super) fn sources(inputs: &[String]) -> Result<(Vec<Source>, bool), Fail> {
    if let [one] = inputs {
        let p = Path::new(one);
        if p.is_dir() {
            let files = segment_files(p)?;
            if !files.is_empty() {
                let tp = folder_name(p);
                let parent = p
                    .canonicalize()
                    .ok()
                    .and_then(|c| c.parent().map(Path::to_path_buf));
                let lso = parent
                    .map(|d| checkpoint(&d))
                    .unwrap_or_default()
                    .into_iter()
                    .find(|(t, _)| *t == tp)
                    .map(|(_, o)| o);
                return Ok((
                    vec![Source {
                        topic_partition: tp,
                        files,
                        dumps: Vec::new(),
                        log_start_offset: lso,
                    }],
                    false,
                ));
            }
            let lsos = checkpoint(p);
            let mut out = Vec::new();
            let mut entries: Vec<PathBuf> = std::fs::read_dir(p)
                .map_err(|e| io_err(p, e))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|d| d.is_dir())
                .collect();
            entries.sort();
            for d in entries {
                let files = segment_files(&d)?;
                if files.iter().any(|f| f.2 == SegmentFileKind::Log) {
                    let tp = folder_name(&d);
                    let lso = lsos.iter().find(|(t, _)| *t == tp).map(|(_, o)| *o);
                    out.push(Source {
                        topic_partition: tp,
                        files,
                        dumps: Vec::new(),
                        log_start_offset: lso,
                    });
                }
            }
            if out.is_empty() {
                return fail(format!(
                    "{one}: no segment files (.log) in it or in its sub-folders"
                ));
            }
            return Ok((out, true));
        }
    }
    let mut src = Source {
        topic_partition: String::new(),
        files: Vec::new(),
        dumps: Vec::new(),
        log_start_offset: None,
    };
    // Segment files by the folder that holds them: each folder is a partition of its own.
    let mut groups: Vec<(PathBuf, Source)> = Vec::new();
    for i in inputs {
        let p = Path::new(i);
        if i == "-" {
            src.dumps.push(i.clone());
            continue;
        }
        let meta = std::fs::metadata(p).map_err(|e| io_err(p, e))?;
        if meta.is_dir() {
            return fail(format!(
                "{i}: give one folder alone (a partition or a log directory), or files"
            ));
        }
        let name = p
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        match segment_file(&name) {
            Some((base, kind)) => {
                let parent = p.parent().filter(|x| !x.as_os_str().is_empty());
                let dir = parent
                    .unwrap_or(Path::new("."))
                    .canonicalize()
                    .unwrap_or_else(|_| parent.unwrap_or(Path::new(".")).to_path_buf());
                let at = match groups.iter().position(|(d, _)| *d == dir) {
                    Some(at) => at,
                    None => {
                        groups.push((
                            dir.clone(),
                            Source {
                                topic_partition: folder_name(&dir),
                                files: Vec::new(),
                                dumps: Vec::new(),
                                log_start_offset: None,
                            },
                        ));
                        groups.len() - 1
                    }
                };
                let files = &mut groups[at].1.files;
                if let Some(twin) = files.iter().find(|f| f.1 == base && f.2 == kind) {
                    return fail(format!(
                        "{} and {i} are the same segment file: give each partition's files once",
                        twin.0.display()
                    ));
                }
                files.push((p.to_path_buf(), base, kind, regular_file(p)?));
            }
            None => {
                if let Some(r) = segment_file_refusal(&name) {
                    return fail(r);
                }
                if let Some(why) = not_text(&name) {
                    return fail(format!("{i}: {why}"));
                }
                src.dumps.push(i.clone())
            }
        }
    }
    if !groups.is_empty() && !src.dumps.is_empty() {
        return fail("give segment files or kafka-dump-log text, not both");
    }
    if groups.is_empty() {
        src.topic_partition = "partition".into();
        return Ok((vec![src], false));
    }
    let mut out: Vec<Source> = groups.into_iter().map(|(_, s)| s).collect();
    for s in &mut out {
        s.files.sort_by(|a, b| (a.1, &a.0).cmp(&(b.1, &b.0)));
    }
    Ok((out, false))
}

/// Files people give that are neither segments nor dump text, named for what they are.
fn not_text(name: &str) -> Option<&'static str> {
    if name.ends_with(".checkpoint") {
        Some("a kraft snapshot (.checkpoint), a binary file: logtime reads segment files (.log, .index, .timeindex) and kafka-dump-log text; give the __cluster_metadata-0 folder's .log files instead")
    } else if name.ends_with(".snapshot") {
        Some("a producer-state snapshot (.snapshot), a binary file: logtime reads segment files (.log, .index, .timeindex) and kafka-dump-log text")
    } else if name.ends_with(".txnindex") {
        Some("a transaction index (.txnindex), a binary file: logtime reads segment files (.log, .index, .timeindex) and kafka-dump-log text")
    } else {
        None
    }
}

/// Progress across every `.log` byte read, drawn on stderr when it is a terminal.
pub(super) struct Progress {
    pub(super) total: u64,
    pub(super) done: AtomicU64,
    pub(super) partitions: AtomicUsize,
    pub(super) tty: bool,
}

impl Progress {
    pub(super) fn new(total: u64) -> Progress {
        Progress {
            total,
            done: AtomicU64::new(0),
            partitions: AtomicUsize::new(0),
            tty: std::io::stderr().is_terminal(),
        }
    }

    pub(super) fn draw(&self, label: &str) {
        if !self.tty || self.total == 0 {
            return;
        }
        let done = self.done.load(Ordering::Relaxed).min(self.total);
        let width = 30u64;
        let filled = done * width / self.total;
        let mut bar = String::new();
        bar.extend(std::iter::repeat_n('#', filled as usize));
        bar.extend(std::iter::repeat_n('.', (width - filled) as usize));
        eprint!(
            "\r\x1b[2K[{bar}] {:>3}% {} / {} {label}",
            done * 100 / self.total,
            bytes(done as i64),
            bytes(self.total as i64),
            label = logtime_cli::terminal::escape(label)
        );
        let _ = std::io::stderr().flush();
    }

    pub(super) fn clear(&self) {
        if self.tty && self.total > 0 {
            eprint!("\r\x1b[2K");
            let _ = std::io::stderr().flush();
        }
    }
}

pub(super) const CHUNK: usize = 1 << 20;

/// The most `kafka-dump-log` text `logtime inspect` reads (1 GiB): it is parsed whole.
pub(super) const MAX_DUMP_BYTES: u64 = 1 << 30;

/// An index file, refused before it is read when larger than [`MAX_INDEX_BYTES`] (the page's
/// limit too).
fn read_index(path: &Path) -> Result<Vec<u8>, Fail> {
    let too_large = |len: u64| {
        fail(format!(
            "{}: an index file of {len} bytes, larger than the {MAX_INDEX_BYTES} bytes ({} MiB) logtime reads",
            path.display(),
            MAX_INDEX_BYTES >> 20
        ))
    };
    let len = regular_file(path)?;
    if len > MAX_INDEX_BYTES {
        return too_large(len);
    }
    let f = std::fs::File::open(path).map_err(|e| io_err(path, e))?;
    let mut b = Vec::new();
    f.take(MAX_INDEX_BYTES + 1)
        .read_to_end(&mut b)
        .map_err(|e| io_err(path, e))?;
    if b.len() as u64 > MAX_INDEX_BYTES {
        return too_large(b.len() as u64);
    }
    Ok(b)
}

/// Reads `kafka-dump-log` text, stopping at the first NUL byte: text has none, and a device
/// or a binary file given by mistake (`/dev/zero`) is refused in its first chunk, not after
/// [`MAX_DUMP_BYTES`].
fn read_text(mut r: impl std::io::Read, out: &mut Vec<u8>) -> std::io::Result<()> {
    let mut buf = vec![0u8; CHUNK];
    loop {
        let n = r.read(&mut buf)?;
        if n == 0 {
            return Ok(());
        }
        if let Some(i) = buf[..n].iter().position(|b| *b == 0) {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!(
                    "not kafka-dump-log output: a NUL byte at byte {} (binary data; give a segment's .log by its name, like 00000000000000000000.log)",
                    out.len() + i
                ),
            ));
        }
        out.extend_from_slice(&buf[..n]);
    }
}

fn mtime(path: &Path) -> Option<Timestamp> {
    let m = std::fs::metadata(path).ok()?.modified().ok()?;
    let d = m.duration_since(UNIX_EPOCH).ok()?;
    Some(Timestamp(d.as_millis().min(i64::MAX as u128) as i64))
}

/// Streams a `.log` through the core's reader: a small one in one buffer on this thread, a large
/// one through [`super::pipeline`], where reading, CRC-32C and parsing overlap.
fn read_log(
    path: &Path,
    base: Offset,
    progress: &Progress,
    draw: bool,
) -> Result<SegmentLog, Fail> {
    let mut f = std::fs::File::open(path).map_err(|e| io_err(path, e))?;
    let len = f.metadata().map_or(u64::MAX, |m| m.len());
    if len <= 2 * CHUNK as u64 {
        // A small segment (most of a broker's partitions): one buffer of its size, no thread;
        // three zeroed 1 MiB buffers and a thread each made 1,000 small partitions 4x slower.
        let mut buf = vec![0u8; (len as usize + 1).min(CHUNK)];
        let mut reader = SegmentReader::new(base);
        loop {
            if reader.stopped() {
                skip_rest(path, &mut reader, progress)?;
                break;
            }
            let n = f.read(&mut buf).map_err(|e| io_err(path, e))?;
            if n == 0 {
                break;
            }
            reader.feed(&buf[..n]);
            progress.done.fetch_add(n as u64, Ordering::Relaxed);
        }
        return Ok(reader.finish());
    }
    super::pipeline::read_large(f, path, base, progress, draw, |r| {
        skip_rest(path, r, progress)
    })
}

/// Once an invalid batch has stopped `reader`, the rest of the file is not read as batches
/// (Kafka's recovery truncates it), so it is counted from the file's length, not read: a sparse
/// 100 GB file damaged at byte 0 ends here.
fn skip_rest(path: &Path, reader: &mut SegmentReader, progress: &Progress) -> Result<(), Fail> {
    let len = regular_file(path)?;
    let rest = len.saturating_sub(reader.bytes_read());
    reader.skip(rest);
    progress.done.fetch_add(rest, Ordering::Relaxed);
    Ok(())
}

/// Whether the partition's `cleanup.policy` is known (given, or an internal topic's) rather
/// than Kafka's default standing in for it.
fn policy_known(tp: &str, opts: &Options) -> bool {
    opts.given.iter().any(|g| g == "cleanup.policy")
        || opts
            .metadata_for(tp)
            .iter()
            .any(|(n, _)| n == "cleanup.policy")
        || internal_topic(tp).is_some_and(|t| t.configs.iter().any(|(n, _)| *n == "cleanup.policy"))
}

/// What a source read to: a partition, or (a dump of index files alone) its index files.
pub(super) enum Read {
    /// A partition.
    Partition(Box<Imported>),
    /// Index files without their `.log`: the partition's name and the files.
    IndexOnly(String, DumpOutput),
}

/// Reads a source: streams each `.log` and parses the indexes whole, or parses dump text (one
/// partition per folder its `Dumping` lines name).
pub(super) fn read_partition(
    src: &Source,
    opts: &Options,
    now: Timestamp,
    progress: &Progress,
    draw: bool,
) -> Result<Vec<Read>, Fail> {
    let lso = opts.log_start_offset.or(src.log_start_offset);
    if !src.dumps.is_empty() {
        let name = src.dumps.join(", ");
        // The dump is parsed whole, so its size is bounded (a segment file is streamed instead).
        let mut bytes = Vec::new();
        let too_large = || {
            fail(format!(
                "{name}: kafka-dump-log output larger than {MAX_DUMP_BYTES} bytes ({} MiB), the most logtime reads; give the segment files instead, which are read in chunks",
                MAX_DUMP_BYTES >> 20
            ))
        };
        for d in &src.dumps {
            let left = (MAX_DUMP_BYTES + 1).saturating_sub(bytes.len() as u64);
            if d == "-" {
                read_text(std::io::stdin().take(left), &mut bytes)
                    .map_err(|e| Fail(format!("stdin: {e}")))?;
            } else {
                let f = std::fs::File::open(d).map_err(|e| io_err(Path::new(d), e))?;
                // A regular file's length says it all before anything is read.
                if f.metadata().is_ok_and(|m| m.is_file() && m.len() >= left) {
                    return too_large();
                }
                read_text(f.take(left), &mut bytes).map_err(|e| io_err(Path::new(d), e))?;
            }
            if bytes.len() as u64 > MAX_DUMP_BYTES {
                return too_large();
            }
            bytes.push(b'\n');
        }
        let text = String::from_utf8(bytes)
            .map_err(|_| Fail(format!("{name}: not kafka-dump-log output: not UTF-8 text")))?;
        let dump = parse_dump(&text)
            .map_err(|e: DumpError| Fail(format!("{name}: not kafka-dump-log output: {e}")))?;
        let parts = dump
            .partitions()
            .map_err(|e| Fail(format!("{name}: {e}")))?;
        let mut out = Vec::with_capacity(parts.len());
        for (tp, part) in parts {
            let tp = tp.unwrap_or_else(|| src.topic_partition.clone());
            if part.index_only() {
                out.push(Read::IndexOnly(tp, part));
                continue;
            }
            let mut import = part.into_import(
                &tp,
                configs_with_metadata(&tp, &opts.config, &opts.given, &opts.metadata_for(&tp)).0,
            );
            import.policy_known(policy_known(&tp, opts));
            let imported = import
                .finish(now, lso)
                .map_err(|e| Fail(format!("{name}: {tp}: {e}")))?;
            out.push(Read::Partition(Box::new(imported)));
        }
        return Ok(out);
    }
    let tp = &src.topic_partition;
    let mut import = PartitionImport::new(
        tp,
        configs_with_metadata(tp, &opts.config, &opts.given, &opts.metadata_for(tp)).0,
    );
    import.policy_known(policy_known(tp, opts));
    for (path, base, kind, _) in &src.files {
        match kind {
            SegmentFileKind::Log => {
                let log = read_log(path, *base, progress, draw)?;
                import.add_log(*base, log, mtime(path));
            }
            SegmentFileKind::OffsetIndex => {
                let b = read_index(path)?;
                import.add_offset_index(*base, parse_offset_index(*base, &b));
            }
            SegmentFileKind::TimeIndex => {
                let b = read_index(path)?;
                import.add_time_index(*base, parse_time_index(*base, &b));
            }
        }
    }
    import
        .finish(now, lso)
        .map(|i| vec![Read::Partition(Box::new(i))])
        .map_err(|e: ImportError| Fail(format!("{}: {e}", src.topic_partition)))
}
