//! Every way `check` finds a lesson wrong, each test asserting the step and the field it names,
//! and the post-mortem an answer sheet prints.

use super::*;

#[test]
fn a_well_formed_small_lesson_passes() {
    let json = small(
        r#", {"question": {"ask": "Which segment pins retention?", "pinning": {}, "expect": 1}},
           {"question": {"ask": "Strike what the next check deletes.", "strike": "segments", "expect": [0]}},
           {"task": {"ask": "Unpin it.", "goal": {"no_pinned_segment": true, "records_present": [3, 3]},
                     "solution": [{"delete_records": {"offset": 2}}, {"retention": {}}]}}"#,
    );
    assert_eq!(check_errors(&json), Vec::<String>::new());
}

#[test]
fn malformed_markup_names_the_step_and_field() {
    assert_eq!(
        first_error(&small(r#", {"note": "a **bold"}"#)),
        "step 4: note: malformed markup at character 3: ** is not closed before the paragraph ends (write \\*\\* for literal asterisks)"
    );
    assert_eq!(
        first_error(&small(
            r#", {"retention": {}, "narration": "<b>kept</b>"}"#
        )),
        "step 4: narration: malformed markup at character 1: raw HTML is not allowed: use **bold**, `code` or [text](link) (write \\< for a literal <)"
    );
    assert_eq!(
        first_error(&small(
            r#", {"question": {"ask": "x", "pinning": {}, "hints": ["ok", "see [docs](https://example.com/)"]}}"#
        )),
        "step 4: question.hints[1]: malformed markup at character 12: links go to Kafka's documentation only (an https URL starting https://kafka.apache.org/, https://cwiki.apache.org/confluence/, https://github.com/apache/kafka/, https://issues.apache.org/jira/browse/KAFKA-), not \"https://example.com/\""
    );
    assert_eq!(
        first_error(&small(r#", {"note": "x", "show": ["segment 3"]}"#)),
        "step 4: show[0]: malformed target \"segment 3\": expected kind:value, with kind one of segment, segment-of, offset, record, offsets, records, config, panel, time"
    );
}

#[test]
fn an_unknown_target_names_the_step_and_field() {
    assert_eq!(
        first_error(&small(r#", {"note": "x", "show": ["segment:5"]}"#)),
        "step 4: show[0]: segment:5: no segment with base offset 5 (segments at this step: 0, 1, 2, 3)"
    );
    assert_eq!(
        first_error(&small(
            r#", {"retention": {}, "narration": "see [it](record:9)"}"#
        )),
        "step 4: narration: offset:9: no record at offset 9 (records at this step: 1 to 3)"
    );
    assert_eq!(
        first_error(&small(
            r#", {"question": {"ask": "Look at [retention](config:retention.msx).", "pinning": {}}}"#
        )),
        "step 4: question.ask: config:retention.msx: unknown config retention.msx for Kafka 3.6–3.9"
    );
    // A target that exists later but not yet at its step.
    let json = small("").replace(
        r#"{"produce": {"records": [{"timestamp": "now-3d"}]}}"#,
        r#"{"produce": {"records": [{"timestamp": "now-3d"}]}, "show": ["segment:1"]}"#,
    );
    assert_eq!(
        first_error(&json),
        "step 0: show[0]: segment:1: no segment with base offset 1 (segments at this step: 0)"
    );
    // A task's reveal is checked on the partition after the solution.
    assert_eq!(
        first_error(&small(
            r#", {"task": {"ask": "x", "goal": {"log_start_offset": {"at_least": 2}}, "solution": [{"delete_records": {"offset": 2}}, {"retention": {}}], "reveal": "Segment [0](segment:0) is gone."}}"#
        )),
        "step 4: task.reveal: segment:0: no segment with base offset 0 (segments at this step: 3)"
    );
}

#[test]
fn a_stated_answer_that_disagrees_with_the_model_names_the_step() {
    assert_eq!(
        first_error(&small(
            r#", {"question": {"ask": "x", "strike": "segments", "expect": [0, 1]}}"#
        )),
        "step 4: question.expect: the model's answer is segments 0, not segments 0, 1: the next retention check runs at 12 Mar 2027 09:05; segment 0 is deleted: its largest timestamp 9 Mar 2027 09:00 is 3 d 5 min old, more than retention.ms 1 d; segment 1 is kept: its largest timestamp 11 Mar 2028 09:00 is about 365 d in the future, and retention stops at the first segment it keeps"
    );
    assert!(first_error(&small(
        r#", {"question": {"ask": "x", "lookup": {"timestamp": "now-1d"}, "expect": 2}}"#
    ))
    .starts_with("step 4: question.expect: the model's answer is offset 1, not offset 2: lookup for 11 Mar 2027 09:00 (1804755600000) returned offset 1 (stamped 11 Mar 2028 09:00)"));
    assert_eq!(
        first_error(&small(
            r#", {"question": {"ask": "x", "error": {"produce": {"records": [{"timestamp": "now+3y"}]}}, "expect": "INVALID_TIMESTAMP"}}"#
        )).split(": produced").next().unwrap(),
        "step 4: question.expect: the model's answer is error 0 NONE, not error 32 INVALID_TIMESTAMP"
    );
    assert!(first_error(&small(
        r#", {"question": {"ask": "x", "choose": {"config": "message.timestamp.after.max.ms", "accept": {"records": [{"timestamp": "now+30m"}]}, "reject": {"records": [{"timestamp": "now+2h"}]}}, "expect": 7200000}}"#
    ))
    .starts_with("step 4: question.expect: the model's answer is any value from 1800000 to 7199999, not 7200000: "));
}

#[test]
fn a_question_the_model_cannot_answer_names_the_step_and_kind() {
    let json = small(r#", {"question": {"ask": "x", "pinning": {}}}"#)
        .replace("now+365d", "now-1h")
        .replace("now-2d", "now-2h");
    assert_eq!(
        first_error(&json),
        "step 4: question.pinning: cannot be answered here: no segment pins retention at this step: the first segment a check keeps is neither stamped in the future nor keeping expired segments behind it"
    );
    assert_eq!(
        first_error(&small(
            r#", {"question": {"ask": "x", "choose": {"config": "message.timestamp.after.max.ms", "accept": {"records": [{"timestamp": "now+2h"}]}, "reject": {"records": [{"timestamp": "now+30m"}]}}}}"#
        )),
        "step 4: question.choose: cannot be answered here: every value of message.timestamp.after.max.ms that accepts the batch stamped 12 Mar 2027 11:00 also accepts the batch stamped 12 Mar 2027 09:30"
    );
    let json = small(r#", {"question": {"ask": "x", "lookup": {"timestamp": -7}}}"#)
        .replace(r#""kafka": "3.6""#, r#""kafka": "4.0""#)
        .replace(r#""segment.bytes": 170"#, r#""segment.bytes": 1048576"#);
    assert!(first_error(&json).starts_with("step 4: question.lookup: cannot be answered here: the broker refuses this lookup (error 35 UNSUPPORTED_VERSION"), "{}", first_error(&json));
}

#[test]
fn an_unreachable_or_already_reached_goal_names_the_task() {
    assert_eq!(
        first_error(&small(
            r#", {"task": {"ask": "x", "goal": {"no_pinned_segment": true}, "solution": [{"delete_records": {"offset": 1}}, {"retention": {}}]}}"#
        )),
        "step 4: task.goal: the revealed solution does not reach it: segment 2 is still pinned behind segment 1"
    );
    assert_eq!(
        first_error(&small(
            r#", {"task": {"ask": "x", "goal": {"log_end_offset": 4}, "solution": [{"retention": {}}]}}"#
        )),
        "step 4: task.goal: already holds before the learner acts: log end offset 4"
    );
    assert_eq!(
        first_error(&small(
            r#", {"task": {"ask": "x", "goal": {"log_start_offset": 2}, "solution": [{"config": {"retention.ms": -2}}]}}"#
        )),
        "step 4: task.solution[0].config: invalid value -2 for configuration retention.ms: value must be at least -1 (valid range [-1, ...] in Kafka 3.6–3.9)"
    );
}

#[test]
fn malformed_items_name_the_step_and_field() {
    let e = |items: &str| first_error(&small(items));
    assert_eq!(
        e(r#", {"question": {"pinning": {}}}"#),
        "step 4: question.ask: missing: what the learner is asked (markup)"
    );
    assert_eq!(
        e(r#", {"question": {"ask": "x", "pinning": {}, "strike": "segments"}}"#),
        "step 4: question: a question has exactly one of: strike, lookup, pinning, choose, error, late, closes (found strike, pinning)"
    );
    assert_eq!(
        e(r#", {"question": {"ask": "x", "pinning": {}, "expext": 1}}"#),
        "step 4: question.expext: unknown key (expected: title, ask, strike, lookup, pinning, choose, error, late, closes, stream, kafka, hints, reveal, wrong, expect, points, hide)"
    );
    assert_eq!(
        e(r#", {"question": {"ask": "x", "lookup": {"timestamp": "now"}, "expect": "three"}}"#),
        "step 4: question.expect: expected an offset (-1: the lookup finds nothing)"
    );
    assert_eq!(
        e(r#", {"question": {"ask": "x", "pinning": {}, "hide": ["verdict"]}}"#),
        "step 4: question.hide[0]: unknown affordance \"verdict\" (expected one of: remedies, verdicts, pinned_badges, lookup_trace, answer_panel, stream_verdicts, age_marks)"
    );
    assert_eq!(
        e(r#", {"question": {"ask": "x", "error": {"retention": {}}}}"#),
        "step 4: question.error: an error question probes produce or delete_records"
    );
    assert_eq!(
        e(r#", {"task": {"ask": "x", "goal": {"log_start": 2}, "solution": [{"retention": {}}]}}"#),
        "step 4: task.goal.log_start: unknown condition (expected one of: log_start_offset, log_end_offset, high_watermark, segments, records_present, records_gone, no_pinned_segment, no_future_segment, config, rejects, accepts, lookup, late_records, any)"
    );
    assert_eq!(
        e(r#", {"task": {"ask": "x", "goal": {"log_start_offset": 2}}}"#),
        "step 4: task.solution: missing: the actions that reach the goal (shown on reveal and checked by logtime check)"
    );
    assert_eq!(
        e(
            r#", {"task": {"ask": "x", "goal": {"log_start_offset": 2}, "solution": [{"config": {"retention.ms": 1.5}}]}}"#
        ),
        "step 4: task.solution[0].config.retention.ms: 1.5 is not a 64-bit integer"
    );
    assert_eq!(
        e(r#", {"note": "x", "narration": "y"}"#),
        "step 4: narration: a note's text is its body; narration is for the other steps"
    );
    assert_eq!(
        e(r#", {"note": "x", "pause": "yes"}"#),
        "step 4: pause: expected true or false"
    );
}

#[test]
fn lesson_and_variant_errors_name_the_field() {
    assert_eq!(
        first_error(&small("").replace(r#""kind": "walkthrough""#, r#""kind": "exam""#)),
        "lesson.kind: expected \"walkthrough\" or \"drill\""
    );
    assert_eq!(
        first_error(&small("").replace("walkthrough", "drill")),
        "lesson.kind: a drill needs at least one question or task"
    );
    assert_eq!(
        first_error(&small("").replace(r#""kind": "walkthrough""#, r#""opens_at": 9"#)),
        "lesson.opens_at: step 9 does not exist (the lesson has 4 steps)"
    );
    let v = small(r#", {"note": "x"}"#)
        .replace(
            r#""kafka": "3.6","#,
            r#""kafka": "3.6", "variants": {"ret": {"from": "1d", "to": "2d", "step": "1d"}},"#,
        )
        .replace(r#""retention.ms": 86400000"#, r#""retention.ms": "$rett""#);
    assert_eq!(
        first_error(&v),
        "topic.retention.ms: unknown variable \"rett\""
    );
    let v = small(r#", {"note": "x"}"#).replace(
        r#""kafka": "3.6","#,
        r#""kafka": "3.6", "variants": {"ret": {"from": "1d", "to": "2d"}},"#,
    );
    assert_eq!(
        first_error(&v),
        "variants.ret.step: missing: a duration between values, like \"1d\""
    );
}

#[test]
fn errors_in_model_steps_keep_the_file_step_index() {
    let json = small(r#", {"note": "x"}, {"at": "2027-03-12T08:00:00Z"}"#);
    assert_eq!(
        first_error(&json),
        "step 5: at: clock moved backwards: 2027-03-12T08:00:00Z is before now (2027-03-12T09:00:00Z)"
    );
}

#[test]
fn a_wrong_answer_in_one_variant_names_the_variant() {
    let json = small(r#", {"question": {"ask": "x", "strike": "segments", "expect": [0]}}"#)
        .replace(r#""now-3d""#, r#""$age""#)
        .replace(
            r#""kafka": "3.6","#,
            r#""kafka": "3.6", "variants": {"age": {"choices": ["now-3d", "now-12h"]}},"#,
        );
    let l = parse(&json).unwrap();
    let (variant, errors) = check_all(&l, 10).unwrap_err();
    assert_eq!(variant, "variant 1 (age = now-12h)");
    assert_eq!(
        errors[0].to_string().split(": the next").next().unwrap(),
        "step 4: question.expect: the model's answer is no segment, not segments 0"
    );
}

#[test]
fn a_plain_scenario_is_a_lesson_with_nothing_authored() {
    let c = concrete(
        r#"{"start": "2027-03-12T09:00:00Z", "steps": [{"produce": {"records": [{"timestamp": "now"}]}}]}"#,
    );
    assert!(!c.is_lesson);
    assert_eq!(c.steps.len(), 1);
    assert_eq!(check(&c).unwrap().questions, 0);
    let mut play = Play::new(c).unwrap();
    assert!(matches!(
        play.advance(&mut |_| {}),
        Some(Ok(Reached::Model(_)))
    ));
    assert_eq!(play.partition().clock(), Timestamp(1_804_842_000_000));
}

#[test]
fn a_post_mortem_is_printed_after_the_timeline_and_its_targets_are_checked() {
    let pm = |what: &str| {
        small("").replace(
            r#""lesson": {"kind": "walkthrough"}"#,
            &format!(
                r#""lesson": {{"kind": "walkthrough", "postmortem": {{"what_happened": "{what}", "why": "Retention stops at the first survivor.", "fix": "DeleteRecords."}}}}"#
            ),
        )
    };
    let c = concrete(&pm("Segment [1](segment:1) was stamped a year ahead."));
    let sheet = answer_sheet(&c).unwrap();
    let sections: Vec<String> = sheet
        .iter()
        .filter(|l| l.kind == LineKind::Section)
        .map(|l| l.sentence.to_string())
        .collect();
    assert_eq!(sections, ["Timeline", "What happened", "Why", "The fix"]);
    assert_eq!(
        first_error(&pm("Segment [9](segment:9).")),
        "lesson.postmortem.what_happened: segment:9: no segment with base offset 9 (segments at this step: 0, 1, 2, 3) (post-mortem targets resolve on the partition as the lesson ends)"
    );
    let e = parse(&small("").replace(
        r#""lesson": {"kind": "walkthrough"}"#,
        r#""lesson": {"postmortem": {"what_happened": "x", "why": "y"}}"#,
    ))
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "lesson.postmortem.fix: missing (a post-mortem says what happened, why, and the fix)"
    );
}
