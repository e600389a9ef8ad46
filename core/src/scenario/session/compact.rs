//! The journal's compact form: a short, URL-safe, versioned text of its entries (documented on
//! [`COMPACT_VERSION`]), written and read back with every fault named. No Kafka class: this is
//! Logtime's own format for a moment link.

use super::{
    fingerprint, Entry, Journal, JournalError, COMPACT_VERSION, MAX_BATCH_RECORDS, MAX_ENTRIES,
    MAX_MOMENT_RECORDS,
};
use logtime_model::batch::{Header, Record};
use logtime_model::config::{ConfigValue, KafkaVersion};
use logtime_model::lookup::OffsetSpec;
use logtime_model::partition::Command;
use logtime_model::units::{Offset, Timestamp};

impl Journal {
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
            let value = parse_config_value(raw)?;
            command(at, Command::SetConfig { name, value })
        }
        'p' => {
            let at = at(&mut fields)?;
            let records = parse_records(fields.next().unwrap_or_default(), at.0)?;
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

/// A produce entry's batch: its records, `*` between them (none when `list` is empty).
fn parse_records(list: &str, at: i64) -> Result<Vec<Record>, String> {
    let mut records = Vec::new();
    if !list.is_empty() {
        for r in list.split('*') {
            parse_record(r, at, &mut records)?;
            if records.len() > MAX_BATCH_RECORDS {
                return Err(format!("a batch holds at most {MAX_BATCH_RECORDS} records"));
            }
        }
    }
    Ok(records)
}

/// A config entry's value: `n` and a number, or escaped text.
fn parse_config_value(raw: &str) -> Result<ConfigValue, String> {
    Ok(match raw.strip_prefix('n') {
        Some(n) => ConfigValue::Number(number(n, "the value")?),
        None => ConfigValue::Text(unescape(raw)?),
    })
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
