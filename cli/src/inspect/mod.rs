//! `logtime inspect`: a real partition (segment files or `kafka-dump-log` output), or every
//! partition of a broker's log directory, read through the core's import and answered as an
//! on-call engineer asks: the retention table with what pins it, future stamps and their
//! diagnosis, a lookup with its trace, and what DeleteRecords would free.
//!
//! This module does the I/O the core does not: it finds the files, streams each `.log` in 1 MiB
//! chunks (so a 1 GiB segment needs only the model's per-batch bookkeeping), reads modification
//! times and `log-start-offset-checkpoint`, draws a progress bar when stderr is a terminal, and
//! reads a broker directory's partitions on worker threads.

use logtime_core::human::parse_rfc3339;
use logtime_core::import::{check_clock, inspect, scenario_text, Imported};
use logtime_core::scenario::time::parse_duration;
use logtime_model::{Config, ConfigValue, KafkaVersion, Offset, OffsetSpec, Timestamp};
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

mod broker;
mod many;
mod pipeline;
mod read;
mod text;

use many::run_many;
use read::{io_err, read_partition, sources, Progress, Read};
use text::{json_index_only, json_single, text_index_only, text_single};

/// The `--help` lines of `logtime inspect`; the version presets come from core's table.
pub(crate) fn usage() -> String {
    let presets: Vec<String> = KafkaVersion::ALL
        .iter()
        .map(|v| format!("{} ({})", v.key(), v.label()))
        .collect();
    format!(
        "    logtime inspect DIR|FILE... [--now T] [--retention-ms D] [--lookup T] [--json]
                             read a partition's segment files (a partition folder, or .log,
                             .index and .timeindex files), kafka-dump-log output (a text file,
                             or - for stdin; 1 GiB at most), or a broker's log directory (every
                             partition folder in it, summarised worst first), and print the
                             retention table, future stamps, the lookup and the DeleteRecords
                             remedy
        --now T              the broker clock (ms or RFC 3339; default: this machine's clock)
        --retention-ms D     retention.ms (ms or 7d, 12h...; default Kafka's 7 days)
        --lookup T           a ListOffsets lookup: ms, RFC 3339, earliest, latest, max-timestamp
        --kafka V            rules preset: {}; default {}
        --config NAME=VALUE  any other topic config by its Kafka name (index.interval.bytes...)
        --log-start-offset O the log start offset (default: log-start-offset-checkpoint, or
                             the first segment's base offset)
        --export-scenario F  also write the partition as a scenario file F (what-ifs)
        --json               machine-readable output
",
        presets.join(" or "),
        KafkaVersion::V4_0.key(),
    )
}

/// What the command was asked.
pub(super) struct Options {
    pub(super) inputs: Vec<String>,
    pub(super) now: Option<Timestamp>,
    pub(super) lookup: Option<OffsetSpec>,
    pub(super) config: Config,
    /// The config names the person set (`--config`, `--retention-ms`): an internal topic's
    /// configs do not override them.
    pub(super) given: Vec<String>,
    /// The broker the log directory belongs to (`meta.properties`, the metadata log).
    pub(super) broker: Option<broker::Broker>,
    pub(super) log_start_offset: Option<Offset>,
    pub(super) export: Option<String>,
    pub(super) json: bool,
}

/// A failure, printed as one line on stderr.
pub(crate) struct Fail(pub(crate) String);

pub(super) fn fail<T>(s: impl Into<String>) -> Result<T, Fail> {
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
                let ms = parse_time(&v)
                    .map_err(|e| Fail(format!("--now {v:?}: {e} (use ms or RFC 3339)")))?;
                check_clock(ms).map_err(|e| Fail(format!("--now {v:?}: {e}")))?;
                now = Some(Timestamp(ms));
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
                version = KafkaVersion::parse(&v).ok_or_else(|| {
                    Fail(format!(
                        "--kafka {v:?}: expected {}",
                        KafkaVersion::keys_for_people()
                    ))
                })?;
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
    let given = sets.iter().map(|(k, _)| k.clone()).collect();
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
        given,
        broker: None,
        log_start_offset,
        export,
        json,
    })
}

/// Runs the command; `Ok` holds what to print on stdout.
pub(crate) fn run(args: &[String]) -> Result<String, Fail> {
    let mut opts = parse_options(args)?;
    let (sources, many) = sources(&opts.inputs)?;
    // A log directory, or a partition folder inside one: the broker's own record of its configs.
    if let [one] = opts.inputs.as_slice() {
        let p = Path::new(one);
        let dir = if many {
            Some(p.to_path_buf())
        } else {
            p.canonicalize()
                .ok()
                .filter(|c| c.is_dir())
                .and_then(|c| c.parent().map(Path::to_path_buf))
        };
        if let Some(d) = dir {
            opts.broker = broker::broker(&d)?;
        }
    }
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
    let progress = Progress::new(sources.iter().map(|s| s.log_bytes()).sum());
    let mut reads = Vec::new();
    for src in &sources {
        match read_partition(src, &opts, now, &progress, true) {
            Ok(r) => reads.extend(r),
            Err(e) => {
                progress.clear();
                return Err(e);
            }
        }
    }
    progress.clear();
    if let [Read::Partition(imported)] = reads.as_slice() {
        return single(&opts, imported, now, clock_given);
    }
    several(&opts, reads, now, clock_given)
}

/// Several partitions given as files or dump text: each reported on its own, in the order
/// given.
fn several(
    opts: &Options,
    reads: Vec<Read>,
    now: Timestamp,
    clock_given: bool,
) -> Result<String, Fail> {
    if opts.export.is_some() && reads.len() > 1 {
        return fail(format!(
            "--export-scenario writes one partition, and {} were given: give one partition's files",
            reads.len()
        ));
    }
    let reports: Vec<_> = reads
        .iter()
        .map(|r| match r {
            Read::Partition(imported) => Some(inspect(imported, now, opts.lookup)),
            Read::IndexOnly(..) => None,
        })
        .collect();
    if opts.json {
        // Each partition's report is written straight from its typed values (see
        // `json_single`), not gathered into a tree of `Value`s first.
        let values: Vec<PartitionJson> = reads
            .iter()
            .zip(&reports)
            .map(|(r, report)| match (r, report) {
                (Read::Partition(imported), Some(report)) => {
                    PartitionJson::Single(json_single(imported, report, clock_given, opts))
                }
                (Read::IndexOnly(tp, dump), _) => PartitionJson::Other(json_index_only(tp, dump)),
                (Read::Partition(_), None) => unreachable!("every partition read is inspected"),
            })
            .collect();
        let v = std::collections::BTreeMap::from([("partitions", values)]);
        return Ok(serde_json::to_string_pretty(&v).expect("reports serialise") + "\n");
    }
    let mut texts = Vec::new();
    for (r, report) in reads.iter().zip(&reports) {
        match (r, report) {
            (Read::Partition(imported), Some(report)) => {
                texts.push(text_single(imported, report, clock_given, None, opts));
            }
            (Read::IndexOnly(tp, dump), _) => texts.push(text_index_only(tp, dump)),
            (Read::Partition(_), None) => unreachable!("every partition read is inspected"),
        }
    }
    Ok(texts.join("\n"))
}

/// One entry of `{"partitions": [...]}`.
enum PartitionJson<'a> {
    Single(text::SingleJson<'a>),
    Other(serde_json::Value),
}

impl serde::Serialize for PartitionJson<'_> {
    fn serialize<S: serde::Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        match self {
            PartitionJson::Single(j) => j.serialize(ser),
            PartitionJson::Other(v) => v.serialize(ser),
        }
    }
}

/// One partition's report.
fn single(
    opts: &Options,
    imported: &Imported,
    now: Timestamp,
    clock_given: bool,
) -> Result<String, Fail> {
    let report = inspect(imported, now, opts.lookup);
    if let Some(path) = &opts.export {
        let title = format!("{} imported", imported.partition.topic_partition());
        let text = scenario_text(&imported.partition, &title)
            .map_err(|e| Fail(format!("--export-scenario {path}: {e}")))?;
        std::fs::write(path, text).map_err(|e| io_err(Path::new(path), e))?;
    }
    if opts.json {
        Ok(
            serde_json::to_string_pretty(&json_single(imported, &report, clock_given, opts))
                .expect("reports serialise")
                + "\n",
        )
    } else {
        Ok(text_single(
            imported,
            &report,
            clock_given,
            opts.export.as_deref(),
            opts,
        ))
    }
}
