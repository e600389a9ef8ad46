//! Author mode wired into the explorer: its hooks, called in one place, and the explorer's
//! callbacks as a draft being written takes them (the transport walks the draft's steps, a
//! click on a record or segment may be the author's, the keys undo and redo the draft).

use logtime_lesson::author::AuthorCommand;
use yew::prelude::*;

use super::{
    pick_keys, place_keys, place_transport, pointed, take, undo_keys, use_author_start, use_begin,
    use_placing, use_recording, use_shift, use_tools, AuthorAction, AuthorState, Begin, Pointing,
    Preview, Tool,
};
use crate::hooks::{Loads, PanelCallbacks};
use crate::model::producer::BatchSpec;
use crate::options::Options;
use crate::state::{Explorer, Inspect, ReplayView, TransportAction};

/// What author mode needs of the explorer around it.
pub struct Around<'a> {
    /// The options the page gave (not the author's: author mode reads its own request there).
    pub options: &'a Options,
    /// The explorer's state.
    pub state: &'a UseReducerHandle<Explorer>,
    /// The explorer's loads.
    pub loads: &'a Loads,
    /// The learner's preview of the draft.
    pub preview: &'a Preview,
    /// The explorer's root element (a Shift held there makes a range of records picked).
    pub root: NodeRef,
    /// The explorer's own keys.
    pub keys: Callback<KeyboardEvent>,
}

/// Author mode's callbacks, and the explorer's as author mode leaves them.
#[derive(Clone)]
pub struct Wired {
    /// Start a draft (from the scenario shown, an empty partition, an import).
    pub on_begin: Callback<Begin>,
    /// The draft's link made by its tools, and whether it was copied.
    pub link: Option<(AttrValue, bool)>,
    /// The draft's tools.
    pub on_tool: Callback<Tool>,
    /// A command on the draft, at the explorer's moment.
    pub on_command: Callback<AuthorCommand>,
    /// Author mode's own actions.
    pub on_author: Callback<AuthorAction>,
    /// In author mode the Produce panel's batch can be taken for a question instead of sent.
    pub on_use_batch: Option<Callback<BatchSpec>>,
    /// The transport: while a draft is written, back and step walk its steps.
    pub on_transport: Callback<TransportAction>,
    /// A click on a record or segment: the author's while they pick highlights or point a
    /// question.
    pub on_inspect: Callback<Inspect>,
    /// The explorer's keys: while a draft is written, Ctrl+Z and Ctrl+Shift+Z are its undo and
    /// redo, wherever the focus is.
    pub onkeydown: Callback<KeyboardEvent>,
}

/// Author mode's hooks (always called, in this order) and its callbacks.
#[hook]
pub fn use_author_wiring(
    author: UseReducerHandle<AuthorState>,
    around: Around<'_>,
    panels: &PanelCallbacks,
) -> Wired {
    let state = around.state;
    let on_begin = use_begin(author.clone(), state.clone(), around.loads);
    use_author_start(
        around.options,
        &author,
        state.replay.is_loaded(),
        on_begin.clone(),
    );
    use_recording(author.clone(), state);
    use_placing(author.clone(), state, around.loads);
    let on_preview = {
        // The explorer left behind stands still until the author is back.
        let (open, d) = (around.preview.open.clone(), state.dispatcher());
        Callback::from(move |()| {
            d.dispatch(TransportAction::Play(false).into());
            open.emit(());
        })
    };
    let (link, on_tool) = use_tools(author.clone(), on_preview);
    let shift = use_shift(around.root);
    let now = state.replay.now();
    let on_command = {
        let author = author.clone();
        Callback::from(move |c| author.dispatch(AuthorAction::Apply(now, Box::new(c))))
    };
    let onkeydown = match &author.draft {
        Some(_) => undo_keys(
            &on_command,
            place_keys(&author, pick_keys(&author, around.keys)),
        ),
        None => around.keys,
    };
    let on_inspect = if author.pointing == Pointing::Off {
        panels.on_inspect.clone()
    } else {
        let (author, replay) = (author.clone(), ReplayView::of(&state.replay));
        let rest = panels.on_inspect.clone();
        Callback::from(move |i| match pointed(&author, &replay, i, shift.get()) {
            Some(a) => author.dispatch(a),
            None => rest.emit(i),
        })
    };
    Wired {
        on_begin,
        link,
        on_tool,
        on_command,
        on_author: {
            let author = author.clone();
            Callback::from(move |a: AuthorAction| author.dispatch(a))
        },
        on_use_batch: author.draft.is_some().then(|| {
            let author = author.clone();
            Callback::from(move |b| author.dispatch(take(&b, now)))
        }),
        on_transport: place_transport(&author, panels.on_transport.clone()),
        on_inspect,
        onkeydown,
    }
}
