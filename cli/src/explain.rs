//! `logtime explain`: the replay narrated for people, one line per step, in the words of core's
//! narrator (`logtime_core::scenario::narrate`); for a lesson, the trainer's answer sheet that
//! the lesson engine builds (`logtime_lesson::answer_sheet`). Nothing here words or re-derives
//! Kafka logic: this module only lays the lines out.

use logtime_cli::terminal::escape;
use logtime_core::scenario::narrate::{self, Mention, Sentence, Style};
use logtime_core::scenario::{Runner, Scenario, ScenarioError};
use logtime_lesson::{answer_sheet, Concrete, Line, LineKind};
use std::fmt::Write;

/// Narrates a whole replay.
pub(crate) fn explain(s: &Scenario) -> Result<String, ScenarioError> {
    let mut out = String::new();
    if let Some(t) = &s.title {
        let _ = writeln!(out, "{}", escape(t));
    }
    if let Some(d) = &s.description {
        let _ = writeln!(out, "{}", escape(d));
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
    let _ = writeln!(out, "{}", narrate::end(runner.partition()));
    Ok(out)
}

/// A sentence as text: `code` in backticks, a documentation link's URL after its text.
fn text(s: &Sentence) -> String {
    let mut out = String::new();
    let spans = s.spans();
    for (i, span) in spans.iter().enumerate() {
        if span.style == Style::Code {
            let _ = write!(out, "`{}`", span.text);
        } else {
            out.push_str(&span.text);
        }
        if let Some(Mention::Link(url)) = &span.mention {
            let same_next = spans
                .get(i + 1)
                .is_some_and(|n| n.mention.as_ref() == span.mention.as_ref());
            if !same_next && !url.is_empty() {
                let _ = write!(out, " <{url}>");
            }
        }
    }
    out
}

/// The answer sheet of one variant of a lesson.
pub(crate) fn sheet(c: &Concrete) -> Result<String, ScenarioError> {
    let mut out = String::new();
    for Line { kind, sentence } in answer_sheet(c)? {
        if kind == LineKind::Section {
            let title = text(&sentence);
            let _ = writeln!(out, "\n{title}\n{}", "=".repeat(title.chars().count()));
            continue;
        }
        let prefix = match kind {
            LineKind::Title | LineKind::Fact | LineKind::End | LineKind::Section => "",
            LineKind::Heading => "\n",
            LineKind::Authored => "  > ",
            LineKind::Generated => "  · ",
            LineKind::Ask => "  ? ",
            LineKind::Hint
            | LineKind::Answer
            | LineKind::Goal
            | LineKind::Solution
            | LineKind::Hides => "  ",
            LineKind::Why => "    ",
        };
        let _ = writeln!(out, "{prefix}{}", text(&sentence));
    }
    Ok(out)
}
