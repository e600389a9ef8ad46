//! Scoring: each question and task is worth points; every hint costs some, every wrong answer
//! some more, a revealed answer scores nothing. A [`Scorecard`] sums it up in a text a learner
//! can copy (there is no server).

use std::fmt::Write;

/// The lesson's scoring rules (`lesson.scoring` in the file).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scoring {
    /// Points for an item that does not set its own (default 10).
    pub points: u32,
    /// Points each hint costs (default 3).
    pub hint_cost: u32,
    /// Points each wrong answer costs (default 2).
    pub wrong_cost: u32,
}

impl Default for Scoring {
    fn default() -> Self {
        Scoring {
            points: 10,
            hint_cost: 3,
            wrong_cost: 2,
        }
    }
}

/// Where an item stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Not posed yet, or posed and not settled.
    Open,
    /// Answered right (a question) or solved by the learner (a task).
    Done,
    /// The answer or the solution was revealed.
    Revealed,
    /// Before the step the lesson opened at: it does not count.
    Skipped,
}

/// One question or task's result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ItemResult {
    /// The file step it is at.
    pub step: usize,
    /// Its short name.
    pub title: String,
    /// `question` or `task`.
    pub kind: &'static str,
    /// What it is worth.
    pub points: u32,
    /// Hints taken.
    pub hints_used: u32,
    /// Wrong answers given.
    pub wrong: u32,
    /// Where it stands.
    pub outcome: Outcome,
}

impl ItemResult {
    /// Points earned: `points − hints × hint_cost − wrong × wrong_cost` (not below 0) once done,
    /// 0 otherwise.
    pub fn score(&self, s: &Scoring) -> u32 {
        match self.outcome {
            Outcome::Done => self
                .points
                .saturating_sub(self.hints_used.saturating_mul(s.hint_cost))
                .saturating_sub(self.wrong.saturating_mul(s.wrong_cost)),
            _ => 0,
        }
    }

    fn status(&self) -> String {
        let mut parts = Vec::new();
        match self.outcome {
            Outcome::Open => parts.push("not done".to_string()),
            Outcome::Revealed => parts.push("revealed".to_string()),
            Outcome::Skipped => parts.push("skipped".to_string()),
            Outcome::Done if self.kind == "task" => parts.push("solved".to_string()),
            Outcome::Done => parts.push("correct".to_string()),
        }
        if self.wrong > 0 {
            parts.push(format!(
                "{} wrong answer{}",
                self.wrong,
                if self.wrong == 1 { "" } else { "s" }
            ));
        }
        if self.hints_used > 0 {
            parts.push(format!(
                "{} hint{}",
                self.hints_used,
                if self.hints_used == 1 { "" } else { "s" }
            ));
        }
        parts.join(", ")
    }
}

/// The results of a lesson.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scorecard {
    /// The lesson's title.
    pub title: String,
    /// The variant, for people (empty without variants).
    pub variant: String,
    /// The rules.
    pub scoring: Scoring,
    /// One entry per question and task, in order.
    pub items: Vec<ItemResult>,
}

impl Scorecard {
    /// Points earned and points possible (skipped items left out).
    pub fn total(&self) -> (u32, u32) {
        self.items
            .iter()
            .filter(|i| i.outcome != Outcome::Skipped)
            .fold((0, 0), |(got, max), i| {
                (got + i.score(&self.scoring), max + i.points)
            })
    }

    /// Whether every item is settled.
    pub fn finished(&self) -> bool {
        self.items.iter().all(|i| i.outcome != Outcome::Open)
    }

    /// A plain-text summary, one line per item, for the learner to copy.
    pub fn summary(&self) -> String {
        let (got, max) = self.total();
        let mut out = String::new();
        let _ = writeln!(out, "{}", self.title);
        if !self.variant.is_empty() {
            let _ = writeln!(out, "Variant: {}", self.variant);
        }
        let _ = writeln!(out, "Score: {got} / {max}");
        for (n, i) in self.items.iter().enumerate() {
            let _ = write!(out, "{}. {} ({}): {}", n + 1, i.title, i.kind, i.status());
            if i.outcome == Outcome::Skipped {
                let _ = writeln!(out);
            } else {
                let _ = writeln!(out, ": {}/{}", i.score(&self.scoring), i.points);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(outcome: Outcome, hints: u32, wrong: u32) -> ItemResult {
        ItemResult {
            step: 3,
            title: "Pick the segment that pins retention".into(),
            kind: "question",
            points: 10,
            hints_used: hints,
            wrong,
            outcome,
        }
    }

    #[test]
    fn hints_and_wrong_answers_cost_points() {
        let s = Scoring::default();
        assert_eq!(item(Outcome::Done, 0, 0).score(&s), 10);
        assert_eq!(item(Outcome::Done, 1, 1).score(&s), 5);
        assert_eq!(item(Outcome::Done, 5, 0).score(&s), 0, "never below zero");
        assert_eq!(item(Outcome::Revealed, 0, 0).score(&s), 0);
        assert_eq!(item(Outcome::Open, 0, 0).score(&s), 0);
    }

    #[test]
    fn the_summary_lists_every_item() {
        let card = Scorecard {
            title: "Timestamps from the future (drill)".into(),
            variant: "retention = 6 d".into(),
            scoring: Scoring::default(),
            items: vec![
                item(Outcome::Done, 1, 1),
                ItemResult {
                    kind: "task",
                    title: "Unpin the partition".into(),
                    ..item(Outcome::Revealed, 2, 0)
                },
                item(Outcome::Skipped, 0, 0),
            ],
        };
        assert_eq!(card.total(), (5, 20));
        assert!(card.finished());
        assert_eq!(
            card.summary(),
            "Timestamps from the future (drill)\nVariant: retention = 6 d\nScore: 5 / 20\n\
             1. Pick the segment that pins retention (question): correct, 1 wrong answer, 1 hint: 5/10\n\
             2. Unpin the partition (task): revealed, 2 hints: 0/10\n\
             3. Pick the segment that pins retention (question): skipped\n"
        );
    }
}
