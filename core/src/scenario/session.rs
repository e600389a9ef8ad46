//! A session: a scenario being replayed plus a journal of everything the reader did, so that the
//! exact moment can be written down, shared and rebuilt.
//!
//! A [`Journal`] is the scenario's [`Source`] and, in order, every [`Entry`]: scenario steps run,
//! commands sent between steps (batches, config and version changes, DeleteRecords, retention
//! checks, clock moves), each at its broker time, and lookups. Replaying a journal against the
//! same scenario rebuilds the same partition byte for byte: the model is deterministic (time is
//! passed in, jitter comes from the scenario's seed), and a journal records only what succeeded
//! (a refused command changes nothing, so it is not needed to rebuild the state).
//!
//! A [`Session`] keeps the journal as it goes: run steps, commands and lookups through it
//! instead of through the [`Runner`]. [`Session::rewind`] rebuilds an earlier moment and hands
//! back the entries it undid, so a caller can ask before dropping them or keep them as a branch.
//!
//! [`Journal::to_compact`] writes the entries in a short, URL-safe, versioned text form
//! (documented on [`COMPACT_VERSION`]); [`Journal::entries_from_compact`] reads it back and
//! says exactly what is wrong with a damaged or foreign one. The whole journal also serialises
//! with serde.
//!
//! Uses beyond moment links:
//! * keeping a learner's branch: `rewind(journal.prefix_for_steps(k))` returns the entries it
//!   undid; store them (or the whole [`Journal`], with serde) and replay them later with
//!   [`Session::replay_entry`];
//! * replaying in chunks: a caller that must yield (a progress bar) replays one entry at a time
//!   with [`Session::replay_entry`], which records each entry as it goes;
//! * a new command kind: a [`Command`] variant needs a compact form in `compact_command` and
//!   `parse_entry` (the property test in `core/tests/session.rs` then covers it); changing an
//!   existing form means a new [`COMPACT_VERSION`], with the old one still read.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::{narrate, StepReport};
use super::{Runner, Slice, ViewMarks};
use super::{Scenario, ScenarioError, TimedEvent};
use logtime_model::batch::{Header, Record};
use logtime_model::config::{ConfigValue, KafkaVersion};
use logtime_model::error::Error;
use logtime_model::lookup::{Lookup, LookupError, OffsetSpec};
use logtime_model::partition::Command;
use logtime_model::units::{Offset, Timestamp};

/// Where the scenario came from, as the reader's page named it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "value", rename_all = "snake_case")]
pub enum Source {
    /// A built-in scenario, by name (`lookup-scan`).
    Builtin(String),
    /// A scenario document at a URL.
    Url(String),
    /// The scenario's JSON itself (inline in a page, or edited).
    Inline(String),
}

/// One thing that happened to the partition, in order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Entry {
    /// The next scenario step ran.
    Step,
    /// A command between steps, at broker time `at` (a batch sent, a config or version changed,
    /// DeleteRecords, a retention check, the clock moved to `at`).
    Command {
        /// Broker time.
        at: Timestamp,
        /// What was done.
        command: Command,
    },
    /// A consumer's lookup, at the broker clock of that moment (it changes nothing).
    Lookup(OffsetSpec),
}

impl Entry {
    /// Whether the reader did this (a command), as opposed to running the scenario or looking.
    pub fn is_action(&self) -> bool {
        matches!(self, Entry::Command { .. })
    }

    /// A few words for people: `sent a batch of 3 records`, `set retention.ms to 7d`.
    pub fn describe(&self) -> String {
        match self {
            Entry::Step => "ran a step".into(),
            Entry::Lookup(spec) => format!("looked up {spec}"),
            Entry::Command { command, .. } => match command {
                Command::Tick => "moved the clock".into(),
                Command::Produce { records } => format!(
                    "sent a batch of {}",
                    narrate::count(records.len() as u64, "record", "records")
                ),
                Command::RunRetention => "ran a retention check".into(),
                Command::DeleteRecords { offset } => format!("deleted records to offset {offset}"),
                Command::SetConfig { name, value } => format!("set {name} to {value}"),
                Command::SetVersion { version } => format!("switched to {}", version.label()),
                Command::SetHighWatermark { offset } => {
                    format!("set the high watermark to {offset}")
                }
            },
        }
    }
}

/// The scenario's source and everything done to its partition, in order.
///
/// Invariant (kept by [`Session`]): replaying the entries against the scenario succeeds and
/// rebuilds the session's partition exactly.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Journal {
    /// Where the scenario came from.
    pub source: Source,
    /// What happened, in order.
    pub entries: Vec<Entry>,
}

/// The version of the compact form written by [`Journal::to_compact`].
///
/// Version 1: `1` then, when a scenario text is given, `.` and the FNV-1a hash of that text
/// (8 hex digits), then each entry after a `~`:
///
/// | entry | form |
/// | --- | --- |
/// | steps | `s` or `s<n>` (n steps in a row) |
/// | clock moved to `at` | `t<at>` |
/// | batch | `p<at>_<record>*<record>…`; a record is its timestamp minus `at` (or `@<ms>`), then `k<key bytes>` (none: a null key; `k0`: an empty key), `v<value bytes>` (if not 100), `e<key>,<value>` per header, `x<n>` (n identical records) |
/// | retention check | `r<at>` |
/// | DeleteRecords | `d<at>_<offset>` |
/// | config | `c<at>_<name>_n<number>` or `c<at>_<name>_<text>` (`%`, `~`, `_`, `*` escaped as `%25`, `%7E`, `%5F`, `%2A`) |
/// | version | `v<at>_<key>` (`3.6`, `4.0`) |
/// | high watermark | `h<at>_<offset>` |
/// | lookup | `l<spec>` (`earliest`, `latest`, `max-timestamp`, or ms) |
///
/// Times are ms since the epoch. Every character is one that `encodeURIComponent` leaves alone.
pub const COMPACT_VERSION: u32 = 1;

/// The most entries a compact journal may hold (a link is untrusted input: its size must not
/// decide how much memory the reader's browser spends).
pub const MAX_ENTRIES: usize = 100_000;

/// The most records one batch entry of a compact journal may hold.
pub const MAX_BATCH_RECORDS: usize = 100_000;

/// The most records all the batch entries of a compact journal may hold together. A record is
/// a few characters of a link (`x100000` repeats one) but tens of bytes in memory and a step of
/// the replay, so 2,000 batches of 100,000 records in a 48 KB link would ask the browser for
/// gigabytes; a million is far more than anyone sends by hand in the explorer.
pub const MAX_MOMENT_RECORDS: usize = 1_000_000;

/// Why a journal could not be read or replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JournalError {
    /// The compact form is damaged: what was wrong, and at which entry (0-based) if known.
    Malformed {
        /// The entry, when the header was fine.
        entry: Option<usize>,
        /// Lowercase reason.
        reason: String,
    },
    /// Written by a Logtime whose compact form this one does not read.
    UnsupportedVersion(String),
    /// Written against a different text of the scenario (a built-in that changed since, an
    /// edited file): the moment would not be the same.
    ScenarioChanged,
    /// An entry cannot be replayed: the link was edited, or the scenario changed.
    Replay {
        /// 0-based entry index.
        entry: usize,
        /// What went wrong.
        reason: String,
    },
}

impl fmt::Display for JournalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JournalError::Malformed { entry: Some(i), reason } => {
                write!(f, "the saved moment is damaged (truncated or edited): entry {i}: {reason}")
            }
            JournalError::Malformed { entry: None, reason } => {
                write!(f, "the saved moment is damaged (truncated or edited): {reason}")
            }
            JournalError::UnsupportedVersion(v) => write!(
                f,
                "the saved moment is in format {v:?}, which this version of Logtime cannot read (it reads format {COMPACT_VERSION})"
            ),
            JournalError::ScenarioChanged => f.write_str(
                "the saved moment was made with a different version of this scenario, so it cannot be rebuilt exactly",
            ),
            JournalError::Replay { entry, reason } => {
                write!(f, "the saved moment cannot be replayed: entry {entry}: {reason}")
            }
        }
    }
}

impl std::error::Error for JournalError {}

/// FNV-1a (32 bits) of a scenario's text: the fingerprint a compact journal carries, so that a
/// link made against another text of the scenario is refused instead of replayed wrongly.
pub fn fingerprint(text: &str) -> u32 {
    text.bytes().fold(0x811c_9dc5, |h: u32, b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    })
}

impl Journal {
    /// An empty journal: the scenario loaded, nothing run yet.
    pub fn new(source: Source) -> Journal {
        Journal {
            source,
            entries: Vec::new(),
        }
    }

    /// Scenario steps run.
    pub fn steps_run(&self) -> usize {
        self.entries.iter().filter(|e| **e == Entry::Step).count()
    }

    /// The reader's own commands (not steps or lookups).
    pub fn actions(&self) -> impl Iterator<Item = &Entry> {
        self.entries.iter().filter(|e| e.is_action())
    }

    /// How many entries come before the `(k+1)`-th step: the prefix that rebuilds the moment
    /// after `k` steps (commands done after step `k` are not in it).
    pub fn prefix_for_steps(&self, k: usize) -> usize {
        let mut steps = 0;
        for (i, e) in self.entries.iter().enumerate() {
            if *e == Entry::Step {
                if steps == k {
                    return i;
                }
                steps += 1;
            }
        }
        self.entries.len()
    }

    /// The compact form of the entries (see [`COMPACT_VERSION`]), with the fingerprint of
    /// `scenario_text` when given.
    pub fn to_compact(&self, scenario_text: Option<&str>) -> String {
        let mut out = COMPACT_VERSION.to_string();
        if let Some(text) = scenario_text {
            out.push_str(&format!(".{:08x}", fingerprint(text)));
        }
        let mut i = 0;
        while i < self.entries.len() {
            out.push('~');
            match &self.entries[i] {
                Entry::Step => {
                    let run = self.entries[i..]
                        .iter()
                        .take_while(|e| **e == Entry::Step)
                        .count();
                    out.push('s');
                    if run > 1 {
                        out.push_str(&run.to_string());
                    }
                    i += run;
                    continue;
                }
                Entry::Lookup(spec) => out.push_str(&format!("l{spec}")),
                Entry::Command { at, command } => compact_command(&mut out, at.0, command),
            }
            i += 1;
        }
        out
    }

    /// Reads entries written by [`Journal::to_compact`]. With `scenario_text`, a fingerprint in
    /// the text must match it ([`JournalError::ScenarioChanged`] otherwise).
    pub fn entries_from_compact(
        compact: &str,
        scenario_text: Option<&str>,
    ) -> Result<Vec<Entry>, JournalError> {
        let mut parts = compact.split('~');
        let header = parts.next().unwrap_or_default();
        let (version, hash) = match header.split_once('.') {
            Some((v, h)) => (v, Some(h)),
            None => (header, None),
        };
        if version != COMPACT_VERSION.to_string() {
            if version.is_empty() || !version.bytes().all(|b| b.is_ascii_digit()) {
                return Err(JournalError::Malformed {
                    entry: None,
                    reason: format!("expected a format number at the start, found {version:?}"),
                });
            }
            return Err(JournalError::UnsupportedVersion(version.to_string()));
        }
        if let (Some(h), Some(text)) = (hash, scenario_text) {
            let h = u32::from_str_radix(h, 16)
                .ok()
                .filter(|_| h.len() == 8)
                .ok_or_else(|| JournalError::Malformed {
                    entry: None,
                    reason: format!("the scenario fingerprint {h:?} is not 8 hex digits"),
                })?;
            if h != fingerprint(text) {
                return Err(JournalError::ScenarioChanged);
            }
        }
        let mut entries = Vec::new();
        let mut records = 0usize;
        for (i, part) in parts.enumerate() {
            let bad = |reason: String| JournalError::Malformed {
                entry: Some(i),
                reason,
            };
            parse_entry(part, MAX_ENTRIES - entries.len(), &mut entries).map_err(bad)?;
            // Checked as each batch is read, so that memory never holds more than the limit
            // and one batch, before anything is replayed.
            if let Some(Entry::Command {
                command: Command::Produce { records: batch },
                ..
            }) = entries.last()
            {
                records += batch.len();
                if records > MAX_MOMENT_RECORDS {
                    return Err(bad(format!(
                        "the batches hold {records} records by this entry; a saved moment holds at most {MAX_MOMENT_RECORDS}"
                    )));
                }
            }
        }
        Ok(entries)
    }

    /// Replays the journal against `scenario` (which must be the scenario its source names),
    /// with no callbacks: the session at the journal's end.
    pub fn replay(&self, scenario: Scenario) -> Result<Session, JournalError> {
        let mut session = Session::new(self.source.clone(), scenario);
        for (i, entry) in self.entries.iter().enumerate() {
            session.replay_entry_marks(i, entry, &mut ViewMarks::default())?;
        }
        Ok(session)
    }
}

fn compact_command(out: &mut String, at: i64, command: &Command) {
    match command {
        Command::Tick => out.push_str(&format!("t{at}")),
        Command::RunRetention => out.push_str(&format!("r{at}")),
        Command::DeleteRecords { offset } => out.push_str(&format!("d{at}_{offset}")),
        Command::SetVersion { version } => out.push_str(&format!("v{at}_{}", version.key())),
        Command::SetHighWatermark { offset } => out.push_str(&format!("h{at}_{}", offset.0)),
        Command::SetConfig { name, value } => {
            out.push_str(&format!("c{at}_{}_", escape(name)));
            match value {
                ConfigValue::Number(n) => out.push_str(&format!("n{n}")),
                ConfigValue::Text(t) => out.push_str(&escape(t)),
            }
        }
        Command::Produce { records } => {
            out.push_str(&format!("p{at}"));
            let mut first = true;
            let mut i = 0;
            while i < records.len() {
                let run = records[i..]
                    .iter()
                    .take_while(|r| **r == records[i])
                    .count();
                out.push(if first { '_' } else { '*' });
                first = false;
                compact_record(out, at, &records[i], run);
                i += run;
            }
        }
    }
}

fn compact_record(out: &mut String, at: i64, r: &Record, run: usize) {
    // Relative to the batch's time, which is short for real stamps; absolute for NO_TIMESTAMP
    // and other negative stamps (and when the difference overflows).
    match r.timestamp.0.checked_sub(at).filter(|_| r.timestamp.0 >= 0) {
        Some(d) => out.push_str(&d.to_string()),
        None => out.push_str(&format!("@{}", r.timestamp.0)),
    }
    // No `k` is a null key; `k0` an empty one.
    if let Some(k) = r.key_len() {
        out.push_str(&format!("k{k}"));
    }
    if r.value_bytes != 100 {
        out.push_str(&format!("v{}", r.value_bytes));
    }
    for h in &r.headers {
        out.push_str(&format!("e{},{}", h.key_bytes, h.value_bytes));
    }
    if run > 1 {
        out.push_str(&format!("x{run}"));
    }
}

/// Escapes the compact form's separators (and `%`) in free text.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '%' => out.push_str("%25"),
            '~' => out.push_str("%7E"),
            '_' => out.push_str("%5F"),
            '*' => out.push_str("%2A"),
            c => out.push(c),
        }
    }
    out
}

fn unescape(text: &str) -> Result<String, String> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find('%') {
        out.push_str(&rest[..i]);
        let code = rest.get(i + 1..i + 3).unwrap_or_default();
        out.push(match code {
            "25" => '%',
            "7E" => '~',
            "5F" => '_',
            "2A" => '*',
            _ => {
                let shown: String = rest[i..].chars().take(3).collect();
                return Err(format!("unknown escape {shown:?} in {text:?}"));
            }
        });
        rest = &rest[i + 3..];
    }
    out.push_str(rest);
    Ok(out)
}

fn number<T: std::str::FromStr>(text: &str, what: &str) -> Result<T, String> {
    text.parse()
        .map_err(|_| format!("{what} {text:?} is not a number"))
}

/// Parses one entry into `entries`, which may take at most `room` more.
fn parse_entry(part: &str, room: usize, entries: &mut Vec<Entry>) -> Result<(), String> {
    if room == 0 {
        return Err(format!(
            "a saved moment holds at most {MAX_ENTRIES} entries"
        ));
    }
    let mut chars = part.chars();
    let kind = chars.next().ok_or("an entry is empty")?;
    let body = chars.as_str();
    let mut fields = body.split('_');
    let at = |fields: &mut std::str::Split<'_, char>| -> Result<Timestamp, String> {
        number(fields.next().unwrap_or_default(), "the time").map(Timestamp)
    };
    let command = |at, command| Entry::Command { at, command };
    let entry = match kind {
        's' => {
            let n: usize = if body.is_empty() {
                1
            } else {
                number(body, "the step count")?
            };
            if n == 0 || n > room {
                return Err(format!(
                    "the step count {n} is out of range (a saved moment holds at most {MAX_ENTRIES} entries)"
                ));
            }
            entries.extend(std::iter::repeat_n(Entry::Step, n));
            return Ok(());
        }
        'l' => {
            entries.push(Entry::Lookup(OffsetSpec::parse(body)?));
            return Ok(());
        }
        't' => command(at(&mut fields)?, Command::Tick),
        'r' => command(at(&mut fields)?, Command::RunRetention),
        'd' => {
            let at = at(&mut fields)?;
            let offset = number(fields.next().unwrap_or_default(), "the offset")?;
            command(at, Command::DeleteRecords { offset })
        }
        'h' => {
            let at = at(&mut fields)?;
            let offset = Offset(number(fields.next().unwrap_or_default(), "the offset")?);
            command(at, Command::SetHighWatermark { offset })
        }
        'v' => {
            let at = at(&mut fields)?;
            let key = fields.next().unwrap_or_default();
            let version =
                KafkaVersion::parse(key).ok_or_else(|| format!("unknown Kafka version {key:?}"))?;
            command(at, Command::SetVersion { version })
        }
        'c' => {
            let at = at(&mut fields)?;
            let name = unescape(fields.next().unwrap_or_default())?;
            let raw = fields.next().ok_or("a config entry has no value")?;
            let value = match raw.strip_prefix('n') {
                Some(n) => ConfigValue::Number(number(n, "the value")?),
                None => ConfigValue::Text(unescape(raw)?),
            };
            command(at, Command::SetConfig { name, value })
        }
        'p' => {
            let at = at(&mut fields)?;
            let list = fields.next().unwrap_or_default();
            let mut records = Vec::new();
            if !list.is_empty() {
                for r in list.split('*') {
                    parse_record(r, at.0, &mut records)?;
                    if records.len() > MAX_BATCH_RECORDS {
                        return Err(format!("a batch holds at most {MAX_BATCH_RECORDS} records"));
                    }
                }
            }

            command(at, Command::Produce { records })
        }
        other => return Err(format!("unknown entry kind {other:?}")),
    };
    if fields.next().is_some() {
        return Err(format!("entry {part:?} has extra fields"));
    }
    entries.push(entry);
    Ok(())
}

fn parse_record(text: &str, at: i64, out: &mut Vec<Record>) -> Result<(), String> {
    // The timestamp runs up to the first field letter.
    let end = text
        .char_indices()
        .skip(1)
        .find(|(_, c)| c.is_ascii_alphabetic())
        .map_or(text.len(), |(i, _)| i);
    let (ts, mut rest) = text.split_at(end);
    let timestamp = match ts.strip_prefix('@') {
        Some(abs) => number(abs, "the timestamp")?,
        None => at
            .checked_add(number(ts, "the timestamp")?)
            .ok_or("the timestamp overflows")?,
    };
    let mut record = Record::at(Timestamp(timestamp));
    let mut run = 1usize;
    while let Some(field) = rest.chars().next() {
        let body = &rest[1..];
        let len = body
            .find(|c: char| c.is_ascii_alphabetic())
            .unwrap_or(body.len());
        let value = &body[..len];
        match field {
            'k' => {
                record.key_bytes = number(value, "the key size")?;
                record.empty_key = record.key_bytes == 0;
            }
            'v' => record.value_bytes = number(value, "the value size")?,
            'x' => run = number(value, "the repeat count")?,
            'e' => {
                let (k, v) = value.split_once(',').ok_or("a header is key,value sizes")?;
                record.headers.push(Header {
                    key_bytes: number(k, "the header key size")?,
                    value_bytes: number(v, "the header value size")?,
                });
            }
            other => return Err(format!("unknown record field {other:?}")),
        }
        rest = &body[len..];
    }
    if run == 0 || run > MAX_BATCH_RECORDS - out.len().min(MAX_BATCH_RECORDS) {
        return Err(format!(
            "the repeat count {run} is out of range (a batch holds at most {MAX_BATCH_RECORDS} records)"
        ));
    }
    out.extend(std::iter::repeat_n(record, run));
    Ok(())
}

/// A scenario being replayed, with the journal of everything done to it.
///
/// Invariant: `journal.replay(scenario)` rebuilds `runner`'s partition exactly.
#[derive(Clone, Debug)]
pub struct Session {
    runner: Runner,
    journal: Journal,
}

/// What replaying one entry did.
#[derive(Clone, Debug)]
pub enum Replayed {
    /// A scenario step ran (or stopped with the scenario's error).
    Step(Result<StepReport, ScenarioError>),
    /// A command was applied.
    Command(StepReport),
    /// A lookup was answered.
    Lookup(Result<Lookup, LookupError>),
}

impl Session {
    /// A session at the scenario's start.
    pub fn new(source: Source, scenario: Scenario) -> Session {
        Session {
            runner: Runner::new(scenario),
            journal: Journal::new(source),
        }
    }

    /// The runner (the scenario, the partition, the clock).
    pub fn runner(&self) -> &Runner {
        &self.runner
    }

    /// Everything done so far.
    pub fn journal(&self) -> &Journal {
        &self.journal
    }

    /// Runs the next scenario step ([`Runner::step`]) and records it. `None` when done.
    pub fn step(
        &mut self,
        on_event: &mut dyn FnMut(TimedEvent<'_>),
    ) -> Option<Result<StepReport, ScenarioError>> {
        let result = self.runner.step(on_event)?;
        // Recorded even when the step failed: the runner moved on, and a replay fails the same.
        self.journal.entries.push(Entry::Step);
        Some(result)
    }

    /// Runs a slice of the next step ([`Runner::step_slice`]: about `work` records, a segment
    /// rolled counting for more) and records the step once its last slice has run. `None`
    /// when done.
    pub fn step_slice(
        &mut self,
        work: u64,
        on_event: &mut dyn FnMut(TimedEvent<'_>),
    ) -> Option<Slice> {
        let slice = self.runner.step_slice(work, on_event)?;
        if let Slice::Done(_) = slice {
            // As in `step`: recorded even when the step failed.
            self.journal.entries.push(Entry::Step);
        }
        Some(slice)
    }

    /// [`Session::step`] with no callback: what the step changed that a view marks is added
    /// to `marks` ([`Runner::step_marks`]).
    pub fn step_marks(
        &mut self,
        marks: &mut ViewMarks,
    ) -> Option<Result<StepReport, ScenarioError>> {
        let result = self.runner.step_marks(marks)?;
        self.journal.entries.push(Entry::Step);
        Some(result)
    }

    /// [`Session::step_slice`] with no callback: what the slice changed that a view marks is
    /// added to `marks` ([`Runner::step_slice_marks`]).
    pub fn step_slice_marks(&mut self, work: u64, marks: &mut ViewMarks) -> Option<Slice> {
        let slice = self.runner.step_slice_marks(work, marks)?;
        if let Slice::Done(_) = slice {
            self.journal.entries.push(Entry::Step);
        }
        Some(slice)
    }

    /// Applies a command between steps ([`Runner::apply`]) and records it when it succeeds (a
    /// refused command changes nothing).
    pub fn apply(
        &mut self,
        now: Timestamp,
        command: Command,
        on_event: &mut dyn FnMut(TimedEvent<'_>),
    ) -> Result<StepReport, Error> {
        let report = self.runner.apply(now, command.clone(), on_event)?;
        self.journal
            .entries
            .push(Entry::Command { at: now, command });
        Ok(report)
    }

    /// A consumer's lookup now, recorded.
    pub fn lookup(&mut self, spec: OffsetSpec) -> Result<Lookup, LookupError> {
        self.journal.entries.push(Entry::Lookup(spec));
        self.runner.partition().lookup(spec)
    }

    /// Replays one journal entry (number `index`, for errors) and records it.
    pub fn replay_entry(
        &mut self,
        index: usize,
        entry: &Entry,
        on_event: &mut dyn FnMut(TimedEvent<'_>),
    ) -> Result<Replayed, JournalError> {
        Ok(match entry {
            Entry::Step => match self.step(on_event) {
                Some(result) => Replayed::Step(result),
                None => return Err(self.too_few_steps(index)),
            },
            Entry::Lookup(spec) => Replayed::Lookup(self.lookup(*spec)),
            Entry::Command { at, command } => {
                Replayed::Command(self.apply(*at, command.clone(), on_event).map_err(|e| {
                    JournalError::Replay {
                        entry: index,
                        reason: e.to_string(),
                    }
                })?)
            }
        })
    }

    /// [`Session::replay_entry`] with no callback: what the entry changed that a view marks is
    /// added to `marks`. A step runs as [`Session::step_marks`] (no event made into a call, no
    /// quiet retention check's report made); a reader's action hands its few events to
    /// [`ViewMarks::see`].
    pub fn replay_entry_marks(
        &mut self,
        index: usize,
        entry: &Entry,
        marks: &mut ViewMarks,
    ) -> Result<Replayed, JournalError> {
        match entry {
            Entry::Step => match self.step_marks(marks) {
                Some(result) => Ok(Replayed::Step(result)),
                None => Err(self.too_few_steps(index)),
            },
            _ => self.replay_entry(index, entry, &mut |e| marks.see(e.event)),
        }
    }

    /// [`Session::replay_entry_marks`], running a step entry in slices
    /// ([`Session::step_slice_marks`]): `Ok(None)` while the step runs on (replay the same entry
    /// again to go on with it).
    pub fn replay_entry_slice(
        &mut self,
        index: usize,
        entry: &Entry,
        work: u64,
        marks: &mut ViewMarks,
    ) -> Result<Option<Replayed>, JournalError> {
        if *entry != Entry::Step {
            return self.replay_entry_marks(index, entry, marks).map(Some);
        }
        match self.step_slice_marks(work, marks) {
            Some(Slice::Partial { .. }) => Ok(None),
            Some(Slice::Done(result)) => Ok(Some(Replayed::Step(result))),
            None => Err(self.too_few_steps(index)),
        }
    }

    /// Journal entry `index` asks for a step the scenario does not have.
    fn too_few_steps(&self, index: usize) -> JournalError {
        JournalError::Replay {
            entry: index,
            reason: format!(
                "the scenario has only {}",
                narrate::count(self.runner.scenario().steps.len() as u64, "step", "steps")
            ),
        }
    }

    /// A session rebuilt from the scenario's start with the first `entries` entries of this
    /// one's journal, and the entries it leaves out (to ask before dropping them, or to keep
    /// them as a branch).
    pub fn rewind(&self, entries: usize) -> Result<(Session, Vec<Entry>), JournalError> {
        let keep = entries.min(self.journal.entries.len());
        let mut s = Session::new(self.journal.source.clone(), self.runner.scenario().clone());
        for (i, e) in self.journal.entries[..keep].iter().enumerate() {
            s.replay_entry_marks(i, e, &mut ViewMarks::default())?;
        }
        Ok((s, self.journal.entries[keep..].to_vec()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::parse;

    const SCENARIO: &str = r#"{"start": "2027-03-12T09:00:00Z", "topic": {"segment.bytes": "1MiB", "retention.ms": "1h"},
        "steps": [{"produce": {"records": [{"timestamp": "now"}]}}, {"advance": "10m"}, {"produce": {"records": [{"timestamp": "now+1h"}]}}]}"#;
    const T0: i64 = 1_804_842_000_000;

    fn session() -> Session {
        Session::new(Source::Builtin("t".into()), parse(SCENARIO).unwrap())
    }

    #[test]
    fn compact_round_trip_and_replay() {
        let mut s = session();
        s.step(&mut |_| {}).unwrap().unwrap();
        let now = s.runner().now();
        let records = vec![
            Record::at(now),
            Record::at(now),
            Record {
                timestamp: Timestamp(-1),
                key_bytes: 8,
                empty_key: false,
                value_bytes: 7,
                headers: vec![Header {
                    key_bytes: 1,
                    value_bytes: 2,
                }],
            },
            Record::with_key(now, Some(0), 100),
        ];
        s.apply(now, Command::Produce { records }, &mut |_| {})
            .unwrap();
        s.apply(
            now,
            Command::SetConfig {
                name: "cleanup.policy".into(),
                value: ConfigValue::Text("compact,delete".into()),
            },
            &mut |_| {},
        )
        .unwrap();
        s.apply(
            now,
            Command::SetConfig {
                name: "retention.ms".into(),
                value: ConfigValue::Number(-1),
            },
            &mut |_| {},
        )
        .unwrap();
        s.apply(
            now,
            Command::SetVersion {
                version: KafkaVersion::V3_6,
            },
            &mut |_| {},
        )
        .unwrap();
        s.lookup(OffsetSpec::Timestamp(now)).unwrap();
        s.lookup(OffsetSpec::MaxTimestamp).unwrap();
        s.apply(Timestamp(now.0 + 3_600_000), Command::Tick, &mut |_| {})
            .unwrap();
        s.apply(
            Timestamp(now.0 + 3_600_000),
            Command::DeleteRecords { offset: 1 },
            &mut |_| {},
        )
        .unwrap();
        s.apply(
            Timestamp(now.0 + 3_600_000),
            Command::RunRetention,
            &mut |_| {},
        )
        .unwrap();
        s.step(&mut |_| {}).unwrap().unwrap();
        s.step(&mut |_| {}).unwrap().unwrap();
        let text = SCENARIO;
        let compact = s.journal().to_compact(Some(text));
        assert!(compact.starts_with("1."), "{compact}");
        assert!(
            compact.contains(&format!("~p{T0}_0x2*@-1k8v7e1,2*0k0~")),
            "{compact}"
        );
        assert!(compact.ends_with("~s2"), "{compact}");
        let entries = Journal::entries_from_compact(&compact, Some(text)).unwrap();
        assert_eq!(entries, s.journal().entries);
        let journal = Journal {
            source: s.journal().source.clone(),
            entries,
        };
        let again = journal.replay(parse(text).unwrap()).unwrap();
        assert_eq!(format!("{:?}", again.runner()), format!("{:?}", s.runner()));
        // serde too
        let json = serde_json::to_string(s.journal()).unwrap();
        assert_eq!(
            serde_json::from_str::<Journal>(&json).unwrap(),
            *s.journal()
        );
    }

    #[test]
    fn damaged_and_foreign_journals_say_why() {
        let err = |c: &str| {
            Journal::entries_from_compact(c, Some(SCENARIO))
                .unwrap_err()
                .to_string()
        };
        assert_eq!(err("2~s"), "the saved moment is in format \"2\", which this version of Logtime cannot read (it reads format 1)");
        assert_eq!(err("x~s"), "the saved moment is damaged (truncated or edited): expected a format number at the start, found \"x\"");
        assert_eq!(err("1.00000000~s"), "the saved moment was made with a different version of this scenario, so it cannot be rebuilt exactly");
        assert_eq!(err("1~s~p12_0k"), "the saved moment is damaged (truncated or edited): entry 1: the key size \"\" is not a number");
        assert_eq!(err("1~s~p"), "the saved moment is damaged (truncated or edited): entry 1: the time \"\" is not a number");
        assert_eq!(
            err("1~q"),
            "the saved moment is damaged (truncated or edited): entry 0: unknown entry kind 'q'"
        );
        assert_eq!(err("1~c5_a%7"), "the saved moment is damaged (truncated or edited): entry 0: unknown escape \"%7\" in \"a%7\"");
        assert_eq!(err("1~c5_a"), "the saved moment is damaged (truncated or edited): entry 0: a config entry has no value");
        assert_eq!(err("1~v5_2.8"), "the saved moment is damaged (truncated or edited): entry 0: unknown Kafka version \"2.8\"");
        // Sizes a link may ask for are bounded before anything is allocated.
        assert_eq!(err("1~s100001"), "the saved moment is damaged (truncated or edited): entry 0: the step count 100001 is out of range (a saved moment holds at most 100000 entries)");
        assert!(err("1~s99999~s2").contains("entry 1: the step count 2 is out of range"));
        assert!(
            err("1~s100000~r5").contains("entry 1: a saved moment holds at most 100000 entries")
        );
        assert!(err("1~p5_0x100001").contains("the repeat count 100001 is out of range"));
        assert!(err("1~p5_0x100000*0").contains("the repeat count 1 is out of range"));
        // 2,000 batches of 100,000 records (a 48 KB link): refused at the eleventh batch.
        let bomb = format!("1{}", "~p5_0x100000".repeat(2_000));
        assert_eq!(err(&bomb), "the saved moment is damaged (truncated or edited): entry 10: the batches hold 1100000 records by this entry; a saved moment holds at most 1000000");
        assert!(Journal::entries_from_compact(
            &"~p5_0x100000".repeat(10).replacen('~', "1~", 1),
            None
        )
        .is_ok());
        // Well-formed but not replayable: the clock would go backwards, or too many steps.
        let journal = Journal {
            source: Source::Builtin("t".into()),
            entries: Journal::entries_from_compact("1~s4", None).unwrap(),
        };
        let e = journal.replay(parse(SCENARIO).unwrap()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the saved moment cannot be replayed: entry 3: the scenario has only 3 steps"
        );
        let journal = Journal {
            source: Source::Builtin("t".into()),
            entries: Journal::entries_from_compact("1~t5", None).unwrap(),
        };
        assert!(journal
            .replay(parse(SCENARIO).unwrap())
            .unwrap_err()
            .to_string()
            .contains("entry 0"));
    }

    #[test]
    fn rewind_keeps_the_prefix_and_hands_back_the_rest() {
        let mut s = session();
        s.step(&mut |_| {}).unwrap().unwrap();
        let now = s.runner().now();
        s.apply(
            now,
            Command::Produce {
                records: vec![Record::at(now)],
            },
            &mut |_| {},
        )
        .unwrap();
        s.step(&mut |_| {}).unwrap().unwrap();
        assert_eq!(s.journal().steps_run(), 2);
        assert_eq!(s.journal().actions().count(), 1);
        let keep = s.journal().prefix_for_steps(1);
        assert_eq!(keep, 2, "step 1 and the batch after it");
        let (back, dropped) = s.rewind(keep).unwrap();
        assert_eq!(dropped, vec![Entry::Step]);
        assert_eq!(back.runner().partition().record_count(), 2);
        let (start, dropped) = s.rewind(s.journal().prefix_for_steps(0)).unwrap();
        assert_eq!(dropped.len(), 3);
        assert_eq!(start.runner().partition().record_count(), 0);
        assert_eq!(dropped[1].describe(), "sent a batch of 1 record");
    }
}
