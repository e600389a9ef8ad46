//! Author mode (`mode=author`, or the **Author** button of the standalone page): a plug-in of
//! the explorer, as lessons are. Core's `logtime_lesson::author::Authoring` writes the lesson;
//! this folder shows it and feeds it, and the explorer knows it through a small interface:
//!
//! * **What it may draw**: the [`AuthorStart`] card (start from the scenario shown or from an
//!   empty partition) and the [`AuthorPane`] (steps, the selected step's editor, the draft's
//!   tools) in the side column.
//! * **What it observes**: the session journal, whose new entries (every explorer action that
//!   succeeded) become steps ([`use_recording`]); and, while the author picks highlights or
//!   points a question, a click on a record or segment ([`pointed`]).
//! * **What it changes**: the mode the explorer loads with ([`options_in`]: a lesson shown is
//!   free to play with; the link says `mode=author`), and, for an empty partition, the
//!   scenario loaded.
//!
//! Every sentence about a step, a problem, an answer or a replay effect is core's.

mod batch;
mod editor;
mod hook;
mod pane;
mod pick;
mod place;
mod preview;
mod question;
mod start;
mod state;
#[cfg(test)]
mod tests;
mod tools;
mod variants;
mod vary;
mod wire;

pub use batch::take;
pub use hook::{options_in, use_author_start, use_begin, use_recording, use_tools, Begin};
pub use pane::{AuthorPane, AuthorPaneProps, Tool};
pub use pick::{
    marked_panels, pick_config, pick_context, pick_keys, use_shift, PickContext, PickPanel,
};
pub use place::{place_keys, place_transport, use_placing};
pub use preview::{preview_options, use_preview, Preview, PreviewBar, PreviewBarProps};
pub use start::{AuthorStart, AuthorStartProps};
pub use state::{AuthorAction, AuthorState, Draft, Pointing};
pub use wire::{use_author_wiring, Around, Wired};

use logtime_lesson::author::AuthorCommand;
use logtime_lesson::Target;
use logtime_model::Offset;
use yew::prelude::*;

use crate::components::partition_view::LessonMarks;
use crate::state::{Inspect, ReplayView};

/// What a click on a record or segment does while the author picks or points: `None` when
/// author mode leaves it to the explorer (inspect). With `range` (Shift held) a record picked
/// makes a range with the last record picked.
pub fn pointed(
    author: &AuthorState,
    replay: &ReplayView,
    clicked: Inspect,
    range: bool,
) -> Option<AuthorAction> {
    let draft = author.draft.as_ref()?;
    let (record, segment) = match clicked {
        Inspect::Record(o) => (Some(o), None),
        Inspect::Segment(o) => (None, Some(o)),
        _ => (None, None),
    };
    match author.pointing {
        Pointing::Off => None,
        Pointing::Highlights => {
            let step = author.selected?;
            let s = draft.steps.get(step.checked_sub(1)?)?;
            let target = match (record, segment) {
                (Some(o), _) => Target::Offset(o),
                (_, Some(o)) => Target::Segment(o),
                _ => return None,
            };
            let targets = pick::toggled(&s.highlights, target, range);
            Some(AuthorAction::Apply(
                replay.now(),
                Box::new(AuthorCommand::SetHighlights { step, targets }),
            ))
        }
        Pointing::Question(kind) => {
            let o = record?;
            let ts = record_timestamp(replay, o)?;
            let ask = tools::ask_of(kind, Some((o.0, ts)))?;
            let at = tools::at(author.selected, draft.recording_at, draft.steps.len());
            Some(AuthorAction::Apply(
                replay.now(),
                Box::new(AuthorCommand::AddQuestion {
                    at,
                    ask,
                    pointing: Some(Target::Offset(o)),
                    text: String::new(),
                }),
            ))
        }
    }
}

/// The timestamp of the record at offset `o` in the partition shown (what a question pointed
/// at a record asks about).
fn record_timestamp(replay: &ReplayView, o: Offset) -> Option<i64> {
    let r = replay.runner()?;
    r.partition()
        .segments()
        .iter()
        .find_map(|s| s.timestamp_at(o))
        .map(|t| t.0)
}

/// The standalone page's **Author** button; while author mode is on, a link beside it that
/// jumps to the author pane (in one column the pane is below the partition, out of sight).
pub fn author_button(on: bool, onclick: Callback<MouseEvent>) -> Html {
    html! {
        <>
            if on {
                <button type="button" class="lt-btn lt-btn-small lt-author-jump" onclick={Callback::from(jump_to_pane)}
                        data-testid="author-jump">{ "Jump to author pane" }</button>
            }
            <button type="button" class={classes!("lt-btn", "lt-btn-small", on.then_some("lt-btn-primary"))} {onclick}
                    aria-pressed={if on { "true" } else { "false" }} data-testid="author-button">{ "Author" }</button>
        </>
    }
}

/// Scrolls this explorer's author pane into view and moves focus to it, so the next Tab is in
/// the pane.
fn jump_to_pane(e: MouseEvent) {
    use wasm_bindgen::JsCast;
    let pane = e
        .target_dyn_into::<web_sys::Element>()
        .and_then(|t| t.closest(".lt-app").ok().flatten())
        .and_then(|app| app.query_selector(".lt-author").ok().flatten())
        .and_then(|p| p.dyn_into::<web_sys::HtmlElement>().ok());
    if let Some(p) = pane {
        p.scroll_into_view();
        let _ = p.focus();
    }
}

/// What the selected step highlights, outlined in the partition as a lesson outlines it; the
/// configs it names, for the config panel.
pub fn marks(author: &AuthorState) -> Option<(LessonMarks, Vec<String>)> {
    let d = author.draft.as_ref()?;
    let s = d.steps.get(author.selected?.checked_sub(1)?)?;
    let mut m = LessonMarks {
        segments: Vec::new(),
        ranges: Vec::new(),
        picked: Vec::new(),
        picks_segments: false,
        picks_records: false,
        hide_pinned: false,
        hide_ages: false,
    };
    let mut configs = Vec::new();
    for t in s.highlights.iter().filter_map(|t| Target::parse(t).ok()) {
        match t {
            Target::Segment(o) => m.segments.push(o),
            Target::Offset(o) => m.ranges.push((o, o)),
            Target::Offsets { first, last } => m.ranges.push((first, last)),
            Target::Config(name) => configs.push(name),
            _ => {}
        }
    }
    Some((m, configs))
}

/// Ctrl+Z undoes and Ctrl+Shift+Z (or Ctrl+Y) redoes the draft's last change, anywhere but in a
/// text field (where they undo the typing); every other key goes to `rest` (the explorer's).
pub fn undo_keys(
    on: &Callback<AuthorCommand>,
    rest: Callback<KeyboardEvent>,
) -> Callback<KeyboardEvent> {
    let on = on.clone();
    Callback::from(move |e: KeyboardEvent| {
        let typing = e
            .target_dyn_into::<web_sys::HtmlElement>()
            .is_some_and(|t| matches!(t.tag_name().as_str(), "INPUT" | "TEXTAREA"));
        let cmd = match e.key().as_str() {
            _ if typing || !(e.ctrl_key() || e.meta_key()) => None,
            "z" | "Z" if e.shift_key() => Some(AuthorCommand::Redo),
            "z" => Some(AuthorCommand::Undo),
            "y" => Some(AuthorCommand::Redo),
            _ => None,
        };
        match cmd {
            Some(cmd) => {
                e.prevent_default();
                on.emit(cmd);
            }
            None => rest.emit(e),
        }
    })
}
