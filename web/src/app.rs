//! The Logtime explorer: one independent instance per mount (all state lives in this
//! component's reducer; nothing is shared between instances except read-only built-ins).
//!
//! `App` takes the checked [`Options`]; `lib.rs` wraps it in
//! `<div class="logtime-root" data-testid="app-root">`. It owns the timers, media queries, the
//! loads (the last choice wins), the moment links and, in the standalone page, the URL and the
//! browser history; it hands each panel the part of the state it shows.

use yew::prelude::*;

use crate::builtins;
use crate::components::charts::{DiskChart, TimestampChart};
use crate::components::clock_bar::{Clock, ClockBar};
use crate::components::config_panel::ConfigPanel;
use crate::components::confirm_bar::ConfirmBar;
use crate::components::details_panel::DetailsPanel;
use crate::components::error_box::ErrorBox;
use crate::components::import_panel::{ImportPanel, ImportRequest};
use crate::components::lesson_pane::LessonPane;
use crate::components::live_region::LiveRegion;
use crate::components::lookup_panel::LookupPanel;
use crate::components::partition_view::LessonMarks;
use crate::components::partition_view::{LiveDensity, PartitionView};
use crate::components::producer_panel::ProducerPanel;
use crate::components::rebuild_bar::{rebuild_bar, RebuildProgress};
use crate::components::retention_panel::RetentionPanel;
use crate::components::scenario_menu::ScenarioMenu;
use crate::components::stream_lane::StreamLane;
use crate::embed::{self, ScenarioSource};
use crate::model::import;
use crate::model::moment::{self, SourceParam};
use crate::model::progress::{self, Progress};
use crate::model::timeline;
use crate::options::{self, Context, Mode, Options, Panel, Panels, Theme};
use crate::state::{self, Action, Explorer, Pending, Restore, Shared};
use logtime_core::lesson::Affordance;
use logtime_core::scenario::Source;

/// The explorer's props.
#[derive(Properties, PartialEq, Clone)]
pub struct AppProps {
    /// Everything the page said, checked.
    pub options: Options,
}

/// `(prefers-reduced-motion: reduce, prefers-color-scheme: dark)`.
fn media() -> (bool, bool) {
    #[cfg(target_arch = "wasm32")]
    {
        let q = |s: &str| {
            web_sys::window()
                .and_then(|w| w.match_media(s).ok().flatten())
                .map(|m| m.matches())
                .unwrap_or(false)
        };
        (
            q("(prefers-reduced-motion: reduce)"),
            q("(prefers-color-scheme: dark)"),
        )
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        (false, false)
    }
}

/// The moment a page's options ask for.
fn restore_of(o: &Options) -> Restore {
    Restore {
        moment: o.moment.clone(),
        step: o.step,
        lookup: o.lookup,
    }
}

/// A URL made absolute against the page's base (a link must work from any page).
fn absolute(url: &str) -> String {
    #[cfg(target_arch = "wasm32")]
    {
        let base = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.base_uri().ok().flatten())
            .unwrap_or_default();
        web_sys::Url::new_with_base(url, &base)
            .map(|u| u.href())
            .unwrap_or_else(|_| url.to_string())
    }
    #[cfg(not(target_arch = "wasm32"))]
    url.to_string()
}

/// Loads a scenario source into the reducer as load `token`, fetching or unpacking it when
/// needed; a response for an older token is ignored by the reducer.
fn load(
    source: &ScenarioSource,
    token: u64,
    restore: Restore,
    dispatch: UseReducerDispatcher<Explorer>,
) {
    dispatch.dispatch(Action::Loading(token));
    let done = move |json: Result<String, String>, origin: Source| Action::Load {
        token,
        json,
        origin,
        restore,
    };
    match source {
        ScenarioSource::Builtin(name) => {
            let origin = Source::Builtin(name.clone());
            let Some(b) = builtins::find(name) else {
                let json = Err(format!(
                    "scenario: unknown built-in scenario {name:?} (built-ins: {})",
                    builtins::names()
                ));
                dispatch.dispatch(done(json, origin));
                return;
            };
            // Fetched from beside the wasm module when opened (the files are not compiled in).
            wasm_bindgen_futures::spawn_local(async move {
                let url = b.url();
                let json = fetch_text(&url)
                    .await
                    .map_err(|f| builtins::fetch_message(b, &url, &f))
                    .and_then(|text| match state::Replay::check(&text) {
                        Ok(()) => Ok(text),
                        Err(e) => Err(embed::not_a_scenario(&url, &e)),
                    });
                dispatch.dispatch(done(json, origin));
            });
        }
        ScenarioSource::Inline(json) => {
            dispatch.dispatch(done(Ok(json.clone()), Source::Inline(json.clone())))
        }
        ScenarioSource::Packed(z) => {
            let z = z.clone();
            wasm_bindgen_futures::spawn_local(async move {
                let json = crate::glue::unpack(&z).await.map_err(|e| {
                    format!("The scenario in this link is damaged (truncated or edited): {e}.")
                });
                let origin = Source::Inline(json.clone().unwrap_or_default());
                dispatch.dispatch(done(json, origin));
            });
        }
        ScenarioSource::Url(url) => {
            let url = url.clone();
            wasm_bindgen_futures::spawn_local(async move {
                let shown = absolute(&url);
                let json = fetch_text(&url)
                    .await
                    .map_err(|f| embed::fetch_message(&shown, &f))
                    .and_then(|text| match state::Replay::check(&text) {
                        Ok(()) => Ok(text),
                        Err(e) => Err(embed::not_a_scenario(&shown, &e)),
                    });
                dispatch.dispatch(done(json, Source::Url(url)));
            });
        }
    }
}

#[cfg(target_arch = "wasm32")]
async fn fetch_text(url: &str) -> Result<String, embed::FetchFailure> {
    use embed::FetchFailure;
    use wasm_bindgen::JsCast;
    use wasm_bindgen_futures::JsFuture;
    let w = web_sys::window().ok_or(FetchFailure::Network)?;
    let resp = JsFuture::from(w.fetch_with_str(url))
        .await
        .map_err(|_| FetchFailure::Network)?;
    let resp: web_sys::Response = resp.dyn_into().map_err(|_| FetchFailure::Network)?;
    if !resp.ok() {
        return Err(FetchFailure::Status(resp.status()));
    }
    let text = JsFuture::from(resp.text().map_err(|_| FetchFailure::Body)?)
        .await
        .map_err(|_| FetchFailure::Body)?;
    // Measured while the text is still a JS string: copying a file of hundreds of megabytes into
    // the wasm memory could be what kills the instance. UTF-16 units never outnumber UTF-8 bytes,
    // so a text refused here is over the limit either way; core's parser checks the exact size.
    let units = u64::from(js_sys::JsString::from(text.clone()).length());
    if units > logtime_core::scenario::MAX_SCENARIO_BYTES {
        return Err(FetchFailure::TooLarge(units));
    }
    text.as_string().ok_or(FetchFailure::Body)
}

#[cfg(not(target_arch = "wasm32"))]
async fn fetch_text(_url: &str) -> Result<String, embed::FetchFailure> {
    Err(embed::FetchFailure::Network)
}

/// The scenario part of a moment link for the loaded scenario; packing an inline scenario is
/// asynchronous, so it comes from `packed` once ready.
fn source_param(source: &ScenarioSource, packed: Option<&String>) -> Option<SourceParam> {
    Some(match source {
        ScenarioSource::Builtin(n) => SourceParam::Builtin(n.clone()),
        ScenarioSource::Url(u) => SourceParam::Url(absolute(u)),
        ScenarioSource::Packed(z) => SourceParam::Packed(z.clone()),
        ScenarioSource::Inline(_) => SourceParam::Packed(packed?.clone()),
    })
}

/// The link to what the replay shows, named by the origin it was loaded from (not by a pick
/// still loading, which would pair the new scenario with the old moment): a scenario's moment,
/// or a lesson (`Some` of the step it was opened at, when not its own start). A lesson's link
/// names where it opened, not the reader's latest step: a lesson run keeps no journal to
/// rebuild a moment from, and its steps are no history entries (Back leaves the lesson).
/// `picked` is the packed form of an inline origin.
fn shown_query(
    origin: &Source,
    picked: Option<SourceParam>,
    journal: Option<&logtime_core::scenario::Journal>,
    lesson: Option<Option<usize>>,
    text: &str,
    view: &[(&'static str, String)],
) -> Option<String> {
    let sp = match origin {
        Source::Builtin(n) => SourceParam::Builtin(n.clone()),
        Source::Url(u) => SourceParam::Url(absolute(u)),
        Source::Inline(_) => picked.filter(|p| matches!(p, SourceParam::Packed(_)))?,
    };
    match journal {
        Some(j) => Some(moment::query_string(&moment::params(&sp, j, text, view))),
        None => {
            let opened = logtime_core::scenario::Journal {
                source: origin.clone(),
                entries: vec![logtime_core::scenario::Entry::Step; lesson?.unwrap_or(0)],
            };
            Some(moment::query_string(&moment::params(
                &sp, &opened, text, view,
            )))
        }
    }
}

/// The view options a standalone link keeps (those that differ from the defaults).
fn view_params(o: &Options) -> Vec<(&'static str, String)> {
    let mut v = Vec::new();
    if let Some(p) = o.panels {
        v.push(("panels", p.names()));
    }
    if !o.menu {
        v.push(("menu", "false".to_string()));
    }
    if o.theme != Theme::Auto {
        v.push(("theme", o.theme.name().to_string()));
    }
    v
}

/// What the partition's panels are drawn from: the explorer's state, or during a rebuild what
/// it was once the first chunk had run.
struct PanelState {
    replay: Shared<state::Replay>,
    marks: Shared<state::Marks>,
    lookup: Shared<state::LookupState>,
    retention: Shared<state::RetentionState>,
    disk: Shared<state::Disk>,
    viewport: crate::model::viewport::Viewport,
}

impl PanelState {
    fn of(st: &Explorer) -> PanelState {
        PanelState {
            replay: st.replay.clone(),
            marks: st.marks.clone(),
            lookup: st.lookup.clone(),
            retention: st.retention.clone(),
            disk: st.disk.clone(),
            viewport: st.viewport,
        }
    }
}

/// What the panels' words show while they lag the moment (`timeline::TextRefresh`): the
/// partition's column, and the narration's log and producer clock.
#[derive(Clone)]
struct Words {
    wide: std::rc::Rc<PanelState>,
    log: Shared<state::Log>,
    now: logtime_core::Timestamp,
}

impl Words {
    fn of(view: &std::rc::Rc<PanelState>, st: &Explorer) -> Words {
        Words {
            wide: view.clone(),
            log: st.log.clone(),
            now: st.replay.now(),
        }
    }
}

/// The page clock (ms) in the browser; off it, no clock (0).
fn page_ms() -> f64 {
    #[cfg(target_arch = "wasm32")]
    return js_sys::Date::now();
    #[cfg(not(target_arch = "wasm32"))]
    0.0
}

/// The explorer.
#[function_component(App)]
pub fn app(props: &AppProps) -> Html {
    let opts = &props.options;
    let state = use_reducer(Explorer::default);
    let source = use_state(|| opts.source.clone());
    let prefs = use_state(media);
    let (reduced_motion, system_dark) = *prefs;
    let dark = match opts.theme {
        Theme::Dark => true,
        Theme::Light => false,
        Theme::Auto => system_dark,
    };
    let tokens = use_mut_ref(|| 0u64);
    // The moment the next load rebuilds (the page's, then the one a history entry names).
    let restore_next = use_mut_ref(|| Some(restore_of(opts)));
    let packed = use_state(|| None::<(usize, String)>);
    let link = use_state(|| None::<(AttrValue, bool)>);
    let last_url = use_mut_ref(String::new);
    // When the URL was last written (page clock, ms).
    let written_at = use_mut_ref(|| f64::NEG_INFINITY);
    // follow theme / motion changes while the page is open
    {
        let prefs = prefs.clone();
        use_effect_with((), move |_| {
            #[cfg(target_arch = "wasm32")]
            let keep = {
                use wasm_bindgen::closure::Closure;
                use wasm_bindgen::JsCast;
                let cb = Closure::<dyn Fn()>::new(move || prefs.set(media()));
                let lists: Vec<web_sys::MediaQueryList> = [
                    "(prefers-color-scheme: dark)",
                    "(prefers-reduced-motion: reduce)",
                ]
                .iter()
                .filter_map(|q| web_sys::window()?.match_media(q).ok().flatten())
                .collect();
                for l in &lists {
                    let _ =
                        l.add_event_listener_with_callback("change", cb.as_ref().unchecked_ref());
                }
                (cb, lists)
            };
            #[cfg(not(target_arch = "wasm32"))]
            let _ = prefs;
            move || {
                #[cfg(target_arch = "wasm32")]
                {
                    use wasm_bindgen::JsCast;
                    let (cb, lists) = keep;
                    for l in &lists {
                        let _ = l.remove_event_listener_with_callback(
                            "change",
                            cb.as_ref().unchecked_ref(),
                        );
                    }
                }
            }
        });
    }

    // the host changed the options: follow them (a new source, or a new moment of it; other
    // options, such as panels, leave the moment and the reader's actions alone)
    {
        let source = source.clone();
        let restore_next = restore_next.clone();
        let asked = use_mut_ref(|| restore_of(opts));
        let d = state.dispatcher();
        use_effect_with(opts.clone(), move |o| {
            let restore = restore_of(o);
            let changed = *asked.borrow() != restore;
            *asked.borrow_mut() = restore.clone();
            if *source != o.source {
                *restore_next.borrow_mut() = Some(restore);
                source.set(o.source.clone());
            } else if changed && o.restores() {
                d.dispatch(Action::Restore(restore));
            }
        });
    }
    // load whenever the source changes; the last choice wins
    {
        let d = state.dispatcher();
        let tokens = tokens.clone();
        let restore_next = restore_next.clone();
        use_effect_with(
            ((*source).clone(), opts.mode, opts.seed),
            move |(s, mode, seed)| {
                d.dispatch(Action::Want(*mode, *seed));
                let token = {
                    let mut t = tokens.borrow_mut();
                    *t += 1;
                    *t
                };
                let restore = restore_next.borrow_mut().take().unwrap_or_default();
                load(s, token, restore, d);
            },
        );
    }
    let root_ref = use_node_ref();
    // an inline scenario is packed once for links
    {
        let packed = packed.clone();
        let text = state.replay.source.clone();
        let inline = matches!(&*source, ScenarioSource::Inline(_)) && !text.is_empty();
        use_effect_with((text, inline), move |(text, inline)| {
            if *inline {
                let text = text.clone();
                wasm_bindgen_futures::spawn_local(async move {
                    if let Ok(z) = crate::glue::pack(&text).await {
                        packed.set(Some((text.len(), z)));
                    }
                });
            }
        });
    }
    let packed_z = packed
        .as_ref()
        .filter(|(n, _)| *n == state.replay.source.len())
        .map(|(_, z)| z.clone());
    // A scenario too large to carry in a link (an imported partition) is refused with a reason.
    let link_refused = packed_z
        .as_ref()
        .and_then(|z| import::link_refusal(z.len()));
    let packed_z = packed_z.filter(|_| link_refused.is_none());
    // The link to this moment, for the standalone page's URL and the copy button.
    let moment_query = {
        let replay = &state.replay;
        let view = if opts.context == Context::Standalone {
            view_params(opts)
        } else {
            Vec::new()
        };
        // The pick names the packed form of an inline scenario only when it is the one shown.
        let picked = match (&*source, &*replay.origin) {
            (ScenarioSource::Inline(j), Source::Inline(t)) if j == t => {
                source_param(&source, packed_z.as_ref())
            }
            (ScenarioSource::Packed(_), Source::Inline(_)) => {
                source_param(&source, packed_z.as_ref())
            }
            _ => None,
        };
        // A lesson's link keeps the mode and variant it is played in (every load takes them).
        let mut view = view;
        if replay.is_lesson() && opts.context == Context::Standalone {
            let (mode, seed) = state.wanted;
            let mut own: Vec<(&'static str, String)> = Vec::new();
            if let Some(m) = mode {
                own.push(("mode", m.name().to_string()));
            }
            if let Some(s) = seed {
                own.push(("seed", s.to_string()));
            }
            own.append(&mut view);
            view = own;
        }
        // A half-rebuilt journal is no moment to link to (or to put in the history).
        if replay.error.is_none() && replay.notice.is_none() && state.rebuild.is_none() {
            shown_query(
                &replay.origin,
                picked,
                replay.journal().as_deref(),
                replay.lesson_opened_at(),
                &replay.source,
                &view,
            )
        } else {
            None
        }
    };
    // standalone: the URL always holds the moment; each change is a history entry (playback
    // replaces it instead, at most once a second: a history write costs milliseconds, and
    // pausing writes the moment stopped at)
    {
        let last_url = last_url.clone();
        let written_at = written_at.clone();
        let standalone = opts.context == Context::Standalone;
        let playing = state.playback.playing;
        let refused = link_refused.is_some();
        use_effect_with(
            (moment_query.clone(), refused, playing),
            move |(q, refused, _)| {
                #[cfg(target_arch = "wasm32")]
                if let (true, true, Some(w)) = (standalone, *refused, web_sys::window()) {
                    let path = w.location().pathname().unwrap_or_default();
                    if let Ok(h) = w.history() {
                        let _ =
                            h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&path));
                    }
                    *last_url.borrow_mut() = String::new();
                }
                #[cfg(target_arch = "wasm32")]
                let due = {
                    let now = js_sys::Date::now();
                    let due = timeline::url_due(playing, *written_at.borrow(), now);
                    if due {
                        *written_at.borrow_mut() = now;
                    }
                    due
                };
                #[cfg(target_arch = "wasm32")]
                if let (true, true, Some(q)) = (standalone, due, q) {
                    if let Some(w) = web_sys::window() {
                        let here = w.location().search().unwrap_or_default();
                        let first = last_url.borrow().is_empty();
                        // In an iframe a history entry would be the host page's too: its Back
                        // button would step the explorer instead of leaving the page.
                        let framed = w.parent().ok().flatten().is_some_and(|p| p != w);
                        if *q != here {
                            if let Ok(h) = w.history() {
                                let _ = if first || playing || framed {
                                    h.replace_state_with_url(
                                        &wasm_bindgen::JsValue::NULL,
                                        "",
                                        Some(q),
                                    )
                                } else {
                                    h.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(q))
                                };
                            }
                        }
                        *last_url.borrow_mut() = q.clone();
                    }
                }
                #[cfg(not(target_arch = "wasm32"))]
                let _ = (standalone, playing, q, refused, last_url, written_at);
            },
        );
    }
    // standalone: back and forward rebuild the moment the URL names
    {
        let d = state.dispatcher();
        let source = source.clone();
        let restore_next = restore_next.clone();
        let last_url = last_url.clone();
        let standalone = opts.context == Context::Standalone;
        use_effect_with(
            ((*source).clone(), standalone),
            move |(current, standalone)| {
                #[cfg(target_arch = "wasm32")]
                let keep = standalone.then(|| {
                    use wasm_bindgen::closure::Closure;
                    use wasm_bindgen::JsCast;
                    let current = current.clone();
                    let cb = Closure::<dyn Fn()>::new(move || {
                        let Ok(o) = crate::page_options() else { return };
                        let search = web_sys::window()
                            .and_then(|w| w.location().search().ok())
                            .unwrap_or_default();
                        *last_url.borrow_mut() = search;
                        if o.source == current {
                            d.dispatch(Action::Restore(restore_of(&o)));
                        } else {
                            *restore_next.borrow_mut() = Some(restore_of(&o));
                            source.set(o.source);
                        }
                    });
                    let w = web_sys::window().expect("a window");
                    let _ =
                        w.add_event_listener_with_callback("popstate", cb.as_ref().unchecked_ref());
                    cb
                });
                #[cfg(not(target_arch = "wasm32"))]
                let _ = (current, standalone, d, source, restore_next, last_url);
                move || {
                    #[cfg(target_arch = "wasm32")]
                    if let (Some(cb), Some(w)) = (keep, web_sys::window()) {
                        use wasm_bindgen::JsCast;
                        let _ = w.remove_event_listener_with_callback(
                            "popstate",
                            cb.as_ref().unchecked_ref(),
                        );
                    }
                }
            },
        );
    }
    // embedded: leaving the page with the reader's actions asks first (the standalone page
    // keeps them in its URL)
    {
        let acted = state
            .replay
            .journal()
            .is_some_and(|j| j.actions().next().is_some());
        let guard = acted && opts.context == Context::Embed;
        use_effect_with(guard, move |guard| {
            #[cfg(target_arch = "wasm32")]
            let keep = guard.then(|| {
                use wasm_bindgen::closure::Closure;
                use wasm_bindgen::JsCast;
                let cb = Closure::<dyn Fn(web_sys::BeforeUnloadEvent)>::new(
                    |e: web_sys::BeforeUnloadEvent| {
                        e.prevent_default();
                        e.set_return_value("Your actions in the Logtime explorer will be lost.");
                    },
                );
                if let Some(w) = web_sys::window() {
                    let _ = w.add_event_listener_with_callback(
                        "beforeunload",
                        cb.as_ref().unchecked_ref(),
                    );
                }
                cb
            });
            #[cfg(not(target_arch = "wasm32"))]
            let _ = guard;
            move || {
                #[cfg(target_arch = "wasm32")]
                if let (Some(cb), Some(w)) = (keep, web_sys::window()) {
                    use wasm_bindgen::JsCast;
                    let _ = w.remove_event_listener_with_callback(
                        "beforeunload",
                        cb.as_ref().unchecked_ref(),
                    );
                }
            }
        });
    }
    // once a scenario is on screen, the busy code of a play runs once at idle moments
    // (`warm`: the first play of a big scenario would otherwise compile it in its first frames)
    use_effect_with(state.replay.is_loaded(), |loaded| {
        if *loaded {
            crate::warm::start();
        }
    });
    // playback at animation frames (outside the reducer): the steps due in a frame are one
    // action and one render
    {
        let d = state.dispatcher();
        let playback = state.playback;
        use_effect_with(
            (playback.playing, playback.speed),
            move |(playing, speed)| {
                let timer = playing.then(|| {
                    crate::glue::play_frames(*speed, timeline::most_per_frame(*speed), move |n| {
                        d.dispatch(Action::Steps(n as usize))
                    })
                });
                move || drop(timer)
            },
        );
    }
    // a long rebuild: the next chunk once the browser has drawn this one, sized so that a
    // chunk takes about `timeline::CHUNK_MS` (timed here, outside the reducer)
    {
        let d = state.dispatcher();
        let budget = use_mut_ref(|| state::REBUILD_CHUNK_RECORDS);
        let chunk = state.rebuild.as_ref().map(|r| r.chunks);
        use_effect_with(chunk, move |chunk| {
            let timer = chunk.map(|_| {
                gloo_timers::callback::Timeout::new(0, move || {
                    let records = *budget.borrow();
                    let start = js_sys::Date::now();
                    d.dispatch(Action::RebuildChunk(records));
                    let ms = js_sys::Date::now() - start;
                    *budget.borrow_mut() = timeline::next_chunk(records, ms);
                })
            });
            move || drop(timer)
        });
    }
    // lookup and retention walk animation
    {
        let d = state.dispatcher();
        use_effect_with(
            (state.lookup.rev, state.retention.rev, state.playback.speed),
            move |(_, _, speed)| {
                let timer = if reduced_motion {
                    d.dispatch(Action::WalkFinish);
                    None
                } else {
                    let delay = timeline::walk_delay_ms(false, *speed);
                    Some(gloo_timers::callback::Interval::new(delay, move || {
                        d.dispatch(Action::WalkTick)
                    }))
                };
                move || drop(timer)
            },
        );
    }
    let on_action = use_callback(state.dispatcher(), |a: Action, d| d.dispatch(a));
    let on_viewport = use_callback(state.dispatcher(), |v, d| {
        d.dispatch(Action::SetViewport(v))
    });
    let on_lookup = use_callback(state.dispatcher(), |spec, d| {
        d.dispatch(Action::Lookup(spec))
    });
    let on_send = use_callback(state.dispatcher(), |b, d| d.dispatch(Action::Produce(b)));

    let onkeydown = {
        let d = state.dispatcher();
        let speed = state.playback.speed;
        Callback::from(move |e: KeyboardEvent| {
            use wasm_bindgen::JsCast;
            let tag = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                .map(|el| el.tag_name().to_ascii_lowercase())
                .unwrap_or_default();
            if matches!(
                tag.as_str(),
                "input" | "select" | "textarea" | "button" | "summary"
            ) && e.key() != "Escape"
            {
                // let form controls keep their keys (space on a button presses it)
                if !(tag == "button" && (e.key() == "ArrowLeft" || e.key() == "ArrowRight")) {
                    return;
                }
            }
            let action = match e.key().as_str() {
                " " | "k" => Some(Action::TogglePlay),
                "ArrowRight" | "l" => Some(Action::Step),
                "ArrowLeft" | "j" => Some(Action::Back),
                "+" | "=" => Some(Action::SetSpeed(timeline::next_speed(speed, true))),
                "-" | "_" => Some(Action::SetSpeed(timeline::next_speed(speed, false))),
                _ => None,
            };
            if let Some(a) = action {
                e.prevent_default();
                d.dispatch(a);
            }
        })
    };
    let on_pick = {
        let source = source.clone();
        let d = state.dispatcher();
        let undone = state.actions();
        Callback::from(move |name: String| {
            if name.is_empty() {
                return;
            }
            if undone.is_empty() {
                source.set(ScenarioSource::Builtin(name));
            } else {
                d.dispatch(Action::Ask(Pending::Switch {
                    name,
                    undone: undone.clone(),
                }));
            }
        })
    };
    let on_confirm = {
        let source = source.clone();
        let d = state.dispatcher();
        let pending = state.pending.clone();
        Callback::from(move |()| match &pending {
            Some(Pending::Switch { name, .. }) => {
                d.dispatch(Action::Dismiss);
                source.set(ScenarioSource::Builtin(name.clone()));
            }
            _ => d.dispatch(Action::Confirm),
        })
    };
    // Imports: the running one's worker (dropping it stops the worker: a cancel, or a newer
    // import superseding it).
    let import_worker = use_mut_ref(|| None::<crate::glue::Worker>);
    let import_jobs = use_mut_ref(|| 0u64);
    let on_import = {
        let d = state.dispatcher();
        let load = {
            let source = source.clone();
            Callback::from(move |json: String| source.set(ScenarioSource::Inline(json)))
        };
        Callback::from(move |req: ImportRequest| {
            let job = {
                let mut n = import_jobs.borrow_mut();
                *n += 1;
                *n
            };
            let (files, paste, rules, now) = match req {
                ImportRequest::Cancel => {
                    import_worker.borrow_mut().take();
                    d.dispatch(Action::ImportCancel);
                    return;
                }
                ImportRequest::Paste(text, rules, now) => {
                    (Default::default(), Some(text), rules, now)
                }
                ImportRequest::Files(files, rules, now) => (files, None, rules, now),
            };
            let w = crate::importer::start(files, paste, rules, now, job, d.clone(), load.clone());
            *import_worker.borrow_mut() = Some(w);
        })
    };
    let on_dismiss = use_callback(state.dispatcher(), |(), d| d.dispatch(Action::Dismiss));
    let on_cancel_rebuild = use_callback(state.dispatcher(), |(), d| {
        d.dispatch(Action::CancelRebuild)
    });
    let on_copy = {
        let link = link.clone();
        let query = moment_query.clone();
        let refused = link_refused.clone();
        let page = match opts.context {
            Context::Standalone => None,
            Context::Embed => Some(opts.page.clone().unwrap_or_else(|| "index.html".into())),
        };
        Callback::from(move |()| {
            if let Some(r) = &refused {
                link.set(Some((AttrValue::from(r.clone()), false)));
                return;
            }
            let Some(q) = &query else { return };
            let url = match &page {
                None => absolute(q),
                Some(p) => {
                    let base = absolute(p);
                    let base = base
                        .split(['?', '#'])
                        .next()
                        .unwrap_or_default()
                        .to_string();
                    format!("{base}{q}")
                }
            };
            let link = link.clone();
            wasm_bindgen_futures::spawn_local(async move {
                let copied = crate::glue::copy_text(&url).await;
                link.set(Some((AttrValue::from(url), copied)));
            });
        })
    };
    let current = match &*source {
        ScenarioSource::Builtin(n) => Some(AttrValue::from(n.clone())),
        _ => None,
    };
    let on_inspect = use_callback(state.dispatcher(), |i, d| {
        d.dispatch(Action::Inspect(Some(i)))
    });
    let on_pick_answer = use_callback(state.dispatcher(), |o, d| d.dispatch(Action::Select(o)));
    // a lesson's progress on this device, by its built-in name (or title)
    let progress_key = progress::key(
        current
            .as_deref()
            .unwrap_or_else(|| state.replay.title.as_ref()),
    );
    let best = use_state(|| None::<Progress>);
    {
        let best = best.clone();
        use_effect_with(progress_key.clone(), move |k| {
            best.set(crate::glue::progress_get(k).and_then(|t| Progress::parse(&t)));
        });
    }
    {
        let best = best.clone();
        let card = state.lesson.card.clone();
        let finished = state.lesson.finished && card.as_ref().is_some_and(|c| !c.items.is_empty());
        use_effect_with((progress_key.clone(), finished), move |(k, finished)| {
            if let (true, Some(card)) = (*finished, card) {
                let (got, max) = card.total();
                let before = crate::glue::progress_get(k)
                    .and_then(|t| Progress::parse(&t))
                    .unwrap_or_default();
                let now = before.finished(got, max);
                crate::glue::progress_set(k, Some(now.to_text()));
                best.set(Some(now));
            }
        });
    }
    let best_text = best.map(|b| AttrValue::from(b.describe()));
    let on_reset_progress = {
        let best = best.clone();
        let k = progress_key.clone();
        Callback::from(move |()| {
            crate::glue::progress_set(&k, None);
            best.set(None);
        })
    };
    let copied = use_state(|| None::<bool>);
    let on_copy_summary = {
        let copied = copied.clone();
        Callback::from(move |text: String| {
            let copied = copied.clone();
            wasm_bindgen_futures::spawn_local(async move {
                copied.set(Some(crate::glue::copy_text(&text).await));
            });
        })
    };
    let on_new_variant = {
        let d = state.dispatcher();
        let seed = state.lesson.seed;
        let copied = copied.clone();
        Callback::from(move |()| {
            copied.set(None);
            // a fresh seed, never the one in use
            let mut next = (crate::components::random() * 1e9) as u64;
            if Some(next) == seed {
                next += 1;
            }
            d.dispatch(Action::LessonRestart(Some(next)));
        })
    };
    let st = &*state;
    let replay = &st.replay;
    // While a rebuild runs, the panels keep what they showed once its first chunk had run: the
    // partition part way through a rebuild is not a moment to read, and redrawing a million
    // segments after every chunk would cost as much as the chunk. The rebuild bar and the clock
    // show its progress; the panels catch up when it ends.
    let frozen = use_mut_ref(|| None::<std::rc::Rc<PanelState>>);
    let view = {
        let mut f = frozen.borrow_mut();
        match &st.rebuild {
            None => {
                *f = None;
                std::rc::Rc::new(PanelState::of(st))
            }
            Some(_) => f
                .get_or_insert_with(|| std::rc::Rc::new(PanelState::of(st)))
                .clone(),
        }
    };
    // While playback runs fast, the panels' words (figures, segment chips, narration) catch up
    // with the moment ten times a second, the partition's column and the narration's in turns;
    // the canvases and the clock bar show every frame. A panel whose props did not change is
    // not rendered again, so a frame lays out a clock instead of every panel.
    let words = use_mut_ref(|| None::<Words>);
    let refresh = use_mut_ref(timeline::TextRefresh::default);
    let lagging =
        timeline::text_lags(st.playback.playing, st.playback.speed) && st.rebuild.is_none();
    let (wide_due, side_due) = refresh.borrow_mut().due(lagging, page_ms());
    let words = {
        let mut w = words.borrow_mut();
        let w = w.get_or_insert_with(|| Words::of(&view, st));
        if wide_due {
            w.wide = view.clone();
        }
        if side_due {
            w.log = st.log.clone();
            w.now = st.replay.now();
        }
        w.clone()
    };
    let text = &words.wide;
    // A built-in's title is known before its file arrives (and when it could not).
    let builtin = current.as_deref().and_then(builtins::find);
    let title = if let Some(b) = builtin.filter(|_| replay.loading) {
        AttrValue::from(format!("Loading “{}”…", b.title))
    } else if let Some(b) = builtin.filter(|_| replay.title.is_empty()) {
        AttrValue::from(b.title)
    } else if replay.loading && replay.title.is_empty() {
        AttrValue::from("Loading scenario…")
    } else {
        AttrValue::from(replay.title.to_string())
    };
    let runner = replay.runner();
    let clock = Clock {
        now: replay.now(),
        done: replay.done,
        total: replay.total,
        playing: st.playback.playing,
        speed: st.playback.speed,
        records: replay.record_count(),
        // While the next scenario loads, the one shown is not to be played with.
        loaded: runner.is_some() && !replay.loading,
    };
    let config = runner.as_ref().map(|r| r.partition().config().clone());
    let panels = match (opts.panels, opts.context, &runner) {
        (Some(p), _, _) => p,
        (None, Context::Standalone, _) => Panels::ALL,
        (None, Context::Embed, Some(r)) => options::default_embed_panels(r.scenario()),
        (None, Context::Embed, None) => Panels::of(&[Panel::Partition, Panel::Log]),
    };
    drop(runner);
    let show = |p: Panel| panels.has(p);
    let lesson_on = replay.is_lesson() && st.lesson.mode.is_some();
    let lv = &st.lesson;
    let hidden = if lesson_on {
        lv.hidden
    } else {
        logtime_core::lesson::Affordances::NONE
    };
    // What a lesson hides is hidden from the words and the canvases alike.
    let shown = |v: &PanelState| {
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
    };
    let (retention_shown, lookup_shown) = shown(text);
    let (retention_live, lookup_live) = shown(&view);
    let density = LiveDensity {
        replay: view.replay.clone(),
        lookup: lookup_live.clone(),
        retention: retention_live,
        viewport: view.viewport,
    };
    let lesson_marks = lesson_on.then(|| {
        let (segments, ranges, _) = lv.highlights();
        let open = lv.open();
        LessonMarks {
            segments,
            ranges,
            picked: lv.selection.clone(),
            picks_segments: open.is_some_and(|i| i.takes.picks_segments()),
            picks_records: open.is_some_and(|i| i.takes.picks_records()),
            hide_pinned: hidden.contains(Affordance::PinnedBadges)
                || hidden.contains(Affordance::Verdicts),
        }
    });
    let config_highlight = if lesson_on {
        lv.highlights().2
    } else {
        Vec::new()
    };
    let presenter = lesson_on && lv.mode == Some(Mode::Presenter);
    let side = show(Panel::Log) || show(Panel::Producer) || show(Panel::Config) || lesson_on;
    let wide = show(Panel::Partition)
        || show(Panel::Retention)
        || show(Panel::Lookup)
        || show(Panel::Chart)
        || show(Panel::Disk);
    let single = !(side && wide);
    html! {
        // One landmark per explorer, named by its scenario (the panels inside are groups, so
        // several explorers on a page do not repeat landmark names).
        <div ref={root_ref} class={classes!("lt-app", reduced_motion.then_some("reduced-motion"), lesson_on.then_some("lt-lesson-mode"), presenter.then_some("lt-presenter"))} onkeydown={onkeydown} tabindex="-1"
             data-panels={panels.names()} role="region" aria-label={format!("Logtime explorer: {title}")}
             aria-busy={replay.loading.then_some("true")}>
            <ScenarioMenu current={current} title={title.clone()} description={AttrValue::from(replay.description.to_string())} on_pick={on_pick} menu={opts.menu}
                          describe={opts.context == Context::Standalone} />
            if let Some(e) = &replay.error {
                <ErrorBox title="This scenario could not be shown" detail={e.clone()}
                          hint={Some(AttrValue::from(if opts.menu { "Pick a built-in scenario from the menu, or fix the scenario and reload." } else { "Fix the scenario and reload the page." }))} />
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
                <ConfirmBar pending={p.clone()} standalone={opts.context == Context::Standalone} {on_confirm} {on_dismiss} />
            }
            if show(Panel::Import) {
                <ImportPanel state={st.import.clone()} replay={replay.clone()} {on_import} on_action={on_action.clone()} />
            }
            if !lesson_on {
                <ClockBar {clock} on_action={on_action.clone()} {on_copy} link={(*link).clone()} />
            }
            <div class={classes!("lt-main", single.then_some("lt-single"))}>
                if wide {
                <div class="lt-col-wide">
                    if show(Panel::Partition) {
                        <ContextProvider<LiveDensity> context={density}>
                        <PartitionView replay={text.replay.clone()} marks={text.marks.clone()} lookup={lookup_shown.clone()}
                                       retention={retention_shown.clone()} viewport={text.viewport} {reduced_motion} {dark} {on_viewport}
                                       lesson={lesson_marks.clone()} on_inspect={on_inspect.clone()} on_pick={on_pick_answer.clone()} />
                        </ContextProvider<LiveDensity>>
                        if replay.stream.is_some() {
                            <StreamLane replay={view.replay.clone()} hidden={hidden.contains(Affordance::StreamVerdicts)} {reduced_motion} {dark} />
                        }
                    }
                    if let Some(i) = st.inspect {
                        <DetailsPanel inspect={i} replay={text.replay.clone()} lookup={lookup_shown.clone()} on_action={on_action.clone()} />
                    }
                    if show(Panel::Retention) || show(Panel::Lookup) {
                    <div class="lt-grid-2">
                        if show(Panel::Retention) {
                            <RetentionPanel replay={text.replay.clone()} state={retention_shown.clone()} {reduced_motion} on_action={on_action.clone()}
                                            remedies={!hidden.contains(Affordance::Remedies)} />
                        }
                        if show(Panel::Lookup) {
                            <LookupPanel replay={text.replay.clone()} state={lookup_shown.clone()} {reduced_motion} {on_lookup} on_inspect={on_inspect.clone()} />
                        }
                    </div>
                    }
                    if show(Panel::Chart) || show(Panel::Disk) {
                    <div class="lt-grid-2">
                        if show(Panel::Chart) {
                            <TimestampChart replay={view.replay.clone()} lookup={lookup_live} {dark} />
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
                        <LessonPane view={st.lesson.clone()} now={clock.now} playing={st.playback.playing} best={best_text}
                                    copied={*copied} on_action={on_action.clone()} on_copy={on_copy_summary} on_reset={on_reset_progress}
                                    on_new_variant={on_new_variant} />
                    }
                    if show(Panel::Log) { <LiveRegion log={words.log.clone()} /> }
                    if show(Panel::Producer) {
                        <ProducerPanel now={words.now} loaded={clock.loaded} state={st.producer.clone()} {reduced_motion} {on_send} />
                    }
                    if show(Panel::Config) { <ConfigPanel {config} state={st.config.clone()} {on_action} highlight={config_highlight} /> }
                </div>
                }
            </div>
            if opts.context == Context::Standalone && lesson_on {
                <p class="lt-keys lt-muted">{ "Keys: → next · ← back · space play/pause · Tab to a record or segment, Enter for its details (and to pick it in a question)" }</p>
            } else if opts.context == Context::Standalone {
                <p class="lt-keys lt-muted">{ "Keys: space play/pause · → step · ← step back · + / − speed · Enter on a record or segment for its details" }</p>
            }
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use logtime_core::scenario::{Entry, Journal};

    fn journal(source: Source, steps: usize) -> Journal {
        Journal {
            source,
            entries: vec![Entry::Step; steps],
        }
    }

    #[test]
    fn the_link_names_what_is_shown() {
        let view = [("theme", "dark".to_string())];
        let shown = Source::Builtin("lookup-scan".into());
        let j = journal(shown.clone(), 2);
        assert_eq!(
            shown_query(&shown, None, Some(&j), None, "{}", &view).as_deref(),
            Some("?scenario=lookup-scan&step=2&theme=dark")
        );
        // A lesson has no journal: its link names it alone, with no step, or the step a link
        // opened it at.
        let lesson = Source::Builtin("future-walkthrough".into());
        assert_eq!(
            shown_query(&lesson, None, None, Some(None), "{}", &view).as_deref(),
            Some("?scenario=future-walkthrough&theme=dark")
        );
        assert_eq!(
            shown_query(&lesson, None, None, Some(Some(3)), "{}", &[]).as_deref(),
            Some("?scenario=future-walkthrough&step=3")
        );
        // Nothing loaded (or handed over, still loading): no link.
        assert_eq!(shown_query(&lesson, None, None, None, "{}", &view), None);
        // An inline scenario waits for its packed form.
        let inline = Source::Inline("{}".into());
        let j = journal(inline.clone(), 1);
        assert_eq!(shown_query(&inline, None, Some(&j), None, "{}", &[]), None);
        assert_eq!(
            shown_query(
                &inline,
                Some(SourceParam::Packed("abc".into())),
                Some(&j),
                None,
                "{}",
                &[]
            )
            .as_deref(),
            Some("?z=abc&step=1")
        );
        // A pick still loading cannot name an inline origin.
        assert_eq!(
            shown_query(
                &inline,
                Some(SourceParam::Builtin("lookup-scan".into())),
                Some(&j),
                None,
                "{}",
                &[]
            ),
            None
        );
    }
}
