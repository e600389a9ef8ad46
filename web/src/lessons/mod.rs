//! Lessons (walkthroughs, drills, incidents): a plug-in of the explorer.
//!
//! Core's [`Play`](logtime_lesson::Play) decides everything about a lesson: what a step
//! does, what is hidden, whether an answer is right and why, a task's goal, the score. This
//! folder shows it, and the explorer knows it only through this small interface:
//!
//! * **What it may draw beside the partition**: the [`LessonPane`] (narration, the open
//!   question or task, hints, the score card and the progress kept on this device) in the side
//!   column, and the [`StreamLane`] (event time downstream) under the partition.
//! * **Which affordances it may hide, and which targets it may highlight**: [`Overlay`], made
//!   by [`overlay`] from the pane's state: core's hidden [`Affordances`] (verdicts, the lookup
//!   trace, pinned badges, remedies, stream verdicts), the segments, offset ranges, configs and
//!   panels a step points at, and the learner's picks.
//! * **Which reader actions it observes**: its own [`LessonAction`]s; the transport while a
//!   lesson plays (a step is the next stop, back the previous one: `Explorer::lesson_transport`);
//!   and every command on the partition, after which the open task's goal is checked
//!   (`Explorer::lesson_after_act`).
//!
//! [`LessonAction`]: crate::state::LessonAction

mod assign;
mod draw_lane;
pub mod follow;
pub use logtime_render::lane;
mod pane;
mod play;
mod progress;
mod run;
pub mod send;
mod stream_lane;
#[cfg(test)]
mod tests;
mod view;

pub use pane::{LessonPane, LessonPaneProps};
pub use progress::{key as progress_key, use_progress, Progress};
pub use run::{LessonRun, Op};
pub use stream_lane::{StreamLane, StreamLaneProps};
pub use view::{ItemView, LessonView, Takes};

use logtime_core::scenario::narrate::Panel;
use logtime_lesson::{Affordance, Affordances};

use crate::components::partition_view::LessonMarks;
use crate::options::Mode;

/// What a lesson changes in the explorer around it.
#[derive(Clone, Debug, PartialEq)]
pub struct Overlay {
    /// What the explorer hides from its words and canvases alike.
    pub hidden: Affordances,
    /// What the partition view outlines, and what a click there picks.
    pub marks: LessonMarks,
    /// Configs the config panel outlines, by Kafka name.
    pub configs: Vec<String>,
    /// Panels the stop points at: scrolled into view and outlined.
    pub panels: Vec<Panel>,
    /// Presenter mode: the pane's narration large, for a room.
    pub presenter: bool,
    /// The narration link the learner followed last: a count (each follow scrolls again) and
    /// the element to scroll to.
    pub follow: Option<(u32, String)>,
}

/// The overlay of the lesson whose pane shows `view` (`None`: no lesson plays).
pub fn overlay(view: &LessonView) -> Option<Overlay> {
    view.mode?;
    let hidden = view.hidden;
    let (segments, ranges, configs) = view.highlights();
    let open = view.open();
    Some(Overlay {
        hidden,
        marks: LessonMarks {
            segments,
            ranges,
            picked: view.selection.clone(),
            picks_segments: open.is_some_and(|i| i.takes.picks_segments()),
            picks_records: open.is_some_and(|i| i.takes.picks_records()),
            hide_pinned: hidden.contains(Affordance::PinnedBadges)
                || hidden.contains(Affordance::Verdicts),
            hide_ages: hidden.contains(Affordance::AgeMarks),
        },
        configs,
        panels: view.pointed_panels(),
        presenter: view.mode == Some(Mode::Presenter),
        follow: view
            .followed
            .as_ref()
            .and_then(|(k, t)| follow::selector(t).map(|s| (*k, s))),
    })
}
