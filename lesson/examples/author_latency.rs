//! How long one author-mode command takes, live check included (parse, up to four variants
//! checked, the default variant walked for bites, answers and previews): what a page waits for
//! after each click or keystroke that changes the lesson. `scripts/measure-author.sh` runs it.
//!
//! `cargo run --release -p logtime-lesson --example author_latency` prints, per case, the
//! median and the slowest command in ms:
//! * `drill`: issue 38's drill built by its eight commands;
//! * `steps-N`: a narration edit on a lesson of N recorded one-record batches (one segment
//!   each), which the check replays in full;
//! * `imported-N`: a note added to a walkthrough whose `log` is a partition of N records in
//!   1,000-record batches (as "Start a walkthrough from this partition" gives).

use logtime_core::import::to_scenario;
use logtime_core::scenario::{parse, Entry, Runner};
use logtime_lesson::author::{AskKind, AuthorCommand, Authoring, MetaEdit, Start};
use logtime_lesson::LessonKind;
use logtime_model::batch::Record;
use logtime_model::partition::Command;
use logtime_model::units::Timestamp;
use std::time::Instant;

const T: Timestamp = Timestamp(1_804_842_000_000);
const DAY: i64 = 86_400_000;

fn empty(configs: &[(&str, &str)]) -> Authoring {
    let start = Start::Empty {
        kafka: "4.0".into(),
        configs: configs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        start: T,
    };
    Authoring::new(start).expect("an empty start").0
}

fn batch(stamp: i64, value_bytes: u32) -> AuthorCommand {
    AuthorCommand::Record(Entry::Command {
        at: T,
        command: Command::Produce {
            records: vec![Record::with_key(Timestamp(T.0 + stamp), None, value_bytes)],
        },
    })
}

/// Applies each command, timing it; returns the times in ms.
fn timed(a: &mut Authoring, cmds: Vec<AuthorCommand>) -> Vec<f64> {
    cmds.into_iter()
        .map(|c| {
            let t = Instant::now();
            a.apply(T, c).expect("the command applies");
            t.elapsed().as_secs_f64() * 1000.0
        })
        .collect()
}

fn report(case: &str, mut ms: Vec<f64>) {
    ms.sort_by(f64::total_cmp);
    let median = ms[ms.len() / 2];
    let max = ms[ms.len() - 1];
    println!(
        "{case}: {} commands, median {median:.2} ms, slowest {max:.2} ms",
        ms.len()
    );
}

fn drill() {
    let mut a = empty(&[("retention.ms", "1d"), ("segment.bytes", "1MiB")]);
    let cmds = vec![
        AuthorCommand::SetMeta(MetaEdit::Title(Some("A replay".into()))),
        AuthorCommand::SetMeta(MetaEdit::Kind(LessonKind::Drill)),
        batch(-3 * DAY, 600_000),
        batch(-71 * 3_600_000, 600_000),
        batch(0, 600_000),
        AuthorCommand::SetNarration {
            step: 1,
            text: "A replay job sends events from **three days ago**.".into(),
        },
        AuthorCommand::AddQuestion {
            at: 4,
            ask: AskKind::StrikeSegments,
            pointing: None,
            text: "Which segments does the next retention check delete?".into(),
        },
        AuthorCommand::SetPause {
            step: 3,
            pause: true,
        },
    ];
    report("drill", timed(&mut a, cmds));
}

fn steps(n: usize) {
    let mut a = empty(&[("segment.bytes", "1MiB")]);
    for k in 0..n {
        a.apply(T, batch(-(k as i64), 600_000)).expect("a batch");
    }
    let cmds = (0..9)
        .map(|k| AuthorCommand::SetNarration {
            step: 1 + k * (n / 10),
            text: format!("Batch {k}."),
        })
        .collect();
    report(&format!("steps-{n}"), timed(&mut a, cmds));
}

fn imported(records: u64) {
    let json = format!(
        r#"{{"kafka": "4.0", "start": "2027-03-12T09:00:00Z",
            "steps": [{{"produce": {{"batches": {}, "every": "1s",
                        "records": [{{"timestamp": "now"}}], "records_per_batch": 1000}}}}]}}"#,
        records / 1000
    );
    // Without `records_per_batch` in the grammar, a batch of 1,000 identical records is
    // written out.
    let json = json.replace(
        r#"[{"timestamp": "now"}], "records_per_batch": 1000"#,
        &format!("[{}]", vec![r#"{"timestamp": "now"}"#; 1000].join(", ")),
    );
    let mut r = Runner::new(parse(&json).expect("the scenario parses"));
    while let Some(s) = r.step(&mut |_| {}) {
        s.expect("the step runs");
    }
    let doc = to_scenario(r.partition(), "imported");
    let t = Instant::now();
    let (mut a, _) = Authoring::new(Start::Imported(doc)).expect("an imported start");
    let start_ms = t.elapsed().as_secs_f64() * 1000.0;
    let cmds = (0..5)
        .map(|k| AuthorCommand::AddNote {
            at: 1,
            text: format!("Note {k}."),
        })
        .collect();
    let ms = timed(&mut a, cmds);
    println!(
        "imported-{records}: start {start_ms:.1} ms, document {} bytes",
        a.document().len()
    );
    report(&format!("imported-{records}"), ms);
}

fn main() {
    drill();
    for n in [100, 1000] {
        steps(n);
    }
    for n in [10_000, 100_000] {
        imported(n);
    }
}
