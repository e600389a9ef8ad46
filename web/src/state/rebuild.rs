//! Rebuilds: stepping back, the scrubber, a confirmed rewind and a link's moment replay the
//! scenario from its start, a chunk at a time, so that a long replay never blocks the page.

use std::rc::Rc;

use logtime_core::scenario::narrate::Sentence;
use logtime_core::scenario::{Entry, ProduceOutcome, Replayed, Slice, StepOutcome, ViewMarks};
use logtime_model::Timestamp;

use super::{Explorer, Pending};
use crate::options::LookupTarget;

/// Records a rebuild replays before it yields to the browser, unless the caller asks for
/// another amount ([`TransportAction::RebuildChunk`]): about 10 ms of one-record batches in the browser.
/// A segment rolled counts as [`logtime_core::scenario::ROLL_WORK`] records ([`Replay::work`]).
pub const REBUILD_CHUNK_RECORDS: i64 = 20_000;

/// A rebuild in progress (step back, the scrubber, a confirmed rewind, a link's moment): the
/// scenario replayed from its start to `steps` steps, a chunk at a time, so a long replay never
/// blocks the page; the reader sees its progress and can stop it. A step of generated traffic
/// bigger than a chunk runs in slices over several chunks ([`Replay::step_slice`]): until its
/// last slice it is not done (`replay.done` leaves it out) and nothing else acts on it.
#[derive(Clone, Debug, PartialEq)]
pub struct Rebuild {
    /// Steps to reach.
    pub steps: usize,
    /// Chunks run so far (each one is a new value, so a timer can wait for the next).
    pub chunks: u32,
    /// The journal entries to replay first: the reader's actions before step `steps + 1`.
    entries: Rc<[Entry]>,
    /// Entries replayed so far.
    next: usize,
    /// A scenario step failed: nothing more to run.
    failed: bool,
    /// Play once rebuilt.
    play: bool,
    /// Rebuilding a link's moment ([`Explorer::restore`]), not a seek.
    link: Option<LinkMoment>,
    /// The broker clock when the step running in slices started (its narration's "from").
    step_from: Option<Timestamp>,
    /// The reader stopped the rebuild in the middle of a step: it ends once that step has.
    pub stopping: bool,
}

/// What a link's moment adds to a rebuild: a journal entry that fails sends the scenario back
/// to its start with a notice, and once rebuilt the link's lookup runs and its notice shows.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct LinkMoment {
    /// The link's lookup, run once the entries are.
    pub(super) lookup: Option<LookupTarget>,
    /// What the reader is told about the link (a step beyond the scenario's end).
    pub(super) notice: Option<String>,
}

impl Rebuild {
    /// A rebuild to `steps` steps that replays `entries` first (then plays, when `play`).
    pub(super) fn new(
        steps: usize,
        entries: Rc<[Entry]>,
        play: bool,
        link: Option<LinkMoment>,
    ) -> Rebuild {
        Rebuild {
            steps,
            chunks: 0,
            entries,
            next: 0,
            failed: false,
            play,
            link,
            step_from: None,
            stopping: false,
        }
    }
}

impl Explorer {
    /// What rebuilding to `k` steps would undo of the reader's own actions.
    pub fn undone_by_seek(&self, k: usize) -> Vec<String> {
        self.replay
            .journal()
            .map(|j| {
                j.entries[j.prefix_for_steps(k)..]
                    .iter()
                    .filter(|e| e.is_action())
                    .map(Entry::describe)
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The reader's own actions so far, for people.
    pub fn actions(&self) -> Vec<String> {
        self.replay
            .journal()
            .map(|j| j.actions().map(Entry::describe).collect())
            .unwrap_or_default()
    }

    /// Rebuilds from the start with `k` steps run (step back, scrubber), keeping the reader's
    /// actions that came before step `k + 1`. The first chunk runs now; if more remains,
    /// [`Explorer::rebuild`] holds it for [`TransportAction::RebuildChunk`].
    pub(crate) fn seek(&mut self, k: usize) {
        let playing = self.playback.playing;
        let viewport = self.viewport;
        let entries: Rc<[Entry]> = self
            .replay
            .journal()
            .map(|j| j.entries[..j.prefix_for_steps(k)].into())
            .unwrap_or_else(|| Rc::from(Vec::new()));
        let source = self.replay.source.clone();
        let origin = (*self.replay.origin).clone();
        self.load(Ok(&source), origin);
        self.viewport = viewport;
        self.rebuild = Some(Rebuild::new(k, entries, playing, None));
        self.rebuild_chunk(REBUILD_CHUNK_RECORDS);
    }

    /// Runs the rebuild in progress until about `records` records were replayed, a segment
    /// rolled counting for more ([`Replay::work`]; at least one entry, step or slice of a
    /// step), and finishes it when nothing remains.
    pub(crate) fn rebuild_chunk(&mut self, records: i64) {
        let Some(mut r) = self.rebuild.take() else {
            return;
        };
        let n = r.entries.len();
        let forward = r.steps > r.entries.iter().filter(|e| **e == Entry::Step).count();
        // The work of this chunk: what the partition shows, or at least a slice's whole
        // budget (its batches may have been rejected, appending nothing).
        let mut spent = 0i64;
        let mut ran = false;
        while r.next < n || (!r.failed && self.replay.done < r.steps) {
            if r.stopping && self.replay.step_in_progress().is_none() {
                self.rebuild = Some(r);
                self.cancel_rebuild();
                return;
            }
            if ran && spent >= records {
                r.chunks += 1;
                self.playback.playing = false;
                self.rebuild = Some(r);
                return;
            }
            ran = true;
            let budget = (records - spent).max(1);
            let before = self.replay.work();
            let finished = if r.next < n {
                let i = r.next;
                let entry = r.entries[i].clone();
                let narrate =
                    i + 1 == n && !forward && r.link.as_ref().is_none_or(|l| l.lookup.is_none());
                match self.run_entry(i, &entry, narrate, budget as u64, &mut r.step_from) {
                    Ok(finished) => {
                        if finished {
                            r.next += 1;
                        }
                        finished
                    }
                    Err(e) => {
                        if r.link.is_some() {
                            // A link's moment that cannot be rebuilt: the scenario from its start.
                            let source = self.replay.source.clone();
                            let origin = (*self.replay.origin).clone();
                            self.load(Ok(&source), origin);
                            self.replay.make_mut().notice =
                                Some(format!("{e}. Showing the scenario from its start."));
                            return;
                        }
                        r.next = n;
                        true
                    }
                }
            } else {
                // Forward past the journal: run the scenario's next steps.
                let narrate = self.replay.done + 1 == r.steps;
                match self.run_step_slice(budget as u64, narrate, &mut r.step_from) {
                    Some(ok) => {
                        r.failed = !ok;
                        true
                    }
                    None => false,
                }
            };
            let work = self.replay.work() - before;
            spent += if finished { work } else { budget.max(work) };
        }
        if let Some(link) = r.link {
            self.finish_link(link);
            return;
        }
        if r.steps > 0 || n > 0 {
            self.finish_walks();
        }
        self.playback.playing = r.play && !self.replay.at_end();
        let line = format!(
            "Rebuilt to step {} of {}.",
            self.replay.done, self.replay.total
        );
        self.say(Sentence::plain(line));
    }

    /// Stops the rebuild in progress at the moment it reached; in the middle of a step, once
    /// that step has finished (a moment is a whole number of steps).
    pub(crate) fn cancel_rebuild(&mut self) {
        if self.replay.step_in_progress().is_some() {
            if let Some(r) = &mut self.rebuild {
                r.stopping = true;
            }
            return;
        }
        if self.rebuild.take().is_some() {
            self.finish_walks();
            self.playback.playing = false;
            let line = format!(
                "Stopped rebuilding at step {} of {}.",
                self.replay.done, self.replay.total
            );
            self.say(Sentence::plain(line));
        }
    }

    /// Rebuilds to `k` steps, or asks first when that would undo the reader's actions.
    pub(crate) fn seek_or_ask(&mut self, k: usize, play: bool) {
        let undone = self.undone_by_seek(k);
        if undone.is_empty() {
            self.seek(k);
            if play {
                self.playback.playing = self.replay.is_running();
            }
        } else {
            self.playback.playing = false;
            self.pending = Some(Pending::Rewind {
                steps: k,
                play,
                undone,
            });
        }
    }

    /// Replays one journal entry the way the reader's action would show it, a step in slices of
    /// about `work` records ([`Replay::work`]); `Ok(false)` while the step runs on (`from`: the
    /// clock when it started).
    pub(crate) fn run_entry(
        &mut self,
        index: usize,
        entry: &Entry,
        narrate: bool,
        work: u64,
        from: &mut Option<Timestamp>,
    ) -> Result<bool, String> {
        let mut marks = ViewMarks::default();
        let previous = *from.get_or_insert(self.now());
        let replayed = self
            .replay
            .make_mut()
            .replay_entry(index, entry, work, &mut marks)
            .ok_or("no scenario is loaded")?
            .map_err(|e| e.to_string());
        let replayed = match replayed {
            Ok(None) => {
                self.absorb_marks(marks);
                return Ok(false);
            }
            Ok(Some(replayed)) => replayed,
            Err(e) => {
                *from = None;
                return Err(e);
            }
        };
        *from = None;
        match replayed {
            Replayed::Step(outcome) => {
                self.after_step(marks, previous, outcome, narrate);
            }
            Replayed::Command(report) => {
                self.absorb(marks, &report);
                if let StepOutcome::Produce(
                    p @ (ProduceOutcome::Appended(_) | ProduceOutcome::Rejected(_)),
                ) = &report.outcome
                {
                    self.producer.make_mut().set(Some(p.clone()));
                }
                if narrate {
                    let mut heading = Sentence::plain("at ");
                    heading.time(report.now);
                    self.narrate(heading, &report);
                }
            }
            Replayed::Lookup(result) => {
                if let Entry::Lookup(spec) = entry {
                    self.show_lookup(*spec, result, narrate);
                }
            }
        }
        Ok(true)
    }

    /// Runs a slice of the next scenario step, about `work` records ([`Replay::step_slice`]),
    /// and once the step has finished shows it as [`Explorer::run_step`] does (`from`: the
    /// clock when it started). `None` while the step runs on; `Some(false)` when there is no
    /// step or it failed.
    pub(crate) fn run_step_slice(
        &mut self,
        work: u64,
        narrate: bool,
        from: &mut Option<Timestamp>,
    ) -> Option<bool> {
        let mut marks = ViewMarks::default();
        let previous = *from.get_or_insert(self.now());
        let slice = self.replay.make_mut().step_slice(work, &mut marks);
        match slice {
            Some(Slice::Partial { .. }) => {
                self.absorb_marks(marks);
                None
            }
            Some(Slice::Done(outcome)) => {
                *from = None;
                Some(self.after_step(marks, previous, outcome, narrate))
            }
            None => {
                *from = None;
                Some(false)
            }
        }
    }

    /// The end of a link's moment, once its entries ran: its lookup, then its notice.
    fn finish_link(&mut self, link: LinkMoment) {
        let mut notice = link.notice;
        if let Some(target) = link.lookup {
            match target.resolve(self.now().0) {
                Some(spec) => self.lookup(spec),
                None => notice = Some("The link's lookup time overflows a 64-bit long.".into()),
            }
        }
        self.finish_walks();
        self.replay.make_mut().notice = notice;
    }
}
