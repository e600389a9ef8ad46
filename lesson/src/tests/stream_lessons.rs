//! The stream processor in lessons: questions and goals it answers, and the `stream` section
//! they need.

use super::*;

/// Records around 10:00, one stamped a day ago (offset 2), one whose producer wrote nanoseconds
/// (offset 3), then three on-time records; a Kafka Streams processor with five-minute windows
/// and a one-minute grace reads the partition; `items` follow.
fn streamed(stream: &str, items: &str) -> String {
    format!(
        r#"{{"title": "streamed", "kafka": "3.6", "lesson": {{"kind": "drill"}}, {stream}
            "start": "2027-03-12T10:00:00Z",
            "steps": [
              {{"produce": {{"records": [{{"timestamp": "now"}}]}}}},
              {{"advance": "30s"}},
              {{"produce": {{"records": [{{"timestamp": "now"}}]}}}},
              {{"produce": {{"records": [{{"timestamp": "now-1d"}}]}}}},
              {{"advance": "30s"}},
              {{"produce": {{"records": [{{"timestamp": "now", "unit": "ns"}}]}}}},
              {{"advance": "30s"}},
              {{"produce": {{"batches": 3, "every": "20s", "records": [{{"timestamp": "now"}}]}}}}{items}
            ]}}"#
    )
}

const STREAM: &str = r#""stream": {"window": "5m", "delay": "1m"},"#;

#[test]
fn stream_questions_are_answered_by_the_processor() {
    let json = streamed(
        STREAM,
        r#", {"question": {"ask": "Which records are dropped?", "late": {}, "expect": [2, [4, 6]]}},
            {"question": {"ask": "Which record closes 10:00?", "closes": {"window": "2027-03-12T10:03:00Z"}, "expect": 3}},
            {"question": {"ask": "And 10:05?", "closes": {"window": "2027-03-12T10:05:00Z"}, "expect": 3}},
            {"question": {"ask": "With a Flink job?", "late": {}, "stream": {"semantics": "flink"}, "expect": [2, [4, 6]]}},
            {"question": {"ask": "The ten-minute window holding now+1h?", "closes": {"window": "now+1h"}, "stream": {"window": "10m"}, "expect": 3}}"#,
    );
    assert_eq!(check_errors(&json), Vec::<String>::new());
    let c = concrete(&json);
    assert_eq!(c.stream.unwrap().window_ms(), 300_000);
    let mut play = Play::new(c).unwrap();
    let mut grades = Vec::new();
    while let Some(step) = play.advance(&mut |_| {}) {
        if let Reached::Question { item } = step.unwrap() {
            assert!(play.hidden().contains(Affordance::StreamVerdicts));
            let given = match item {
                0 => Answer::Records(vec![(Offset(2), Offset(2)), (Offset(5), Offset(6))]),
                3 => Answer::records(vec![(Offset(2), Offset(2)), (Offset(4), Offset(6))]),
                _ => Answer::Offset(Offset(4)),
            };
            assert_eq!(
                play.answer(&Answer::Segment(Offset(0))),
                Err(PlayError::AnswerKind {
                    expected: if matches!(item, 0 | 3) {
                        "a set of records"
                    } else {
                        "an offset"
                    }
                })
            );
            let g = play.answer(&given).unwrap();
            let text: Vec<String> = g.feedback.iter().map(|s| s.to_string()).collect();
            grades.push((g.correct, text));
            if !g.correct {
                play.reveal(&mut |_| {}).unwrap();
            }
        }
    }
    assert!(!grades[0].0);
    // A record left out is counted, not named.
    assert_eq!(
        grades[0].1[0],
        "you left 1 record the processor drops as late"
    );
    assert!(!grades[1].0);
    assert!(
        grades[1].1[0].starts_with("after record 4: stream time "),
        "{:?}",
        grades[1].1
    );
    assert!(grades[1].1[0].ends_with(", and the window is already closed"));
    assert!(grades[3].0, "Flink with no lateness drops the same records");
}

#[test]
fn a_stream_question_or_goal_without_a_stream_section_is_an_error() {
    let e = |stream: &str, items: &str| first_error(&streamed(stream, items));
    assert_eq!(
        e("", r#", {"question": {"ask": "x", "late": {}}}"#),
        "step 8: question.late: this question reads the stream processor: give the lesson a top-level \"stream\" section (or the question a \"stream\" object with a window)"
    );
    assert_eq!(
        e("", r#", {"task": {"ask": "x", "goal": {"late_records": 0}, "solution": [{"retention": {}}]}}"#),
        "step 8: task.goal.late_records: reads the stream processor: give the lesson a top-level \"stream\" section"
    );
    assert_eq!(
        e(
            STREAM,
            r#", {"question": {"ask": "x", "pinning": {}, "stream": {"delay": "1h"}}}"#
        ),
        "step 8: question.stream: only late and closes questions read the stream processor"
    );
    assert_eq!(
        e(
            STREAM,
            r#", {"question": {"ask": "x", "late": {}, "stream": {"delay": "-1m"}}}"#
        ),
        "step 8: question.stream.delay: delay -60000 ms is not from 0 to 100 y"
    );
    assert_eq!(
        e(r#""stream": {"window": "5m", "grace": "1m"},"#, ""),
        "stream.grace: unknown key (expected: window, delay, semantics, allowed_lateness, from)"
    );
    assert_eq!(
        e(STREAM, r#", {"question": {"ask": "x", "closes": {"window": "2027-03-12T10:00:00Z"}, "expect": 4}}"#)
            .split(": the model's answer")
            .next()
            .unwrap(),
        "step 8: question.expect"
    );
    assert_eq!(
        e(STREAM, r#", {"question": {"ask": "x", "closes": {"window": -5}}}"#),
        "step 8: question.closes: cannot be answered here: 1969-12-31T23:59:59.995Z is in no window of the processor (a negative stamp under Kafka Streams, or a window ending past Long.MAX)"
    );
}

/// A task whose goal counts late records: a bigger grace does not help against a stamp
/// millions of years ahead, but the goal is reached once DeleteRecords moves the processor's
/// start past the bad record.
#[test]
fn a_late_records_goal_reads_the_processor_on_the_live_partition() {
    let json = streamed(
        STREAM,
        r#", {"task": {"ask": "Leave the processor nothing to drop.", "goal": {"late_records": 0},
                      "solution": [{"delete_records": {"offset": 4}}]}}"#,
    );
    assert_eq!(check_errors(&json), Vec::<String>::new());
    let mut play = Play::new(concrete(&json)).unwrap();
    while let Some(step) = play.advance(&mut |_| {}) {
        if let Reached::Task { already_met, .. } = step.unwrap() {
            assert!(!already_met);
            let g = play.goal().unwrap();
            assert_eq!(
                g.checks[0].sentence.to_string(),
                "records dropped as late by the stream processor: 4 (needs 0)"
            );
            let now = play.partition().clock();
            let acted = play
                .act(now, Command::DeleteRecords { offset: 4 }, &mut |_| {})
                .unwrap();
            assert!(acted.solved);
        }
    }
}
