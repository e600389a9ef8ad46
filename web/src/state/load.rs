//! Loading a scenario ([`LoadAction`]) and rebuilding a saved moment of it (a link, the
//! browser's history): the load keeps the speed, the view, the import's findings and the
//! mode the page asked for; a moment runs through the chunked rebuild (`rebuild.rs`).

use logtime_core::scenario::narrate::{self, Sentence};
use logtime_core::scenario::{Entry, Journal, Source};

use super::rebuild::{LinkMoment, Rebuild};
use super::{Explorer, LoadAction, Replay, Restore, Shared, REBUILD_CHUNK_RECORDS};
use crate::model::viewport::Viewport;
use crate::options::Mode;

impl Explorer {
    /// Reduces a [`LoadAction`]; `false` when nothing changed.
    pub(super) fn reduce_load(&mut self, a: LoadAction) -> bool {
        match a {
            LoadAction::Loading(token) => {
                self.load_token = token;
                self.pending = None;
                self.replay.make_mut().loading = true;
            }
            LoadAction::Load {
                token,
                json,
                origin,
                restore,
            } => {
                if token != self.load_token {
                    // A later choice superseded this load.
                    return false;
                }
                self.load(json.as_deref().map_err(String::as_str), origin);
                if restore != Restore::default() {
                    self.restore(&restore);
                }
            }
            LoadAction::Restore(r) => {
                self.rebuild = None;
                self.pending = None;
                self.playback.playing = false;
                self.restore(&r);
            }
            LoadAction::Want(mode, seed) => self.wanted = (mode, seed),
        }
        true
    }

    /// Loads a scenario, keeping the speed, the view and the load token; with `Err`, shows why
    /// it could not be.
    pub(crate) fn load(&mut self, json: Result<&str, &str>, origin: Source) {
        let speed = self.playback.speed;
        let viewport = Viewport {
            follow: true,
            ..self.viewport
        };
        let token = self.load_token;
        // An import's findings stay while its own scenario is the one loaded.
        let mut import = self.import.clone();
        if import
            .done
            .as_ref()
            .is_some_and(|d| json != Ok(d.scenario.as_str()))
        {
            import.make_mut().done = None;
        }
        let wanted = self.wanted;
        *self = Explorer::default();
        self.load_token = token;
        self.import = import;
        self.wanted = wanted;
        self.playback.speed = speed;
        self.viewport = viewport;
        let (mode, seed) = wanted;
        let replay = match json {
            Ok(json) => Replay::load_as(json, origin, mode.map(Mode::is_lesson), seed, None),
            Err(e) => Replay::failed(e.to_string()),
        };
        let line = match &replay.error {
            None => {
                let mut s = Sentence::plain(format!(
                    "Loaded “{}”: {}. Broker clock ",
                    replay.title,
                    narrate::count(replay.total as u64, "step", "steps")
                ));
                s.time(replay.now()).text(".");
                s
            }
            Some(e) => Sentence::plain(format!("The scenario could not be loaded: {e}")),
        };
        self.replay = Shared::new(replay);
        self.sample_disk();
        self.say(line);
        // As `logtime explain` does after the setting: what a compacted topic leaves out.
        let note = self
            .replay
            .runner()
            .and_then(|r| narrate::compaction_note(r.partition().config()));
        if let Some(note) = note {
            self.say(note);
        }
        if self.replay.is_lesson() {
            self.lesson_begin(Vec::new());
        }
    }

    /// Rebuilds a saved moment of the loaded scenario. A moment that cannot be rebuilt leaves
    /// the scenario at its start with a notice saying why.
    pub(crate) fn restore(&mut self, r: &Restore) {
        if !self.replay.is_loaded() {
            return;
        }
        if self.replay.is_lesson() {
            // A lesson opens at a step (with the steps before it applied); moments and
            // lookups are the explorer's.
            if let Some(k) = r.step {
                let seed = self.lesson.seed;
                self.lesson_start(seed, Some(k), Vec::new());
            }
            return;
        }
        let source = self.replay.source.clone();
        let origin = (*self.replay.origin).clone();
        if self.replay.entries() > 0 || self.replay.step_in_progress().is_some() {
            self.load(Ok(&source), origin.clone());
        }
        let mut notice = None;
        let entries = match (&r.moment, r.step) {
            (Some(m), _) => {
                Journal::entries_from_compact(m, Some(&source)).map_err(|e| e.to_string())
            }
            (None, step) => {
                let total = self.replay.total;
                let k = step.unwrap_or(0);
                if k > total {
                    notice = Some(format!(
                        "The link asks for step {k}, but this scenario has {total} steps: showing step {total}."
                    ));
                }
                Ok(vec![Entry::Step; k.min(total)])
            }
        };
        let entries = match entries {
            Ok(e) => e,
            Err(e) => {
                self.replay.make_mut().notice =
                    Some(format!("{e}. Showing the scenario from its start."));
                return;
            }
        };
        // Through the chunked rebuild, so that a link to the end of a long scenario shows
        // its progress and keeps the page responsive (a short one finishes in this chunk).
        let steps = entries.iter().filter(|e| **e == Entry::Step).count();
        let link = LinkMoment {
            lookup: r.lookup,
            notice,
        };
        self.rebuild = Some(Rebuild::new(steps, entries.into(), false, Some(link)));
        self.rebuild_chunk(REBUILD_CHUNK_RECORDS);
    }
}
