//! Logtime's import worker: reads a partition the reader dropped into the explorer (a broker's
//! segment files, or `kafka-dump-log` text) into a scenario, in a Web Worker.
//!
//! The explorer's page never loads this module until the reader imports something, so the
//! parsers (and, with the `codecs` feature, the decompressors) weigh nothing on the page, and a
//! large segment is read off the page's thread. `static/logtime-import-worker.js` drives it: it
//! reads each file in slices with `FileReaderSync`, feeds them to an [`ImportJob`], posts its
//! progress, and posts the result (or the error, a sentence with the file and the byte position
//! or line) back to the page. The reading itself is [`job`], without I/O and tested natively.

#![forbid(unsafe_code)]

pub mod job;

use logtime_model::{Config, KafkaVersion, Timestamp};
use wasm_bindgen::prelude::*;

fn config(rules: &str) -> Result<Config, String> {
    KafkaVersion::parse(rules)
        .map(Config::defaults)
        .ok_or_else(|| format!("rules: expected {}", KafkaVersion::keys_for_people()))
}

fn report(done: &job::Done) -> Result<String, String> {
    serde_json::to_string(done).map_err(|e| e.to_string())
}

/// An import of dropped files, fed by the worker script.
#[wasm_bindgen]
pub struct ImportJob(job::Job);

#[wasm_bindgen]
impl ImportJob {
    /// Plans the import of `files` (JSON: `[{name, path, size, modified}]`) under the `rules`
    /// preset (`3.6`, `4.0`); refuses files of two partitions, or none.
    #[wasm_bindgen(constructor)]
    pub fn new(files: &str, rules: &str) -> Result<ImportJob, String> {
        let files: Vec<job::Picked> =
            serde_json::from_str(files).map_err(|e| format!("files: {e}"))?;
        let plan = job::plan(&files)?;
        Ok(ImportJob(job::Job::new(files, plan, config(rules)?)))
    }

    /// The index (into the files given) of each file to read, in order.
    pub fn reads(&self) -> Vec<u32> {
        self.0.plan().reads.iter().map(|(i, _)| *i as u32).collect()
    }

    /// Starts read `n`.
    pub fn begin(&mut self, n: usize) {
        self.0.begin(n);
    }

    /// Feeds the next bytes of the current file.
    pub fn feed(&mut self, chunk: &[u8]) -> Result<(), String> {
        self.0.feed(chunk)
    }

    /// Ends the current file.
    pub fn end(&mut self) -> Result<(), String> {
        self.0.end()
    }

    /// Bytes read so far.
    pub fn done(&self) -> f64 {
        self.0.progress().0 as f64
    }

    /// Bytes to read in all.
    pub fn total(&self) -> f64 {
        self.0.progress().1 as f64
    }

    /// The partition at broker time `now` (ms), as JSON: `{scenario, notes, skipped, segments,
    /// bytes}`.
    pub fn finish(self, now: f64) -> Result<String, String> {
        report(&self.0.finish(Timestamp(now as i64))?)
    }
}

/// Pasted `kafka-dump-log` text, imported at broker time `now` (ms) under `rules`; the same JSON
/// as [`ImportJob::finish`].
#[wasm_bindgen]
pub fn paste(text: &str, rules: &str, now: f64) -> Result<String, String> {
    report(&job::paste(text, config(rules)?, Timestamp(now as i64))?)
}
