//! `logtime`: replay, check and explain Logtime scenario and lesson files (see
//! `docs/scenarios.md`).

mod explain;
mod grade;
mod inspect;
mod output;

use logtime_cli::terminal::{escape, escape_lines};
use logtime_core::scenario::{
    bites::{self, Bite},
    narrate, Json, ProduceOutcome, Runner, Scenario, ScenarioError, Step, StepOutcome,
    MAX_SCENARIO_BYTES,
};
use logtime_lesson::{self as lesson, Concrete, Lesson, Pick};
use logtime_model::KafkaVersion;
use output::{Indent, Spool};
use std::io::{Read, Write};
use std::process::ExitCode;

/// The `--help` text; the version presets come from core's table.
fn usage_text() -> String {
    format!(
        "\
logtime: replay scenarios and lessons of a Kafka partition's record timestamps

USAGE:
    logtime run [--seed N] FILE         replay FILE and print the JSON report {{\"steps\": [...], \"final\": STATE}}
    logtime check [--seed N] FILE...    check each FILE and print a one-line summary; exit 1 if any fails
    logtime explain [--seed N] FILE     narrate what happened at each step of FILE, and why;
                                        for a lesson, print the trainer's answer sheet
{inspect}{render}    logtime schema [scenario|lesson]    print the JSON Schema of scenario (default) or lesson files,
                                        for editors (served with the page as static/schema/*.json)
    logtime gen --seed S                print a random scenario (the same for the same seed),
                                        for testing against Kafka (scripts/kafka-diff.sh)
    logtime grade --lesson FILE [--csv] RESULT...
                                        re-score learners' results (codes, or files of codes)
                                        by replaying them through the lesson; print the class
                                        table (--csv: as CSV)
    logtime --help                      print this help

FILE may be - to read the scenario or lesson from standard input.

A scenario is a JSON file: the Kafka version ({}), topic and broker configs by
their Kafka names, the broker clock at the start, and steps (produce, advance, at, retention,
lookup, delete_records, config, snapshot, high_watermark, version). A lesson adds narration,
notes, questions, tasks, variants, a post-mortem and a downstream stream processor. See
docs/scenarios.md.

--seed N picks a lesson's variant (without it: the numbers the lesson was written with). check
without --seed checks those and every variant (at most {MAX_CHECKED} of them, spread evenly).

Kafka's refusals (a rejected batch, a refused DeleteRecords or lookup) are part of the report.
Bad input (unknown config or step, malformed time, clock moving backwards, JSON syntax) and every
way a lesson can be wrong (a target that does not exist, a stated answer the model disagrees
with, a goal the solution does not reach) make the command exit 1 with one line per error
naming the step, the field and the reason.
",
        KafkaVersion::keys_for_people(),
        inspect = inspect::usage(),
        render = logtime_cli::render::usage(),
    )
}

/// The most variants `check` replays per lesson.
const MAX_CHECKED: u64 = 1000;

/// `--seed N` anywhere among the arguments, and the rest.
fn options(args: &[String]) -> Result<(Option<u64>, Vec<String>), String> {
    let mut seed = None;
    let mut rest = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == "--seed" {
            let n = it.next().ok_or("--seed needs a number")?;
            seed = Some(
                n.parse::<u64>()
                    .map_err(|_| format!("--seed takes a non-negative integer, not {n:?}"))?,
            );
        } else {
            rest.push(a.clone());
        }
    }
    Ok((seed, rest))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(command) = args.first().map(String::as_str) else {
        eprintln!("logtime: missing command (try logtime --help)");
        return ExitCode::from(2);
    };
    if matches!(command, "-h" | "--help" | "help") {
        print!("{}", usage_text());
        return ExitCode::SUCCESS;
    }
    // gen and inspect read their own options (gen's --seed is not a lesson variant).
    match command {
        "gen" => return gen(&args[1..]),
        "inspect" => return inspect(&args[1..]),
        "schema" => return schema(&args[1..]),
        "render" => return render(&args[1..]),
        "grade" => return grade(&args[1..]),
        _ => {}
    }
    let (seed, files) = match options(&args[1..]) {
        Ok(o) => o,
        Err(e) => return usage(&e),
    };
    let pick = seed.map_or(Pick::Default, Pick::Seed);
    match command {
        "run" => run_command(&files, pick),
        "explain" => explain_command(&files, pick),
        "check" => check_command(&files, seed),
        other => usage(&format!("unknown command {other:?}")),
    }
}

/// `logtime run FILE`: the JSON report of the replay.
fn run_command(files: &[String], pick: Pick) -> ExitCode {
    match files {
        [file] => match load(file, pick).and_then(|c| {
            let mut spool = Spool::default();
            write_report(c.scenario, &mut spool).map_err(|e| match e {
                ReportError::Scenario(e) => Failure::Scenario(file.clone(), e),
                ReportError::Io(e) => Failure::Output(file.clone(), e.to_string()),
            })?;
            Ok(spool)
        }) {
            Ok(spool) => print_out(|out| spool.finish(out)),
            Err(f) => f.exit(),
        },
        _ => usage("run takes exactly one FILE"),
    }
}

/// `logtime explain FILE`: the replay (or a lesson's answer sheet) for people.
fn explain_command(files: &[String], pick: Pick) -> ExitCode {
    match files {
        [file] => match load(file, pick).and_then(|c| {
            if c.is_lesson {
                explain::sheet(&c)
            } else {
                explain::explain(&c.scenario)
            }
            .map_err(|e| Failure::Scenario(file.clone(), e))
        }) {
            Ok(text) => print_out(|out| out.write_all(escape_lines(&text).as_bytes())),
            Err(f) => f.exit(),
        },
        _ => usage("explain takes exactly one FILE"),
    }
}

/// `logtime check FILE...`: each file checked, its warnings and errors one a line.
fn check_command(files: &[String], seed: Option<u64>) -> ExitCode {
    if files.is_empty() {
        return usage("check takes at least one FILE");
    }
    let mut failed = false;
    for file in files {
        match check_file(file, seed) {
            Ok((summary, bites)) => {
                // Warnings, not failures: the replay did something the file does not
                // say, which a stated answer may already account for.
                for b in bites {
                    let line = format!("step {}: {}", b.step, b.sentence());
                    println!("{}: warning: {}", escape(file), escape(&line));
                }
                println!("{}: ok: {}", escape(file), escape(&summary))
            }
            Err(lines) => {
                failed = true;
                for l in lines {
                    println!("{}: error: {}", escape(file), escape(&l));
                }
            }
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// `logtime grade --lesson FILE [--csv] RESULT...`.
fn grade(args: &[String]) -> ExitCode {
    let mut csv = false;
    let mut lesson_file = None;
    let mut results = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--csv" => csv = true,
            "--lesson" => match it.next() {
                Some(f) => lesson_file = Some(f.clone()),
                None => return usage("--lesson needs a lesson FILE"),
            },
            _ => results.push(a.clone()),
        }
    }
    let Some(file) = lesson_file else {
        return usage("grade needs --lesson FILE: the lesson the results were made with");
    };
    if results.is_empty() {
        return usage("grade takes at least one RESULT (a code, or a file of codes)");
    }
    let lesson = match read(&file) {
        Ok(l) => l,
        Err(f) => {
            eprintln!(
                "{}",
                escape(&format!("logtime: grade: {file}: {}", f.reason()))
            );
            return ExitCode::FAILURE;
        }
    };
    let text = grade::run(&lesson, &results, csv);
    print_out(|out| out.write_all(escape_lines(&text).as_bytes()))
}

/// `logtime gen --seed S`: a random scenario for kafka-diff.
fn gen(args: &[String]) -> ExitCode {
    match args {
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
    }
}

/// `logtime schema [scenario|lesson]`: the JSON Schema editors validate files with.
fn schema(args: &[String]) -> ExitCode {
    let which = match args {
        [] => "scenario",
        [w] => w.as_str(),
        _ => return usage("schema takes at most one of scenario or lesson"),
    };
    match logtime_cli::schema::text(which) {
        Some(text) => print_out(|out| out.write_all(text.as_bytes())),
        None => usage(&format!(
            "schema: unknown kind {which:?} (expected scenario or lesson)"
        )),
    }
}

/// `logtime render ...`: the picture of a moment, written to `-o FILE`.
fn render(args: &[String]) -> ExitCode {
    use logtime_cli::render;
    let a = match render::parse_args(args) {
        Ok(a) => a,
        Err(e) => return usage(&e),
    };
    let made = render::svg(&a, &read_text).and_then(|svg| {
        if a.out.ends_with(".png") {
            render::png(&svg)
        } else {
            Ok(svg.into_bytes())
        }
    });
    let written = made.and_then(|bytes| {
        std::fs::write(&a.out, bytes)
            .map_err(|e| format!("{}: cannot write the picture: {e}", a.out))
    });
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!(
                "{}",
                escape(&format!("logtime: render: {e}").replace('\n', " "))
            );
            ExitCode::FAILURE
        }
    }
}

/// `logtime inspect ...`: a real partition or a broker's log directory.
fn inspect(args: &[String]) -> ExitCode {
    match inspect::run(args) {
        Ok(out) => {
            print!("{}", escape_lines(&out));
            ExitCode::SUCCESS
        }
        Err(inspect::Fail(e)) => {
            eprintln!(
                "{}",
                escape(&format!("logtime: inspect: {e}").replace('\n', " "))
            );
            ExitCode::FAILURE
        }
    }
}

fn usage(why: &str) -> ExitCode {
    eprintln!("logtime: {} (try logtime --help)", escape(why));
    ExitCode::from(2)
}

/// Writes to stdout, buffered; a closed pipe or a full disk is one error line and exit 1.
fn print_out(f: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) -> ExitCode {
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::with_capacity(1 << 16, stdout.lock());
    match f(&mut out).and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("logtime: cannot write to stdout: {e}");
            ExitCode::FAILURE
        }
    }
}

enum Failure {
    Io(String, String),
    Scenario(String, ScenarioError),
    Output(String, String),
}

impl Failure {
    fn reason(&self) -> String {
        match self {
            Failure::Io(_, e) => format!("cannot read the file: {e}"),
            Failure::Scenario(_, e) => e.to_string(),
            Failure::Output(_, e) => format!("cannot write the report: {e}"),
        }
    }

    fn exit(self) -> ExitCode {
        let file = match &self {
            Failure::Io(f, _) | Failure::Scenario(f, _) | Failure::Output(f, _) => f.clone(),
        };
        // One line: the error's Display never contains a newline, but a file name might.
        let line = format!("logtime: {file}: {}", self.reason()).replace('\n', " ");
        eprintln!("{}", escape(&line));
        ExitCode::FAILURE
    }
}

/// A scenario or lesson file's text (`-` is standard input), refused early when it is larger
/// than [`MAX_SCENARIO_BYTES`] (`logtime run /dev/zero` stops after 16 MiB, not at memory's end).
fn read_text(file: &str) -> Result<String, String> {
    let too_large = || {
        format!(
            "the file is larger than {MAX_SCENARIO_BYTES} bytes ({} MiB), the most logtime reads as a scenario",
            MAX_SCENARIO_BYTES >> 20
        )
    };
    let mut bytes = Vec::new();
    if file == "-" {
        std::io::stdin()
            .lock()
            .take(MAX_SCENARIO_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| format!("standard input: {e}"))?;
    } else {
        let f = std::fs::File::open(file).map_err(|e| e.to_string())?;
        if f.metadata()
            .is_ok_and(|m| m.is_file() && m.len() > MAX_SCENARIO_BYTES)
        {
            return Err(too_large());
        }
        f.take(MAX_SCENARIO_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| e.to_string())?;
    }
    if bytes.len() as u64 > MAX_SCENARIO_BYTES {
        return Err(too_large());
    }
    String::from_utf8(bytes).map_err(|_| "stream did not contain valid UTF-8".to_string())
}

fn read(file: &str) -> Result<Lesson, Failure> {
    let text = read_text(file).map_err(|e| Failure::Io(file.to_string(), e))?;
    lesson::parse(&text).map_err(|e| Failure::Scenario(file.to_string(), e))
}

/// Why a report could not be written.
enum ReportError {
    Scenario(ScenarioError),
    Io(std::io::Error),
}

impl From<std::io::Error> for ReportError {
    fn from(e: std::io::Error) -> Self {
        ReportError::Io(e)
    }
}

/// Replays `s`, writing the JSON report (`{"steps": [...], "final": STATE}`, pretty-printed) to
/// `out` one step at a time: nothing of a step (a lookup's trace, a snapshot) is kept once it is
/// written.
fn write_report(s: Scenario, out: &mut impl Write) -> Result<(), ReportError> {
    let mut runner = Runner::new(s);
    out.write_all(b"{\n  \"steps\": [")?;
    let mut first = true;
    while let Some(step) = runner.step_summary() {
        let (report, _) = step.map_err(ReportError::Scenario)?;
        out.write_all(if first { b"\n    " } else { b",\n    " })?;
        serde_json::to_writer_pretty(Indent::new(out, b"    "), &Json(&report))
            .map_err(std::io::Error::from)?;
        first = false;
    }
    out.write_all(if first { b"]" } else { b"\n  ]" })?;
    out.write_all(b",\n  \"final\": ")?;
    serde_json::to_writer_pretty(
        Indent::new(out, b"  "),
        &runner.partition().state_serialized(),
    )
    .map_err(std::io::Error::from)?;
    out.write_all(b"\n}\n")?;
    Ok(())
}

/// A scenario or lesson file, at the variant `pick` names.
fn load(file: &str, pick: Pick) -> Result<Concrete, Failure> {
    read(file)?
        .instantiate(pick)
        .map_err(|e| Failure::Scenario(file.to_string(), e))
}

/// Checks a file: a scenario is replayed; a lesson is checked (every variant, or the one a seed
/// picks) and its scenario replayed. The error lines name the variant, step and field; the
/// replay's effects that bite come back beside the summary, at their steps.
fn check_file(file: &str, seed: Option<u64>) -> Result<(String, Vec<Bite>), Vec<String>> {
    let l = read(file).map_err(|f| vec![f.reason()])?;
    let c = match seed {
        Some(s) => l
            .instantiate(Pick::Seed(s))
            .map_err(|e| vec![e.to_string()])?,
        None => l.default_variant().clone(),
    };
    if !c.is_lesson {
        // A plain scenario: replayed from this one copy of its steps.
        drop(l);
        return replay_summary(c.scenario).map_err(|e| vec![e.to_string()]);
    }
    // The lesson check reports bites at file steps; the scenario's own step numbers differ.
    let (replay, _) = replay_summary(c.scenario.clone()).map_err(|e| vec![e.to_string()])?;
    let lines = |variant: &str, errors: Vec<ScenarioError>| -> Vec<String> {
        errors
            .iter()
            .map(|e| {
                if variant.is_empty() {
                    e.to_string()
                } else {
                    format!("{variant}: {e}")
                }
            })
            .collect()
    };
    let s = match seed {
        Some(_) => lesson::check(&c).map_err(|e| lines(&c.variant.label(), e))?,
        None => lesson::check_all(&l, MAX_CHECKED).map_err(|(v, e)| lines(&v, e))?,
    };
    let mut parts = vec![
        narrate::count(s.questions as u64, "question", "questions"),
        narrate::count(s.tasks as u64, "task", "tasks"),
    ];
    if s.expects > 0 {
        parts.push(format!(
            "{} verified",
            narrate::count(s.expects as u64, "stated answer", "stated answers")
        ));
    }
    if s.variants > 1 {
        parts.push(format!(
            "{} of {} variants checked",
            s.variants_checked, s.variants
        ));
    }
    let line = format!(
        "{} \"{}\": {}; {replay}",
        c.meta.kind.key(),
        c.title(),
        parts.join(", ")
    );
    Ok((line, s.bites))
}

/// Replays `s` keeping nothing of each step but what the summary counts and the effects that
/// bite.
fn replay_summary(s: Scenario) -> Result<(String, Vec<Bite>), ScenarioError> {
    let (mut appended, mut rejected, mut steps) = (0u64, 0u64, 0usize);
    let mut found = Vec::new();
    let mut runner = Runner::new(s);
    while let Some(step) = runner.step_summary() {
        let (r, _) = step?;
        steps += 1;
        found.extend(bites::bites(r.index, &r, runner.partition().config()));
        let (Step::Produce(p), StepOutcome::Produce(outcome)) =
            (&runner.scenario().steps[r.index], &r.outcome)
        else {
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
    let p = runner.partition();
    let line = format!(
        "{}, {} appended, {rejected} rejected, {} at the end, log start offset {}, log end offset {}",
        narrate::count(steps as u64, "step", "steps"),
        narrate::count(appended, "record", "records"),
        narrate::count(p.segments().len() as u64, "segment", "segments"),
        p.log_start_offset(),
        p.log_end_offset()
    );
    Ok((line, found))
}
