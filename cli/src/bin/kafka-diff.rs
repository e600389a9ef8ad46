//! `kafka-diff [N] [SEED] [--oracle DIR] [--out DIR] [--jobs J]`: replays N generated scenarios
//! (`logtime gen --seed S` for S = SEED × 1000000 + i) through `logtime run` and the Kafka
//! oracle, compares every field both report (`logtime_cli::compare`), prints each disagreement
//! with the path of the saved scenario, and ends with `agree: A/N`. Exit 0 when all agree.
//!
//! `kafka-diff --files FILE...` does the same for existing scenario files.
//!
//! The oracle is `--oracle DIR`, else `$LOGTIME_ORACLE`, else `../shared/kafka-oracle` beside the
//! repository. Scenarios are written to `--out DIR` (default `target/kafka-diff/seed-SEED`).
//! `scripts/kafka-diff.sh` builds and runs this.

use logtime_cli::compare::{compare_outcomes, Difference, Outcome};
use logtime_cli::oracle::{self, parallel, Oracle};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

const USAGE: &str = "usage: kafka-diff [N] [SEED] [--oracle DIR] [--out DIR] [--jobs J] | kafka-diff [--oracle DIR] --files FILE...";

struct Args {
    n: u64,
    seed: u64,
    oracle: Option<PathBuf>,
    out: Option<PathBuf>,
    jobs: usize,
    files: Vec<PathBuf>,
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        n: 200,
        seed: 1,
        oracle: None,
        out: None,
        jobs: std::thread::available_parallelism().map_or(2, |n| n.get()),
        files: Vec::new(),
    };
    let mut positional = 0;
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let mut value = |name: &str| it.next().ok_or(format!("{name} needs a value"));
        match arg.as_str() {
            "--oracle" => a.oracle = Some(value("--oracle")?.into()),
            "--out" => a.out = Some(value("--out")?.into()),
            "--jobs" => {
                a.jobs = value("--jobs")?
                    .parse()
                    .map_err(|_| "--jobs takes a positive integer".to_string())?
            }
            "--files" => a.files.extend(it.by_ref().map(PathBuf::from)),
            "-h" | "--help" => return Err(String::new()),
            s if positional < 2 && s.parse::<u64>().is_ok() => {
                let v = s.parse::<u64>().expect("checked");
                if positional == 0 {
                    a.n = v;
                } else {
                    a.seed = v;
                }
                positional += 1;
            }
            s => return Err(format!("unexpected argument {s:?}")),
        }
    }
    Ok(a)
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            if !e.is_empty() {
                eprintln!("kafka-diff: {e}");
            }
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let dir = match args
        .oracle
        .clone()
        .map_or_else(|| oracle::locate(&root), Ok)
    {
        Ok(d) => d,
        Err(e) => {
            eprintln!("kafka-diff: {e}");
            return ExitCode::from(2);
        }
    };
    let logtime = std::env::current_exe()
        .ok()
        .and_then(|p| p.parent().map(|d| d.join("logtime")))
        .filter(|p| p.is_file());
    let Some(logtime) = logtime else {
        eprintln!("kafka-diff: no logtime binary beside this one (cargo build -p logtime-cli)");
        return ExitCode::from(2);
    };
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| root.join(format!("target/kafka-diff/seed-{}", args.seed)));
    if let Err(e) = std::fs::create_dir_all(&out) {
        eprintln!("kafka-diff: cannot create {}: {e}", out.display());
        return ExitCode::from(2);
    }
    let files = match scenario_files(&args, &out) {
        Ok(files) => files,
        Err(e) => {
            eprintln!("kafka-diff: {e}");
            return ExitCode::from(2);
        }
    };
    let started = Instant::now();
    let mut kafka = Oracle::new(dir, Some(out.join("oracle-classes.jsa")));
    if let Some(first) = files.first() {
        kafka.warm_up(first);
    }
    let results = parallel(&files, args.jobs, |f: &PathBuf| {
        let l = oracle::run_logtime(&logtime, f);
        let k = kafka.run(f);
        (compare_outcomes(&l, &k), k)
    });
    let agree = report(&files, &results);
    println!(
        "agree: {agree}/{} ({:.0} s, {} jobs)",
        files.len(),
        started.elapsed().as_secs_f64(),
        args.jobs
    );
    if agree == files.len() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// The scenarios to compare: the files given, or `n` generated from the seed and written to
/// `out`.
fn scenario_files(args: &Args, out: &Path) -> Result<Vec<PathBuf>, String> {
    if args.files.is_empty() {
        let seeds: Vec<u64> = (0..args.n)
            .map(|i| args.seed.wrapping_mul(1_000_000).wrapping_add(i))
            .collect();
        let written = parallel(&seeds, args.jobs, |&s| {
            let path = out.join(format!("gen-{s}.json"));
            std::fs::write(&path, logtime_cli::gen::scenario(s))
                .map(|()| path.clone())
                .map_err(|e| format!("cannot write {}: {e}", path.display()))
        });
        written.into_iter().collect()
    } else {
        Ok(args.files.clone())
    }
}

/// Prints each disagreement (the first 20 differences of each) and the refusals both agree
/// on; the number of files on which they agree.
fn report(files: &[PathBuf], results: &[(Vec<Difference>, Outcome)]) -> usize {
    let mut agree = 0;
    for (file, (diffs, k)) in files.iter().zip(results) {
        if diffs.is_empty() {
            agree += 1;
            if let Outcome::Refused(e) = k {
                println!("{}: both refuse it ({e})", shown(file));
            }
            continue;
        }
        println!(
            "DISAGREE {} (replay: logtime run {0}; oracle-bin run {0})",
            shown(file)
        );
        for d in diffs.iter().take(20) {
            println!("  {d}");
        }
        if diffs.len() > 20 {
            println!("  ... and {} more", diffs.len() - 20);
        }
    }
    agree
}

/// A path as short as it can be said from the current directory.
fn shown(p: &Path) -> String {
    let cwd = std::env::current_dir().ok();
    let canon = p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
    cwd.and_then(|c| {
        canon
            .strip_prefix(c.canonicalize().ok()?)
            .ok()
            .map(Path::to_path_buf)
    })
    .unwrap_or(canon)
    .display()
    .to_string()
}
