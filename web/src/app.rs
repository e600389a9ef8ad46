//! The Logtime explorer's root component: one independent instance per mount (all state lives
//! in its reducer; nothing is shared between instances except read-only built-ins).
//!
//! `App` takes the checked [`Options`]; `lib.rs` wraps it in
//! `<div class="logtime-root" data-testid="app-root">`. It composes: its behaviour is in named
//! hooks ([`crate::hooks`]: loads, the moment link and history, timers, media, the import, the
//! keyboard), a lesson is the plug-in [`crate::lessons`] known through its [`Overlay`], and
//! each panel gets the part of the state it shows and a callback of the one thing it does.

use yew::prelude::*;

use crate::author::{self, AuthorPane, AuthorStart};
use crate::builtins;
use crate::components::charts::{DiskChart, TimestampChart};
use crate::components::clock_bar::{picture_buttons, Clock, ClockBar};
use crate::components::config_panel::ConfigPanel;
use crate::components::confirm_bar::ConfirmBar;
use crate::components::density_canvas::LiveDensity;
use crate::components::details_panel::DetailsPanel;
use crate::components::error_box::ErrorBox;
use crate::components::import_panel::ImportPanel;
use crate::components::live_region::LiveRegion;
use crate::components::lookup_panel::LookupPanel;
use crate::components::partition_view::PartitionView;
use crate::components::producer_panel::ProducerPanel;
use crate::components::rebuild_bar::{rebuild_bar, RebuildProgress};
use crate::components::retention_panel::RetentionPanel;
use crate::components::scenario_menu::ScenarioMenu;
use crate::embed::ScenarioSource;
use crate::hooks::{self, use_dispatch};
use crate::lessons::{self, LessonPane, Overlay, StreamLane};
use crate::options::{Context, Options, Panel, Theme};
use crate::shown::{panels_shown, title_of, unhidden};
use crate::state::{
    CommandAction, Explorer, LessonAction, Pending, ReplayView, TransportAction, ViewAction,
};
use logtime_lesson::{Affordance, Affordances};

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
    let previewing = preview.shown.is_some();
    let page = standalone && !props.nested;
    let state = use_reducer(Explorer::default);
    let d = state.dispatcher();
    let (reduced_motion, system_dark) = hooks::use_media();
    let dark = match opts.theme {
        Theme::Dark => true,
        Theme::Light => false,
        Theme::Auto => system_dark,
    };
    let loads = hooks::use_loads(opts, d.clone());
    let link = hooks::use_moment_link(opts, &state, &loads.source);
    let last_url = hooks::use_url_sync(page, &link, state.playback.playing);
    hooks::use_history_moments(page, &loads, last_url, d.clone());
    let acted = state
        .replay
        .journal()
        .is_some_and(|j| j.actions().next().is_some());
    hooks::use_unload_guard(acted && opts.context == Context::Embed);
    hooks::use_warm_up(state.replay.is_loaded());
    hooks::use_playback_frames(d.clone(), state.playback.playing, state.playback.speed);
    hooks::use_rebuild_chunks(d.clone(), state.rebuild.as_ref().map(|r| r.chunks));
    let revs = (state.lookup.rev, state.retention.rev);
    hooks::use_walk_timer(d.clone(), revs, state.playback.speed, reduced_motion);
    let (made_link, on_copy) = hooks::use_copy_link(opts, &link);
    let on_import = hooks::use_import(&loads, d.clone());
    let on_begin = author::use_begin(author.clone(), state.clone(), &loads);
    author::use_author_start(
        &props.options,
        &author,
        state.replay.is_loaded(),
        on_begin.clone(),
    );
    author::use_recording(author.clone(), &state);
    author::use_placing(author.clone(), &state, &loads);
    let on_preview = {
        // The explorer left behind stands still until the author is back.
        let (open, d) = (preview.open.clone(), d.clone());
        Callback::from(move |()| {
            d.dispatch(TransportAction::Play(false).into());
            open.emit(());
        })
    };
    let (author_link, on_tool) = author::use_tools(author.clone(), on_preview);
    let on_save = {
        let replay = state.replay.clone();
        Callback::from(move |()| {
            // Pretty, with RFC 3339 times and human durations (core's saver); a source it
            // refuses is offered as it was loaded.
            let text = logtime_core::scenario::save::save(&replay.source)
                .unwrap_or_else(|_| replay.source.to_string());
            let name = crate::model::format::file_name(&replay.title, replay.is_lesson());
            crate::glue::download(&text, &name);
        })
    };
    let on_author_command = {
        let (author, now) = (author.clone(), state.replay.now());
        Callback::from(move |c| author.dispatch(author::AuthorAction::Apply(now, Box::new(c))))
    };
    let onkeydown = hooks::use_keys(d.clone(), state.playback.speed);
    // While a draft is written, Ctrl+Z and Ctrl+Shift+Z are its undo and redo, wherever the focus is.
    let onkeydown = match &author.draft {
        Some(_) => author::undo_keys(
            &on_author_command,
            author::place_keys(&author, author::pick_keys(&author, onkeydown)),
        ),
        None => onkeydown,
    };
    hooks::use_page_keys(standalone && !previewing, onkeydown.clone());
    let (view, words) = hooks::use_panel_words(&state);
    let shift = author::use_shift(root.clone());

    // Stable callbacks (`use_dispatch`): a panel whose props did not change is not rendered
    // again, which keeps a fast play's frames to the clock and the canvases.
    let on_transport = use_dispatch(d.clone(), |a: TransportAction| a);
    // While a draft is written, back and step walk its steps.
    let on_transport = author::place_transport(&author, on_transport);
    let on_command = use_dispatch(d.clone(), |a: CommandAction| a);
    let on_lesson = use_dispatch(d.clone(), |a: LessonAction| a);
    let on_advance = use_dispatch(d.clone(), CommandAction::Advance);
    let on_version = use_dispatch(d.clone(), CommandAction::SetVersion);
    let on_config = use_dispatch(d.clone(), |(name, value)| {
        CommandAction::SetConfig(name, value)
    });
    let on_lookup = use_dispatch(d.clone(), CommandAction::Lookup);
    let on_send = use_dispatch(d.clone(), CommandAction::Produce);
    let on_delete_records = use_dispatch(d.clone(), |offset| CommandAction::DeleteRecords {
        offset,
        then_check: true,
    });
    let on_viewport = use_dispatch(d.clone(), ViewAction::SetViewport);
    let on_inspect = use_dispatch(d.clone(), |i| ViewAction::Inspect(Some(i)));
    // While the author picks highlights or points a question, a click on a record or segment
    // is theirs.
    let on_inspect = if author.pointing == author::Pointing::Off {
        on_inspect
    } else {
        let (author, replay) = (author.clone(), ReplayView::of(&state.replay));
        Callback::from(
            move |i| match author::pointed(&author, &replay, i, shift.get()) {
                Some(a) => author.dispatch(a),
                None => on_inspect.emit(i),
            },
        )
    };
    let on_author = {
        let author = author.clone();
        Callback::from(move |a: author::AuthorAction| author.dispatch(a))
    };
    // In author mode the Produce panel's batch can be taken for a question instead of sent.
    let on_use_batch = author.draft.is_some().then(|| {
        let (author, now) = (author.clone(), state.replay.now());
        Callback::from(move |b| author.dispatch(author::take(&b, now)))
    });
    let on_close_details = use_dispatch(d.clone(), |()| ViewAction::Inspect(None));
    let on_pick_answer = use_dispatch(d.clone(), LessonAction::Select);
    let on_dismiss = use_dispatch(d.clone(), |()| TransportAction::Dismiss);
    let on_cancel_rebuild = use_dispatch(d.clone(), |()| TransportAction::CancelRebuild);
    // Switching scenario drops the reader's actions: asked first when there are any.
    let on_pick = {
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
    };
    let on_cancel_load = {
        let loads = loads.clone();
        Callback::from(move |_: MouseEvent| loads.cancel())
    };
    let on_confirm = {
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
    };

    let st = &*state;
    let replay = &st.replay;
    let text = &words.wide;
    let current = match &*loads.source {
        ScenarioSource::Builtin(n) => Some(AttrValue::from(n.clone())),
        _ => None,
    };
    let builtin = current.as_deref().and_then(builtins::find);
    let title = title_of(st, builtin);
    let picture_page = {
        let page = opts
            .page
            .as_deref()
            .unwrap_or(if standalone { "" } else { "index.html" });
        let page = hooks::absolute(page);
        page.split(['?', '#'])
            .next()
            .unwrap_or_default()
            .to_string()
    };
    let printed_link = link.query.as_ref().map(|q| format!("{picture_page}{q}"));
    let clock = Clock {
        now: replay.now(),
        done: replay.done,
        total: replay.total,
        playing: st.playback.playing,
        speed: st.playback.speed,
        records: replay.record_count(),
        // While the next scenario loads, the one shown is not to be played with.
        loaded: replay.runner().is_some() && !replay.loading,
    };
    let config = replay.runner().map(|r| r.partition().config().clone());
    let panels = panels_shown(opts, st);
    let show = |p: Panel| panels.has(p);
    // A lesson plays when its pane has a mode; its overlay is all the explorer knows of it.
    let overlay: Option<Overlay> = replay
        .is_lesson()
        .then(|| lessons::overlay(&st.lesson))
        .flatten();
    let lesson_on = overlay.is_some();
    let author_on = author.draft.is_some() || author.opening;
    let author_marks = author::marks(&author);
    let picking = author::pick_context(&author, replay.now());
    let picking_on = picking.is_some();
    let hidden = overlay.as_ref().map_or(Affordances::NONE, |o| o.hidden);
    // The pictures draw the panels the reader has open (less what a lesson hides).
    let in_picture = hooks::Shown::of(panels, hidden, replay.stream.is_some(), &words.log);
    let (picture_said, on_picture) =
        hooks::use_picture(&state, &link, &picture_page, &title, dark, &in_picture);
    let (ondragover, ondrop) = hooks::use_picture_drop(&loads);
    let printed = hooks::use_print_picture(&state, &link, &picture_page, &title, &in_picture);
    let (retention_shown, lookup_shown) = unhidden(text, hidden);
    let (retention_live, lookup_live) = unhidden(&view, hidden);
    let density = LiveDensity {
        replay: ReplayView::of(&view.replay),
        lookup: lookup_live.clone(),
        retention: retention_live,
        viewport: view.viewport,
        neutral: hidden.contains(Affordance::AgeMarks),
    };
    // The author's preview of a draft is not a learner's run: nothing of it is kept.
    let progress_key = match props.nested {
        true => AttrValue::default(),
        false => AttrValue::from(lessons::progress_key(
            current.as_deref().unwrap_or(replay.title.as_ref()),
        )),
    };
    let presenter = overlay.as_ref().is_some_and(|o| o.presenter);
    hooks::use_pointed_panels(
        root.clone(),
        overlay
            .as_ref()
            .map(|o| o.panels.clone())
            .unwrap_or_else(|| author::marked_panels(&author)),
    );
    hooks::use_followed(
        root.clone(),
        overlay.as_ref().and_then(|o| o.follow.clone()),
    );
    let side =
        show(Panel::Log) || show(Panel::Producer) || show(Panel::Config) || lesson_on || author_on;
    let wide = show(Panel::Partition)
        || show(Panel::Retention)
        || show(Panel::Lookup)
        || show(Panel::Chart)
        || show(Panel::Disk);
    let single = !(side && wide);
    let hint = if opts.menu {
        "Pick a built-in scenario from the menu, or fix the scenario and reload."
    } else {
        "Fix the scenario and reload the page."
    };
    html! {
        <>
            if let Some(doc) = &preview.shown {
                <author::PreviewBar on_back={preview.back.clone()} />
                <App options={author::preview_options(opts, doc)} nested=true />
            }
            // One landmark per explorer, named by its scenario (the panels inside are groups, so
            // several explorers on a page do not repeat landmark names).
            <div ref={root} hidden={previewing} class={classes!("lt-app", reduced_motion.then_some("reduced-motion"), lesson_on.then_some("lt-lesson-mode"), presenter.then_some("lt-presenter"), picking_on.then_some("lt-author-picking"))} {onkeydown} {ondragover} {ondrop} tabindex="-1"
                 data-panels={panels.names()} role="region" aria-label={format!("Logtime explorer: {title}")}
                 aria-busy={replay.loading.then_some("true")}>
                <ContextProvider<Option<author::PickContext>> context={picking}>
                <ScenarioMenu current={current} title={title.clone()} description={AttrValue::from(replay.description.to_string())} {on_pick} menu={opts.menu}
                              describe={standalone} />
                if standalone && !lesson_on && !props.nested {
                    <div class="lt-author-open">
                        { author::author_button(author_on, on_author.reform(move |_: MouseEvent| if author_on { author::AuthorAction::Stop } else { author::AuthorAction::Open(true) })) }
                    </div>
                }
                if replay.loading && matches!(&*loads.source, ScenarioSource::Url(_)) {
                    <p class="lt-loading-line lt-muted" role="status" data-testid="loading">
                        { "Fetching the scenario… " }
                        <button type="button" class="lt-btn lt-btn-small" onclick={on_cancel_load} data-testid="cancel-load">{ "Cancel" }</button>
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
                    }, &on_cancel_rebuild) }
                }
                if let Some(p) = &st.pending {
                    <ConfirmBar pending={p.clone()} {standalone} {on_confirm} {on_dismiss} />
                }
                if show(Panel::Import) {
                    <ImportPanel state={st.import.clone()} replay={ReplayView::of(replay)} {on_import} on_delete_records={on_delete_records.clone()}
                                 on_walkthrough={standalone.then(|| on_begin.reform(|()| author::Begin::Imported))} />
                }
                if !lesson_on {
    <ClockBar {clock} on_transport={on_transport.clone()} {on_advance} {on_copy} {on_save} link={made_link} {on_picture} picture={picture_said} compact={!standalone} />
                } else {
                    <div class="lt-lesson-picture">
                        { picture_buttons(&on_picture, !clock.loaded, picture_said.as_ref()) }
                    </div>
                }
                { print_figure(printed, printed_link, &title) }
                <div class={classes!("lt-main", single.then_some("lt-single"))}>
                    if wide {
                    <div class="lt-col-wide">
                        if show(Panel::Partition) {
                            <ContextProvider<LiveDensity> context={density}>
                            <PartitionView replay={ReplayView::of(&text.replay)} marks={text.marks.clone()} lookup={lookup_shown.clone()}
                                           retention={retention_shown.clone()} viewport={text.viewport} {reduced_motion} {dark} {on_viewport}
                                           lesson={overlay.as_ref().map(|o| o.marks.clone()).or_else(|| author_marks.as_ref().map(|m| m.0.clone()))} on_inspect={on_inspect.clone()} on_pick={on_pick_answer} />
                            </ContextProvider<LiveDensity>>
                            if replay.stream.is_some() {
                                <StreamLane replay={ReplayView::of(&view.replay)} hidden={hidden.contains(Affordance::StreamVerdicts)} {reduced_motion} {dark} />
                            }
                        }
                        if let Some(i) = st.inspect {
                            <DetailsPanel inspect={i} replay={ReplayView::of(&text.replay)} lookup={lookup_shown.clone()} on_close={on_close_details}
                                          neutral={hidden.contains(Affordance::AgeMarks)} />
                        }
                        if show(Panel::Retention) || show(Panel::Lookup) {
                        <div class="lt-grid-2">
                            if show(Panel::Retention) {
                                <RetentionPanel replay={ReplayView::of(&text.replay)} state={retention_shown.clone()} {reduced_motion} on_command={on_command.clone()}
                                                remedies={!hidden.contains(Affordance::Remedies)} compact={!standalone} />
                            }
                            if show(Panel::Lookup) {
                                <LookupPanel replay={ReplayView::of(&text.replay)} state={lookup_shown.clone()} {reduced_motion} {on_lookup} on_inspect={on_inspect.clone()} />
                            }
                        </div>
                        }
                        if show(Panel::Chart) || show(Panel::Disk) {
                        <div class="lt-grid-2">
                            if show(Panel::Chart) {
                                <TimestampChart replay={ReplayView::of(&view.replay)} lookup={lookup_live} {dark} neutral={hidden.contains(Affordance::AgeMarks)} />
                            }
                            if show(Panel::Disk) {
                                <DiskChart disk={view.disk.clone()} {dark} />
                            }
                        </div>
                        }
                    </div>
                    }
                    if side {
                    <div class="lt-col-side" role="group" aria-label="Narration and controls">
                        if lesson_on {
                            <LessonPane view={st.lesson.clone()} now={clock.now} playing={st.playback.playing} {progress_key}
                                        {on_lesson} on_transport={on_transport.clone()}
                                        assign={opts.assign.clone().map(AttrValue::from)} />
                        }
                        if let Some(draft) = &author.draft {
                            <AuthorPane draft={draft.clone()} selected={author.selected} pointing={author.pointing}
                                        said={author.said.as_ref().map(|(w, e)| (AttrValue::from(w.clone()), *e))} link={author_link}
                                        replay={ReplayView::of(replay)} on_command={on_author_command} on_author={on_author.clone()} {on_tool}
                                        taken={author.taken.clone()} />
                        } else if author.opening {
                            <AuthorStart title={title.clone()} error={author.said.as_ref().filter(|s| s.1).map(|s| AttrValue::from(s.0.clone()))}
                                         on_begin={on_begin.clone()} on_close={on_author.reform(|()| author::AuthorAction::Open(false))} />
                        }
                        if show(Panel::Log) { <LiveRegion log={words.log.clone()} /> }
                        if show(Panel::Producer) {
                            <ProducerPanel now={words.now} loaded={clock.loaded} state={st.producer.clone()} {reduced_motion} {on_send} on_use={on_use_batch.clone()} />
                        }
                        if show(Panel::Config) {
                            <ConfigPanel {config} state={st.config.clone()} {on_version} {on_config}
                                         highlight={overlay.as_ref().map(|o| o.configs.clone()).or_else(|| author_marks.as_ref().map(|m| m.1.clone())).unwrap_or_default()} />
                        }
                    </div>
                    }
                </div>
                if standalone && lesson_on {
                    <p class="lt-keys lt-muted">{ "Keys: → next · ← back · space play/pause · Tab to a record or segment, Enter for its details (and to pick it in a question)" }</p>
                } else if standalone {
                    <p class="lt-keys lt-muted">{ "Keys: space play/pause · → step · ← step back · + / − speed · Enter on a record or segment for its details" }</p>
                }
                </ContextProvider<Option<author::PickContext>>>
            </div>
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
