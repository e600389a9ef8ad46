//! The explorer's parts, drawn from what the root worked out: the bars above the panels, the
//! wide column, the side column and the keys line. Each takes the data it shows and the
//! callbacks of what it does; none keeps state.

use yew::prelude::*;

use super::seen::Seen;
use crate::author::{self, AuthorAction, AuthorState, Wired};
use crate::components::clock_bar::{picture_buttons, Clock, ClockBar};
use crate::components::confirm_bar::ConfirmBar;
use crate::components::error_box::ErrorBox;
use crate::components::import_panel::{ImportPanel, ImportRequest};
use crate::components::rebuild_bar::{rebuild_bar, RebuildProgress};
use crate::components::scenario_menu::ScenarioMenu;
use crate::hooks::{PanelCallbacks, PanelState, PictureAction, ScenarioActions, Words};
use crate::options::{Options, Panel};
use crate::state::{Explorer, ReplayView};

/// What "Save picture" and "Copy picture" last said, and what they do.
pub(super) type Pictures = (Option<AttrValue>, Callback<PictureAction>);

/// The picture printed in the explorer's place, and its link.
pub(super) type Printed = (Option<AttrValue>, Option<String>);

/// Everything the explorer's parts draw from, this render.
pub(super) struct Frame<'a> {
    /// The options the explorer loaded with (author mode's, when on).
    pub opts: &'a Options,
    /// The explorer's state.
    pub st: &'a Explorer,
    /// Author mode's state.
    pub author: &'a UseReducerHandle<AuthorState>,
    /// What shows: the title, the panels, the lesson's overlay, the columns.
    pub seen: &'a Seen,
    /// What the panels' words draw from (held still during a rebuild and a fast play).
    pub words: &'a Words,
    /// What the canvases draw from: the state now.
    pub view: &'a PanelState,
    /// The scenario shown is fetched from a URL.
    pub from_url: bool,
    /// The standalone page (not an embed).
    pub standalone: bool,
    /// A learner's preview inside an author's explorer.
    pub nested: bool,
    /// The reader asked for less motion.
    pub reduced_motion: bool,
    /// The dark theme draws.
    pub dark: bool,
    /// The panels' callbacks.
    pub panel: &'a PanelCallbacks,
    /// The scenario's callbacks (pick, cancel, confirm, save).
    pub scenario: &'a ScenarioActions,
    /// Author mode's callbacks, and the explorer's as it leaves them.
    pub wired: &'a Wired,
    /// The import panel's requests, to the import worker.
    pub on_import: Callback<ImportRequest>,
    /// The link made by "Copy link" (and whether it was copied), and what makes it.
    pub copy: (Option<(AttrValue, bool)>, Callback<()>),
    /// What "Save picture" and "Copy picture" last said, and what they do.
    pub picture: Pictures,
    /// The picture printed in the explorer's place, and its link.
    pub printed: Printed,
}

impl Frame<'_> {
    pub(super) fn clock(&self) -> Clock {
        let (replay, st) = (&self.st.replay, self.st);
        Clock {
            now: replay.now(),
            done: replay.done,
            total: replay.total,
            playing: st.playback.playing,
            speed: st.playback.speed,
            records: replay.record_count(),
            // While the next scenario loads, the one shown is not to be played with.
            loaded: replay.runner().is_some() && !replay.loading,
        }
    }
}

/// The menu, author mode's button, what is loading or went wrong, the confirm bar, the import
/// panel and the clock bar (a lesson keeps only its picture buttons).
pub(super) fn top(f: &Frame) -> Html {
    let (st, seen) = (f.st, f.seen);
    let replay = &st.replay;
    let lesson_on = seen.lesson_on();
    let author_on = seen.author_on;
    let clock = f.clock();
    let on_author = f.wired.on_author.clone();
    let (made_link, on_copy) = f.copy.clone();
    let (picture_said, on_picture) = f.picture.clone();
    let sc = f.scenario;
    html! {
        <>
                <ScenarioMenu current={seen.current.clone()} title={seen.title.clone()} description={AttrValue::from(replay.description.to_string())} on_pick={sc.on_pick.clone()} menu={f.opts.menu}
                              describe={f.standalone} />
                if f.standalone && !lesson_on && !f.nested {
                    <div class="lt-author-open">
                        { author::author_button(author_on, on_author.reform(move |_: MouseEvent| if author_on { AuthorAction::Stop } else { AuthorAction::Open(true) })) }
                    </div>
                }
                { notices(f) }
                if seen.show(Panel::Import) {
                    <ImportPanel state={st.import.clone()} replay={ReplayView::of(replay)} on_import={f.on_import.clone()} on_delete_records={f.panel.on_delete_records.clone()}
                                 on_walkthrough={f.standalone.then(|| f.wired.on_begin.reform(|()| author::Begin::Imported))} />
                }
                if !lesson_on {
    <ClockBar {clock} on_transport={f.wired.on_transport.clone()} on_advance={f.panel.on_advance.clone()} {on_copy} on_save={sc.on_save.clone()} link={made_link} {on_picture} picture={picture_said} compact={!f.standalone} />
                } else {
                    <div class="lt-lesson-picture">
                        { picture_buttons(&on_picture, !clock.loaded, picture_said.as_ref()) }
                    </div>
                }
                { print_figure(f.printed.0.clone(), f.printed.1.clone(), &seen.title) }
        </>
    }
}

/// What is loading or went wrong, a long rebuild's progress, and the question before a
/// reader's actions are dropped.
fn notices(f: &Frame) -> Html {
    let st = f.st;
    let replay = &st.replay;
    let hint = if f.opts.menu {
        "Pick a built-in scenario from the menu, or fix the scenario and reload."
    } else {
        "Fix the scenario and reload the page."
    };
    html! {
        <>
                if replay.loading && f.from_url {
                    <p class="lt-loading-line lt-muted" role="status" data-testid="loading">
                        { "Fetching the scenario… " }
                        <button type="button" class="lt-btn lt-btn-small" onclick={f.scenario.on_cancel_load.clone()} data-testid="cancel-load">{ "Cancel" }</button>
                    </p>
                }
                if let Some(e) = &replay.error {
                    <ErrorBox title="This scenario could not be shown" detail={e.clone()} hint={Some(AttrValue::from(hint))} />
                }
                if let Some(n) = &replay.notice {
                    <div class="lt-notice" role="alert" data-testid="moment-error">
                        <p><strong>{ "This link's moment could not be rebuilt. " }</strong>{ n.clone() }</p>
                    </div>
                }
                if let Some(r) = &st.rebuild {
                    { rebuild_bar(RebuildProgress {
                        done: replay.done,
                        steps: r.steps,
                        partial: replay.step_in_progress().map(|(_, sent, of)| (sent, of)),
                        stopping: r.stopping,
                    }, &f.panel.on_cancel_rebuild) }
                }
                if let Some(p) = &st.pending {
                    <ConfirmBar pending={p.clone()} standalone={f.standalone} on_confirm={f.scenario.on_confirm.clone()} on_dismiss={f.panel.on_dismiss.clone()} />
                }
        </>
    }
}

/// What prints in place of the explorer (hidden on screen; `@media print` in app.css): the
/// picture of the moment, its caption and its link, kept whole on one page.
fn print_figure(svg: Option<AttrValue>, link: Option<String>, title: &AttrValue) -> Html {
    let Some(svg) = svg else {
        return Html::default();
    };
    html! {
        <figure class="lt-print-picture" data-testid="print-picture">
            { Html::from_html_unchecked(svg) }
            <figcaption>
                <strong>{ title.clone() }</strong>
                if let Some(link) = link {
                    { " · " }<a href={link.clone()}>{ link }</a>
                }
            </figcaption>
        </figure>
    }
}

/// The standalone page's keys, as a lesson or the explorer takes them.
pub(super) fn keys_line(standalone: bool, lesson_on: bool) -> Html {
    html! {
        <>
                if standalone && lesson_on {
                    <p class="lt-keys lt-muted">{ "Keys: → next · ← back · space play/pause · Tab to a record or segment, Enter for its details (and to pick it in a question)" }</p>
                } else if standalone {
                    <p class="lt-keys lt-muted">{ "Keys: space play/pause · → step · ← step back · + / − speed · Enter on a record or segment for its details" }</p>
                }
        </>
    }
}
