//! `logtime` on the incident library (`static/incidents/`): every incident's walkthrough and
//! drill pass `check` in every variant, and `explain` prints each as a post-mortem (the summary,
//! the timeline, what happened, why, the fix and, for a drill, the answer sheet) whose numbers
//! come from the model.

use std::path::{Path, PathBuf};

mod common;
use common::{logtime, stdout};

/// The incidents, by number and file stem, and for each a fact its post-mortem must state.
const INCIDENTS: [(u32, &str, &[&str], &[&str]); 8] = [
    (
        1,
        "01-nanoseconds",
        &[
            "segment 280 rolled to a new segment 310 (time)",
            "310: kept: largest timestamp 5 Mar 57195194 13:20",
            "rejected the batch with error 32 INVALID_TIMESTAMP",
            "DeleteRecords to 470",
        ],
        &["  answer: error 0 NONE\n", "  answer: segment 310\n", "  answer: offset 310\n"],
    ),
    (
        2,
        "02-reminder-pins-retention",
        &[
            "retention deleted segments 0 and 10000",
            "20000: kept: largest timestamp 14 Mar 2030 11:20 is stamped about 3 y in the future, so it is not old enough until 21 Mar 2030 11:20",
            "30000: kept: past retention on its own (largest timestamp 3 Mar 2027 23:57) but pinned behind segment 20000",
            "lookup for 5 Mar 2027 00:00 (1804204800000) returned offset 20000",
            "retention deleted segments 20000 and 30000",
        ],
        &["  answer: segment 20000\n", "  answer: segments 0, 10000\n", "  answer: no segment\n"],
    ),
    (
        3,
        "03-replay-into-24h-topic",
        &[
            "already older than retention.ms, so retention deletes it soon after its segment closes",
            "lookup for earliest returned offset 6090",
            "not more than retention.ms 4 d",
        ],
        &["  answer: segments 3000, 4030\n", "  answer: offset 6090\n"],
    ),
    (
        4,
        "04-fixes-that-fail",
        &[
            "stamped by the broker (LogAppendTime)",
            "cleanup.policy has no delete, only the log-start-offset pass runs",
            "DeleteRecords to 461 refused with error 44 POLICY_VIOLATION: \"Records of partition reminders-0 can not be deleted due to the configured policy\"",
            "retention deleted segments 240 and 461",
        ],
        &["  answer: segment 240\n", "  answer: error 44 POLICY_VIOLATION\n"],
    ),
    (
        5,
        "05-rolling-stops",
        &[
            "segment 140 rolled to a new segment 210 (time)",
            "210: kept: largest timestamp 14 Mar 2027 03:25 is stamped about 21 h in the future, so it is not old enough until 15 Mar 2027 03:25",
            "segment 210 rolled to a new segment 1811 (size)",
            "segment 1811 rolled to a new segment 1891 (time)",
        ],
        &["  answer: segment 211\n", "  answer: any value from 300000 to 172799999\n"],
    ),
    (
        6,
        "06-reset-by-time",
        &[
            "lookup for 11 Mar 2027 09:00 (1804755600000) returned offset 14 (stamped 11 Mar 2027 09:04)",
            "lookup for 12 Mar 2027 09:05 (1804842300000) returned offset 102",
            "lookup for 12 Mar 2027 09:15 (1804842900000) found nothing (-1)",
        ],
        &["  answer: offset 14\n", "  answer: offset 20\n", "  answer: offset 102\n"],
    ),
    (
        7,
        "07-upgrade-to-4x",
        &[
            "the broker now behaves as Kafka 4.x",
            "\"Timestamp 1804852800000 of message with offset 0 is out of range. The timestamp should be within [-9223370232009175807, 1804849200000]\"",
        ],
        &["  answer: error 0 NONE\n", "  answer: error 32 INVALID_TIMESTAMP\n"],
    ),
    (
        8,
        "08-event-time-downstream",
        &[
            "downstream, a Kafka Streams application counts the records in tumbling 5 min windows with a grace of 1 min",
            "record 3 (stamped 11 Mar 2027 10:00:45) is dropped as late",
            "record 5 (stamped 24 Jun 57195252 20:26:40) moves stream time to 24 Jun 57195252 20:26:40 (close time 24 Jun 57195252 20:25:40) and closes window 12 Mar 2027 10:00–10:05",
            "record 10 (stamped 12 Mar 2027 10:06:30) is dropped as late: its window 12 Mar 2027 10:05–10:10 had closed when record 5",
        ],
        &["  answer: records 3, 6 to 10\n", "  answer: offset 5\n"],
    ),
];

fn file(stem: &str, kind: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../static/incidents/{stem}-{kind}.json"))
}

#[test]
fn the_library_holds_the_eight_incidents_and_nothing_else() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../static/incidents");
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let want: Vec<String> = INCIDENTS
        .iter()
        .flat_map(|(_, stem, _, _)| {
            [
                format!("{stem}-drill.json"),
                format!("{stem}-walkthrough.json"),
            ]
        })
        .collect();
    assert_eq!(names, want);
}

/// One `check` over the sixteen files: every variant of every lesson.
#[test]
fn every_incident_passes_check_in_every_variant() {
    let files: Vec<PathBuf> = INCIDENTS
        .iter()
        .flat_map(|(_, stem, _, _)| [file(stem, "walkthrough"), file(stem, "drill")])
        .collect();
    let mut args: Vec<&std::ffi::OsStr> = vec!["check".as_ref()];
    args.extend(files.iter().map(|p| p.as_os_str()));
    let out = logtime(&args);
    let all = stdout(&out);
    assert!(out.status.success(), "{all}");
    // The replay's effects that bite (the scheduled checks these incidents are about) are
    // warnings before a file's `ok` line.
    for line in all.lines().filter(|l| !l.contains(": ok: ")) {
        assert!(line.contains(": warning: step "), "{line}");
    }
    let text: String = all
        .lines()
        .filter(|l| l.contains(": ok: "))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(text.lines().count(), 16, "{all}");
    for (line, (n, _, _, _)) in text.lines().zip(INCIDENTS.iter().flat_map(|i| [i, i])) {
        assert!(line.contains(": ok: "), "{line}");
        assert!(line.contains(&format!("\"Incident {n}")), "{line}");
    }
    for line in text.lines().skip(1).step_by(2) {
        assert!(line.contains(": ok: drill "), "{line}");
        if let Some(v) = line
            .split("variants checked")
            .next()
            .filter(|_| line.contains("variants checked"))
        {
            let (done, of) = v.rsplit_once(", ").unwrap().1.split_once(" of ").unwrap();
            assert_eq!(done, of.trim(), "every variant: {line}");
        }
    }
}

/// `explain` prints each incident as a post-mortem, in order: the title with kind, level and
/// length, the one-sentence summary, the timeline with the model's numbers, what happened, why,
/// the fix and, for a drill, the answer sheet.
#[test]
fn explain_prints_each_incident_as_a_post_mortem() {
    for (n, stem, facts, answers) in INCIDENTS {
        for kind in ["walkthrough", "drill"] {
            let p = file(stem, kind);
            let out = logtime(&["explain".as_ref(), p.as_os_str()]);
            let text = stdout(&out);
            assert!(
                out.status.success(),
                "incident {n} {kind}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            let first = text.lines().next().unwrap();
            assert!(
                first.starts_with(&format!("Incident {n}"))
                    && first.contains(&format!(" · {kind} · "))
                    && first.ends_with(" min"),
                "{first}"
            );
            assert!(
                text.lines().nth(1).unwrap().starts_with("  > "),
                "the summary comes first"
            );
            let mut at = 0;
            let mut sections = vec![
                "\nTimeline\n========\n",
                "\nWhat happened\n",
                "\nWhy\n",
                "\nThe fix\n",
            ];
            if kind == "drill" {
                sections.push("\nAnswer sheet\n");
            }
            for s in sections {
                let i = text[at..]
                    .find(s)
                    .unwrap_or_else(|| panic!("incident {n} {kind}: no {s:?} after byte {at}"));
                at += i + s.len();
            }
            if kind == "walkthrough" {
                for f in facts {
                    assert!(text.contains(f), "incident {n} walkthrough: {f:?}\n{text}");
                }
            } else {
                for a in answers {
                    assert!(text.contains(a), "incident {n} drill: {a:?}\n{text}");
                }
                let sheet = &text[text.find("\nAnswer sheet\n").unwrap()..];
                assert!(sheet.contains("\n  1. "), "{sheet}");
            }
        }
    }
}

/// A seed picks a variant: incident 8's drill answers "-1" for the 10:55 window when the stamp
/// ahead is only 59 minutes (4.x defaults), and the post-mortem names the variant.
#[test]
fn a_seed_picks_an_incident_variant() {
    let p = file("08-event-time-downstream", "drill");
    let sheets: Vec<String> = (0..12)
        .map(|s| {
            let seed = s.to_string();
            stdout(&logtime(&[
                "explain".as_ref(),
                "--seed".as_ref(),
                seed.as_ref(),
                p.as_os_str(),
            ]))
        })
        .collect();
    let open = sheets
        .iter()
        .find(|s| s.contains("device clock 59 minutes fast"))
        .expect("a seed picks the 4.x variant");
    assert!(
        open.contains("3. When does 10:55–11:00 close? (step 25): no offset (-1)"),
        "{open}"
    );
    assert!(
        open.contains("window 12 Mar 2027 10:55–11:00 is still open after the last record read"),
        "{open}"
    );
    let ns = sheets
        .iter()
        .find(|s| s.contains("a helper that writes nanoseconds"))
        .expect("a seed picks the 3.9 variant");
    assert!(
        ns.contains("3. When does 10:55–11:00 close? (step 25): offset 5"),
        "{ns}"
    );
}
