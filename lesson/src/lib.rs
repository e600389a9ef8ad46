//! # logtime-lesson
//!
//! Lessons: narrated walkthroughs and graded drills, authored in the scenario file
//! (`docs/scenarios.md`, "Lessons"). A crate beside `logtime-core`, built on its scenario parser
//! and narrator and on `logtime-model`'s rules; neither of them knows about lessons. The
//! downstream stream processor that lessons' `late` and `closes` questions read is [`stream`].
//!
//! A lesson file is a scenario file that may add:
//! * a `lesson` object: `kind` (`walkthrough` or `drill`), a one-sentence `summary`, `level`,
//!   `minutes`, the step it `opens_at`, the `scoring` rules and a [`Postmortem`];
//! * `stream`: the downstream stream processor ([`crate::stream`]) that `late` and `closes`
//!   questions and the `late_records` goal read the partition with;
//! * `variants`: ranges and choices a seed picks from ([`variant`]);
//! * on any step, `narration` in a small safe markup ([`markup`]), `show` (what it points at:
//!   [`Target`]s) and `pause`;
//! * three step kinds: `note` (narration only), `question` ([`question`]) and `task` ([`task`],
//!   with a [`goal`](Goal)).
//!
//! The flow, with no I/O anywhere:
//! 1. [`parse`] reads the file into a [`Lesson`] (every error names the step and the field);
//! 2. [`Lesson::instantiate`] picks a variant and gives a [`Concrete`] lesson: the plain
//!    [`Scenario`] the explorer replays, and the steps with their items;
//! 3. a [`Play`] drives it as a learner would: steps, questions answered and graded, hints,
//!    tasks checked live against their goals, reveals, the affordances to hide, a [`Scorecard`];
//! 4. [`check`] walks every item on the path where each task is solved by its revealed
//!    solution and reports every way the lesson is wrong; [`answer_key`] gives every computed
//!    answer as data and [`answer_sheet`] as lines for a trainer.
//!
//! Every answer is computed by the model at the step it is asked, so two learners with different
//! variants get different, correct numbers.
//!
//! ```
//! use logtime_lesson::{self as lesson, Answer, Pick, Play, Reached};
//! use logtime_model::Offset;
//!
//! let json = r#"{"lesson": {"kind": "drill"}, "kafka": "3.6",
//!   "topic": {"retention.ms": 86400000, "segment.bytes": 170}, "start": "2027-03-12T09:00:00Z",
//!   "steps": [
//!     {"produce": {"records": [{"timestamp": "now-3d"}]}},
//!     {"produce": {"records": [{"timestamp": "now+365d"}]}},
//!     {"produce": {"records": [{"timestamp": "now"}]}},
//!     {"question": {"ask": "Which segment pins retention?", "pinning": {},
//!                   "hints": ["Look for a largest timestamp ahead of the clock."]}}]}"#;
//! let lesson = lesson::parse(json)?;
//! let mut play = Play::new(lesson.instantiate(Pick::Seed(7))?)?;
//! while let Some(step) = play.advance(&mut |_event| {}) {
//!     if let Reached::Question { .. } = step? {
//!         let hint = play.hint()?.expect("one hint");
//!         assert_eq!(hint[0].to_string(), "Look for a largest timestamp ahead of the clock.");
//!         let grade = play.answer(&Answer::Segment(Offset(1)))?;
//!         assert!(grade.correct);
//!         assert!(grade.feedback[0].to_string().starts_with("segment 1 is kept: its largest timestamp"));
//!     }
//! }
//! assert_eq!(play.scorecard().total(), (7, 10)); // one hint: 10 − 3
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod action;
pub mod author;
mod check;
pub mod errors;
pub mod feedback;
mod goal;
mod grade;
mod link;
mod markup;
pub mod misconception;
mod parse;
mod play;
mod question;
pub mod rescore;
pub mod results;
mod score;
mod sheet;
pub mod stream;
mod target;
mod task;
mod variant;
mod wrong;

pub use action::{Action, Batch, ACTION_KINDS};
pub use author::{AuthorCommand, AuthorError, AuthorEvent, Authoring, Checked, Start, StepView};
pub use check::{check, check_all, CheckSummary, MAX_CHECKED_SUBSTITUTED_BYTES};
pub use errors::{error_name, parse_error_code, KAFKA_ERRORS};
pub use goal::{Bound, Goal, GoalCheck, GoalStatus, Probe, GOAL_KEYS};
pub use logtime_core::scenario::bites::{Bite, BiteKind};
pub use markup::{Inline, LinkTo, Markup, MarkupError};
pub use misconception::Misconception;
pub use parse::{
    is_lesson_file, ANNOTATION_KEYS, LESSON_KEYS, LESSON_STEP_KINDS, LESSON_TOP_LEVEL_KEYS,
    POSTMORTEM_KEYS,
};
pub use play::{Acted, Play, PlayError, Reached, Reveal};
pub use question::{
    Answer, Ask, Evidence, Grade, Question, Solved, CHOOSE_CONFIGS, QUESTION_KEYS, QUESTION_KINDS,
};
pub use rescore::{class_table, rescore, ClassTable, Flag, Graded, ItemRecord};
pub use results::{seed_for, Entry, Move, Results, ResultsError, RESULTS_VERSION};
pub use score::{ItemResult, Outcome, Scorecard, Scoring};
pub use sheet::{answer_key, answer_sheet, KeyAnswer, KeyEntry, Line, LineKind};
pub use stream::section::STREAM_KEYS;
pub use target::{Affordance, Affordances, Target};
pub use task::{Task, TaskReveal, TASK_KEYS};
pub use variant::{
    Pick, Variable, Variant, VariantKind, Variants, MAX_SUBSTITUTED_BYTES, MAX_VALUES,
};

use crate::stream::StreamConfig;
use logtime_core::scenario::narrate::{self, Origin, Sentence};
use logtime_core::scenario::{ProduceOutcome, Scenario, ScenarioError, StepOutcome, StepReport};
use logtime_model::partition::Partition;
use logtime_model::units::Offset;
use serde_json::Value;

/// Walkthrough or drill.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LessonKind {
    /// Narrated steps, pauses, tasks: an engineer walks a team through an incident.
    #[default]
    Walkthrough,
    /// Questions and tasks, scored: a trainer's exercise.
    Drill,
}

impl LessonKind {
    /// `walkthrough` or `drill`.
    pub fn key(self) -> &'static str {
        match self {
            LessonKind::Walkthrough => "walkthrough",
            LessonKind::Drill => "drill",
        }
    }
}

/// How demanding a lesson is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// First contact.
    Intro,
    /// Knows the basics.
    Intermediate,
    /// Operates Kafka.
    Advanced,
}

impl Level {
    /// `intro`, `intermediate` or `advanced`.
    pub fn key(self) -> &'static str {
        match self {
            Level::Intro => "intro",
            Level::Intermediate => "intermediate",
            Level::Advanced => "advanced",
        }
    }
}

/// The `lesson` object.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Meta {
    /// Walkthrough or drill.
    pub kind: LessonKind,
    /// One sentence: what went wrong and what the reader will learn.
    pub summary: Option<Markup>,
    /// How demanding.
    pub level: Option<Level>,
    /// How long, in minutes.
    pub minutes: Option<u32>,
    /// The step the lesson opens at, with the steps before it applied.
    pub opens_at: usize,
    /// Scoring rules.
    pub scoring: Scoring,
    /// What happened, why, and the fix: `logtime explain` prints a walkthrough or drill that has
    /// one as a post-mortem.
    pub postmortem: Option<Postmortem>,
}

/// A lesson's post-mortem (`lesson.postmortem`), in markup.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Postmortem {
    /// What happened, in order.
    pub what_happened: Markup,
    /// Why Kafka (or the processor downstream) did what it did.
    pub why: Markup,
    /// The fix, and what does not fix it.
    pub fix: Markup,
}

/// What a step of a lesson is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item {
    /// A scenario step: the model acts. `scenario_step` indexes [`Concrete::scenario`]'s steps.
    Model {
        /// Its index among the scenario's steps.
        scenario_step: usize,
    },
    /// Narration only.
    Note,
    /// A question.
    Question(Box<Question>),
    /// A task.
    Task(Box<Task>),
}

/// One step of a lesson file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LessonStep {
    /// Its index in the file.
    pub index: usize,
    /// What it is.
    pub item: Item,
    /// The authored narration (a note's body, or a step's `narration`).
    pub narration: Option<Markup>,
    /// What it points at, to highlight.
    pub show: Vec<Target>,
    /// Playback stops here until the reader goes on.
    pub pause: bool,
}

/// Narration for a step, authored or generated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Narration {
    /// Who wrote it.
    pub origin: Origin,
    /// Its paragraphs or clauses.
    pub sentences: Vec<Sentence>,
}

/// A parsed lesson, before a variant is picked.
#[derive(Clone, Debug, PartialEq)]
pub struct Lesson {
    raw: Value,
    fingerprint: String,
    variants: Variants,
    default: Concrete,
}

/// One variant of a lesson: every value put in, every item parsed.
#[derive(Clone, Debug, PartialEq)]
pub struct Concrete {
    /// The `lesson` object.
    pub meta: Meta,
    /// Whether the file uses any lesson feature (a plain scenario does not).
    pub is_lesson: bool,
    /// The variant's values.
    pub variant: Variant,
    /// The model steps as a plain scenario: what the explorer replays.
    pub scenario: Scenario,
    /// The downstream stream processor the lesson's `stream` section configures.
    pub stream: Option<StreamConfig>,
    /// Every step of the file, in order.
    pub steps: Vec<LessonStep>,
}

/// Parses a lesson (or plain scenario) file. The default variant is built to report every
/// error up front; errors name the step index of the file and the field.
pub fn parse(json: &str) -> Result<Lesson, ScenarioError> {
    let raw = parse::root(json)?;
    let fingerprint = results::fingerprint_of(&raw);
    let variants = match raw.get("variants") {
        None => Variants::default(),
        Some(v) => Variants::parse(v)?,
    };
    if variants.variables().is_empty() {
        // One variant only: build it from the tree itself, which is not needed again.
        let default = parse::instantiate_owned(raw, &variants, Pick::Default)?;
        return Ok(Lesson {
            raw: Value::Null,
            fingerprint,
            variants,
            default,
        });
    }
    let default = parse::instantiate(&raw, &variants, Pick::Default)?;
    Ok(Lesson {
        raw,
        fingerprint,
        variants,
        default,
    })
}

impl Lesson {
    /// The declared variables.
    pub fn variants(&self) -> &Variants {
        &self.variants
    }

    /// How many variants there are.
    pub fn variant_count(&self) -> u64 {
        self.variants.count()
    }

    /// The default variant (the numbers the lesson was written with).
    pub fn default_variant(&self) -> &Concrete {
        &self.default
    }

    /// The variant `pick` names.
    pub fn instantiate(&self, pick: Pick) -> Result<Concrete, ScenarioError> {
        match pick {
            Pick::Default => Ok(self.default.clone()),
            // Without variables every pick is the default variant (the file was not kept).
            _ if self.variants.variables().is_empty() => Ok(Concrete {
                variant: self.variants.pick(pick),
                ..self.default.clone()
            }),
            _ => parse::instantiate(&self.raw, &self.variants, pick),
        }
    }
}

impl Concrete {
    /// The title (the scenario's).
    pub fn title(&self) -> &str {
        self.scenario.title.as_deref().unwrap_or("Untitled lesson")
    }

    /// The questions and tasks, with their file steps, in order.
    pub fn items(&self) -> impl Iterator<Item = (usize, &Item)> {
        self.steps
            .iter()
            .filter(|s| matches!(s.item, Item::Question(_) | Item::Task(_)))
            .map(|s| (s.index, &s.item))
    }

    /// The affordances hidden at file step `at` (the next step to reach), given which items are
    /// settled (`settled[k]` for the `k`-th item of [`Concrete::items`]). In a drill an item hides
    /// its affordances from the start until it is settled; in a walkthrough, from its own step.
    pub fn hidden(&self, at: usize, settled: &[bool]) -> Affordances {
        let mut out = Affordances::NONE;
        for (k, (step, item)) in self.items().enumerate() {
            if settled.get(k).copied().unwrap_or(false) {
                continue;
            }
            if self.meta.kind == LessonKind::Walkthrough && step >= at {
                continue;
            }
            out = out.union(match item {
                Item::Question(q) => q.hide,
                Item::Task(t) => t.hide,
                _ => Affordances::NONE,
            });
        }
        out
    }

    /// The narration of file step `step` on partition `p`: authored first (targets that do not
    /// exist on `p`, as after a learner's own actions, lose their link but keep their text),
    /// then the narrator's words for `report` (what the step did, worded by `p`'s config: the
    /// one in force after the step), unless `hidden` hides what they would give away (a
    /// retention check's verdicts, a lookup's answer).
    pub fn narration(
        &self,
        step: usize,
        report: Option<&StepReport>,
        p: &Partition,
        hidden: Affordances,
    ) -> Vec<Narration> {
        let mut out = Vec::new();
        if let Some(m) = self.steps.get(step).and_then(|s| s.narration.as_ref()) {
            out.push(Narration {
                origin: Origin::Authored,
                sentences: render(m, p),
            });
        }
        if let Some(r) = report {
            let verdicts =
                matches!(r.outcome, StepOutcome::Retention(_)) || !r.retention.is_empty();
            let lookup = matches!(r.outcome, StepOutcome::Lookup { .. });
            let sentences = if verdicts && hidden.contains(Affordance::Verdicts) {
                vec![Sentence::plain(
                    "a retention check ran (its verdicts are hidden until you answer)",
                )]
            } else if lookup && hidden.contains(Affordance::LookupTrace) {
                vec![Sentence::plain(
                    "a lookup ran (its answer is hidden until you answer)",
                )]
            } else {
                narrate::step(r, p.config())
            };
            out.push(Narration {
                origin: Origin::Generated,
                sentences,
            });
            if let Some(s) = self.stream_narration(r, p, hidden) {
                out.push(Narration {
                    origin: Origin::Generated,
                    sentences: s,
                });
            }
        }
        out
    }

    /// What the lesson's stream processor did with the records step `report` wrote, read on
    /// `p` (the partition after the step); `None` without a `stream` section or when the step
    /// wrote nothing the processor can read. Hidden by [`Affordance::StreamVerdicts`].
    pub fn stream_narration(
        &self,
        report: &StepReport,
        p: &Partition,
        hidden: Affordances,
    ) -> Option<Vec<Sentence>> {
        let c = self.stream.as_ref()?;
        let (first, last) = appended(report)?;
        let rep = stream::run(c, p);
        let lines = stream::narrate::reads(&rep, first, last);
        if lines.is_empty() {
            return None;
        }
        if hidden.contains(Affordance::StreamVerdicts) {
            return Some(vec![Sentence::plain(
                "the stream processor read the new records (what it did with them is hidden until you answer)",
            )]);
        }
        Some(lines)
    }
}

/// The offsets a step appended, first and last.
pub(crate) fn appended(report: &StepReport) -> Option<(Offset, Offset)> {
    match &report.outcome {
        StepOutcome::Produce(ProduceOutcome::Appended(a)) => Some((a.base_offset, a.last_offset)),
        StepOutcome::Produce(ProduceOutcome::Traffic(t)) if t.records_appended > 0 => {
            Some((t.first_offset, t.last_offset))
        }
        _ => None,
    }
}

/// Markup as sentences on `p`, leniently: a target that does not resolve keeps its text without
/// a link.
pub fn render(m: &Markup, p: &Partition) -> Vec<Sentence> {
    m.sentences(&|t| t.resolve(p)).unwrap_or_else(|_| {
        m.sentences(&|t| t.resolve(p).or(Ok(narrate::Mention::Link(String::new()))))
            .map(|v| v.into_iter().map(strip_dead_links).collect())
            .unwrap_or_default()
    })
}

fn strip_dead_links(s: Sentence) -> Sentence {
    let mut out = Sentence::new();
    for span in s.spans() {
        match &span.mention {
            Some(narrate::Mention::Link(u)) if u.is_empty() => {
                out.styled(&span.text, span.style);
            }
            Some(m) => {
                out.styled_mention(&span.text, span.style, m.clone());
            }
            None => {
                out.styled(&span.text, span.style);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests;
