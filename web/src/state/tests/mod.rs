//! One test per reducer [`Action`], run natively against the real core, in one file per slice
//! of the state as the reducer is split (`load`, `steps`, `rebuild`, `commands`, `view`). Here:
//! the helpers and scenarios they share, and what holds for every action.

mod commands;
mod load;
mod rebuild;
mod steps;
mod view;

use std::rc::Rc;

use logtime_core::scenario::ProduceOutcome;
use logtime_model::{KafkaVersion, Offset, OffsetSpec, Timestamp};
use yew::Reducible;

use super::log::LOG_LINES;
use super::*;
use crate::builtins;
use crate::model::import::Done;
use crate::model::producer::BatchSpec;
use logtime_core::scenario::Source;
use logtime_model::scenario::UnitMistake;

/// Seed 004: three steps to the lookup of 10:00:05 (answer: offset 3).
const LOOKUP_SCAN: &str = "lookup-scan";
/// A nanosecond batch rejected under 4.x between accepted ones.
const NANOSECONDS: &str = "nanoseconds-4x";
/// 2025-11-04T10:00:00Z, lookup-scan's start.
const T0: i64 = 1_762_250_400_000;

/// A load answering the explorer's current token, with no moment to rebuild.
fn load(json: Result<String, String>) -> Action {
    LoadAction::Load {
        token: 0,
        json,
        origin: Source::Inline(String::new()),
        restore: Restore::default(),
    }
    .into()
}

fn act(s: &Rc<Explorer>, a: impl Into<Action>) -> Rc<Explorer> {
    s.clone().reduce(a.into())
}

fn loaded(name: &str) -> Rc<Explorer> {
    let json = builtins::find(name).expect("a built-in").read();
    act(&Rc::new(Explorer::default()), load(Ok(json)))
}

fn stepped(name: &str, n: usize) -> Rc<Explorer> {
    let mut s = loaded(name);
    for _ in 0..n {
        s = act(&s, TransportAction::Step);
    }
    s
}

fn last_line(s: &Explorer) -> String {
    s.log
        .lines()
        .last()
        .map(ToString::to_string)
        .unwrap_or_default()
}

fn config(s: &Explorer) -> logtime_model::Config {
    s.replay.runner().unwrap().partition().config().clone()
}

/// A compacted topic (3.6 rules, small segments), no steps: what the producer panel sends is
/// the test.
const COMPACTED: &str = r#"{"title": "compacted", "kafka": "3.6", "start": 1762250400000,
    "topic": {"cleanup.policy": "compact,delete", "segment.bytes": 1000}, "steps": []}"#;

fn inline(json: &str) -> Rc<Explorer> {
    act(&Rc::new(Explorer::default()), load(Ok(json.into())))
}

/// An action copies only the panels it changes: the others stay shared, so their components
/// compare equal and are not rendered again.
#[test]
fn unchanged_panels_stay_shared() {
    let s = stepped(LOOKUP_SCAN, 1);
    let t = act(&s, TransportAction::SetSpeed(4));
    assert!(t.replay == s.replay && t.lookup == s.lookup && t.config == s.config);
    assert!(t.log != s.log);
    let u = act(&t, TransportAction::Step);
    assert!(u.replay != t.replay && u.config == t.config);
}

#[test]
fn narration_is_bounded() {
    let mut s = loaded(LOOKUP_SCAN);
    for v in 0..(LOG_LINES as u32 + 10) {
        s = act(&s, TransportAction::SetSpeed(v));
    }
    assert_eq!(s.log.lines().len(), LOG_LINES);
    assert_eq!(s.log.announce(), format!("Speed {}x.", LOG_LINES + 9));
}
