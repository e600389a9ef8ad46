//! What the explorer shows, worked out from the options and the state for the root component:
//! which panels, the title, and a panel's view less what a lesson hides.

use logtime_lesson::{Affordance, Affordances};
use yew::AttrValue;

use crate::builtins;
use crate::hooks::PanelState;
use crate::options::{self, Context, Options, Panel, Panels};
use crate::state::{Explorer, Shared};

/// The panels shown: the options' own, or for an embed that names none, what its scenario
/// suggests.
pub fn panels_shown(opts: &Options, st: &Explorer) -> Panels {
    let runner = st.replay.runner();
    match (opts.panels, opts.context, &runner) {
        (Some(p), _, _) => p,
        (None, Context::Standalone, _) => Panels::ALL,
        (None, Context::Embed, Some(r)) => options::default_embed_panels(r.scenario()),
        (None, Context::Embed, None) => Panels::of(&[Panel::Partition, Panel::Log]),
    }
}

/// The explorer's title: a built-in's is known before its file arrives (and when it could not).
pub fn title_of(st: &Explorer, builtin: Option<&builtins::Builtin>) -> AttrValue {
    let replay = &st.replay;
    if let Some(b) = builtin.filter(|_| replay.loading) {
        AttrValue::from(format!("Loading “{}”…", b.title))
    } else if let Some(b) = builtin.filter(|_| replay.title.is_empty()) {
        AttrValue::from(b.title)
    } else if replay.loading && replay.title.is_empty() {
        AttrValue::from("Loading scenario…")
    } else {
        AttrValue::from(replay.title.to_string())
    }
}

/// A panel's view of the retention check and the lookup, less what a lesson hides (from the
/// words and the canvases alike).
pub fn unhidden(
    v: &PanelState,
    hidden: Affordances,
) -> (
    Shared<crate::state::RetentionState>,
    Shared<crate::state::LookupState>,
) {
    let retention = if hidden.contains(Affordance::Verdicts) {
        Shared::default()
    } else {
        v.retention.clone()
    };
    let lookup = if hidden.contains(Affordance::LookupTrace) {
        Shared::default()
    } else {
        v.lookup.clone()
    };
    (retention, lookup)
}
