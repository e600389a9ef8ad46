//! The Logtime explorer's root component: one independent instance per mount (all state lives
//! in its reducer; nothing is shared between instances except read-only built-ins).
//!
//! `App` takes the checked [`Options`]; `lib.rs` wraps it in
//! `<div class="logtime-root" data-testid="app-root">`. It composes: its behaviour is in named
//! hooks ([`crate::hooks`]: loads, the moment link and history, timers, media, the import, the
//! keyboard, the panels' and the scenario's callbacks), author mode is wired in by its own hook
//! ([`author::use_author_wiring`]), a lesson is the plug-in [`crate::lessons`] known through its
//! [`crate::lessons::Overlay`], what is shown is worked out once ([`seen`]), and the parts
//! ([`view`]: the bars above the panels; [`columns`]: the wide and side columns) get the part
//! of the state they show and a callback of the one thing each panel does.

use yew::prelude::*;

use crate::author::{self, Around};
use crate::embed::ScenarioSource;
use crate::hooks;
use crate::options::{Context, Options, Theme};
use crate::state::Explorer;

mod columns;
mod seen;
mod view;

use seen::Seen;
use view::Frame;

/// The explorer's props.
#[derive(Properties, PartialEq, Clone)]
pub struct AppProps {
    /// Everything the page said, checked.
    pub options: Options,
    /// A learner's preview inside an author's explorer: the page's URL and history stay the
    /// author's.
    #[prop_or_default]
    pub nested: bool,
}

/// The explorer.
#[function_component(App)]
pub fn app(props: &AppProps) -> Html {
    let author = use_reducer(author::AuthorState::default);
    // Author mode loads what it shows in the explorer's mode (a lesson free to play with).
    let opts = &author::options_in(&props.options, &author);
    let standalone = opts.context == Context::Standalone;
    let root = use_node_ref();
    // While the author previews the lesson as a learner, this explorer is hidden, kept as it is.
    let preview = author::use_preview(author.clone(), root.clone());
    let page = standalone && !props.nested;
    let state = use_reducer(Explorer::default);
    let d = state.dispatcher();
    let (reduced_motion, system_dark) = hooks::use_media();
    let dark = is_dark(opts.theme, system_dark);
    let loads = hooks::use_loads(opts, d.clone());
    let link = hooks::use_moment_link(opts, &state, &loads.source);
    let last_url = hooks::use_url_sync(page, &link, state.playback.playing);
    hooks::use_history_moments(page, &loads, last_url, d.clone());
    hooks::use_unload_guard(acted(&state) && opts.context == Context::Embed);
    hooks::use_timers(d.clone(), &state, reduced_motion);
    let copy = hooks::use_copy_link(opts, &link);
    let on_import = hooks::use_import(&loads, d.clone());
    let panel = hooks::use_panel_callbacks(d.clone());
    let scenario = hooks::use_scenario_actions(&loads, &state);
    let keys = hooks::use_keys(d, state.playback.speed);
    let (options, preview_ref) = (&props.options, &preview);
    let around = Around {
        options,
        state: &state,
        loads: &loads,
        preview: preview_ref,
        root: root.clone(),
        keys,
    };
    let wired = author::use_author_wiring(author.clone(), around, &panel);
    hooks::use_page_keys(
        standalone && preview.shown.is_none(),
        wired.onkeydown.clone(),
    );
    let (view, words) = hooks::use_panel_words(&state);
    let seen = Seen::of(opts, &state, &author, &loads.source);
    let (picture, printed) = use_pictures(&state, &link, &seen, &words, dark);
    let (ondragover, ondrop) = hooks::use_picture_drop(&loads);
    hooks::use_pointed_panels(root.clone(), seen.pointed(&author));
    hooks::use_followed(root.clone(), seen.follow());
    let frame = Frame {
        opts,
        st: &state,
        author: &author,
        seen: &seen,
        words: &words,
        view: &view,
        from_url: matches!(&*loads.source, ScenarioSource::Url(_)),
        standalone,
        nested: props.nested,
        reduced_motion,
        dark,
        panel: &panel,
        scenario: &scenario,
        wired: &wired,
        on_import,
        copy,
        picture,
        printed,
    };
    html! {
        <>
            if let Some(doc) = &preview.shown {
                <author::PreviewBar on_back={preview.back.clone()} />
                <App options={author::preview_options(opts, doc)} nested=true />
            }
            { shell(&frame, root, wired.onkeydown.clone(), (ondragover, ondrop), preview.shown.is_some()) }
        </>
    }
}

/// The explorer's one landmark and the parts inside it.
fn shell(
    f: &Frame,
    root: NodeRef,
    onkeydown: Callback<KeyboardEvent>,
    (ondragover, ondrop): (Callback<DragEvent>, Callback<DragEvent>),
    previewing: bool,
) -> Html {
    let (seen, replay) = (f.seen, &f.st.replay);
    let lesson_on = seen.lesson_on();
    let presenter = seen.overlay.as_ref().is_some_and(|o| o.presenter);
    let picking = author::pick_context(f.author, replay.now());
    let picking_on = picking.is_some();
    let single = !(seen.side && seen.wide);
    let title = &seen.title;
    html! {
            // One landmark per explorer, named by its scenario (the panels inside are groups, so
            // several explorers on a page do not repeat landmark names).
            <div ref={root} hidden={previewing} class={classes!("lt-app", f.reduced_motion.then_some("reduced-motion"), lesson_on.then_some("lt-lesson-mode"), presenter.then_some("lt-presenter"), picking_on.then_some("lt-author-picking"))} {onkeydown} {ondragover} {ondrop} tabindex="-1"
                 data-panels={seen.panels.names()} role="region" aria-label={format!("Logtime explorer: {title}")}
                 aria-busy={replay.loading.then_some("true")}>
                <ContextProvider<Option<author::PickContext>> context={picking}>
                { view::top(f) }
                <div class={classes!("lt-main", single.then_some("lt-single"))}>
                    if seen.wide {
                        { columns::wide(f) }
                    }
                    if seen.side {
                        { columns::side(f) }
                    }
                </div>
                { view::keys_line(f.standalone, lesson_on) }
                </ContextProvider<Option<author::PickContext>>>
            </div>
    }
}

fn is_dark(theme: Theme, system_dark: bool) -> bool {
    match theme {
        Theme::Dark => true,
        Theme::Light => false,
        Theme::Auto => system_dark,
    }
}

/// Whether the reader acted on the scenario (an embed then asks before they are lost).
fn acted(st: &Explorer) -> bool {
    st.replay
        .journal()
        .is_some_and(|j| j.actions().next().is_some())
}

/// "Save picture" and "Copy picture" (what they last said, and what they do), and the picture
/// printed in the explorer's place with its link.
#[hook]
fn use_pictures(
    state: &UseReducerHandle<Explorer>,
    link: &hooks::MomentLink,
    seen: &Seen,
    words: &hooks::Words,
    dark: bool,
) -> (view::Pictures, view::Printed) {
    // The pictures draw the panels the reader has open (less what a lesson hides).
    let stream = state.replay.stream.is_some();
    let in_picture = hooks::Shown::of(seen.panels, seen.hidden, stream, &words.log);
    let (page, title) = (&seen.picture_page, &seen.title);
    let picture = hooks::use_picture(state, link, page, title, dark, &in_picture);
    let printed = hooks::use_print_picture(state, link, page, title, &in_picture);
    let printed_link = link.query.as_ref().map(|q| format!("{page}{q}"));
    (picture, (printed, printed_link))
}
