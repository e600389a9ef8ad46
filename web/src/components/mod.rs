//! Components, named for what the user sees. Each takes the reducer handle (`state`) and
//! dispatches `Action`s; none keeps Kafka state of its own.

pub mod charts;
pub mod clock_bar;
pub mod config_panel;
pub mod error_box;
pub mod live_region;
pub mod lookup_panel;
pub mod partition_view;
pub mod producer_panel;
pub mod retention_panel;
pub mod scenario_menu;

use yew::prelude::*;

use crate::app::state::Explorer;

/// Props shared by the panels: the explorer's state (compared by its serial) and whether
/// animations are wanted.
#[derive(Properties, PartialEq, Clone)]
pub struct PanelProps {
    pub state: UseReducerHandle<Explorer>,
    #[prop_or_default]
    pub reduced_motion: bool,
    #[prop_or_default]
    pub dark: bool,
}

/// Reads an `<input>`/`<select>` value from an event.
pub fn input_value(e: &Event) -> String {
    use wasm_bindgen::JsCast;
    let t = e.target();
    if let Some(i) = t
        .as_ref()
        .and_then(|t| t.dyn_ref::<web_sys::HtmlInputElement>())
    {
        return i.value();
    }
    if let Some(s) = t
        .as_ref()
        .and_then(|t| t.dyn_ref::<web_sys::HtmlSelectElement>())
    {
        return s.value();
    }
    String::new()
}

/// A fresh id for label/for and aria pairs, so several explorers on one page never clash.
#[hook]
pub fn use_uid(prefix: &'static str) -> String {
    let id = use_memo((), move |_| format!("{prefix}-{}", (random() * 1e9) as u32));
    (*id).clone()
}

#[cfg(target_arch = "wasm32")]
fn random() -> f64 {
    js_sys::Math::random()
}
#[cfg(not(target_arch = "wasm32"))]
fn random() -> f64 {
    0.5
}
