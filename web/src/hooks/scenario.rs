//! What the reader does to the scenario as a whole: pick another from the menu, cancel its
//! fetch, confirm a switch that drops their actions, save it as a file.

use yew::prelude::*;

use super::Loads;
use crate::embed::ScenarioSource;
use crate::state::{Explorer, Pending, TransportAction};

/// The scenario's callbacks.
#[derive(Clone)]
pub struct ScenarioActions {
    /// A built-in picked from the menu.
    pub on_pick: Callback<String>,
    /// "Cancel" on the fetch of a scenario's URL.
    pub on_cancel_load: Callback<MouseEvent>,
    /// The confirm bar's yes.
    pub on_confirm: Callback<()>,
    /// "Save scenario".
    pub on_save: Callback<()>,
}

/// The scenario's callbacks, of the state shown now.
#[hook]
pub fn use_scenario_actions(loads: &Loads, state: &UseReducerHandle<Explorer>) -> ScenarioActions {
    let d = state.dispatcher();
    ScenarioActions {
        on_pick: pick(loads, &d, state),
        on_cancel_load: {
            let loads = loads.clone();
            Callback::from(move |_: MouseEvent| loads.cancel())
        },
        on_confirm: confirm(loads, &d, state),
        on_save: save(state),
    }
}

/// Switching scenario drops the reader's actions: asked first when there are any.
fn pick(loads: &Loads, d: &UseReducerDispatcher<Explorer>, state: &Explorer) -> Callback<String> {
    let loads = loads.clone();
    let d = d.clone();
    let undone = state.actions();
    Callback::from(move |name: String| {
        if name.is_empty() {
            return;
        }
        if undone.is_empty() {
            loads.go(ScenarioSource::Builtin(name), None);
        } else {
            let undone = undone.clone();
            d.dispatch(TransportAction::Ask(Pending::Switch { name, undone }).into());
        }
    })
}

/// A switch confirmed loads the scenario asked for; anything else pending is the reducer's.
fn confirm(loads: &Loads, d: &UseReducerDispatcher<Explorer>, state: &Explorer) -> Callback<()> {
    let loads = loads.clone();
    let d = d.clone();
    let pending = state.pending.clone();
    Callback::from(move |()| match &pending {
        Some(Pending::Switch { name, .. }) => {
            d.dispatch(TransportAction::Dismiss.into());
            loads.go(ScenarioSource::Builtin(name.clone()), None);
        }
        _ => d.dispatch(TransportAction::Confirm.into()),
    })
}

fn save(state: &Explorer) -> Callback<()> {
    let replay = state.replay.clone();
    Callback::from(move |()| {
        // Pretty, with RFC 3339 times and human durations (core's saver); a source it
        // refuses is offered as it was loaded.
        let text = logtime_core::scenario::save::save(&replay.source)
            .unwrap_or_else(|_| replay.source.to_string());
        let name = crate::model::format::file_name(&replay.title, replay.is_lesson());
        crate::glue::download(&text, &name);
    })
}
