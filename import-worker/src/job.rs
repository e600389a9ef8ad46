//! Importing a real partition, without I/O, as a broker loads one (`LogLoader`: the metadata
//! log's configs first, then each segment's files): which of the dropped files make the
//! partition and in what order they are read ([`plan`]), a [`Job`] fed chunk by chunk (the page
//! reads `Blob` slices and yields to the browser between them, so a large segment shows progress
//! and can be cancelled), and the result as a scenario ([`Done`]) that the explorer replays like
//! any other. Every Kafka fact comes from `logtime_core::import`; this module only routes bytes.

use logtime_core::import::{
    self, configs_with_metadata, meta_properties, parse_dump, parse_offset_index, parse_time_index,
    words, DumpOutput, DumpParser, Imported, MetadataConfigs, NotExpanded, PartitionImport,
    SegmentFileKind, SegmentReader,
};
use logtime_model::{Config, Offset, Timestamp};

mod plan;
use plan::METADATA_FOLDER;
pub use plan::{plan, Kind, Picked, Plan};

/// Bytes read per slice of a `.log` or dump text.
pub const CHUNK: u64 = 1 << 20;

/// Index files are read whole, up to core's one limit for the command line and the page.
pub use logtime_core::import::MAX_INDEX_BYTES;

/// How the notes say to set `index.interval.bytes` here.
const INTERVAL_HINT: &str = "set it in the config panel";

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
mod tests;
