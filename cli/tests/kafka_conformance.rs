//! Every scenario of `tests/conformance/` replayed by Apache Kafka's own storage code (the oracle
//! in `../shared/kafka-oracle`, or `$LOGTIME_ORACLE`) must agree with `logtime run` on every
//! field both report (`logtime_cli::compare`). The few scenarios outside the oracle's subset are
//! listed below with the reason, and the oracle must refuse them (so the list cannot go stale).
//! Without Java or the oracle the test says so and passes (a clone of the project alone has
//! neither), except under `CI=true`: there a skipped check would read as a passed one, so it
//! fails and says why it could not run.

use logtime_cli::compare::{compare_outcomes, Outcome};
use logtime_cli::oracle::{self, parallel, Oracle};
use std::path::{Path, PathBuf};

/// Scenarios the oracle refuses, and why (see tests/conformance/README.md).
const OUTSIDE_THE_ORACLE: &[(&str, &str)] = &[
    (
        "c06b_latest_tiered",
        "a negative lookup timestamp (-5, the tiered-storage spec): the oracle takes specs by name only",
    ),
    (
        "c07_high_watermark_filter",
        "a high_watermark step (a lagging follower): the oracle has one replica",
    ),
    (
        "d01_time_based_roll_during_append",
        "a produce with an empty record set: the oracle requires at least one record",
    ),
    (
        "d02_roll_jitter_bounds",
        "segment.jitter.ms above 0: Kafka draws the jitter at random",
    ),
    (
        "e01_retention_idempotency",
        "a high_watermark step (a lagging follower): the oracle has one replica",
    ),
    (
        "e10_checkpoint_log_start_offset",
        "a high_watermark step (a lagging follower): the oracle has one replica",
    ),
    (
        "e11_high_watermark_bounds_deletion",
        "a high_watermark step (a lagging follower): the oracle has one replica",
    ),
    (
        "e12_log_start_past_high_watermark",
        "a high_watermark step (a lagging follower): the oracle has one replica",
    ),
];

/// Whether a missing oracle fails the test: on CI (`CI=true`, as CI services set it) it must run.
fn must_run() -> bool {
    std::env::var("CI").is_ok_and(|v| v.eq_ignore_ascii_case("true") || v == "1")
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

#[test]
fn conformance_scenarios_agree_with_kafka() {
    let dir = match oracle::locate(&root()) {
        Ok(d) => d,
        Err(why) => {
            assert!(
                !must_run(),
                "kafka conformance could not run under CI=true: {why}"
            );
            println!("kafka conformance: skipped: {why}");
            return;
        }
    };
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("tests/conformance"))
        .expect("tests/conformance exists")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy().to_string();
            name.ends_with(".json") && !name.ends_with(".expected.json")
        })
        .collect();
    files.sort();
    assert!(files.len() > 40, "the conformance suite is there");
    let archive = std::env::temp_dir().join(format!("logtime-oracle-{}.jsa", std::process::id()));
    let mut kafka = Oracle::new(dir, Some(archive.clone()));
    kafka.warm_up(&files[0]);
    let logtime = PathBuf::from(env!("CARGO_BIN_EXE_logtime"));
    let outcomes = parallel(&files, 2, |f: &PathBuf| {
        (oracle::run_logtime(&logtime, f), kafka.run(f))
    });
    let _ = std::fs::remove_file(&archive);
    let mut failures = Vec::new();
    for (f, (l, k)) in files.iter().zip(&outcomes) {
        let name = f.file_stem().unwrap().to_string_lossy().to_string();
        let outside = OUTSIDE_THE_ORACLE.iter().find(|(n, _)| *n == name);
        match (outside, k) {
            (Some(_), Outcome::Refused(_)) => {}
            (Some((_, why)), Outcome::Report(_)) => failures.push(format!(
                "{name}: listed as outside the oracle's subset ({why}) but the oracle replayed it"
            )),
            (None, _) => {
                if let Outcome::Refused(e) = l {
                    failures.push(format!("{name}: logtime refused it: {e}"));
                }
                for d in compare_outcomes(l, k) {
                    failures.push(format!("{name}: {d}"));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} disagreement(s) with Kafka:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Under `CI=true`, a missing oracle fails the check and says why (run as a child of this test
/// binary with the oracle pointed at a folder that has none).
#[test]
fn without_the_oracle_ci_fails_saying_why() {
    if std::env::var_os("LOGTIME_CONFORMANCE_CHILD").is_some() {
        return;
    }
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "conformance_scenarios_agree_with_kafka",
            "--exact",
            "--nocapture",
        ])
        .env("CI", "true")
        .env(
            "LOGTIME_ORACLE",
            std::env::temp_dir().join("logtime-no-oracle-here"),
        )
        .env("LOGTIME_CONFORMANCE_CHILD", "1")
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{text}");
    assert!(
        text.contains("kafka conformance could not run under CI=true: no Kafka oracle at "),
        "{text}"
    );
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["conformance_scenarios_agree_with_kafka", "--exact"])
        .env("CI", "false")
        .env(
            "LOGTIME_ORACLE",
            std::env::temp_dir().join("logtime-no-oracle-here"),
        )
        .env("LOGTIME_CONFORMANCE_CHILD", "1")
        .output()
        .unwrap();
    assert!(out.status.success(), "without CI the check is skipped");
}
