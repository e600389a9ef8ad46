//! `logtime grade --lesson FILE [--csv] RESULT...`: learners' results codes (or files holding
//! them, or their JSON) re-scored by replaying them through the lesson, printed as the class
//! page's table, from the same core function.

use logtime_cli::pack::{unpack, UnpackError};
use logtime_lesson::{class_table, rescore, Graded, Lesson, Results};

/// What a results code starts with; the rest is the JSON, deflated (raw) and base64url-encoded.
pub(crate) const CODE_PREFIX: &str = "LTR1.";

/// The most bytes a results code unpacks to.
const MAX_RESULTS_BYTES: u64 = 1 << 20;

/// Reads one results code (or JSON text) into results; errors are lowercase sentences.
pub(crate) fn decode(text: &str) -> Result<Results, String> {
    let t = text.trim();
    let json = if t.starts_with('{') {
        t.to_string()
    } else {
        let packed = t
            .strip_prefix(CODE_PREFIX)
            .ok_or_else(|| format!("a results code starts with {CODE_PREFIX}"))?;
        unpack(packed, MAX_RESULTS_BYTES).map_err(|e| match e {
            UnpackError::NotBase64 => "the results code is not base64url text".to_string(),
            UnpackError::NotDeflate => {
                "the results code does not unpack (it was cut or edited)".to_string()
            }
            UnpackError::TooLarge => {
                format!("the results code unpacks to more than {MAX_RESULTS_BYTES} bytes")
            }
        })?
    };
    Results::from_json(&json).map_err(|e| e.to_string())
}

/// Each argument is a file holding codes (one a line) or JSON, or a code itself.
fn inputs(args: &[String]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for a in args {
        match std::fs::read_to_string(a) {
            Ok(text) if text.trim_start().starts_with('{') => out.push((a.clone(), text)),
            Ok(text) => out.extend(
                text.lines()
                    .filter(|l| !l.trim().is_empty())
                    .map(|l| (a.clone(), l.to_string())),
            ),
            Err(_) => out.push(("argument".into(), a.clone())),
        }
    }
    out
}

/// The table of `args` against `lesson`: text, or CSV with `csv`.
pub(crate) fn run(lesson: &Lesson, args: &[String], csv: bool) -> String {
    let rows: Vec<Graded> = inputs(args)
        .into_iter()
        .map(|(from, text)| match decode(&text) {
            Ok(r) => rescore(lesson, &r),
            Err(e) => Graded::unreadable(&from, e),
        })
        .collect();
    let table = class_table(lesson, rows);
    if csv {
        table.to_csv()
    } else {
        table.to_text()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use logtime_lesson::{self as lesson, Answer, Entry, Move, Pick, Play, Reached};

    const DRILL: &str = include_str!("../../static/lessons/future-drill.json");

    /// Packs as the web does: deflate-raw, then base64url.
    fn encode(r: &Results) -> String {
        format!("{CODE_PREFIX}{}", logtime_cli::pack::pack(&r.to_json()))
    }

    fn results(l: &Lesson, learner: &str) -> Results {
        let seed = lesson::seed_for(learner, l.fingerprint());
        let mut play = Play::new(l.instantiate(Pick::Seed(seed)).unwrap()).unwrap();
        let mut entries = Vec::new();
        while let Some(r) = play.advance(&mut |_| {}) {
            match r.unwrap() {
                Reached::Question { item } => {
                    let a = match play.solved().unwrap().as_ref().unwrap().answer.clone() {
                        Answer::Values { min, .. } => Answer::Value(min),
                        a => a,
                    };
                    play.answer(&a).unwrap();
                    entries.push(Entry {
                        ms: 5_000,
                        play: Move::Answer { item, answer: a },
                    });
                }
                Reached::Task { item, .. } if play.open_item().is_some() => {
                    play.reveal(&mut |_| {}).unwrap();
                    entries.push(Entry {
                        ms: 9_000,
                        play: Move::Reveal { item },
                    });
                }
                _ => {}
            }
        }
        Results {
            learner: learner.into(),
            lesson: play.lesson().title().into(),
            fingerprint: l.fingerprint().into(),
            seed: Some(seed),
            entries,
        }
    }

    #[test]
    fn codes_are_unpacked_and_regraded_and_bad_ones_flagged() {
        let l = lesson::parse(DRILL).unwrap();
        let r = results(&l, "Ada");
        let code = encode(&r);
        assert_eq!(decode(&code), Ok(r));
        assert_eq!(
            decode("nope").unwrap_err(),
            "a results code starts with LTR1."
        );
        assert_eq!(
            decode("LTR1.!!").unwrap_err(),
            "the results code is not base64url text"
        );
        let cut = &code[..code.len() / 2];
        assert!(decode(cut).is_err());
        let csv = run(&l, &[code.clone(), "LTR1.AAAA".into()], true);
        let lines: Vec<&str> = csv.lines().collect();
        assert!(lines[0].starts_with("learner,seed,score,"), "{csv}");
        assert!(lines[1].starts_with("Ada,"), "{csv}");
        assert!(lines[2].starts_with("(argument),,0/0,"), "{csv}");
        assert!(lines[3].starts_with("right first time,,,1/1"), "{csv}");
        let text = run(&l, &[code], false);
        assert!(text.contains("Ada — "), "{text}");
    }
}
