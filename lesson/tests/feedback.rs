//! Feedback that teaches without telling: over every built-in lesson and incident, in several
//! variants, every question is answered with every wrong answer the test can make (every
//! segment, sets of segments, offsets across the log, values around and far from the range,
//! every Kafka error code). No wrong answer's feedback names a part of the right one, and once
//! the question is settled (right after tries, or revealed) the author's explanation shows.

use logtime_core::scenario::narrate::{Mention, Sentence};
use logtime_lesson::{self as lesson, Answer, Pick, Play, Reached, Reveal, KAFKA_ERRORS};
use logtime_model::units::Offset;
use std::fs;
use std::path::Path;

fn files() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("static");
    let mut out = Vec::new();
    for dir in ["lessons", "incidents"] {
        let mut names: Vec<_> = fs::read_dir(root.join(dir))
            .expect("static dir")
            .map(|e| e.expect("entry").path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        names.sort();
        for p in names {
            let json = fs::read_to_string(&p).expect("read");
            out.push((p.file_name().unwrap().to_string_lossy().into_owned(), json));
        }
    }
    assert!(out.len() >= 21, "every built-in lesson and incident");
    out
}

/// The wrong answers the test tries for a question whose right answer is `right`.
fn candidates(right: &Answer, p: &logtime_model::partition::Partition) -> Vec<Answer> {
    let bases: Vec<Offset> = p.segments().iter().map(|s| s.base_offset()).collect();
    let (lso, leo) = (p.log_start_offset().0, p.log_end_offset().0);
    let mut offs: Vec<i64> = (lso.max(0)..leo.min(lso + 400)).collect();
    offs.extend([-1, leo, leo + 5]);
    match right {
        Answer::Segments(_) => {
            let mut v = vec![Answer::segments(vec![])];
            for k in 0..bases.len() {
                v.push(Answer::segments(vec![bases[k]]));
                v.push(Answer::segments(bases[..=k].to_vec()));
                v.push(Answer::segments(bases[k..].to_vec()));
            }
            v
        }
        Answer::Records(_) => {
            let mut v = vec![Answer::records(vec![])];
            for s in p.segments() {
                let (a, b) = (s.base_offset(), Offset(s.next_offset().0 - 1));
                if b >= a {
                    v.push(Answer::records(vec![(a, b)]));
                    v.push(Answer::records(vec![(a, a)]));
                    v.push(Answer::records(vec![(Offset(lso.max(0)), b)]));
                }
            }
            for o in offs.iter().filter(|o| **o >= 0).take(60) {
                v.push(Answer::records(vec![(Offset(*o), Offset(*o))]));
            }
            v
        }
        Answer::Segment(_) => bases
            .iter()
            .copied()
            .chain(
                offs.iter()
                    .filter(|o| **o >= 0)
                    .take(30)
                    .map(|o| Offset(*o)),
            )
            .map(Answer::Segment)
            .collect(),
        Answer::Offset(_) => offs.iter().map(|o| Answer::Offset(Offset(*o))).collect(),
        Answer::Values { min, max } => {
            let mut v = vec![0, 1, -1, i64::MAX, i64::MIN];
            for x in [*min, *max] {
                v.extend([
                    x - 1,
                    x + 1,
                    x / 1000,
                    x.saturating_mul(1000),
                    x.saturating_mul(1_000_000),
                ]);
            }
            v.into_iter().map(Answer::Value).collect()
        }
        Answer::ErrorCode(_) => KAFKA_ERRORS
            .iter()
            .map(|(c, _)| Answer::ErrorCode(*c))
            .collect(),
        Answer::Value(_) => vec![],
    }
}

/// Every number a right answer is made of, as offsets or segments a sentence could mention.
fn right_offsets(right: &Answer) -> Vec<(i64, i64)> {
    match right {
        Answer::Segments(v) => v.iter().map(|o| (o.0, o.0)).collect(),
        Answer::Records(v) => v.iter().map(|(a, b)| (a.0, b.0)).collect(),
        Answer::Offset(o) | Answer::Segment(o) => vec![(o.0, o.0)],
        _ => vec![],
    }
}

/// The part of the right answer `s` names, if any.
fn names_the_answer(s: &Sentence, right: &Answer) -> Option<String> {
    let ranges = right_offsets(right);
    let inside = |o: Offset| ranges.iter().any(|(a, b)| *a <= o.0 && o.0 <= *b);
    for m in s.mentions() {
        let hit = match m {
            Mention::Segment(o) | Mention::Offset(o) => inside(*o),
            Mention::Offsets { first, last } => {
                ranges.iter().any(|(a, b)| first.0 <= *b && *a <= last.0)
            }
            _ => false,
        };
        if hit {
            return Some(format!("{m:?}"));
        }
    }
    let text = s.to_string();
    let words: Vec<&str> = text
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        .collect();
    let has = |w: &str| words.contains(&w);
    match right {
        Answer::ErrorCode(c) => {
            let name = lesson::error_name(*c).unwrap_or("?");
            (text.contains(name) || text.contains(&format!("error {c}")))
                .then(|| format!("code {c} {name}"))
        }
        Answer::Values { min, max } => [min, max]
            .into_iter()
            .find(|x| has(&x.to_string()))
            .map(|x| format!("value {x}")),
        Answer::Offset(o) if o.0 < 0 => has("-1").then(|| "-1".to_string()),
        _ => None,
    }
}

struct Tally {
    questions: usize,
    wrong: usize,
    classified: usize,
}

fn play_through(name: &str, json: &str, pick: Pick, t: &mut Tally) {
    let l = lesson::parse(json).unwrap_or_else(|e| panic!("{name}: {e}"));
    let c = l
        .instantiate(pick)
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut play = Play::new(c).unwrap_or_else(|e| panic!("{name}: {e}"));
    while let Some(r) = play.advance(&mut |_| {}) {
        match r.unwrap_or_else(|e| panic!("{name}: {e}")) {
            Reached::Question { item } => question(name, &mut play, item, t),
            Reached::Task { .. } if play.open_item().is_some() => {
                play.reveal(&mut |_| {})
                    .unwrap_or_else(|e| panic!("{name}: {e}"));
            }
            _ => {}
        }
    }
}

fn question(name: &str, play: &mut Play, item: usize, t: &mut Tally) {
    let q = play.question().expect("open question").clone();
    let right = match play.solved() {
        Some(Ok(s)) => s.answer.clone(),
        _ => panic!("{name}: item {item} cannot be answered"),
    };
    t.questions += 1;
    let explanation = q.explanation(play.partition());
    assert_eq!(explanation.is_empty(), q.reveal.is_none());
    let mut tried = 0;
    for given in candidates(&right, play.partition()) {
        let mut trial = play.clone();
        let Ok(g) = trial.answer(&given) else {
            continue;
        };
        if g.correct {
            continue;
        }
        tried += 1;
        t.wrong += 1;
        t.classified += usize::from(g.misconception.is_some());
        assert!(!g.feedback.is_empty(), "{name}: {given} has no feedback");
        assert!(
            g.explanation.is_empty(),
            "{name}: {given}: explanation before settling"
        );
        for s in &g.feedback {
            if let Some(part) = names_the_answer(s, &right) {
                panic!("{name}: item {item} ({}): the feedback on {given} names {part} of the answer {right}: {s}", q.title);
            }
        }
    }
    assert!(
        tried > 0,
        "{name}: item {item}: no wrong answer tried (right {right}, segments {:?})",
        play.partition()
            .segments()
            .iter()
            .map(|s| s.base_offset())
            .collect::<Vec<_>>()
    );
    // Revealed: the model's explanation and the author's.
    let mut revealed = play.clone();
    match revealed.reveal(&mut |_| {}).expect("reveal") {
        Reveal::Question { authored, .. } => assert_eq!(authored, explanation),
        Reveal::Task(_) => panic!("a question"),
    }
    // Right after a wrong try: the author's explanation shows.
    let example = match right {
        Answer::Values { min, .. } => Answer::Value(min),
        ref a => a.clone(),
    };
    let g = play.answer(&example).expect("the right answer");
    assert!(g.correct, "{name}: {example}");
    assert_eq!(g.explanation, explanation, "{name}: item {item}");
}

#[test]
fn no_wrong_answer_names_the_right_one_and_the_explanation_shows_once_settled() {
    let mut t = Tally {
        questions: 0,
        wrong: 0,
        classified: 0,
    };
    for (name, json) in files() {
        for pick in [Pick::Default, Pick::Seed(1), Pick::Seed(7), Pick::Seed(123)] {
            play_through(&name, &json, pick, &mut t);
        }
    }
    assert!(t.questions >= 50, "{} questions", t.questions);
    // Every wrong answer is classified by the rule it misses.
    assert!(
        t.classified == t.wrong,
        "{} of {} wrong answers classified",
        t.classified,
        t.wrong
    );
    eprintln!(
        "{} questions, {} wrong answers, {} classified",
        t.questions, t.wrong, t.classified
    );
}

const PINNING: &str = r#"{"lesson": {"kind": "drill"}, "kafka": "3.6",
  "topic": {"retention.ms": 86400000, "segment.bytes": 170}, "start": "2027-03-12T09:00:00Z",
  "steps": [
    {"produce": {"records": [{"timestamp": "now-3d"}]}},
    {"produce": {"records": [{"timestamp": "now+365d"}]}},
    {"produce": {"records": [{"timestamp": "now-2d"}]}},
    {"produce": {"records": [{"timestamp": "now"}]}},
    {"question": {"ask": "Which segment pins retention?", "pinning": {}, WRONG
                  "reveal": "A stamp a year ahead keeps its segment for a year and a day."}}]}"#;

fn pinning_play(wrong: &str) -> Result<Play, String> {
    let json = PINNING.replace("WRONG", wrong);
    let l = lesson::parse(&json).map_err(|e| e.to_string())?;
    let mut play = Play::new(l.instantiate(Pick::Default).map_err(|e| e.to_string())?)
        .map_err(|e| e.to_string())?;
    while let Some(r) = play.advance(&mut |_| {}) {
        if let Reached::Question { .. } = r.map_err(|e| e.to_string())? {
            break;
        }
    }
    Ok(play)
}

/// An author's words for a class replace core's; the right answer then shows the explanation.
#[test]
fn an_authors_words_for_a_class_of_wrong_answer_replace_cores() {
    let mut play =
        pinning_play(r#""wrong": {"behind_pinning": "Look **before** this one."},"#).unwrap();
    let g = play.answer(&Answer::Segment(Offset(2))).unwrap();
    assert_eq!(g.misconception, Some(lesson::Misconception::BehindPinning));
    let text: Vec<String> = g.feedback.iter().map(|s| s.to_string()).collect();
    assert_eq!(text.last().unwrap(), "Look before this one.");
    // Without words of the author's, core teaches the rule.
    let g = play.answer(&Answer::Segment(Offset(0))).unwrap();
    assert_eq!(g.misconception, Some(lesson::Misconception::DeletedSegment));
    assert!(g.feedback[0]
        .to_string()
        .starts_with("segment 0 is deleted: its largest timestamp"));
    assert!(g.feedback[1]
        .to_string()
        .starts_with("a segment the check deletes pins nothing"));
    assert!(g.explanation.is_empty());
    let g = play.answer(&Answer::Segment(Offset(1))).unwrap();
    assert!(g.correct);
    assert_eq!(
        g.explanation
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>(),
        ["A stamp a year ahead keeps its segment for a year and a day."]
    );
}

#[test]
fn a_wrong_object_that_does_not_fit_says_why() {
    let e = |w: &str| pinning_play(w).err().unwrap();
    assert_eq!(
        e(r#""wrong": ["x"],"#),
        "step 4: question.wrong: expected an object from a class of wrong answer to its text, like {\"behind_pinning\": \"...\"}"
    );
    assert!(e(r#""wrong": {"behind": "x"},"#).starts_with(
        "step 4: question.wrong.behind: unknown class of wrong answer \"behind\" (expected one of: deleted_segment, "
    ));
    assert_eq!(
        e(r#""wrong": {"nanos_for_millis": "x"},"#),
        "step 4: question.wrong.nanos_for_millis: this kind of question never gives a nanos_for_millis answer (it can give: deleted_segment, behind_pinning, active_segment, not_a_segment)"
    );
    assert!(e(r#""wrong": {"behind_pinning": 3},"#)
        .starts_with("step 4: question.wrong.behind_pinning: "));
}

/// An error question takes a code by number or by name, in any case.
#[test]
fn an_error_code_is_read_by_number_or_name() {
    for t in ["32", "invalid_timestamp", "INVALID_TIMESTAMP"] {
        assert_eq!(lesson::parse_error_code(t), Ok(32));
    }
}
