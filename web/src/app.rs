//! The Logtime explorer: one independent instance per mount (all state lives in this
//! component's reducer; nothing is shared between instances except read-only built-ins).
//!
//! `App` takes `AppProps { scenario: ScenarioSource }`; `lib.rs` wraps it in
//! `<div class="logtime-root" data-testid="app-root">`. It owns the timers and media queries,
//! and hands each panel the part of the state it shows.

use yew::prelude::*;

use crate::builtins;
use crate::components::charts::{DiskChart, TimestampChart};
use crate::components::clock_bar::{Clock, ClockBar};
use crate::components::config_panel::ConfigPanel;
use crate::components::error_box::ErrorBox;
use crate::components::live_region::LiveRegion;
use crate::components::lookup_panel::LookupPanel;
use crate::components::partition_view::PartitionView;
use crate::components::producer_panel::ProducerPanel;
use crate::components::retention_panel::RetentionPanel;
use crate::components::scenario_menu::ScenarioMenu;
use crate::embed::ScenarioSource;
use crate::model::timeline;
use crate::state::{Action, Explorer};

/// The explorer's props.
#[derive(Properties, PartialEq, Clone, Default)]
pub struct AppProps {
    /// Which scenario to show, exactly as the host page gave it.
    #[prop_or_default]
    pub scenario: ScenarioSource,
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

/// Loads a scenario source into the reducer (fetching URLs).
fn load(source: &ScenarioSource, dispatch: UseReducerDispatcher<Explorer>) {
    match source {
        ScenarioSource::Builtin(name) => match builtins::find(name) {
            Some(json) => dispatch.dispatch(Action::Load(Ok(json.to_string()))),
            None => dispatch.dispatch(Action::Load(Err(format!(
                "scenario: unknown built-in scenario {name:?} (built-ins: {})",
                builtins::names()
            )))),
        },
        ScenarioSource::Inline(json) => dispatch.dispatch(Action::Load(Ok(json.clone()))),
        ScenarioSource::Url(url) => {
            dispatch.dispatch(Action::Loading);
            #[cfg(target_arch = "wasm32")]
            {
                let url = url.clone();
                wasm_bindgen_futures::spawn_local(async move {
                    let result = fetch_text(&url)
                        .await
                        .map_err(|e| format!("src: could not fetch {url}: {e}"));
                    dispatch.dispatch(Action::Load(result));
                });
            }
            #[cfg(not(target_arch = "wasm32"))]
            let _ = url;
        }
    }
}

#[cfg(target_arch = "wasm32")]
async fn fetch_text(url: &str) -> Result<String, String> {
    use wasm_bindgen::JsCast;
    use wasm_bindgen_futures::JsFuture;
    let w = web_sys::window().ok_or("no window")?;
    let resp = JsFuture::from(w.fetch_with_str(url))
        .await
        .map_err(|e| format!("{e:?}"))?;
    let resp: web_sys::Response = resp.dyn_into().map_err(|_| "not a response".to_string())?;
    if !resp.ok() {
        return Err(format!("HTTP {}", resp.status()));
    }
    let text = JsFuture::from(resp.text().map_err(|e| format!("{e:?}"))?)
        .await
        .map_err(|e| format!("{e:?}"))?;
    text.as_string()
        .ok_or_else(|| "response is not text".into())
}

/// The explorer.
#[function_component(App)]
pub fn app(props: &AppProps) -> Html {
    let state = use_reducer(Explorer::default);
    let source = use_state(|| props.scenario.clone());
    let prefs = use_state(media);
    let (reduced_motion, dark) = *prefs;
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

    // the host changed the prop: follow it
    {
        let source = source.clone();
        use_effect_with(props.scenario.clone(), move |s| {
            if *source != *s {
                source.set(s.clone());
            }
        });
    }
    // load whenever the source changes
    {
        let d = state.dispatcher();
        use_effect_with((*source).clone(), move |s| load(s, d));
    }
    // playback timer (outside the reducer)
    {
        let d = state.dispatcher();
        let playback = state.playback;
        use_effect_with(
            (playback.playing, playback.speed),
            move |(playing, speed)| {
                let timer = playing.then(|| {
                    gloo_timers::callback::Interval::new(timeline::tick_ms(*speed), move || {
                        d.dispatch(Action::Step)
                    })
                });
                move || drop(timer)
            },
        );
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
        Callback::from(move |name: String| {
            if !name.is_empty() {
                source.set(ScenarioSource::Builtin(name));
            }
        })
    };
    let current = match &*source {
        ScenarioSource::Builtin(n) => Some(AttrValue::from(n.clone())),
        _ => None,
    };
    let st = &*state;
    let replay = &st.replay;
    let title = if replay.loading && replay.title.is_empty() {
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
        loaded: runner.is_some(),
    };
    let config = runner.as_ref().map(|r| r.partition().config().clone());
    drop(runner);
    html! {
        <div class={classes!("lt-app", reduced_motion.then_some("reduced-motion"))} onkeydown={onkeydown} tabindex="-1">
            <ScenarioMenu current={current} title={title} description={AttrValue::from(replay.description.to_string())} on_pick={on_pick} />
            if let Some(e) = &replay.error {
                <ErrorBox title="This scenario could not be shown" detail={e.clone()}
                          hint={Some(AttrValue::from("Pick a built-in scenario from the menu, or fix the scenario and reload."))} />
            }
            <ClockBar {clock} on_action={on_action.clone()} />
            <div class="lt-main">
                <div class="lt-col-wide">
                    <PartitionView replay={replay.clone()} marks={st.marks.clone()} lookup={st.lookup.clone()}
                                   retention={st.retention.clone()} viewport={st.viewport} {reduced_motion} {dark} {on_viewport} />
                    <div class="lt-grid-2">
                        <RetentionPanel replay={replay.clone()} state={st.retention.clone()} {reduced_motion} on_action={on_action.clone()} />
                        <LookupPanel replay={replay.clone()} state={st.lookup.clone()} {reduced_motion} {on_lookup} />
                    </div>
                    <div class="lt-grid-2">
                        <TimestampChart replay={replay.clone()} lookup={st.lookup.clone()} {dark} />
                        <DiskChart disk={st.disk.clone()} {dark} />
                    </div>
                </div>
                <aside class="lt-col-side">
                    <LiveRegion log={st.log.clone()} />
                    <ProducerPanel now={clock.now} loaded={clock.loaded} state={st.producer.clone()} {reduced_motion} {on_send} />
                    <ConfigPanel {config} state={st.config.clone()} {on_action} />
                </aside>
            </div>
            <p class="lt-keys lt-muted">{ "Keys: space play/pause · → step · ← step back · + / − speed" }</p>
        </div>
    }
}
