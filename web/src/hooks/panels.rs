//! The explorer's panel callbacks, each of stable identity ([`use_dispatch`]): a panel whose
//! props did not change is not rendered again, which keeps a fast play's frames to the clock
//! and the canvases.

use yew::prelude::*;

use super::use_dispatch;
use crate::model::producer::BatchSpec;
use crate::model::viewport::Viewport;
use crate::state::Inspect;
use crate::state::{CommandAction, Explorer, LessonAction, TransportAction, ViewAction};
use logtime_model::{KafkaVersion, Offset, OffsetSpec};

/// The one thing each panel does, as the explorer's reducer takes it.
#[derive(Clone)]
pub struct PanelCallbacks {
    /// Play, pause, step, speed (the clock bar, the lesson pane).
    pub on_transport: Callback<TransportAction>,
    /// A retention command.
    pub on_command: Callback<CommandAction>,
    /// The lesson pane's moves.
    pub on_lesson: Callback<LessonAction>,
    /// "Advance the clock".
    pub on_advance: Callback<i64>,
    /// The Kafka version picked in the config panel.
    pub on_version: Callback<KafkaVersion>,
    /// A config set in the config panel, by name.
    pub on_config: Callback<(String, String)>,
    /// A lookup asked for.
    pub on_lookup: Callback<OffsetSpec>,
    /// A batch sent from the producer panel.
    pub on_send: Callback<BatchSpec>,
    /// Records deleted up to an offset (then the log checked).
    pub on_delete_records: Callback<i64>,
    /// The partition view panned or zoomed.
    pub on_viewport: Callback<Viewport>,
    /// A record or segment opened in the details panel.
    pub on_inspect: Callback<Inspect>,
    /// The details panel closed.
    pub on_close_details: Callback<()>,
    /// A lesson question's answer picked in the partition view.
    pub on_pick_answer: Callback<Offset>,
    /// The confirm bar's "Keep".
    pub on_dismiss: Callback<()>,
    /// A long rebuild stopped.
    pub on_cancel_rebuild: Callback<()>,
}

/// The panels' callbacks, dispatching to the explorer's reducer.
#[hook]
pub fn use_panel_callbacks(d: UseReducerDispatcher<Explorer>) -> PanelCallbacks {
    PanelCallbacks {
        on_transport: use_dispatch(d.clone(), |a: TransportAction| a),
        on_command: use_dispatch(d.clone(), |a: CommandAction| a),
        on_lesson: use_dispatch(d.clone(), |a: LessonAction| a),
        on_advance: use_dispatch(d.clone(), CommandAction::Advance),
        on_version: use_dispatch(d.clone(), CommandAction::SetVersion),
        on_config: use_dispatch(d.clone(), |(name, value)| {
            CommandAction::SetConfig(name, value)
        }),
        on_lookup: use_dispatch(d.clone(), CommandAction::Lookup),
        on_send: use_dispatch(d.clone(), CommandAction::Produce),
        on_delete_records: use_dispatch(d.clone(), |offset| CommandAction::DeleteRecords {
            offset,
            then_check: true,
        }),
        on_viewport: use_dispatch(d.clone(), ViewAction::SetViewport),
        on_inspect: use_dispatch(d.clone(), |i| ViewAction::Inspect(Some(i))),
        on_close_details: use_dispatch(d.clone(), |()| ViewAction::Inspect(None)),
        on_pick_answer: use_dispatch(d.clone(), LessonAction::Select),
        on_dismiss: use_dispatch(d.clone(), |()| TransportAction::Dismiss),
        on_cancel_rebuild: use_dispatch(d, |()| TransportAction::CancelRebuild),
    }
}
