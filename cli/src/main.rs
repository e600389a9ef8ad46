//! `logtime`: replay, check and explain Logtime scenario files (see `docs/scenarios.md`).

mod explain;
mod inspect;

use logtime_core::scenario::{
    parse, run, ProduceOutcome, Report, Scenario, ScenarioError, Step, StepOutcome,
};
use logtime_core::KafkaVersion;
use std::process::ExitCode;

/// The `--help` text; the version presets come from core's table.
fn usage_text() -> String {
    format!(
        "\
logtime: replay scenarios of a Kafka partition's record timestamps

USAGE:
    logtime run FILE         replay FILE and print the JSON report {{\"steps\": [...], \"final\": STATE}}
    logtime check FILE...    replay each FILE and print a one-line summary; exit 1 if any fails
    logtime explain FILE     narrate what happened at each step of FILE, and why
{inspect}    logtime gen --seed S     print a random scenario (the same for the same seed), for testing
                             against Kafka (scripts/kafka-diff.sh)
    logtime --help           print this help

A scenario is a JSON file: the Kafka version ({}), topic and broker configs by
their Kafka names, the broker clock at the start, and steps (produce, advance, at, retention,
lookup, delete_records, config, snapshot, high_watermark). See docs/scenarios.md.

Kafka's refusals (a rejected batch, a refused DeleteRecords or lookup) are part of the report.
Bad input (unknown config or step, malformed time, clock moving backwards, JSON syntax) makes
the command exit 1 with one line on stderr naming the step, the field and the reason.
",
        KafkaVersion::keys_for_people(),
        inspect = inspect::usage(),
    )
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        None => {
            eprintln!("logtime: missing command (try logtime --help)");
            ExitCode::from(2)
        }
        Some("-h" | "--help" | "help") => {
            print!("{}", usage_text());
            ExitCode::SUCCESS
        }
        Some("run") => match &args[1..] {
            [file] => match load(file)
                .and_then(|s| run(&s).map_err(|e| Failure::Scenario(file.clone(), e)))
            {
                Ok(report) => {
                    println!(
                        "{}",
                        serde_json::to_string_pretty(&report).expect("reports serialise")
                    );
                    ExitCode::SUCCESS
                }
                Err(f) => f.exit(),
            },
            _ => usage("run takes exactly one FILE"),
        },
        Some("explain") => match &args[1..] {
            [file] => match load(file)
                .and_then(|s| explain::explain(&s).map_err(|e| Failure::Scenario(file.clone(), e)))
            {
                Ok(text) => {
                    print!("{text}");
                    ExitCode::SUCCESS
                }
                Err(f) => f.exit(),
            },
            _ => usage("explain takes exactly one FILE"),
        },
        Some("gen") => match &args[1..] {
            [flag, seed] if flag == "--seed" => match seed.parse::<u64>() {
                Ok(seed) => {
                    print!("{}", logtime_cli::gen::scenario(seed));
                    ExitCode::SUCCESS
                }
                Err(_) => usage(&format!(
                    "gen --seed takes a non-negative integer, not {seed:?}"
                )),
            },
            _ => usage("gen takes --seed S"),
        },
        Some("check") => {
            if args.len() < 2 {
                return usage("check takes at least one FILE");
            }
            let mut failed = false;
            for file in &args[1..] {
                match load(file)
                    .and_then(|s| check(&s).map_err(|e| Failure::Scenario(file.clone(), e)))
                {
                    Ok(summary) => println!("{file}: ok: {summary}"),
                    Err(f) => {
                        failed = true;
                        println!("{file}: error: {}", f.reason());
                    }
                }
            }
            if failed {
                ExitCode::FAILURE
            } else {
                ExitCode::SUCCESS
            }
        }
        Some("inspect") => match inspect::run(&args[1..]) {
            Ok(out) => {
                print!("{out}");
                ExitCode::SUCCESS
            }
            Err(inspect::Fail(e)) => {
                eprintln!("{}", format!("logtime: inspect: {e}").replace('\n', " "));
                ExitCode::FAILURE
            }
        },
        Some(other) => usage(&format!("unknown command {other:?}")),
    }
}

fn usage(why: &str) -> ExitCode {
    eprintln!("logtime: {why} (try logtime --help)");
    ExitCode::from(2)
}

enum Failure {
    Io(String, String),
    Scenario(String, ScenarioError),
}

impl Failure {
    fn reason(&self) -> String {
        match self {
            Failure::Io(_, e) => format!("cannot read the file: {e}"),
            Failure::Scenario(_, e) => e.to_string(),
        }
    }

    fn exit(self) -> ExitCode {
        let file = match &self {
            Failure::Io(f, _) | Failure::Scenario(f, _) => f.clone(),
        };
        // One line: the error's Display never contains a newline, but a file name might.
        let line = format!("logtime: {file}: {}", self.reason()).replace('\n', " ");
        eprintln!("{line}");
        ExitCode::FAILURE
    }
}

fn load(file: &str) -> Result<Scenario, Failure> {
    let text =
        std::fs::read_to_string(file).map_err(|e| Failure::Io(file.to_string(), e.to_string()))?;
    parse(&text).map_err(|e| Failure::Scenario(file.to_string(), e))
}

/// Replays a scenario and summarises it on one line.
fn check(s: &Scenario) -> Result<String, ScenarioError> {
    let report = run(s)?;
    Ok(summary(s, &report))
}

fn summary(s: &Scenario, report: &Report) -> String {
    let (mut appended, mut rejected) = (0u64, 0u64);
    for (step, r) in s.steps.iter().zip(&report.steps) {
        let (Step::Produce(p), StepOutcome::Produce(outcome)) = (step, &r.outcome) else {
            continue;
        };
        let n = p.records.len() as u64;
        match outcome {
            ProduceOutcome::Traffic(t) => {
                appended += t.records_appended;
                rejected += t.rejected_batches * n;
            }
            ProduceOutcome::Appended(_) => appended += n,
            ProduceOutcome::Rejected(_) => rejected += n,
            ProduceOutcome::Empty => {}
        }
    }
    let f = &report.final_state;
    format!(
        "{} steps, {appended} records appended, {rejected} rejected, {} segments at the end, log start offset {}, log end offset {}",
        report.steps.len(),
        f.segments.len(),
        f.log_start_offset,
        f.log_end_offset
    )
}
