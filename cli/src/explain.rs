//! `logtime explain`: the replay narrated for people, one line per step, in the words of core's
//! narrator (`logtime_core::scenario::narrate`); nothing here words or re-derives Kafka logic.

use logtime_core::scenario::narrate::{self, Sentence};
use logtime_core::scenario::{Runner, Scenario, ScenarioError};
use std::fmt::Write;

/// Narrates a whole replay.
pub(crate) fn explain(s: &Scenario) -> Result<String, ScenarioError> {
    let mut out = String::new();
    if let Some(t) = &s.title {
        let _ = writeln!(out, "{t}");
    }
    if let Some(d) = &s.description {
        let _ = writeln!(out, "{d}");
    }
    let _ = writeln!(out, "{}", narrate::setting(s));
    if let Some(note) = narrate::compaction_note(&s.config) {
        let _ = writeln!(out, "{note}");
    }
    let mut runner = Runner::new(s.clone());
    let mut previous = s.start;
    while let Some(step) = runner.step(&mut |_| {}) {
        let report = step?;
        let heading = narrate::heading(report.index, report.now, previous);
        let config = runner.partition().config();
        let text = Sentence::join(narrate::step(&report, config), "; ");
        let _ = writeln!(out, "{heading}: {text}");
        previous = report.now;
    }
    let _ = writeln!(out, "{}", narrate::end(&runner.partition().state()));
    Ok(out)
}
