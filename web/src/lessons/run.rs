//! A lesson run: the parsed lesson, the variant, core's play and the learner's operations on
//! it, in order (replaying them on a fresh play rebuilds it exactly: going back and branches).

use logtime_core::scenario::Entry;
use logtime_lesson::{self as lesson, GoalStatus, Pick, Play};
use logtime_model::{Command, Timestamp};

/// One thing a learner did in a lesson, in order: replaying them on a fresh [`Play`] rebuilds
/// it exactly (core's play is deterministic), which is how going back and branches work.
#[derive(Clone, Debug, PartialEq)]
pub enum Op {
    /// "Next": the steps up to the next stop (see `lessons::view`).
    Next,
    /// A command in the explorer at a broker time.
    Act(Timestamp, Command),
    /// An answer to the open question.
    Answer(lesson::Answer),
    /// A hint taken.
    Hint,
    /// The open item revealed.
    Reveal,
}

impl Op {
    /// Whether the learner did this (as opposed to moving on).
    pub fn is_work(&self) -> bool {
        !matches!(self, Op::Next)
    }

    /// A few words for people.
    pub fn describe(&self) -> String {
        match self {
            Op::Next => "moved on".into(),
            Op::Act(at, command) => Entry::Command {
                at: *at,
                command: command.clone(),
            }
            .describe(),
            Op::Answer(_) => "answered a question".into(),
            Op::Hint => "took a hint".into(),
            Op::Reveal => "revealed an answer".into(),
        }
    }
}

/// A lesson being played: the parsed lesson (to start again or pick another variant), the
/// variant's seed, core's play, and what the learner did.
#[derive(Clone, Debug)]
pub struct LessonRun {
    /// The lesson as parsed.
    pub lesson: lesson::Lesson,
    /// The variant's seed (`None`: the default variant).
    pub seed: Option<u64>,
    /// The step it opened at.
    pub opened_at: usize,
    /// Core's play.
    pub play: Play,
    /// What the learner did, in order.
    pub ops: Vec<Op>,
    /// The learner's moves for their results, each with the ms since the lesson was opened
    /// (kept across a restart that replays `ops`: see `keep_times`).
    pub moves: Vec<lesson::Entry>,
    /// The page's clock when the lesson was opened, in ms.
    pub started: f64,
    /// The open task's goal after the learner's latest command.
    pub last_goal: Option<GoalStatus>,
    /// Whether the latest command solved the open task.
    pub solved: bool,
}

impl LessonRun {
    /// A fresh play of `lesson`'s variant `seed`, opened at `open_at` (default: where the
    /// lesson says).
    pub fn start(
        lesson: lesson::Lesson,
        seed: Option<u64>,
        open_at: Option<usize>,
    ) -> Result<LessonRun, String> {
        let pick = seed.map_or(Pick::Default, Pick::Seed);
        let concrete = lesson.instantiate(pick).map_err(|e| e.to_string())?;
        let at = open_at.unwrap_or(concrete.meta.opens_at);
        let play = Play::open_at(concrete, at).map_err(|e| e.to_string())?;
        Ok(LessonRun {
            lesson,
            seed,
            opened_at: at,
            play,
            ops: Vec::new(),
            moves: Vec::new(),
            started: wall_ms(),
            last_goal: None,
            solved: false,
        })
    }
}

/// The page's clock in ms (0 off the browser). Only the web reads a clock: core is given times.
pub(super) fn wall_ms() -> f64 {
    #[cfg(target_arch = "wasm32")]
    {
        js_sys::Date::now()
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        0.0
    }
}

impl LessonRun {
    /// Records a move of the learner's, timed from the lesson's opening.
    pub fn record(&mut self, play: lesson::Move) {
        let ms = (wall_ms() - self.started).max(0.0) as i64;
        self.moves.push(lesson::Entry { ms, play });
    }

    /// After a restart that replayed the moves `old` (opened at `started`), keeps their
    /// original times.
    pub fn keep_times(&mut self, started: f64, old: &[lesson::Entry]) {
        self.started = started;
        for (new, was) in self.moves.iter_mut().zip(old) {
            if new.play == was.play {
                new.ms = was.ms;
            }
        }
    }

    /// The learner's results: `learner` as typed, every move so far, no score.
    pub fn results(&self, learner: &str) -> lesson::Results {
        lesson::Results {
            learner: learner.trim().to_string(),
            lesson: self.play.lesson().title().to_string(),
            fingerprint: self.lesson.fingerprint().to_string(),
            seed: self.seed,
            entries: self.moves.clone(),
        }
    }
}
