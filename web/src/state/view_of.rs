//! What a panel may read of the replay: the partition, the scenario and where the replay is,
//! never anything that steps it or changes a lesson run. Panels get a [`ReplayView`], not the
//! live session; every change goes through the reducer.

use std::cell::Ref;

use logtime_core::scenario::Runner;
use logtime_lesson::stream::StreamConfig;
use logtime_model::{Bytes, Timestamp};

use super::{Replay, Shared};

/// A read-only view of the replay, compared by identity like every panel's state: a panel
/// whose replay did not move is not rendered again.
#[derive(Clone, Default, PartialEq)]
pub struct ReplayView(Shared<Replay>);

impl ReplayView {
    /// The view of `replay`.
    pub fn of(replay: &Shared<Replay>) -> ReplayView {
        ReplayView(replay.clone())
    }

    /// The runner, to read the partition, its configs and the scenario (`None` before a
    /// scenario loads, or when it could not be).
    pub fn runner(&self) -> Option<Ref<'_, Runner>> {
        self.0.runner()
    }

    /// The broker clock.
    pub fn now(&self) -> Timestamp {
        self.0.now()
    }

    /// Whether a scenario is loaded and can be acted on.
    pub fn is_loaded(&self) -> bool {
        self.0.is_loaded()
    }

    /// The partition's size on disk.
    pub fn size(&self) -> Bytes {
        self.0.size()
    }

    /// Steps run.
    pub fn done(&self) -> usize {
        self.0.done
    }

    /// The scenario's text, as loaded.
    pub fn source(&self) -> &str {
        &self.0.source
    }

    /// The downstream stream processor a lesson file declares.
    pub fn stream(&self) -> Option<StreamConfig> {
        self.0.stream
    }
}
