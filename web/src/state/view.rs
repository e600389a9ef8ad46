//! What only changes the view ([`ViewAction`]: the walks' animation, the partition view's
//! window, details) and the import's progress ([`ImportAction`]).

use logtime_core::scenario::narrate::Sentence;

use super::{Explorer, ImportAction, ViewAction};

impl Explorer {
    /// Reduces a [`ViewAction`]; `false` when nothing changed.
    pub(super) fn reduce_view(&mut self, a: ViewAction) -> bool {
        match a {
            ViewAction::WalkTick => self.walk_tick(),
            ViewAction::WalkFinish => self.walk_finish(),
            ViewAction::SetViewport(v) => {
                let changed = v != self.viewport;
                self.viewport = v;
                changed
            }
            ViewAction::Inspect(i) => {
                let changed = self.inspect != i;
                self.inspect = i;
                changed
            }
        }
    }

    /// Reduces an [`ImportAction`]; `false` when it concerns no import in progress.
    pub(super) fn reduce_import(&mut self, a: ImportAction) -> bool {
        match a {
            ImportAction::Start { job, total } => {
                let i = self.import.make_mut();
                i.job = job;
                i.error = None;
                i.progress = Some((0, total, String::new()));
            }
            ImportAction::Progress {
                job,
                done,
                total,
                file,
            } => {
                if job != self.import.job || !self.import.busy() {
                    return false;
                }
                self.import.make_mut().progress = Some((done, total, file));
            }
            ImportAction::End { job, result } => {
                if job != self.import.job || !self.import.busy() {
                    return false;
                }
                let i = self.import.make_mut();
                i.progress = None;
                match result {
                    Ok(done) => {
                        i.done = Some(done);
                        i.error = None;
                    }
                    Err(e) => i.error = Some(e),
                }
            }
            ImportAction::Cancel => {
                if !self.import.busy() {
                    return false;
                }
                let i = self.import.make_mut();
                i.job = 0;
                i.progress = None;
                self.say(Sentence::plain("Import cancelled."));
            }
        }
        true
    }

    pub(crate) fn walk_tick(&mut self) -> bool {
        let lookup_len = self.lookup.trace_len();
        let verdicts = self.retention.verdicts_len();
        if self.lookup.cursor >= lookup_len && self.retention.cursor >= verdicts {
            return false;
        }
        if self.lookup.cursor < lookup_len {
            self.lookup.make_mut().cursor += 1;
        }
        if self.retention.cursor < verdicts {
            self.retention.make_mut().cursor += 1;
        }
        true
    }

    pub(crate) fn walk_finish(&mut self) -> bool {
        if self.lookup.cursor == usize::MAX && self.retention.cursor == usize::MAX {
            return false;
        }
        self.lookup.make_mut().cursor = usize::MAX;
        self.retention.make_mut().cursor = usize::MAX;
        true
    }
}
