//! `logtime inspect`: a real partition (segment files or `kafka-dump-log` output), or every
//! partition of a broker's log directory, read through the core's import and answered as an
//! on-call engineer asks: the retention table with what pins it, future stamps and their
//! diagnosis, a lookup with its trace, and what DeleteRecords would free.
//!
//! This module does the I/O the core does not: it finds the files, streams each `.log` in 1 MiB
//! chunks (so a 1 GiB segment needs only the model's per-batch bookkeeping), reads modification
//! times and `log-start-offset-checkpoint`, draws a progress bar when stderr is a terminal, and
//! reads a broker directory's partitions on worker threads.

use logtime_core::human::{bytes, date, duration, parse_rfc3339, rfc3339};
use logtime_core::import::{
    inspect, parse_dump, parse_offset_index, parse_time_index, segment_file, to_scenario,
    DumpError, ImportError, Imported, IndexCheck, Inspection, PartitionImport, SegmentFileKind,
    SegmentReader, Summary,
};
use logtime_core::scenario::narrate;
use logtime_core::scenario::time::parse_duration;
use logtime_core::{
    Config, ConfigValue, KafkaVersion, Offset, OffsetSpec, RecordMatch, Timestamp, TraceStep,
    Verdict,
};
use serde_json::{json, Value};
use std::fmt::Write as _;
use std::io::{IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

pub(crate) const USAGE: &str = "\
    logtime inspect DIR|FILE... [--now T] [--retention-ms D] [--lookup T] [--json]
                             read a partition's segment files (a partition folder, or .log,
                             .index and .timeindex files), kafka-dump-log output (a text file,
                             or - for stdin), or a broker's log directory (every partition
                             folder in it, summarised worst first), and print the retention
                             table, future stamps, the lookup and the DeleteRecords remedy
        --now T              the broker clock (ms or RFC 3339; default: this machine's clock)
        --retention-ms D     retention.ms (ms or 7d, 12h...; default Kafka's 7 days)
        --lookup T           a ListOffsets lookup: ms, RFC 3339, earliest, latest, max-timestamp
        --kafka V            rules preset 3.6 (3.6-3.9) or 4.0 (4.x, the default)
        --config NAME=VALUE  any other topic config by its Kafka name (index.interval.bytes...)
        --log-start-offset O the log start offset (default: log-start-offset-checkpoint, or
                             the first segment's base offset)
        --export-scenario F  also write the partition as a scenario file F (what-ifs)
        --json               machine-readable output
";

/// What the command was asked.
struct Options {
    inputs: Vec<String>,
    now: Option<Timestamp>,
    lookup: Option<OffsetSpec>,
    config: Config,
    log_start_offset: Option<Offset>,
    export: Option<String>,
    json: bool,
}

/// A failure, printed as one line on stderr.
pub(crate) struct Fail(pub(crate) String);

fn fail<T>(s: impl Into<String>) -> Result<T, Fail> {
    Err(Fail(s.into()))
}

fn parse_time(s: &str) -> Result<i64, String> {
    s.parse::<i64>().or_else(|_| parse_rfc3339(s))
}

fn parse_options(args: &[String]) -> Result<Options, Fail> {
    let mut inputs = Vec::new();
    let mut now = None;
    let mut lookup = None;
    let mut version = KafkaVersion::V4_0;
    let mut sets: Vec<(String, String)> = Vec::new();
    let mut log_start_offset = None;
    let mut export = None;
    let mut json = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |name: &str| -> Result<String, Fail> {
            match it.next() {
                Some(v) => Ok(v.clone()),
                None => fail(format!("{name} needs a value")),
            }
        };
        match a.as_str() {
            "--json" => json = true,
            "--now" => {
                let v = value("--now")?;
                now = Some(Timestamp(parse_time(&v).map_err(|e| {
                    Fail(format!("--now {v:?}: {e} (use ms or RFC 3339)"))
                })?));
            }
            "--retention-ms" => {
                let v = value("--retention-ms")?;
                let ms = v
                    .parse::<i64>()
                    .or_else(|_| parse_duration(&v))
                    .map_err(|e| Fail(format!("--retention-ms {v:?}: {e}")))?;
                sets.push(("retention.ms".into(), ms.to_string()));
            }
            "--lookup" => {
                let v = value("--lookup")?;
                lookup = Some(match OffsetSpec::parse(&v) {
                    Ok(s) => s,
                    Err(_) => OffsetSpec::Timestamp(Timestamp(parse_rfc3339(&v).map_err(|e| {
                        Fail(format!(
                            "--lookup {v:?}: {e} (use ms, RFC 3339, earliest, latest or max-timestamp)"
                        ))
                    })?)),
                });
            }
            "--kafka" => {
                let v = value("--kafka")?;
                version = match v.as_str() {
                    "3.6" => KafkaVersion::V3_6,
                    "4.0" => KafkaVersion::V4_0,
                    _ => KafkaVersion::parse(&v)
                        .ok_or_else(|| Fail(format!("--kafka {v:?}: expected 3.6 or 4.0")))?,
                };
            }
            "--config" => {
                let v = value("--config")?;
                let Some((k, val)) = v.split_once('=') else {
                    return fail(format!("--config {v:?}: expected NAME=VALUE"));
                };
                sets.push((k.trim().to_string(), val.trim().to_string()));
            }
            "--log-start-offset" => {
                let v = value("--log-start-offset")?;
                let o =
                    v.parse::<i64>().ok().filter(|o| *o >= 0).ok_or_else(|| {
                        Fail(format!("--log-start-offset {v:?}: expected an offset"))
                    })?;
                log_start_offset = Some(Offset(o));
            }
            "--export-scenario" => export = Some(value("--export-scenario")?),
            s if s.starts_with("--") => return fail(format!("unknown option {s}")),
            _ => inputs.push(a.clone()),
        }
    }
    if inputs.is_empty() {
        return fail(
            "inspect takes a partition folder, segment files, dump text or a log directory",
        );
    }
    let mut config = Config::defaults(version);
    for (k, v) in sets {
        let value = match v.parse::<i64>() {
            Ok(n) => ConfigValue::Number(n),
            Err(_) => ConfigValue::Text(v.clone()),
        };
        config
            .set(&k, &value)
            .map_err(|e| Fail(format!("config {k}: {e}")))?;
    }
    Ok(Options {
        inputs,
        now,
        lookup,
        config,
        log_start_offset,
        export,
        json,
    })
}

/// One partition's inputs.
struct Source {
    topic_partition: String,
    /// Segment files: path, base offset, kind, size.
    files: Vec<(PathBuf, Offset, SegmentFileKind, u64)>,
    /// `kafka-dump-log` text files (`-`: stdin).
    dumps: Vec<String>,
    log_start_offset: Option<Offset>,
}

impl Source {
    fn log_bytes(&self) -> u64 {
        self.files
            .iter()
            .filter(|f| f.2 == SegmentFileKind::Log)
            .map(|f| f.3)
            .sum()
    }
}

fn io_err(path: &Path, e: std::io::Error) -> Fail {
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
        if let Some((base, kind)) = segment_file(&name) {
            let len = e.metadata().map_err(|x| io_err(&e.path(), x))?.len();
            out.push((e.path(), base, kind, len));
        }
    }
    out.sort_by(|a, b| (a.1, &a.0).cmp(&(b.1, &b.0)));
    Ok(out)
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
fn sources(inputs: &[String]) -> Result<(Vec<Source>, bool), Fail> {
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
                if src.topic_partition.is_empty() {
                    if let Some(parent) = p.parent().filter(|x| !x.as_os_str().is_empty()) {
                        src.topic_partition = folder_name(parent);
                    }
                }
                src.files.push((p.to_path_buf(), base, kind, meta.len()));
            }
            None => src.dumps.push(i.clone()),
        }
    }
    if !src.files.is_empty() && !src.dumps.is_empty() {
        return fail("give segment files or kafka-dump-log text, not both");
    }
    if src.topic_partition.is_empty() {
        src.topic_partition = "partition".into();
    }
    Ok((vec![src], false))
}

/// Progress across every `.log` byte read, drawn on stderr when it is a terminal.
struct Progress {
    total: u64,
    done: AtomicU64,
    partitions: AtomicUsize,
    tty: bool,
}

impl Progress {
    fn new(total: u64) -> Progress {
        Progress {
            total,
            done: AtomicU64::new(0),
            partitions: AtomicUsize::new(0),
            tty: std::io::stderr().is_terminal(),
        }
    }

    fn draw(&self, label: &str) {
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
            bytes(self.total as i64)
        );
        let _ = std::io::stderr().flush();
    }

    fn clear(&self) {
        if self.tty && self.total > 0 {
            eprint!("\r\x1b[2K");
            let _ = std::io::stderr().flush();
        }
    }
}

const CHUNK: usize = 1 << 20;

fn mtime(path: &Path) -> Option<Timestamp> {
    let m = std::fs::metadata(path).ok()?.modified().ok()?;
    let d = m.duration_since(UNIX_EPOCH).ok()?;
    Some(Timestamp(d.as_millis().min(i64::MAX as u128) as i64))
}

/// Reads one partition: streams each `.log`, parses the indexes whole.
fn read_partition(
    src: &Source,
    opts: &Options,
    now: Timestamp,
    progress: &Progress,
    draw: bool,
) -> Result<Imported, Fail> {
    let lso = opts.log_start_offset.or(src.log_start_offset);
    if !src.dumps.is_empty() {
        let mut text = String::new();
        for d in &src.dumps {
            if d == "-" {
                std::io::stdin()
                    .read_to_string(&mut text)
                    .map_err(|e| Fail(format!("stdin: {e}")))?;
            } else {
                text.push_str(&std::fs::read_to_string(d).map_err(|e| io_err(Path::new(d), e))?);
            }
            text.push('\n');
        }
        let name = src.dumps.join(", ");
        let dump = parse_dump(&text)
            .map_err(|e: DumpError| Fail(format!("{name}: not kafka-dump-log output: {e}")))?;
        let tp = dump
            .topic_partition()
            .unwrap_or_else(|| src.topic_partition.clone());
        return dump
            .into_import(&tp, opts.config.clone())
            .finish(now, lso)
            .map_err(|e| Fail(format!("{name}: {e}")));
    }
    let mut import = PartitionImport::new(&src.topic_partition, opts.config.clone());
    let mut buf = vec![0u8; CHUNK];
    let mut last_draw = Instant::now();
    for (path, base, kind, _) in &src.files {
        match kind {
            SegmentFileKind::Log => {
                let mut f = std::fs::File::open(path).map_err(|e| io_err(path, e))?;
                let mut reader = SegmentReader::new(*base);
                loop {
                    let n = f.read(&mut buf).map_err(|e| io_err(path, e))?;
                    if n == 0 {
                        break;
                    }
                    reader.feed(&buf[..n]);
                    progress.done.fetch_add(n as u64, Ordering::Relaxed);
                    if draw && last_draw.elapsed() > Duration::from_millis(100) {
                        let name = path.file_name().unwrap_or_default().to_string_lossy();
                        progress.draw(&name);
                        last_draw = Instant::now();
                    }
                }
                import.add_log(*base, reader.finish(), mtime(path));
            }
            SegmentFileKind::OffsetIndex => {
                let b = std::fs::read(path).map_err(|e| io_err(path, e))?;
                import.add_offset_index(*base, parse_offset_index(*base, &b));
            }
            SegmentFileKind::TimeIndex => {
                let b = std::fs::read(path).map_err(|e| io_err(path, e))?;
                import.add_time_index(*base, parse_time_index(*base, &b));
            }
        }
    }
    import
        .finish(now, lso)
        .map_err(|e: ImportError| Fail(format!("{}: {e}", src.topic_partition)))
}

/// Runs the command; `Ok` holds what to print on stdout.
pub(crate) fn run(args: &[String]) -> Result<String, Fail> {
    let opts = parse_options(args)?;
    let (sources, many) = sources(&opts.inputs)?;
    let (now, clock_given) = match opts.now {
        Some(t) => (t, true),
        None => {
            let ms = SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map(|d| d.as_millis() as i64)
                .unwrap_or(0);
            (Timestamp(ms), false)
        }
    };
    if many {
        return run_many(&opts, sources, now, clock_given);
    }
    let src = &sources[0];
    let progress = Progress::new(src.log_bytes());
    let imported = read_partition(src, &opts, now, &progress, true);
    progress.clear();
    let imported = imported?;
    let report = inspect(&imported, now, opts.lookup);
    if let Some(path) = &opts.export {
        let title = format!("{} imported", imported.partition.topic_partition());
        let text = serde_json::to_string_pretty(&to_scenario(&imported.partition, &title))
            .expect("scenarios serialise");
        std::fs::write(path, text + "\n").map_err(|e| io_err(Path::new(path), e))?;
    }
    if opts.json {
        Ok(
            serde_json::to_string_pretty(&json_single(&imported, &report, clock_given))
                .expect("reports serialise")
                + "\n",
        )
    } else {
        Ok(text_single(
            &imported,
            &report,
            clock_given,
            opts.export.as_deref(),
        ))
    }
}

fn clock_line(now: Timestamp, given: bool) -> String {
    if given {
        format!("clock: {} (--now)", rfc3339(now.0))
    } else {
        format!(
            "clock: {} (this machine's clock; pass --now T to inspect at another instant)",
            rfc3339(now.0)
        )
    }
}

fn offsets(from: Offset, to: Offset) -> String {
    if to.0 <= from.0 {
        format!("{from} (empty)")
    } else {
        format!("{from}–{}", to.0 - 1)
    }
}

fn verdict_cell(v: &Verdict) -> String {
    match v {
        Verdict::Deleted { pass } => format!("deleted ({})", narrate::pass_name(*pass)),
        Verdict::NotOldEnough { future: true, .. } => "kept: stamped in the future".into(),
        // Deletable once `now - largest > retention.ms`: strictly after largest + retention.ms.
        Verdict::NotOldEnough { eligible_at, .. } => {
            format!(
                "kept: old enough after {}",
                date(eligible_at.0.saturating_sub(1))
            )
        }
        Verdict::KeptBehind { expired: true, .. } => "expired, pinned".into(),
        Verdict::KeptBehind { expired: false, .. } => "kept (behind)".into(),
        Verdict::BeyondHighWatermark { .. } => "kept: above high watermark".into(),
        Verdict::EmptyActive => "kept: empty active".into(),
        Verdict::NoTimeLimit => "kept: retention.ms -1".into(),
        Verdict::CompactOnly => "kept: compact only".into(),
    }
}

fn table(rows: &[Vec<String>], right: &[bool]) -> String {
    let n = rows[0].len();
    let widths: Vec<usize> = (0..n)
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    let mut s = String::new();
    for r in rows {
        let mut line = String::new();
        for (c, cell) in r.iter().enumerate() {
            let pad = widths[c] - cell.chars().count();
            if c > 0 {
                line.push_str("  ");
            }
            if right[c] {
                line.push_str(&" ".repeat(pad));
                line.push_str(cell);
            } else {
                line.push_str(cell);
                if c + 1 < n {
                    line.push_str(&" ".repeat(pad));
                }
            }
        }
        s.push_str(line.trim_end());
        s.push('\n');
    }
    s
}

fn age(ms: i64) -> String {
    if ms < 0 {
        format!("in {}", duration(-ms))
    } else {
        duration(ms)
    }
}

fn text_single(
    imported: &Imported,
    r: &Inspection,
    clock_given: bool,
    export: Option<&str>,
) -> String {
    let p = &imported.partition;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{}: {} segment{}, {}, offsets {} (log start offset {}, log end offset {})",
        p.topic_partition(),
        p.segments().len(),
        if p.segments().len() == 1 { "" } else { "s" },
        bytes(p.size().0),
        offsets(p.segments()[0].base_offset(), p.log_end_offset()),
        p.log_start_offset(),
        p.log_end_offset()
    );
    let _ = writeln!(s, "{}", clock_line(r.now, clock_given));
    let _ = writeln!(
        s,
        "rules: {}; retention.ms {}{}",
        p.config().version.label(),
        r.retention_ms,
        if r.retention_ms >= 0 {
            format!(" ({})", duration(r.retention_ms))
        } else {
            " (no time limit)".into()
        }
    );
    s.push('\n');
    let mut rows = vec![vec![
        "segment".to_string(),
        "offsets".into(),
        "size".into(),
        "largest timestamp".into(),
        "age".into(),
        "verdict".into(),
        "pinned by".into(),
        "deletable from".into(),
    ]];
    for row in &r.rows {
        rows.push(vec![
            row.base_offset.to_string(),
            offsets(row.base_offset, row.next_offset),
            bytes(row.size_bytes.0),
            format!(
                "{}{}",
                rfc3339(row.largest_timestamp.0),
                if row.record_time { "" } else { " (mtime)" }
            ),
            age(row.age_ms),
            verdict_cell(&row.verdict),
            row.pinned_by.map(|b| b.to_string()).unwrap_or_default(),
            match row.deletable_from {
                Some(t) if t <= r.now => "now".into(),
                Some(t) => rfc3339(t.0),
                None => "-".into(),
            },
        ]);
    }
    s.push_str(&table(
        &rows,
        &[true, false, true, false, true, false, true, false],
    ));
    if r.rows.iter().any(|x| !x.record_time) {
        s.push_str("(mtime): no record in the segment has a timestamp; Kafka uses the .log file's modification time\n");
    }
    let deleted: Vec<String> = r
        .retention
        .deleted
        .iter()
        .map(|d| d.base_offset.to_string())
        .collect();
    if !deleted.is_empty() {
        let _ = writeln!(
            s,
            "\nA retention check now deletes segment{} {} ({}).",
            if deleted.len() == 1 { "" } else { "s" },
            deleted.join(", "),
            bytes(r.retention.deleted.iter().map(|d| d.size.0).sum())
        );
    }
    for f in &r.future {
        let _ = write!(
            s,
            "\nFuture timestamp: segment {} has largest timestamp {}, {} ahead of the clock",
            f.segment,
            rfc3339(f.largest_timestamp.0),
            duration(f.ahead_ms)
        );
        if let Some(d) = &f.diagnosis {
            let _ = write!(s, " ({})", narrate::diagnosis(d));
        }
        s.push('.');
        if let Some(e) = f.eligible_at {
            let _ = write!(s, " Retention cannot delete it before {}.", rfc3339(e.0));
        }
        if !f.pins.is_empty() {
            let list: Vec<String> = f.pins.iter().map(|o| o.to_string()).collect();
            let _ = write!(
                s,
                " It pins {} expired segment{} behind it ({}: {}).",
                f.pins.len(),
                if f.pins.len() == 1 { "" } else { "s" },
                list.join(", "),
                bytes(f.pinned_bytes.0)
            );
        }
        s.push('\n');
    }
    if let Some(d) = &r.delete_records {
        s.push('\n');
        match &d.refused {
            Some(e) => {
                let _ = writeln!(
                    s,
                    "DeleteRecords to offset {} would be refused: {e}",
                    d.offset
                );
            }
            None => {
                let list: Vec<String> = d
                    .deleted
                    .iter()
                    .map(|x| x.base_offset.to_string())
                    .collect();
                let _ = writeln!(
                    s,
                    "DeleteRecords to offset {} (the end of pinning segment {}) would let the next retention check delete segment{} {} ({}); the log start offset becomes {}.",
                    d.offset,
                    d.pinning_segment,
                    if list.len() == 1 { "" } else { "s" },
                    list.join(", "),
                    bytes(d.freed_bytes.0),
                    d.log_start_offset
                );
            }
        }
    }
    if let Some(l) = &r.lookup {
        s.push('\n');
        match &l.result {
            Err(e) => {
                let _ = writeln!(s, "Lookup refused: {e}");
            }
            Ok(lk) => {
                let target = match lk.spec {
                    OffsetSpec::Timestamp(t) => format!("{} ({t})", rfc3339(t.0)),
                    other => other.to_string(),
                };
                let answer = if lk.offset.0 < 0 {
                    "-1 (nothing qualifies)".to_string()
                } else if lk.timestamp.0 >= 0 {
                    format!(
                        "offset {} (timestamp {})",
                        lk.offset,
                        rfc3339(lk.timestamp.0)
                    )
                } else {
                    format!("offset {}", lk.offset)
                };
                let _ = writeln!(s, "Lookup {target} → {answer}");
                for step in &lk.trace {
                    let _ = writeln!(s, "  {}", trace_line(step));
                }
                if let Some(c) = &l.caveat {
                    let _ = writeln!(s, "  caveat: {c}");
                }
            }
        }
    }
    let notes = import_notes(imported);
    if !notes.is_empty() {
        s.push_str("\nImport notes:\n");
        for n in notes {
            let _ = writeln!(s, "  {n}");
        }
    }
    if let Some(path) = export {
        let _ = writeln!(
            s,
            "\nScenario written to {path} (edit its steps for what-ifs; logtime run replays it)."
        );
    }
    s
}

/// A timestamp for people: RFC 3339, or `-1 (none)`.
fn ts(t: Timestamp) -> String {
    if t.0 < 0 {
        format!("{} (none)", t.0)
    } else {
        rfc3339(t.0)
    }
}

fn trace_line(step: &TraceStep) -> String {
    match step {
        TraceStep::SegmentPassed {
            segment,
            largest_timestamp,
            ..
        } => format!(
            "segment {segment}: largest timestamp {} is before the target, passed",
            rfc3339(largest_timestamp.0)
        ),
        TraceStep::SegmentChosen {
            segment,
            largest_timestamp,
            record_time,
        } => format!(
            "segment {segment}: largest timestamp {}{} reaches the target: searched (only this segment is)",
            rfc3339(largest_timestamp.0),
            if *record_time { "" } else { " (mtime)" }
        ),
        TraceStep::TimeIndexSearch {
            probes,
            found_timestamp,
            found_offset,
            ..
        } => format!(
            "time index: {} entr{} read, largest entry at or before the target: ({}, {found_offset})",
            probes.len(),
            if probes.len() == 1 { "y" } else { "ies" },
            ts(*found_timestamp)
        ),
        TraceStep::OffsetIndexSearch {
            target,
            probes,
            found_offset,
            position,
            ..
        } => format!(
            "offset index: {} entr{} read for offset {target}: scan from byte {position} (entry offset {found_offset})",
            probes.len(),
            if probes.len() == 1 { "y" } else { "ies" }
        ),
        TraceStep::BatchSkipped {
            base_offset,
            last_offset,
            position,
            max_timestamp,
        } => format!(
            "batch {base_offset}–{last_offset} at byte {position}: max timestamp {} does not reach the target, skipped",
            ts(*max_timestamp)
        ),
        TraceStep::BatchOpened {
            base_offset,
            last_offset,
            position,
            max_timestamp,
        } => format!(
            "batch {base_offset}–{last_offset} at byte {position}: max timestamp {} reaches the target, opened",
            ts(*max_timestamp)
        ),
        TraceStep::RecordScanned {
            offset,
            timestamp,
            result,
        } => format!(
            "record {offset}: timestamp {}: {}",
            ts(*timestamp),
            match result {
                RecordMatch::Match => "the answer",
                RecordMatch::Earlier => "before the target",
                RecordMatch::BelowLogStart => "below the log start offset",
            }
        ),
        TraceStep::MaxTimestampSegment {
            segment,
            max_timestamp,
            shallow_offset,
        } => format!(
            "segment {segment} holds the largest timestamp {} (batch ending at {shallow_offset})",
            rfc3339(max_timestamp.0)
        ),
        TraceStep::NoSegment => "no segment's largest timestamp reaches the target".into(),
        TraceStep::NotInSegment => {
            "no record in that segment qualifies, and later segments are not searched".into()
        }
        TraceStep::Special { spec } => format!("{spec}: read off the partition"),
        TraceStep::HighWatermarkFilter {
            offset,
            high_watermark,
        } => format!("offset {offset} is at or above the high watermark {high_watermark}: -1"),
    }
}

fn index_note(kind: &str, check: &IndexCheck) -> Option<String> {
    match check {
        IndexCheck::Matches { .. } => None,
        IndexCheck::Missing => Some(format!("no {kind} file: Kafka's rules rebuilt it")),
        IndexCheck::Differs {
            slot,
            on_disk,
            expected,
            interval_range,
            used,
            unusable,
        } => {
            let e = |x: &Option<(i64, i64)>| {
                x.map_or("nothing".to_string(), |(a, b)| format!("({a}, {b})"))
            };
            let mut s = format!(
                "{kind} differs from Kafka's rules with this index.interval.bytes at entry {slot}: {} on disk, {} expected",
                e(on_disk),
                e(expected)
            );
            if let Some((lo, hi)) = interval_range {
                let _ = write!(s, "; the file matches index.interval.bytes {lo}–{hi} (pass --config index.interval.bytes=N)");
            }
            if *used {
                s.push_str("; the on-disk entries are used");
            } else if let Some(u) = unusable {
                let _ = write!(
                    s,
                    "; not consistent with the batches ({u}), so Kafka's rules are used"
                );
            }
            Some(s)
        }
    }
}

/// When every index that differs from the rules is explained by one other
/// `index.interval.bytes` range, one note says so instead of one per file.
fn common_interval(imported: &Imported) -> Option<(i64, i64)> {
    let mut range: Option<(i64, i64)> = None;
    for seg in &imported.segments {
        for check in [&seg.offset_index, &seg.time_index] {
            match check {
                IndexCheck::Differs {
                    interval_range: Some((lo, hi)),
                    ..
                } => {
                    let (a, b) = range.unwrap_or((*lo, *hi));
                    range = Some((a.max(*lo), b.min(*hi)));
                }
                IndexCheck::Differs { .. } => return None,
                _ => {}
            }
        }
    }
    range.filter(|(lo, hi)| lo <= hi)
}

fn import_notes(imported: &Imported) -> Vec<String> {
    let mut out = Vec::new();
    let mut assumed = 0;
    let common = common_interval(imported);
    if let Some((lo, hi)) = common {
        out.push(format!(
            "the on-disk indexes are what Kafka's rules give with index.interval.bytes {} (not the {} assumed here), and are used as they are (pass --config index.interval.bytes=N to match)",
            if lo == hi { lo.to_string() } else { format!("between {lo} and {hi}") },
            imported.partition.config().topic.index_interval_bytes
        ));
    }
    for seg in &imported.segments {
        let b = seg.base_offset;
        if let Some(d) = &seg.damage {
            out.push(format!(
                "segment {b}: {d}; Kafka's recovery keeps the first {} of {} bytes",
                seg.valid_bytes, seg.file_bytes
            ));
        }
        for u in &seg.unexpanded {
            out.push(format!(
                "segment {b}: batch {}–{} at byte {}: {}",
                u.base_offset, u.last_offset, u.position, u.why
            ));
        }
        if common.is_none() {
            if let Some(n) = index_note(".index", &seg.offset_index) {
                out.push(format!("segment {b}: {n}"));
            }
            if let Some(n) = index_note(".timeindex", &seg.time_index) {
                out.push(format!("segment {b}: {n}"));
            }
        }
        for (k, n) in &seg.index_notes {
            out.push(format!("segment {b}: {}: {n}", k.suffix()));
        }
        if seg.last_modified_assumed {
            assumed += 1;
        }
        if seg.formats.by_magic[0] + seg.formats.by_magic[1] > 0 {
            out.push(format!(
                "segment {b}: {} v0 and {} v1 message batches (read-only formats)",
                seg.formats.by_magic[0], seg.formats.by_magic[1]
            ));
        }
    }
    if assumed > 0 {
        out.push(format!(
            "{assumed} segment{} without a known .log modification time: the clock stands in for it",
            if assumed == 1 { "" } else { "s" }
        ));
    }
    out
}

fn json_single(imported: &Imported, r: &Inspection, clock_given: bool) -> Value {
    let p = &imported.partition;
    let lookup = r.lookup.as_ref().map(|l| match &l.result {
        Ok(lk) => json!({
            "spec": lk.spec,
            "offset": lk.offset,
            "timestamp": lk.timestamp,
            "trace": lk.trace,
            "caveat": l.caveat,
        }),
        Err(e) => json!({"error_code": e.error_code, "error_message": e.message}),
    });
    json!({
        "topic_partition": p.topic_partition(),
        "now": r.now,
        "clock": if clock_given { "given" } else { "system" },
        "kafka": p.config().version.key(),
        "retention_ms": r.retention_ms,
        "state": p.state(),
        "verdicts": r.rows,
        "retention": r.retention,
        "future": r.future,
        "lookup": lookup,
        "delete_records": r.delete_records,
        "import": imported.segments,
        "notes": import_notes(imported),
    })
}

/// One partition of a log directory: its summary, or why it could not be read.
type Row = Result<Summary, (String, String)>;

fn run_many(
    opts: &Options,
    sources: Vec<Source>,
    now: Timestamp,
    clock_given: bool,
) -> Result<String, Fail> {
    let total: u64 = sources.iter().map(Source::log_bytes).sum();
    let progress = Progress::new(total);
    let next = AtomicUsize::new(0);
    let workers = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .min(sources.len())
        .max(1);
    let mut rows: Vec<(usize, Row)> = Vec::with_capacity(sources.len());
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                scope.spawn(|| {
                    let mut out = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(src) = sources.get(i) else { break };
                        let row = match read_partition(src, opts, now, &progress, false) {
                            Ok(imp) => Ok(inspect(&imp, now, None).summary(&src.topic_partition)),
                            Err(Fail(e)) => Err((src.topic_partition.clone(), e)),
                        };
                        progress.partitions.fetch_add(1, Ordering::Relaxed);
                        out.push((i, row));
                    }
                    out
                })
            })
            .collect();
        while handles.iter().any(|h| !h.is_finished()) {
            progress.draw(&format!(
                "{}/{} partitions",
                progress.partitions.load(Ordering::Relaxed),
                sources.len()
            ));
            std::thread::sleep(Duration::from_millis(100));
        }
        for h in handles {
            rows.extend(h.join().expect("inspect workers do not panic"));
        }
    });
    progress.clear();
    rows.sort_by_key(|(i, _)| *i);
    let mut ok: Vec<Summary> = Vec::new();
    let mut errors = Vec::new();
    for (_, r) in rows {
        match r {
            Ok(s) => ok.push(s),
            Err(e) => errors.push(e),
        }
    }
    // Worst first: the most bytes pinned, then the most a DeleteRecords would free, then the
    // oldest data.
    ok.sort_by(|a, b| {
        (
            b.pinned_bytes,
            b.would_free,
            a.oldest.unwrap_or(Timestamp(i64::MAX)),
            &a.topic_partition,
        )
            .cmp(&(
                a.pinned_bytes,
                a.would_free,
                b.oldest.unwrap_or(Timestamp(i64::MAX)),
                &b.topic_partition,
            ))
    });
    if opts.json {
        let v = json!({
            "now": now,
            "clock": if clock_given { "given" } else { "system" },
            "kafka": opts.config.version.key(),
            "retention_ms": opts.config.topic.retention_ms,
            "partitions": ok,
            "errors": errors.iter().map(|(t, e)| json!({"topic_partition": t, "error": e})).collect::<Vec<_>>(),
        });
        return Ok(serde_json::to_string_pretty(&v).expect("summaries serialise") + "\n");
    }
    let mut s = String::new();
    let pinned = ok.iter().filter(|x| x.pinned_by.is_some()).count();
    let _ =
        writeln!(
        s,
        "{} partition{}, {} with expired segments pinned behind a younger one (retention.ms {})",
        ok.len() + errors.len(),
        if ok.len() + errors.len() == 1 { "" } else { "s" },
        pinned,
        duration(opts.config.topic.retention_ms)
    );
    let _ = writeln!(s, "{}\n", clock_line(now, clock_given));
    let mut rows = vec![vec![
        "topic-partition".to_string(),
        "segments".into(),
        "size".into(),
        "oldest stamp".into(),
        "newest stamp".into(),
        "pinned by".into(),
        "pinned".into(),
        "DeleteRecords frees".into(),
        "retention deletes now".into(),
    ]];
    let when = |t: Option<Timestamp>| t.map_or("-".to_string(), |t| rfc3339(t.0));
    for x in &ok {
        rows.push(vec![
            x.topic_partition.clone(),
            x.segments.to_string(),
            bytes(x.size_bytes.0),
            when(x.oldest),
            when(x.newest),
            x.pinned_by.map_or("-".into(), |b| format!("segment {b}")),
            if x.pinned_by.is_some() {
                bytes(x.pinned_bytes.0)
            } else {
                "-".into()
            },
            if x.pinned_by.is_some() {
                bytes(x.would_free.0)
            } else {
                "-".into()
            },
            if x.deletable_now.0 > 0 {
                bytes(x.deletable_now.0)
            } else {
                "-".into()
            },
        ]);
    }
    s.push_str(&table(
        &rows,
        &[false, true, true, false, false, false, true, true, true],
    ));
    for (t, e) in &errors {
        let _ = writeln!(s, "{t}: not read: {e}");
    }
    Ok(s)
}
