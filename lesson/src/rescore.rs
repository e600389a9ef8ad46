//! Re-scoring: a learner's [`Results`] replayed through the lesson engine ([`rescore`]), and a
//! class's results as one table ([`class_table`]): learner × question, each question's share
//! right first time and its most common wrong answers with core's label. The class page and
//! `logtime grade` print the same table from here.

use crate::misconception::Misconception;
use crate::play::{Play, Reached};
use crate::results::{Move, Results};
use crate::score::Outcome;
use crate::{Item, Lesson, Pick};
use std::collections::BTreeMap;

/// Something a trainer should know about one learner's results.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Flag {
    /// The results were made for another version of the lesson (another fingerprint).
    OtherVersion {
        /// The fingerprint in the results.
        found: String,
    },
    /// A move the engine refused (a forged or out-of-order move): it did not count.
    Refused {
        /// Its index among the moves.
        index: usize,
        /// Why.
        reason: String,
    },
    /// The results could not be read at all (an edited or broken code).
    Unreadable(String),
}

impl Flag {
    /// In words, lowercase.
    pub fn describe(&self) -> String {
        match self {
            Flag::OtherVersion { found } => {
                format!("made for another version of the lesson (fingerprint {found})")
            }
            Flag::Refused { index, reason } => format!("move {index} refused: {reason}"),
            Flag::Unreadable(r) => r.clone(),
        }
    }
}

/// One question or task of one learner, as the replay found it.
#[derive(Clone, Debug, PartialEq)]
pub struct ItemRecord {
    /// Where it stands.
    pub outcome: Outcome,
    /// Answers given, right and wrong.
    pub tries: u32,
    /// Hints taken.
    pub hints: u32,
    /// The wrong answers, in words, with the rule each misses.
    pub wrong: Vec<(String, Option<Misconception>)>,
    /// Milliseconds from the learner's previous settled item (or the start) to settling this one.
    pub ms: Option<i64>,
}

impl ItemRecord {
    /// `✓ 7 s` (right first try), `✓ after 3 tries, 40 s`, `revealed, 1 hint, 2 s`, `–` (not
    /// done).
    pub fn cell(&self) -> String {
        let mut parts = vec![match self.outcome {
            Outcome::Done if self.tries <= 1 => "✓".to_string(),
            Outcome::Done => format!("✓ after {} tries", self.tries),
            Outcome::Revealed => "revealed".to_string(),
            Outcome::Skipped => "skipped".to_string(),
            Outcome::Open => "–".to_string(),
        }];
        if self.hints > 0 {
            parts.push(format!(
                "{} hint{}",
                self.hints,
                if self.hints == 1 { "" } else { "s" }
            ));
        }
        let mut s = parts.join(", ");
        if let Some(ms) = self.ms {
            let sep = if parts.len() == 1 && self.outcome == Outcome::Done && self.tries <= 1 {
                " "
            } else {
                ", "
            };
            s.push_str(&format!("{sep}{} s", (ms + 500) / 1000));
        }
        s
    }
}

/// One learner's results, re-scored.
#[derive(Clone, Debug, PartialEq)]
pub struct Graded {
    /// The name they typed.
    pub learner: String,
    /// Their variant's seed.
    pub seed: Option<u64>,
    /// One record per question and task, in order.
    pub items: Vec<ItemRecord>,
    /// Points earned and possible, by the lesson's scoring.
    pub score: (u32, u32),
    /// What a trainer should know.
    pub flags: Vec<Flag>,
}

impl Graded {
    /// The row of a result that could not be read: named by where it came from (`(file)`),
    /// with no items and the reason as its flag.
    pub fn unreadable(from: &str, reason: String) -> Graded {
        Graded {
            learner: format!("({from})"),
            seed: None,
            items: Vec::new(),
            score: (0, 0),
            flags: vec![Flag::Unreadable(reason)],
        }
    }
}

/// Advances `play` until `item` is open (or, with `item` `None`, until file step `step` is next).
fn reach(play: &mut Play, item: Option<usize>, step: usize) -> Result<(), String> {
    loop {
        match item {
            Some(k) if play.open_item() == Some(k) => return Ok(()),
            None if play.next_step() >= step => return Ok(()),
            _ => {}
        }
        match play.advance(&mut |_| {}) {
            None => return Err("the lesson has no such step or item".into()),
            Some(Err(e)) => return Err(e.to_string()),
            Some(Ok(Reached::Question { .. } | Reached::Task { .. })) => {}
            Some(Ok(_)) => {}
        }
    }
}

/// Applies one move to `play`, counting it in `items`; the reason when the engine refuses it.
fn apply(play: &mut Play, items: &mut [ItemRecord], m: &Move) -> Result<(), String> {
    let (item, step) = match m {
        Move::Act { step, .. } => (None, *step),
        Move::Answer { item, .. } | Move::Hint { item } | Move::Reveal { item } => (Some(*item), 0),
    };
    if let Some(k) = item.filter(|k| *k >= items.len()) {
        return Err(format!("the lesson has no item {k}"));
    }
    reach(play, item, step)?;
    match m {
        Move::Act { at, command, .. } => {
            play.act(*at, command.clone(), &mut |_| {})
                .map_err(|e| e.to_string())?;
        }
        Move::Answer { item, answer } => {
            let g = play.answer(answer).map_err(|e| e.to_string())?;
            let rec = &mut items[*item];
            rec.tries += 1;
            if !g.correct {
                rec.wrong.push((answer.to_string(), g.misconception));
            }
        }
        Move::Hint { item } => match play.hint().map_err(|e| e.to_string())? {
            Some(_) => items[*item].hints += 1,
            None => return Err("no hint left".into()),
        },
        Move::Reveal { .. } => {
            play.reveal(&mut |_| {}).map_err(|e| e.to_string())?;
        }
    }
    Ok(())
}

/// Replays `r` through `lesson`: the score comes from the engine, never from the results.
pub fn rescore(lesson: &Lesson, r: &Results) -> Graded {
    let mut flags = Vec::new();
    if r.fingerprint != lesson.fingerprint() {
        flags.push(Flag::OtherVersion {
            found: r.fingerprint.clone(),
        });
    }
    let pick = r.seed.map_or(Pick::Default, Pick::Seed);
    let play = lesson
        .instantiate(pick)
        .map_err(|e| e.to_string())
        .and_then(|c| Play::new(c).map_err(|e| e.to_string()));
    let mut play = match play {
        Ok(p) => p,
        Err(e) => {
            flags.push(Flag::Unreadable(format!(
                "the lesson cannot be played: {e}"
            )));
            return Graded {
                learner: r.learner.clone(),
                seed: r.seed,
                items: Vec::new(),
                score: (0, 0),
                flags,
            };
        }
    };
    let n = play.lesson().items().count();
    let mut items = vec![
        ItemRecord {
            outcome: Outcome::Open,
            tries: 0,
            hints: 0,
            wrong: Vec::new(),
            ms: None
        };
        n
    ];
    let mut last_settled = 0;
    for (index, e) in r.entries.iter().enumerate() {
        if let Err(reason) = apply(&mut play, &mut items, &e.play) {
            flags.push(Flag::Refused { index, reason });
        }
        // A task settles by the learner's acts: look at every item after each move.
        let card = play.scorecard();
        for (k, it) in card.items.iter().enumerate() {
            if items[k].outcome == Outcome::Open && it.outcome != Outcome::Open {
                items[k].outcome = it.outcome;
                if it.outcome != Outcome::Skipped {
                    items[k].ms = Some(e.ms - last_settled);
                    last_settled = e.ms;
                }
            }
        }
    }
    Graded {
        learner: r.learner.clone(),
        seed: r.seed,
        items,
        score: play.scorecard().total(),
        flags,
    }
}

/// A class's results as one table.
#[derive(Clone, Debug, PartialEq)]
pub struct ClassTable {
    /// The lesson's title.
    pub lesson: String,
    /// The questions' and tasks' short names.
    pub titles: Vec<String>,
    /// One row per learner.
    pub rows: Vec<Graded>,
    /// Per question: how many learners got it right first time, of how many who reached it.
    pub first_try: Vec<(usize, usize)>,
    /// Per question: the most common wrong answers (at most three), with their label and count.
    pub common_wrong: Vec<Vec<(String, Option<Misconception>, usize)>>,
}

/// The table of `rows`, all re-scored against `lesson`.
pub fn class_table(lesson: &Lesson, rows: Vec<Graded>) -> ClassTable {
    let c = lesson.default_variant();
    let titles: Vec<String> = c
        .items()
        .map(|(_, it)| match it {
            Item::Question(q) => q.title.clone(),
            Item::Task(t) => t.title.clone(),
            _ => String::new(),
        })
        .collect();
    let mut first_try = vec![(0, 0); titles.len()];
    let mut wrong: Vec<BTreeMap<(String, Option<Misconception>), usize>> =
        vec![BTreeMap::new(); titles.len()];
    for g in &rows {
        for (k, it) in g.items.iter().enumerate().take(titles.len()) {
            if it.outcome == Outcome::Skipped {
                continue;
            }
            first_try[k].1 += 1;
            if it.outcome == Outcome::Done && it.tries <= 1 && it.hints == 0 {
                first_try[k].0 += 1;
            }
            for w in &it.wrong {
                *wrong[k].entry(w.clone()).or_default() += 1;
            }
        }
    }
    let common_wrong = wrong
        .into_iter()
        .map(|m| {
            let mut v: Vec<_> = m.into_iter().map(|((a, c), n)| (a, c, n)).collect();
            v.sort_by(|a, b| b.2.cmp(&a.2).then_with(|| a.0.cmp(&b.0)));
            v.truncate(3);
            v
        })
        .collect();
    ClassTable {
        lesson: c.title().to_string(),
        titles,
        rows,
        first_try,
        common_wrong,
    }
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

impl ClassTable {
    /// CSV: one row per learner (name, seed, score, one column per question, flags), then one
    /// row of each question's share right first time.
    pub fn to_csv(&self) -> String {
        let mut out = String::new();
        let mut head = vec!["learner".to_string(), "seed".into(), "score".into()];
        head.extend(self.titles.iter().map(|t| csv_field(t)));
        head.push("flags".into());
        out.push_str(&head.join(","));
        out.push('\n');
        for g in &self.rows {
            let mut row = vec![
                csv_field(&g.learner),
                g.seed.map_or(String::new(), |s| s.to_string()),
                format!("{}/{}", g.score.0, g.score.1),
            ];
            // An unreadable result has no items: its row keeps the columns aligned.
            row.extend((0..self.titles.len()).map(|k| {
                g.items
                    .get(k)
                    .map_or(String::new(), |i| csv_field(&i.cell()))
            }));
            row.push(csv_field(
                &g.flags
                    .iter()
                    .map(Flag::describe)
                    .collect::<Vec<_>>()
                    .join("; "),
            ));
            out.push_str(&row.join(","));
            out.push('\n');
        }
        let mut row = vec!["right first time".to_string(), String::new(), String::new()];
        row.extend(self.first_try.iter().map(|(a, b)| format!("{a}/{b}")));
        row.push(String::new());
        out.push_str(&row.join(","));
        out.push('\n');
        out
    }

    /// Plain text for a terminal: the table, then each question's figures.
    pub fn to_text(&self) -> String {
        let mut out = format!(
            "{}: {} learner{}\n",
            self.lesson,
            self.rows.len(),
            if self.rows.len() == 1 { "" } else { "s" }
        );
        for g in &self.rows {
            let name = if g.learner.is_empty() {
                "(no name)"
            } else {
                &g.learner
            };
            out.push_str(&format!("{name} — {}/{}", g.score.0, g.score.1));
            for f in &g.flags {
                out.push_str(&format!(" ⚠ {}", f.describe()));
            }
            out.push('\n');
            for (t, i) in self.titles.iter().zip(&g.items) {
                out.push_str(&format!("  {t}: {}\n", i.cell()));
            }
        }
        for (k, t) in self.titles.iter().enumerate() {
            let (a, b) = self.first_try[k];
            out.push_str(&format!("{t}: {a}/{b} right first time\n"));
            for (ans, c, n) in &self.common_wrong[k] {
                let label = c.map_or(String::new(), |c| format!(" ({})", c.label()));
                out.push_str(&format!("  {n}× {ans}{label}\n"));
            }
        }
        out
    }
}
