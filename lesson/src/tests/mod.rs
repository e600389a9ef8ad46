//! Lesson tests across modules, one file per subject: a learner's play (grading, hints, scoring,
//! hiding, tasks solved by acting), variants, where a lesson opens, the built-in lessons and
//! incidents, one test per way `check` finds a lesson wrong (each asserting the step and the field
//! it names), compacted topics and seeded logs, the stream processor, and a lesson file's shape.
//! Here: the lessons and helpers they share.

mod built_ins;
mod compacted;
mod learner;
mod shape;
mod stream_lessons;
mod variant_numbers;
mod wrong_lessons;

use super::*;
use logtime_core::scenario::narrate::{Mention, Origin};
use logtime_model::config::ConfigValue;
use logtime_model::partition::Command;
use logtime_model::units::{Offset, Timestamp};

const FUTURE_DRILL: &str = include_str!("../../../static/lessons/future-drill.json");
const FUTURE_WALK: &str = include_str!("../../../static/lessons/future-walkthrough.json");
const TWO_KINDS_DRILL: &str = include_str!("../../../static/lessons/two-kinds-drill.json");
const TWO_KINDS_WALK: &str = include_str!("../../../static/lessons/two-kinds-walkthrough.json");
const KIP937_DRILL: &str = include_str!("../../../static/lessons/kip937-drill.json");

const BUILT_INS: [(&str, &str); 5] = [
    ("future-drill", FUTURE_DRILL),
    ("future-walkthrough", FUTURE_WALK),
    ("two-kinds-drill", TWO_KINDS_DRILL),
    ("two-kinds-walkthrough", TWO_KINDS_WALK),
    ("kip937-drill", KIP937_DRILL),
];

/// A small lesson: three one-record segments (170 bytes each) stamped 3 days ago, 1 year ahead
/// and 2 days ago, then the active one, on a 1-day topic (a walkthrough); `items` follow.
fn small(items: &str) -> String {
    format!(
        r#"{{"title": "small", "kafka": "3.6", "lesson": {{"kind": "walkthrough"}},
            "topic": {{"retention.ms": 86400000, "segment.bytes": 170}},
            "start": "2027-03-12T09:00:00Z",
            "steps": [
              {{"produce": {{"records": [{{"timestamp": "now-3d"}}]}}}},
              {{"produce": {{"records": [{{"timestamp": "now+365d"}}]}}}},
              {{"produce": {{"records": [{{"timestamp": "now-2d"}}]}}}},
              {{"produce": {{"records": [{{"timestamp": "now"}}]}}}}{items}
            ]}}"#
    )
}

fn concrete(json: &str) -> Concrete {
    parse(json).unwrap().default_variant().clone()
}

/// Every error `check` reports for the lesson, as one-line strings.
fn check_errors(json: &str) -> Vec<String> {
    match parse(json) {
        Err(e) => vec![e.to_string()],
        Ok(l) => match check_all(&l, 100) {
            Ok(_) => Vec::new(),
            Err((_, errors)) => errors.iter().map(|e| e.to_string()).collect(),
        },
    }
}

fn first_error(json: &str) -> String {
    check_errors(json)
        .into_iter()
        .next()
        .expect("the lesson is wrong")
}
