//! Running a scenario through both sides: `logtime run` and the Kafka oracle's `oracle-bin run`
//! (`../shared/kafka-oracle`, Apache Kafka 4.1.1's storage code; the project only points at it).
//!
//! Each oracle run starts a JVM. To keep hundreds of replays to minutes, runs go in parallel
//! (one per core) and share a class-data archive made by the first run (`-XX:SharedArchiveFile`,
//! handed to the JVM through `JAVA_TOOL_OPTIONS`, so the oracle's own launcher is used
//! unchanged); that halves the JVM's start-up. An archive older than the oracle's jar is made
//! again: the JVM refuses one made from another jar. The JVM's own warnings (such as a refused
//! archive) go to stderr, since by default it prints them on stdout, before the JSON report.

use crate::compare::Outcome;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// The environment variable that overrides where the oracle lives.
pub const ORACLE_ENV: &str = "LOGTIME_ORACLE";

/// `JAVA_TOOL_OPTIONS` for every oracle run: the JVM's log (warnings included) on stderr only.
const JVM_LOG_TO_STDERR: &str = "-Xlog:disable -Xlog:all=warning:stderr";

/// The oracle's directory: `$LOGTIME_ORACLE`, else `../shared/kafka-oracle` beside the
/// repository root. `Err` says why it cannot run (no directory, not built, no `java`).
pub fn locate(repo_root: &Path) -> Result<PathBuf, String> {
    let dir = match std::env::var_os(ORACLE_ENV) {
        Some(d) if !d.is_empty() => PathBuf::from(d),
        _ => repo_root.join("../shared/kafka-oracle"),
    };
    if !dir.join("oracle-bin").is_file() {
        return Err(format!(
            "no Kafka oracle at {} (set {ORACLE_ENV})",
            dir.display()
        ));
    }
    if !dir.join("lib/logtime-oracle.jar").is_file() {
        return Err(format!(
            "the Kafka oracle at {} is not built",
            dir.display()
        ));
    }
    let java = Command::new("java").arg("-version").output();
    if !java.is_ok_and(|o| o.status.success()) {
        return Err("no java on PATH (scripts/setup.sh installs it)".into());
    }
    Ok(dir)
}

/// How a side's process ended, as an [`Outcome`]: the JSON on stdout, or the refusal line.
fn outcome(cmd: &mut Command, who: &str) -> Outcome {
    match cmd.output() {
        Err(e) => Outcome::Refused(format!("{who} did not start: {e}")),
        Ok(out) if out.status.success() => match serde_json::from_slice(&out.stdout) {
            Ok(v) => Outcome::Report(v),
            Err(e) => Outcome::Refused(format!("{who} printed no JSON report: {e}")),
        },
        Ok(out) => {
            let stderr = String::from_utf8_lossy(&out.stderr);
            // The JVM may say "Picked up JAVA_TOOL_OPTIONS" first: keep the last line.
            let line = stderr.lines().rev().find(|l| !l.trim().is_empty());
            Outcome::Refused(
                line.unwrap_or("exited without a message")
                    .trim()
                    .to_string(),
            )
        }
    }
}

/// Replays `file` with `logtime run`.
pub fn run_logtime(logtime: &Path, file: &Path) -> Outcome {
    outcome(Command::new(logtime).arg("run").arg(file), "logtime")
}

/// The Kafka oracle, with an optional class-data archive for faster JVM starts.
#[derive(Clone, Debug)]
pub struct Oracle {
    dir: PathBuf,
    archive: Option<PathBuf>,
}

impl Oracle {
    /// The oracle in `dir`. When `archive` is given, the first replay writes a class-data
    /// archive there (if none exists) and the later ones load it.
    pub fn new(dir: PathBuf, archive: Option<PathBuf>) -> Oracle {
        Oracle { dir, archive }
    }

    /// Replays `file` with `oracle-bin run` once to make the class-data archive, if one was
    /// asked for and is missing. A failure leaves the replays without it.
    pub fn warm_up(&mut self, file: &Path) {
        let Some(a) = self.archive.clone() else {
            return;
        };
        let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
        let jar = modified(&self.dir.join("lib/logtime-oracle.jar"));
        if a.is_file() && (jar.is_none() || modified(&a) < jar) {
            let _ = std::fs::remove_file(&a);
        }
        if !a.is_file() {
            let _ = Command::new(self.dir.join("oracle-bin"))
                .arg("run")
                .arg(file)
                .env(
                    "JAVA_TOOL_OPTIONS",
                    format!(
                        "{JVM_LOG_TO_STDERR} -XX:ArchiveClassesAtExit={}",
                        a.display()
                    ),
                )
                .output();
        }
        if !a.is_file() {
            self.archive = None;
        }
    }

    /// Replays `file` with `oracle-bin run`.
    pub fn run(&self, file: &Path) -> Outcome {
        let mut cmd = Command::new(self.dir.join("oracle-bin"));
        cmd.arg("run").arg(file);
        let options = match &self.archive {
            Some(a) => format!("{JVM_LOG_TO_STDERR} -XX:SharedArchiveFile={}", a.display()),
            None => JVM_LOG_TO_STDERR.to_string(),
        };
        cmd.env("JAVA_TOOL_OPTIONS", options);
        outcome(&mut cmd, "oracle-bin")
    }
}

/// `f` over every item on `jobs` threads; results in the items' order.
pub fn parallel<T: Sync, R: Send>(items: &[T], jobs: usize, f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let next = AtomicUsize::new(0);
    let results: Vec<Mutex<Option<R>>> = items.iter().map(|_| Mutex::new(None)).collect();
    std::thread::scope(|s| {
        for _ in 0..jobs.max(1) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(item) = items.get(i) else { break };
                let r = f(item);
                *results[i]
                    .lock()
                    .expect("no worker panics holding the lock") = Some(r);
            });
        }
    });
    results
        .into_iter()
        .map(|m| {
            m.into_inner()
                .expect("no worker panicked")
                .expect("every item ran")
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parallel_keeps_the_order() {
        let items: Vec<u64> = (0..100).collect();
        assert_eq!(
            parallel(&items, 3, |x| x * 2),
            (0..100).map(|x| x * 2).collect::<Vec<_>>()
        );
        assert_eq!(parallel(&items[..0], 2, |x| *x), Vec::<u64>::new());
    }

    #[test]
    fn a_missing_oracle_says_where_it_looked() {
        if std::env::var_os(ORACLE_ENV).is_some() {
            return;
        }
        let e = locate(Path::new("/nonexistent/repo")).unwrap_err();
        assert!(e.contains("kafka-oracle") || e.contains(ORACLE_ENV), "{e}");
    }
}
