//! Importing a real partition, without I/O: which of the dropped files make the
//! partition and in what order they are read ([`plan`]), a [`Job`] fed chunk by chunk (the page
//! reads `Blob` slices and yields to the browser between them, so a large segment shows progress
//! and can be cancelled), and the result as a scenario ([`Done`]) that the explorer replays like
//! any other. Every Kafka fact comes from `logtime_core::import`; this module only routes bytes.

use logtime_core::import::{
    self, configs_with_metadata, meta_properties, parse_dump, parse_offset_index, parse_time_index,
    segment_file, words, DumpOutput, DumpParser, Imported, MetadataConfigs, NotExpanded,
    PartitionImport, SegmentFileKind, SegmentReader,
};
use logtime_model::{Config, Offset, Timestamp};

/// Bytes read per slice of a `.log` or dump text.
pub const CHUNK: u64 = 1 << 20;

/// Index files are read whole, up to core's one limit for the command line and the page.
pub use logtime_core::import::MAX_INDEX_BYTES;

/// How the notes say to set `index.interval.bytes` here.
const INTERVAL_HINT: &str = "set it in the config panel";

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
const METADATA_FOLDER: &str = "__cluster_metadata-0";

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

/// The file being read.
enum Current {
    None,
    Log(Offset, Box<SegmentReader>, Option<Timestamp>),
    Index(Offset, SegmentFileKind, Vec<u8>),
    /// The parser, the bytes of an unfinished line, and lines read.
    Dump(Box<DumpParser>, Vec<u8>, usize),
    /// A metadata log segment or `meta.properties`, read whole (bounded by the plan).
    Whole(Kind, Vec<u8>),
}

/// An import in progress: [`Job::begin`] a file, [`Job::feed`] its bytes in order, [`Job::end`]
/// it, then [`Job::finish`].
pub struct Job {
    files: Vec<Picked>,
    plan: Plan,
    /// Made at the first segment file, once the metadata log (read first) has given the configs.
    import: Option<PartitionImport>,
    metadata: Option<MetadataConfigs>,
    node: Option<String>,
    /// The configs the metadata log gave, in core's words, once the import has used them.
    configs: Option<String>,
    dump: DumpOutput,
    config: Config,
    current: Current,
    name: String,
    done: u64,
}

/// An imported partition, ready to explore.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Done {
    /// The partition as a scenario's JSON (`docs/scenarios.md`, the `log` key).
    pub scenario: String,
    /// What the import found, one sentence each.
    pub notes: Vec<String>,
    /// Files left aside.
    pub skipped: Vec<String>,
    /// Segments read.
    pub segments: usize,
    /// Bytes read.
    pub bytes: u64,
    /// When a metadata log was read: the configs it gave the topic, in core's words.
    pub configs: Option<String>,
}

impl Job {
    /// A job reading `files` as `plan` says, under `config` (its `index.interval.bytes` is what
    /// the on-disk indexes are compared with).
    pub fn new(files: Vec<Picked>, plan: Plan, config: Config) -> Job {
        Job {
            files,
            plan,
            import: None,
            metadata: None,
            node: None,
            configs: None,
            dump: DumpOutput::default(),
            config,
            current: Current::None,
            name: String::new(),
            done: 0,
        }
    }

    /// The plan.
    pub fn plan(&self) -> &Plan {
        &self.plan
    }

    /// The file of read `n`.
    pub fn file(&self, n: usize) -> &Picked {
        &self.files[self.plan.reads[n].0]
    }

    /// `(bytes read, bytes in all)`.
    pub fn progress(&self) -> (u64, u64) {
        (self.done, self.plan.total)
    }

    /// Starts read `n` of the plan.
    pub fn begin(&mut self, n: usize) {
        let (i, kind) = self.plan.reads[n];
        let f = &self.files[i];
        self.name = f.name.clone();
        self.current = match kind {
            Kind::Segment(base, SegmentFileKind::Log) => Current::Log(
                base,
                Box::new(SegmentReader::new(base)),
                f.modified.map(Timestamp),
            ),
            Kind::Segment(base, k) => Current::Index(base, k, Vec::new()),
            Kind::Dump => Current::Dump(Box::default(), Vec::new(), 0),
            k @ (Kind::Metadata | Kind::MetaProperties) => Current::Whole(k, Vec::new()),
        };
    }

    /// The partition being assembled.
    fn import(&mut self) -> &mut PartitionImport {
        let import = match self.import.take() {
            Some(i) => i,
            None => self.new_import(),
        };
        self.import.insert(import)
    }

    /// A partition under the metadata log's configs for the topic, when one was read.
    fn new_import(&mut self) -> PartitionImport {
        let tp = &self.plan.topic_partition;
        let mut config = self.config.clone();
        let mut known = false;
        if let Some(m) = &self.metadata {
            let list = m.partition_configs(tp, self.node.as_deref());
            known = list.iter().any(|(n, _)| n == "cleanup.policy");
            let (c, in_force) = configs_with_metadata(tp, &config, &[], &list);
            config = c;
            self.configs = Some(words::metadata_configs(&in_force));
        }
        let mut import = PartitionImport::new(tp, config);
        import.policy_known(known);
        import
    }

    /// Feeds the next bytes of the current file.
    pub fn feed(&mut self, chunk: &[u8]) -> Result<(), String> {
        self.done += chunk.len() as u64;
        match &mut self.current {
            Current::None => {}
            Current::Log(_, r, _) => r.feed(chunk),
            Current::Index(_, _, buf) | Current::Whole(_, buf) => buf.extend_from_slice(chunk),
            Current::Dump(parser, pending, lines) => {
                pending.extend_from_slice(chunk);
                let mut start = 0;
                while let Some(n) = pending[start..].iter().position(|b| *b == b'\n') {
                    let line = &pending[start..start + n];
                    start += n + 1;
                    *lines += 1;
                    dump_line(parser, line, *lines, &self.name)?;
                }
                pending.drain(..start);
            }
        }
        Ok(())
    }

    /// Ends the current file.
    pub fn end(&mut self) -> Result<(), String> {
        match std::mem::replace(&mut self.current, Current::None) {
            Current::None => {}
            Current::Log(base, r, modified) => self.import().add_log(base, r.finish(), modified),
            Current::Index(base, SegmentFileKind::TimeIndex, b) => self
                .import()
                .add_time_index(base, parse_time_index(base, &b)),
            Current::Index(base, _, b) => self
                .import()
                .add_offset_index(base, parse_offset_index(base, &b)),
            Current::Whole(Kind::MetaProperties, b) => {
                self.node = meta_properties(&String::from_utf8_lossy(&b)).1;
            }
            Current::Whole(_, b) => {
                let name = format!("{METADATA_FOLDER}/{}", self.name);
                self.metadata
                    .get_or_insert_with(MetadataConfigs::default)
                    .read_log(&b)
                    .map_err(|e| format!("{name}: not a kraft metadata log: {e}"))?;
            }
            Current::Dump(mut parser, rest, lines) => {
                if !rest.is_empty() {
                    dump_line(&mut parser, &rest, lines + 1, &self.name)?;
                }
                let out = parser.finish().map_err(|e| not_dump(&self.name, &e))?;
                self.dump.files.extend(out.files);
            }
        }
        Ok(())
    }

    /// The partition at broker time `now`, as a scenario.
    pub fn finish(self, now: Timestamp) -> Result<Done, String> {
        let segments = self
            .plan
            .reads
            .iter()
            .filter(|(_, k)| matches!(k, Kind::Segment(_, SegmentFileKind::Log)))
            .count();
        let (import, segments) = if self.dump.files.is_empty() {
            let import = match self.import {
                Some(i) => i,
                None => PartitionImport::new(&self.plan.topic_partition, self.config),
            };
            (import, segments)
        } else {
            let tp = self
                .dump
                .topic_partition()
                .unwrap_or_else(|| "partition".into());
            let n = self.dump.files.len();
            (self.dump.into_import(&tp, self.config), n)
        };
        let imported = import.finish(now, None).map_err(|e| e.to_string())?;
        let mut done = done(&imported, self.done);
        done.skipped = self.plan.skipped;
        done.segments = segments.max(done.segments);
        done.configs = self.configs;
        Ok(done)
    }
}

fn not_dump(name: &str, e: &impl std::fmt::Display) -> String {
    format!("{name}: not kafka-dump-log output: {e}")
}

fn dump_line(
    parser: &mut DumpParser,
    line: &[u8],
    number: usize,
    name: &str,
) -> Result<(), String> {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    match std::str::from_utf8(line) {
        Ok(text) => parser.feed_line(text).map_err(|e| not_dump(name, &e)),
        Err(e) => Err(format!(
            "{name}: not kafka-dump-log output: line {} is not text (byte {} of the line is not UTF-8); drop segment files under their own names (NNNNNNNNNNNNNNNNNNNN.log)",
            number,
            e.valid_up_to() + 1
        )),
    }
}

/// Pasted `kafka-dump-log` text, imported at broker time `now`.
pub fn paste(text: &str, config: Config, now: Timestamp) -> Result<Done, String> {
    if text.trim().is_empty() {
        return Err("paste the output of kafka-dump-log.sh --files … first".into());
    }
    let dump = parse_dump(text).map_err(|e| not_dump("the pasted text", &e))?;
    let tp = dump.topic_partition().unwrap_or_else(|| "partition".into());
    let imported = dump
        .into_import(&tp, config)
        .finish(now, None)
        .map_err(|e| e.to_string())?;
    Ok(done(&imported, text.len() as u64))
}

fn done(imported: &Imported, bytes: u64) -> Done {
    let p = &imported.partition;
    let title = format!("{} (imported)", p.topic_partition());
    let mut scenario = import::to_scenario(p, &title);
    if let Some(m) = scenario.as_object_mut() {
        m.insert(
            "description".into(),
            format!(
                "A real partition read in this browser: {} segment{}, offsets {} to {}.",
                p.segments().len(),
                if p.segments().len() == 1 { "" } else { "s" },
                p.log_start_offset(),
                p.log_end_offset().0 - 1
            )
            .into(),
        );
    }
    let mut notes = words::import_notes(imported, INTERVAL_HINT);
    let codec = imported
        .unexpanded()
        .any(|u| matches!(u.why, NotExpanded::CodecNotCompiled { .. }));
    if codec {
        notes.insert(0, CODEC_NOTE.to_string());
    }
    Done {
        scenario: scenario.to_string(),
        notes,
        skipped: Vec::new(),
        segments: p.segments().len(),
        bytes,
        configs: None,
    }
}

/// Said when compressed batches were read at the batch level only.
pub const CODEC_NOTE: &str = "Compressed batches are not expanded on this page (the codecs are left out to keep it light): their offsets, sizes and largest timestamps come from the batch header, and each record stands at the batch's largest timestamp, so a lookup that lands in one names the batch, not the exact record. `logtime inspect` expands them.";

#[cfg(test)]
mod tests {
    use super::*;
    use logtime_model::KafkaVersion;
    use serde_json::Value;
    use std::path::{Path, PathBuf};

    fn fixtures() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/import")
    }

    /// The files of a folder as a browser gives a dropped folder: paths under its name.
    fn folder_files(dir: &Path) -> (Vec<Picked>, Vec<Vec<u8>>) {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
            .collect();
        names.sort();
        let top = dir.file_name().unwrap().to_string_lossy().to_string();
        let bytes: Vec<Vec<u8>> = names
            .iter()
            .map(|n| std::fs::read(dir.join(n)).unwrap())
            .collect();
        let picked = names
            .iter()
            .zip(&bytes)
            .map(|(n, b)| Picked {
                name: n.clone(),
                path: format!("{top}/{n}"),
                size: b.len() as u64,
                modified: None,
            })
            .collect();
        (picked, bytes)
    }

    /// Runs a job over `files`, `chunk` bytes at a time, as the page does.
    fn run(files: Vec<Picked>, bytes: &[Vec<u8>], chunk: usize, now: i64) -> Result<Done, String> {
        let plan = plan(&files)?;
        let mut job = Job::new(files, plan, Config::defaults(KafkaVersion::V3_6));
        for n in 0..job.plan().reads.len() {
            let i = job.plan().reads[n].0;
            job.begin(n);
            for c in bytes[i].chunks(chunk) {
                job.feed(c)?;
            }
            job.end()?;
        }
        let (done, total) = job.progress();
        assert_eq!(done, total);
        job.finish(Timestamp(now))
    }

    fn report(name: &str) -> Value {
        let text = std::fs::read_to_string(fixtures().join("kafka").join(name).join("report.json"));
        serde_json::from_str(&text.unwrap()).unwrap()
    }

    /// The imported scenario's partition against what Kafka reported at the end.
    fn assert_kafka_state(done: &Done, report: &Value, what: &str) {
        let sc = logtime_core::scenario::parse(&done.scenario).unwrap();
        let p = sc.try_partition().unwrap();
        let fin = &report["final"];
        assert_eq!(
            p.log_start_offset().0,
            fin["log_start_offset"].as_i64().unwrap(),
            "{what}"
        );
        assert_eq!(
            p.log_end_offset().0,
            fin["log_end_offset"].as_i64().unwrap(),
            "{what}"
        );
        let want = fin["segments"].as_array().unwrap();
        assert_eq!(p.segments().len(), want.len(), "{what}");
        for (s, w) in p.segments().iter().zip(want) {
            assert_eq!(
                s.base_offset().0,
                w["base_offset"].as_i64().unwrap(),
                "{what}"
            );
            assert_eq!(
                s.next_offset().0,
                w["next_offset"].as_i64().unwrap(),
                "{what}"
            );
            assert_eq!(s.size().0, w["size_bytes"].as_i64().unwrap(), "{what}");
            assert_eq!(
                s.largest_timestamp().0,
                w["largest_timestamp"].as_i64().unwrap(),
                "{what}"
            );
            let oi: Vec<Value> = s
                .offset_index()
                .entries()
                .map(|(o, pos)| serde_json::json!([o, pos]))
                .collect();
            assert_eq!(Value::Array(oi), w["offset_index"], "{what}");
        }
    }

    #[test]
    fn a_dropped_partition_folder_in_any_chunk_size_is_what_kafka_reported() {
        for name in [
            "pinned-retention",
            "lookup-out-of-order",
            "far-offsets",
            "log-append-time",
        ] {
            let r = report(name);
            let now = r["steps"].as_array().unwrap().last().unwrap()["now"]
                .as_i64()
                .unwrap();
            let dir = fixtures().join("kafka").join(name).join("live/clicks-0");
            let (files, bytes) = folder_files(&dir);
            let whole = run(files.clone(), &bytes, usize::MAX, now).unwrap();
            assert_kafka_state(&whole, &r, name);
            // Chunks that cut batches and lines anywhere give the same partition.
            let small = run(files, &bytes, 7, now).unwrap();
            assert_eq!(small, whole, "{name}");
            assert!(whole.scenario.contains("\"topic_partition\":\"clicks-0\""));
        }
    }

    #[test]
    fn other_files_in_the_folder_are_skipped_and_named() {
        let dir = fixtures().join("kafka/pinned-retention/live/clicks-0");
        let (files, _) = folder_files(&dir);
        let p = plan(&files).unwrap();
        assert_eq!(p.topic_partition, "clicks-0");
        assert_eq!(p.reads.len(), 9);
        assert!(p.skipped.contains(&"leader-epoch-checkpoint".to_string()));
        assert!(p
            .skipped
            .contains(&"00000000000000000018.snapshot".to_string()));
    }

    #[test]
    fn files_of_two_partitions_are_refused() {
        let f = |path: &str| Picked {
            name: path.rsplit('/').next().unwrap().into(),
            path: path.into(),
            size: 0,
            modified: None,
        };
        let e = plan(&[
            f("a-0/00000000000000000000.log"),
            f("b-0/00000000000000000000.log"),
        ])
        .unwrap_err();
        assert!(e.contains("2 folders (a-0, b-0)"), "{e}");
        assert_eq!(plan(&[]).unwrap_err(), "no files were given");
        // Bare files (a file picker) take the default name.
        let p = plan(&[f("00000000000000000000.log")]).unwrap();
        assert_eq!(p.topic_partition, "partition");
        let mut big = f("00000000000000000000.index");
        big.size = MAX_INDEX_BYTES + 1;
        assert!(plan(&[big]).unwrap_err().contains("larger than any index"));
    }

    #[test]
    fn dump_text_from_a_file_or_pasted_gives_the_same_partition() {
        let path = fixtures().join("dump/pinned-retention-closed-1x.txt");
        let text = std::fs::read_to_string(&path).unwrap();
        let r = report("pinned-retention");
        let now = r["steps"].as_array().unwrap().last().unwrap()["now"]
            .as_i64()
            .unwrap();
        let pasted = paste(&text, Config::defaults(KafkaVersion::V3_6), Timestamp(now)).unwrap();
        assert_kafka_state(&pasted, &r, "pasted dump");
        // Windows line ends and chunks that split lines.
        let crlf = text.replace('\n', "\r\n").into_bytes();
        let file = Picked {
            name: "dump.txt".into(),
            path: "dump.txt".into(),
            size: crlf.len() as u64,
            modified: None,
        };
        let read = run(vec![file], &[crlf], 5, now).unwrap();
        assert_eq!(read.scenario, pasted.scenario);
    }

    #[test]
    fn malformed_input_says_where() {
        let now = 1_804_723_200_000;
        let junk =
            b"Dumping x/00000000000000000000.log\nStarting offset: 0\n\xff\xfe binary\n".to_vec();
        let file = Picked {
            name: "notes.bin".into(),
            path: "notes.bin".into(),
            size: junk.len() as u64,
            modified: None,
        };
        let e = run(vec![file], &[junk], 4, now).unwrap_err();
        assert!(
            e.starts_with("notes.bin: not kafka-dump-log output: line 3 is not text"),
            "{e}"
        );
        let e = paste(
            "hello\n",
            Config::defaults(KafkaVersion::V3_6),
            Timestamp(now),
        )
        .unwrap_err();
        assert!(
            e.starts_with("the pasted text: not kafka-dump-log output: line 1"),
            "{e}"
        );
        assert!(paste("  \n", Config::defaults(KafkaVersion::V3_6), Timestamp(now)).is_err());
        // A damaged segment is tolerated as Kafka's recovery does, and the note says where.
        let dir = fixtures().join("encoded/truncated-tail");
        let log = std::fs::read(dir.join("00000000000001843200.log")).unwrap();
        let file = Picked {
            name: "00000000000001843200.log".into(),
            path: "00000000000001843200.log".into(),
            size: log.len() as u64,
            modified: None,
        };
        let d = run(vec![file], &[log], 100, now).unwrap();
        assert!(
            d.notes
                .iter()
                .any(|n| n.contains("invalid batch at byte 1097")
                    && n.contains("keeps the first 1097 of 1168 bytes")),
            "{:?}",
            d.notes
        );
        // An index without its log.
        let idx = std::fs::read(
            fixtures().join("kafka/pinned-retention/live/clicks-0/00000000000000000018.index"),
        )
        .unwrap();
        let file = Picked {
            name: "00000000000000000018.index".into(),
            path: "00000000000000000018.index".into(),
            size: idx.len() as u64,
            modified: None,
        };
        let e = run(vec![file], &[idx], 100, now).unwrap_err();
        assert_eq!(e, "segment 18: index files without a .log file");
    }

    #[test]
    fn compressed_batches_are_read_at_batch_level_and_say_so() {
        let dir = fixtures().join("encoded/v2-compressed");
        let log = std::fs::read(dir.join("00000000000001843200.log")).unwrap();
        let file = Picked {
            name: "00000000000001843200.log".into(),
            path: "00000000000001843200.log".into(),
            size: log.len() as u64,
            modified: None,
        };
        let d = run(vec![file], &[log], 64, 1_804_928_410_000).unwrap();
        let sc = logtime_core::scenario::parse(&d.scenario).unwrap();
        let p = sc.try_partition().unwrap();
        assert_eq!(p.log_start_offset(), Offset(1_843_200));
        assert_eq!(p.log_end_offset(), Offset(1_843_227));
        if !import::CODECS_AVAILABLE {
            assert_eq!(d.notes[0], CODEC_NOTE);
            assert!(
                d.notes
                    .iter()
                    .any(|n| n.contains("gzip records not expanded")),
                "{:?}",
                d.notes
            );
        }
    }

    /// A broker's log directory picked whole: the partition's segments read under the configs
    /// the KRaft metadata log (written by Kafka's own code) gives its topic on the node
    /// `meta.properties` names, and those configs said in core's words.
    #[test]
    fn a_broker_directory_gives_the_configs_of_its_metadata_log() {
        let top = fixtures().join("kafka").join("metadata-log");
        let mut files = Vec::new();
        let mut bytes = Vec::new();
        for rel in [
            "meta.properties",
            "__cluster_metadata-0/00000000000000000000.log",
            "clicks-0/00000000000000000018.log",
            "clicks-0/00000000000000000024.log",
            "clicks-0/00000000000000000024.index",
            "clicks-0/00000000000000000030.log",
        ] {
            let b = std::fs::read(top.join(rel)).unwrap();
            files.push(Picked {
                name: rel.rsplit('/').next().unwrap().into(),
                path: format!("metadata-log/{rel}"),
                size: b.len() as u64,
                modified: None,
            });
            bytes.push(b);
        }
        let p = plan(&files).unwrap();
        assert_eq!(p.topic_partition, "clicks-0");
        assert_eq!(p.reads[0], (0, Kind::MetaProperties));
        assert_eq!(p.reads[1], (1, Kind::Metadata));
        assert!(p.skipped.is_empty(), "{:?}", p.skipped);
        let d = run(files, &bytes, 100, 1_805_500_800_000).unwrap();
        // Node 1: node 3's log.cleanup.policy=compact does not apply; the topic's later
        // retention.ms does.
        assert_eq!(
            d.configs.as_deref(),
            Some("configs: retention.ms=7200000 (the metadata log); every other config is kafka's default")
        );
        let sc = logtime_core::scenario::parse(&d.scenario).unwrap();
        assert_eq!(
            sc.try_partition().unwrap().config().topic.retention_ms,
            7_200_000
        );
        // Without the metadata log, the same partition has no configs line.
        let (files, bytes) = folder_files(&top.join("clicks-0"));
        assert_eq!(
            run(files, &bytes, 100, 1_805_500_800_000).unwrap().configs,
            None
        );
    }
}
