//! Grading an answer. A right answer is explained in full, with the author's `reveal` after it; a
//! wrong one only by what the model says about the learner's own choice ([`crate::wrong`]) and
//! the rule it misses ([`Misconception`]), so a wrong answer never tells more than a hint.

use super::question::{label, pinning_segment, Answer, Ask, Evidence, Grade, Question, Solved};
use crate::feedback;
use crate::misconception::Misconception;
use crate::render;
use crate::stream::{StreamReport, Window};
use logtime_core::scenario::narrate::{self, Sentence};
use logtime_model::partition::Partition;
use logtime_model::retention::{RetentionReport, Verdict};

impl Question {
    /// Whether `given` is right, with feedback drawn from `solved`'s report. `p` is the partition
    /// the question was asked on (for the stamps of offsets a learner picked).
    pub fn grade(&self, solved: &Solved, given: &Answer, p: &Partition) -> Grade {
        let correct = match (&solved.answer, given) {
            (Answer::Values { min, max }, Answer::Value(v)) => (min..=max).contains(&v),
            (right, given) => right == given,
        };
        if correct {
            return Grade {
                correct,
                feedback: self.explain(solved, p),
                misconception: None,
                explanation: self.explanation(p),
            };
        }
        let (mut feedback, class) = crate::wrong::feedback(self, solved, given, p);
        if let Some(c) = class {
            match self.wrong.iter().find(|(k, _)| *k == c) {
                Some((_, m)) => feedback.extend(render(m, p)),
                None => feedback.push(c.teaching()),
            }
        }
        Grade {
            correct,
            feedback,
            misconception: class,
            explanation: Vec::new(),
        }
    }

    /// The author's explanation on `p`, shown once the question is settled.
    pub fn explanation(&self, p: &Partition) -> Vec<Sentence> {
        self.reveal
            .as_ref()
            .map(|m| render(m, p))
            .unwrap_or_default()
    }

    /// The model's full explanation of the right answer (shown after a right answer or a reveal).
    pub(crate) fn explain(&self, solved: &Solved, p: &Partition) -> Vec<Sentence> {
        let mut feedback = Vec::new();
        match &solved.evidence {
            Evidence::Retention(r) => {
                if matches!(self.kind, Ask::StrikeSegments | Ask::StrikeRecords) {
                    feedback.push(next_pass(r, p));
                }
                match &solved.answer {
                    Answer::Segments(_) => feedback.extend(fates_to_first_kept(r)),
                    Answer::Records(right) => {
                        let mut s = Sentence::plain("right: ");
                        s.text(Answer::Records(right.clone()).to_string());
                        feedback.push(s);
                        feedback.extend(fates_to_first_kept(r));
                    }
                    Answer::Segment(_) => {
                        if let Some(b) = pinning_segment(r) {
                            feedback.push(feedback::pinning(b, r));
                        }
                    }
                    a => feedback.push(Sentence::plain(format!("the answer is {a}"))),
                }
            }
            Evidence::Lookup(l) => feedback.push(narrate::lookup(l.spec, &Ok(l.clone()))),
            Evidence::Choose {
                config,
                reject_at_max,
                ..
            } => {
                let Ask::Choose { accept, reject, .. } = &self.kind else {
                    unreachable!("choose")
                };
                let Answer::Values { min, max } = solved.answer else {
                    unreachable!("values")
                };
                let now = p.clock();
                let mut s = Sentence::new();
                s.text(format!("every value from {min} to {max} works: "))
                    .config(config)
                    .text(format!(" = {min} accepts "))
                    .append(label(accept, now))
                    .text(", and ")
                    .append(label(reject, now))
                    .text(format!(" is rejected up to {max}"));
                feedback.push(s);
                let mut r = label(reject, now);
                r.text(format!(" at {max}: "))
                    .append(feedback::batch_answer(reject_at_max));
                feedback.push(r);
            }
            Evidence::Stream { report, window } => {
                feedback.extend(stream_right(report, *window));
            }
            Evidence::Outcome { report, config } => {
                feedback.push(Sentence::join(narrate::step(report, config), "; "));
            }
        }
        feedback
    }
}

/// `the retention task runs at 12 Mar 2027 09:05` (the log cleaner's pass on a compacted topic).
pub(crate) fn next_pass(r: &RetentionReport, p: &Partition) -> Sentence {
    let mut s = Sentence::plain(format!(
        "the {} runs at ",
        narrate::next_pass_label(p.config())
    ));
    s.time(r.at);
    s
}

/// The fate of every segment the check deletes and of the first it keeps.
fn fates_to_first_kept(r: &RetentionReport) -> Vec<Sentence> {
    let mut out = Vec::new();
    for v in &r.verdicts {
        out.push(feedback::segment_fate(v, r));
        if !matches!(v.verdict, Verdict::Deleted { .. }) {
            break;
        }
    }
    out
}

/// A stream question's right answer: for `late`, the late records and the fate of the first
/// three; for `closes`, when the window closes.
fn stream_right(report: &StreamReport, window: Option<Window>) -> Vec<Sentence> {
    use crate::stream::narrate as ns;
    match window {
        None => {
            let mut s = Sentence::plain("right: ");
            s.append(ns::late_records(report));
            let mut out = vec![s];
            out.extend(report.late().take(3).map(|r| ns::fate(r, report)));
            out
        }
        Some(w) => vec![ns::window_closing(w, report)],
    }
}

/// Every class a question of this kind can name, for docs and for checking an author's `wrong`
/// keys against the kind.
pub(crate) fn classes_of(kind: &Ask) -> &'static [Misconception] {
    use Misconception::*;
    match kind {
        Ask::StrikeSegments => &[BehindPinning, FirstStamp, KeptStruck, MissedDeleted],
        Ask::StrikeRecords => &[
            BehindPinning,
            FirstStamp,
            KeptStruck,
            MissedDeleted,
            PartialSegment,
        ],
        Ask::Pinning => &[DeletedSegment, BehindPinning, ActiveSegment, NotASegment],
        Ask::Lookup(..) => &[
            StrictlyAfter,
            ClosestStamp,
            BeforeTarget,
            OtherSegment,
            ExpectsNothing,
            NoRecord,
            SpecMeaning,
        ],
        Ask::Choose { .. } => &[
            NanosForMillis,
            SecondsForMillis,
            InvalidValue,
            ValueTooSmall,
            ValueTooLarge,
        ],
        Ask::Error(_) => &[WrongError, ExpectsAccept],
        Ask::Late(_) => &[StruckOnTime, MissedLate],
        Ask::Closes(..) => &[WrongCloser],
    }
}
