//! Author mode's questions about a produced batch (`choose` and `error`), built through
//! `Authoring::apply` from batches composed as the explorer's producer composes them: core
//! computes the answer, the saved file passes the lesson check, and a learner is graded by it.

use logtime_lesson::author::{AskKind, AuthorCommand, Authoring, BatchSpec, Start};
use logtime_lesson::{Answer, Pick, Play, Reached};
use logtime_model::batch::{Header, Record};
use logtime_model::units::Timestamp;

/// 2027-03-12T09:00:00Z.
const T: Timestamp = Timestamp(1_804_842_000_000);
const MIN: i64 = 60_000;
const HOUR: i64 = 3_600_000;

/// An empty Kafka 4.0 partition (`message.timestamp.after.max.ms` defaults to 1 hour).
fn empty() -> Authoring {
    Authoring::new(Start::Empty {
        kafka: "4.0".into(),
        configs: vec![("retention.ms".into(), "1d".into())],
        start: T,
    })
    .unwrap()
    .0
}

/// One 100-byte record stamped `ahead` ms past the clock, as the producer panel sends it.
fn batch(ahead: i64, label: Option<&str>) -> BatchSpec {
    let r = Record::with_key(Timestamp(T.0 + ahead), None, 100);
    BatchSpec::of_records(&[r], T, label.map(str::to_string)).unwrap()
}

fn choose(accept: BatchSpec, reject: BatchSpec) -> AuthorCommand {
    AuthorCommand::AddQuestion {
        at: 1,
        ask: AskKind::Choose {
            config: "message.timestamp.after.max.ms".into(),
            accept,
            reject,
        },
        pointing: None,
        text: "Which after.max.ms accepts the first batch and refuses the second?".into(),
    }
}

#[test]
fn a_composed_batch_is_written_relative_to_the_clock_and_named_in_words() {
    let b = batch(MIN, None);
    assert_eq!(b.records[0].timestamp, "now+1m");
    assert_eq!(b.describe(), "1 record stamped now+1m");
    let keyed = Record::with_key(Timestamp(T.0 - 2 * HOUR), Some(0), 40);
    let two = BatchSpec::of_records(&[keyed.clone(), Record::at(T)], T, None).unwrap();
    assert_eq!(two.records[0].key_bytes, Some(0));
    assert_eq!(two.records[1].key_bytes, None);
    assert_eq!(two.describe(), "2 records stamped now-2h to now");
    assert_eq!(
        batch(MIN, Some("the clock-fast batch")).describe(),
        "the clock-fast batch"
    );
    // What the file cannot say is refused in words naming the field.
    let mut headed = keyed;
    headed.headers.push(Header {
        key_bytes: 1,
        value_bytes: 1,
    });
    let e = BatchSpec::of_records(&[headed], T, None).unwrap_err();
    assert!(e.to_string().starts_with("batch.records: "), "{e}");
    let e = BatchSpec::of_records(&[], T, None).unwrap_err();
    assert_eq!(
        e.to_string(),
        "batch.records: a batch needs at least one record"
    );
}

#[test]
fn choose_and_error_questions_get_their_answers_from_the_model_and_pass_the_check() {
    let mut a = empty();
    let accept = batch(MIN, Some("the 1-minute-ahead batch"));
    let reject = batch(2 * HOUR, Some("the 2-hours-ahead batch"));
    a.apply(T, choose(accept, reject.clone())).unwrap();
    let error = |ask| AuthorCommand::AddQuestion {
        at: 2,
        ask,
        pointing: None,
        text: "What does the broker answer to this batch?".into(),
    };
    // The file names only a choice's batches: a named batch to send is refused, in words.
    let e = a
        .apply(T, error(AskKind::ErrorProduce(reject.clone())))
        .unwrap_err();
    assert!(
        e.to_string().starts_with("question.error.produce.label: "),
        "{e}"
    );
    let unnamed = BatchSpec {
        label: None,
        ..reject
    };
    a.apply(T, error(AskKind::ErrorProduce(unnamed))).unwrap();
    let c = a.check();
    assert!(c.playable(), "{:?}", c.problems);
    let answers: Vec<String> = c
        .answers
        .iter()
        .map(|x| x.answer.clone().unwrap())
        .collect();
    assert!(
        answers[0].contains("60000") && answers[0].contains("7199999"),
        "{answers:?}"
    );
    assert!(answers[1].contains("INVALID_TIMESTAMP"), "{answers:?}");
    // The author sees what each question is about: the config and the two batches by their
    // names, the batch the broker answers to by its stamp.
    let about: Vec<String> = c
        .answers
        .iter()
        .map(|x| {
            x.about
                .as_ref()
                .map(ToString::to_string)
                .unwrap_or_default()
        })
        .collect();
    assert_eq!(
        about[0],
        "message.timestamp.after.max.ms must accept the 1-minute-ahead batch and reject the 2-hours-ahead batch"
    );
    assert!(
        about[1].starts_with("the broker's answer to a batch of 1 record stamped "),
        "{about:?}"
    );
    assert!(c
        .answers
        .iter()
        .all(|x| !x.right.is_empty() && x.wrong.is_some()));

    // The saved file reads back and passes the lesson check, as `logtime check` runs it.
    let doc = a.document();
    assert!(doc.contains("\"timestamp\": \"now+2h\""), "{doc}");
    let lesson = logtime_lesson::parse(&doc).unwrap();
    assert!(logtime_lesson::check_all(&lesson, 10).is_ok());

    // A learner is graded by the model: a value in the range, one outside; the right code.
    let mut play = Play::new(lesson.instantiate(Pick::Seed(1)).unwrap()).unwrap();
    let mut graded = Vec::new();
    while let Some(step) = play.advance(&mut |_| {}) {
        if let Reached::Question { .. } = step.unwrap() {
            let (wrong, right) = if graded.is_empty() {
                (Answer::Value(3 * HOUR), Answer::Value(HOUR))
            } else {
                (Answer::ErrorCode(0), Answer::ErrorCode(32))
            };
            graded.push((
                play.answer(&wrong).unwrap().correct,
                play.answer(&right).unwrap().correct,
            ));
        }
    }
    assert_eq!(graded, vec![(false, true), (false, true)]);
}

#[test]
fn batches_no_value_separates_are_a_problem_at_the_question() {
    let mut a = empty();
    // The later batch accepted and the nearer refused: no value of after.max.ms does that.
    a.apply(T, choose(batch(2 * HOUR, None), batch(MIN, None)))
        .unwrap();
    let c = a.check();
    assert!(!c.playable());
    let p = c.problems.iter().find(|p| p.step == Some(1)).unwrap();
    assert!(p.field.starts_with("question.choose"), "{p:?}");
    assert!(
        p.message.starts_with(
            "cannot be answered here: every value of message.timestamp.after.max.ms that accepts"
        ),
        "{p:?}"
    );
    assert!(c.answers[0].answer.is_err());
}

#[test]
fn a_recorded_batch_step_gives_its_batch_and_other_steps_say_why_not() {
    use logtime_core::scenario::Entry;
    use logtime_model::partition::Command;
    let mut a = empty();
    let records = vec![Record::with_key(Timestamp(T.0 + 2 * HOUR), Some(0), 40)];
    let sent = Entry::Command {
        at: T,
        command: Command::Produce { records },
    };
    a.apply(T, AuthorCommand::Record(sent)).unwrap();
    let b = a.batch_of_step(1).unwrap();
    assert_eq!(b.describe(), "1 record stamped now+2h");
    assert_eq!(
        (b.records[0].key_bytes, b.records[0].value_bytes),
        (Some(0), Some(40))
    );
    let note = AuthorCommand::AddNote {
        at: 2,
        text: "x".into(),
    };
    a.apply(T, note).unwrap();
    assert_eq!(
        a.batch_of_step(2).unwrap_err().to_string(),
        "step 2: is a note step, not a produce step that lists its records"
    );
    assert_eq!(
        a.batch_of_step(9).unwrap_err().to_string(),
        "step: there is no step 9 (the lesson has 2 steps)"
    );
}
