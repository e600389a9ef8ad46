//! A lesson in the explorer: what the narration pane, the question card and the score show.
//!
//! Core's [`Play`](logtime_lesson::Play) decides everything (what a step does, what is
//! hidden, whether an answer is right and why, the goal of a task, the score); this module only
//! records its answers for the components, and the learner's selection in the partition view.
//!
//! Steps are taken in *stops*: "Next" runs the lesson's steps up to the next one worth stopping
//! at (authored narration, highlights, a pause, a note, a question or a task; in a plain
//! scenario, every step), so setup steps run together as their author meant.

use logtime_core::scenario::narrate::{Panel, Sentence};
use logtime_lesson::{
    Affordances, Answer, Ask, GoalStatus, Item, LessonKind, Narration, Outcome, Scorecard, Target,
};
use logtime_model::Offset;

use crate::options::Mode;

/// What an open question takes as its answer, and so how the learner gives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Takes {
    /// Strike segments: click each segment (toggles).
    Segments,
    /// Strike records: click each record (toggles).
    Records,
    /// Click one record: the offset a lookup returns.
    Offset,
    /// Click one record: the one whose read closes a window (`-1`: none does).
    Closing,
    /// Click one segment.
    Segment,
    /// Type a value of this config.
    Value(String),
    /// Type a Kafka error code.
    ErrorCode,
    /// A task: act in the explorer.
    Task,
}

impl Takes {
    /// What a question of `kind` takes.
    pub fn of(kind: &Ask) -> Takes {
        match kind {
            Ask::StrikeSegments => Takes::Segments,
            Ask::StrikeRecords | Ask::Late(_) => Takes::Records,
            Ask::Closes(..) => Takes::Closing,
            Ask::Lookup(..) => Takes::Offset,
            Ask::Pinning => Takes::Segment,
            Ask::Choose { config, .. } => Takes::Value(config.clone()),
            Ask::Error(_) => Takes::ErrorCode,
        }
    }

    /// Whether the answer is picked by clicking segments.
    pub fn picks_segments(&self) -> bool {
        matches!(self, Takes::Segments | Takes::Segment)
    }

    /// Whether the answer is picked by clicking records.
    pub fn picks_records(&self) -> bool {
        matches!(self, Takes::Records | Takes::Offset | Takes::Closing)
    }

    /// The answer the selection (or the typed `value`) gives, or why there is none yet. A
    /// single offset or segment may be typed instead of clicked (a partition of millions of
    /// records, a keyboard); a typed one wins over a click.
    pub fn answer(&self, selection: &[Offset], value: Option<i64>) -> Result<Answer, &'static str> {
        let need_one = || {
            value
                .map(Offset)
                .or_else(|| selection.last().copied())
                .ok_or("click one in the partition first (or type it)")
        };
        match self {
            Takes::Segments => Ok(Answer::segments(selection.to_vec())),
            Takes::Records => Ok(Answer::records(
                selection.iter().map(|o| (*o, *o)).collect(),
            )),
            Takes::Offset | Takes::Closing => need_one().map(Answer::Offset),
            Takes::Segment => need_one().map(Answer::Segment),
            Takes::Value(_) => value.map(Answer::Value).ok_or("type a value first"),
            Takes::ErrorCode => match value {
                Some(v) => i16::try_from(v)
                    .map(Answer::ErrorCode)
                    .map_err(|_| "an error code is a number from -32768 to 32767"),
                None => Err("type an error code first"),
            },
            Takes::Task => Err("a task is done by acting in the explorer"),
        }
    }

    /// The selection after the learner clicks `o`: a set toggles it, a single pick replaces it.
    pub fn select(&self, selection: &[Offset], o: Offset) -> Vec<Offset> {
        match self {
            Takes::Segments | Takes::Records => {
                let mut v: Vec<Offset> = selection.iter().copied().filter(|x| *x != o).collect();
                if v.len() == selection.len() {
                    v.push(o);
                    v.sort();
                }
                v
            }
            _ => vec![o],
        }
    }
}

/// The question or task on screen: open, or just settled (with its feedback) until the learner
/// moves on.
#[derive(Clone, Debug, PartialEq)]
pub struct ItemView {
    /// Its index among the lesson's items.
    pub index: usize,
    /// How many items the lesson has.
    pub of: usize,
    /// Its file step.
    pub step: usize,
    /// `Takes::Task` for a task.
    pub takes: Takes,
    /// Its short name.
    pub title: String,
    /// What is asked.
    pub ask: Vec<Sentence>,
    /// Hints taken so far, in order.
    pub hints: Vec<Vec<Sentence>>,
    /// Hints left.
    pub hints_left: usize,
    /// What each hint costs, and each wrong answer.
    pub costs: (u32, u32),
    /// Points it is worth.
    pub points: u32,
    /// The latest answer's grade: right or not, and why (the model's words).
    pub feedback: Option<(bool, Vec<Sentence>)>,
    /// The revealed answer and its explanation.
    pub revealed: Option<Vec<Sentence>>,
    /// The author's explanation, once a right answer settles the question.
    pub explanation: Vec<Sentence>,
    /// A task's goal on the live partition.
    pub goal: Option<GoalStatus>,
    /// Done, revealed, or still open.
    pub outcome: Outcome,
}

/// What the lesson pane shows.
#[derive(Clone, Debug, Default)]
pub struct LessonView {
    /// Walkthrough, drill or presenter.
    pub mode: Option<Mode>,
    /// The lesson's own kind.
    pub kind: LessonKind,
    /// The lesson's summary.
    pub summary: Vec<Sentence>,
    /// Whether the file uses lesson features (a plain scenario walked through does not).
    pub authored: bool,
    /// The variant's seed and, for people, its values.
    pub seed: Option<u64>,
    /// The variant's values, for people.
    pub variant: String,
    /// Whether the lesson declares variants.
    pub has_variants: bool,
    /// The file step of the stop on screen.
    pub at: Option<usize>,
    /// Steps in the file.
    pub steps: usize,
    /// The stop's narration: authored first, then the narrator's.
    pub narration: Vec<Narration>,
    /// What the steps run on the way to the stop did, in the narrator's words.
    pub passed: Vec<Sentence>,
    /// What the stop points at.
    pub show: Vec<Target>,
    /// The narration link followed last at this stop: a count and its target.
    pub followed: Option<(u32, Target)>,
    /// The stop is a pause point.
    pub pause: bool,
    /// The question or task on screen.
    pub item: Option<ItemView>,
    /// What is hidden now.
    pub hidden: Affordances,
    /// The learner's picks in the partition view for the open question.
    pub selection: Vec<Offset>,
    /// The score so far.
    pub card: Option<Scorecard>,
    /// The learner's results so far, without a name (the pane adds the one typed).
    pub results: Option<logtime_lesson::Results>,
    /// Every step reached and nothing open.
    pub finished: bool,
    /// The work kept when the learner went back: their operations, to return to.
    pub branch: Option<Vec<super::Op>>,
    /// Op-log lengths at each stop reached (going back returns to the previous one).
    pub stops: Vec<usize>,
    /// The last refusal, in words (an answer of the wrong kind, nothing selected).
    pub error: Option<String>,
}

impl LessonView {
    /// Whether the pane shows the walkthrough's narration-first layout (walkthrough,
    /// presenter) rather than the drill's question-first one.
    pub fn narrates(&self) -> bool {
        !matches!(self.mode, Some(Mode::Drill))
    }

    /// The open item, if one is open.
    pub fn open(&self) -> Option<&ItemView> {
        self.item.as_ref().filter(|i| i.outcome == Outcome::Open)
    }

    /// What the partition view outlines: segments by base offset and offset ranges.
    pub fn highlights(&self) -> (Vec<Offset>, Vec<(Offset, Offset)>, Vec<String>) {
        let (mut segs, mut ranges, mut configs) = (Vec::new(), Vec::new(), Vec::new());
        for t in self
            .show
            .iter()
            .chain(self.followed.as_ref().map(|(_, t)| t))
        {
            match t {
                Target::Segment(o) => segs.push(*o),
                Target::Offset(o) => ranges.push((*o, *o)),
                Target::Offsets { first, last } => ranges.push((*first, *last)),
                Target::SegmentOf(o) => ranges.push((*o, *o)),
                Target::Config(c) => configs.push(c.clone()),
                _ => {}
            }
        }
        (segs, ranges, configs)
    }

    /// The panels the stop points at (`panel:` targets), in the order written.
    pub fn pointed_panels(&self) -> Vec<Panel> {
        self.show
            .iter()
            .filter_map(|t| match t {
                Target::Panel(p) => Some(*p),
                _ => None,
            })
            .collect()
    }
}

/// Whether the lesson should stop at `step` on the way forward.
pub(crate) fn is_stop(steps: &[logtime_lesson::LessonStep], step: usize, authored: bool) -> bool {
    let Some(s) = steps.get(step) else {
        return true;
    };
    if !authored || step + 1 == steps.len() {
        return true;
    }
    s.narration.is_some() || s.pause || !s.show.is_empty() || !matches!(s.item, Item::Model { .. })
}
