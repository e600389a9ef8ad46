//! The broker clock, playback controls and the scrubber over the scenario's steps.

use logtime_core::human;
use logtime_model::Timestamp;
use yew::prelude::*;

use crate::author::PickPanel;
use logtime_core::scenario::narrate::Panel;

use crate::hooks::PictureAction;

use super::input_value;
use crate::model::{format, timeline};
use crate::state::TransportAction;

/// What the clock bar shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// The broker clock.
    pub now: Timestamp,
    /// Steps run.
    pub done: usize,
    /// Steps in the scenario.
    pub total: usize,
    /// Playing.
    pub playing: bool,
    /// Steps per second.
    pub speed: u32,
    /// Records in the partition.
    pub records: u64,
    /// A scenario is loaded.
    pub loaded: bool,
}

/// The clock bar's props.
#[derive(Properties, PartialEq, Clone)]
pub struct ClockBarProps {
    /// What it shows.
    pub clock: Clock,
    /// Playback: step, back, play, speed, the scrubber.
    pub on_transport: Callback<TransportAction>,
    /// Move the broker clock forward by this many ms.
    pub on_advance: Callback<i64>,
    /// "Copy link to this moment".
    pub on_copy: Callback<()>,
    /// "Save as a file": the loaded scenario or lesson, written for people.
    pub on_save: Callback<()>,
    /// The last link made, and whether it went to the clipboard.
    #[prop_or_default]
    pub link: Option<(AttrValue, bool)>,
    /// "Save picture" (SVG, PNG) and "Copy picture".
    #[prop_or_default]
    pub on_picture: Callback<PictureAction>,
    /// How the last picture went.
    #[prop_or_default]
    pub picture: Option<AttrValue>,
    /// In an embed: the link, file and picture buttons fold behind one "Share" toggle, so the
    /// bar keeps to two rows in a narrow column.
    #[prop_or_default]
    pub compact: bool,
}

/// The broker clock, playback controls and the scrubber over the scenario's steps.
#[function_component(ClockBar)]
pub fn clock_bar(p: &ClockBarProps) -> Html {
    let c = p.clock;
    let sid = super::use_uid("lt-speed");
    let scrub_id = super::use_uid("lt-scrub");
    let moment_id = super::use_uid("lt-moment");
    let share_open = use_state(|| false);
    let on_share = {
        let open = share_open.clone();
        Callback::from(move |_: MouseEvent| open.set(!*open))
    };
    let moment_shown = !p.compact || *share_open;
    let now = c.now.0;
    let on = |a: TransportAction| {
        let cb = p.on_transport.clone();
        Callback::from(move |_: MouseEvent| cb.emit(a.clone()))
    };
    let advance = |ms: i64| p.on_advance.reform(move |_: MouseEvent| ms);
    let on_speed = {
        let cb = p.on_transport.clone();
        Callback::from(move |e: Event| {
            if let Ok(v) = input_value(&e).parse::<u32>() {
                cb.emit(TransportAction::SetSpeed(v));
            }
        })
    };
    let on_scrub = {
        let cb = p.on_transport.clone();
        let total = c.total;
        Callback::from(move |e: Event| {
            // Range inputs report integers; parsing as an integer keeps float parsing out of the wasm.
            let v = input_value(&e).trim().parse::<i64>().unwrap_or(0) as f64;
            cb.emit(TransportAction::Seek(timeline::scrub_to_step(v, total)));
        })
    };
    let disabled = !c.loaded;
    let at_end = c.done >= c.total;
    let on_copy = {
        let cb = p.on_copy.clone();
        Callback::from(move |_: MouseEvent| cb.emit(()))
    };
    let on_save = {
        let cb = p.on_save.clone();
        Callback::from(move |_: MouseEvent| cb.emit(()))
    };
    let link_id = super::use_uid("lt-link");
    html! {
        <section role="group" class="lt-clockbar" aria-label="Broker clock and playback" data-panel="clock">
            <PickPanel panel={Panel::Clock} only_picking=true>{ "Clock" }</PickPanel>
            <div class="lt-clock" data-testid="clock" aria-label="Broker clock">
                <span class="lt-clock-icon" aria-hidden="true">{ "◷" }</span>
                // No scenario yet (its file is on its way): no clock to show.
                if c.loaded {
                    <time datetime={human::rfc3339(now)}>{ human::date(now) }</time>
                    <span class="lt-muted">{ " UTC" }</span>
                } else {
                    <span class="lt-muted">{ "—" }</span>
                }
            </div>
            <div class="lt-transport" role="group" aria-label="Playback">
                <button type="button" class="lt-btn" onclick={on(TransportAction::Back)} disabled={disabled || c.done == 0}
                        title="Step back (←)" data-testid="step-back">{ "◀ Back" }</button>
                <button type="button" class="lt-btn lt-btn-primary" onclick={on(TransportAction::TogglePlay)} disabled={disabled}
                        title="Play or pause (space)" aria-pressed={if c.playing {"true"} else {"false"}} data-testid="play">
                    { if c.playing { "‖ Pause" } else if at_end && c.total > 0 { "↻ Replay" } else { "▶ Play" } }
                </button>
                <button type="button" class="lt-btn" onclick={on(TransportAction::Step)} disabled={disabled || at_end}
                        title="Step forward (→)" data-testid="step">{ "Step ▶" }</button>
                <label class="lt-speed" for={sid.clone()}>
                    <span>{ "Speed" }</span>
                    <select id={sid} onchange={on_speed} data-testid="speed">
                        { for timeline::SPEEDS.iter().map(|s| html!{
                            <option value={s.to_string()} selected={*s == c.speed}>{ format!("{s}×") }</option>
                        }) }
                    </select>
                </label>
            </div>
            if p.compact {
                <button type="button" class="lt-btn lt-btn-small lt-share" onclick={on_share}
                        aria-expanded={if *share_open {"true"} else {"false"}} aria-controls={moment_id.clone()}
                        title="Copy a link to this moment, save it as a file or as a picture" data-testid="share">
                    { if *share_open { "Share ▴" } else { "Share ▾" } }
                </button>
            }
            <div class="lt-scrub">
                <label for={scrub_id.clone()} class="lt-muted">
                    { format!("Step {} of {}", c.done, c.total) }
                </label>
                <input id={scrub_id} type="range" min="0" max={c.total.to_string()} step="1"
                       value={c.done.to_string()} onchange={on_scrub} disabled={disabled}
                       data-testid="scrubber" aria-valuetext={format!("step {} of {}", c.done, c.total)} />
            </div>
            <div class="lt-advance" role="group" aria-label="Move the broker clock">
                <span class="lt-muted">{ "Clock" }</span>
                <button type="button" class="lt-btn lt-btn-small" onclick={advance(60_000)} disabled={disabled}>{ "+1 min" }</button>
                <button type="button" class="lt-btn lt-btn-small" onclick={advance(3_600_000)} disabled={disabled}>{ "+1 h" }</button>
                <button type="button" class="lt-btn lt-btn-small" onclick={advance(86_400_000)} disabled={disabled}>{ "+1 d" }</button>
                <button type="button" class="lt-btn lt-btn-small" onclick={advance(7 * 86_400_000)} disabled={disabled}>{ "+7 d" }</button>
            </div>
            if moment_shown {
            <div class="lt-moment" id={moment_id}>
                <button type="button" class="lt-btn lt-btn-small" onclick={on_copy} disabled={disabled} data-testid="copy-link">
                    { "Copy link to this moment" }
                </button>
                <button type="button" class="lt-btn lt-btn-small" onclick={on_save} disabled={disabled} data-testid="save-file"
                        title="Download the scenario or lesson as a file you can read, edit and drop here again">
                    { "Save as a file" }
                </button>
                { picture_buttons(&p.on_picture, disabled, p.picture.as_ref()) }
                if let Some((url, copied)) = &p.link {
                    <label class="lt-visually-hidden" for={link_id.clone()}>{ "Link to this moment" }</label>
                    <input id={link_id} readonly=true value={url.clone()} data-testid="moment-link" />
                    <span class="lt-muted" role="status">{ if *copied { "Copied." } else { "Copy it from here." } }</span>
                }
            </div>
            }
            <p class="lt-progress lt-muted" aria-hidden="true">
                { format!("{}%", timeline::progress_percent(c.done, c.total)) }
                { " · " }{ format::count_of(c.records as i64, "record", "records") }
            </p>
        </section>
    }
}

/// "Save picture (SVG)", "PNG" and "Copy picture", and how the last one went: in the clock bar,
/// and in the lesson pane's place when a lesson hides the clock bar.
pub fn picture_buttons(
    on_picture: &Callback<PictureAction>,
    disabled: bool,
    said: Option<&AttrValue>,
) -> Html {
    let picture = |a: PictureAction| on_picture.reform(move |_: MouseEvent| a);
    html! {
        <>
            <span class="lt-picture" role="group" aria-label="Picture of this moment">
                <button type="button" class="lt-btn lt-btn-small" onclick={picture(PictureAction::SaveSvg)} disabled={disabled} data-testid="save-svg"
                        title="Save a picture of this moment (SVG: text stays text, and it carries the link)">{ "Save picture (SVG)" }</button>
                <button type="button" class="lt-btn lt-btn-small" onclick={picture(PictureAction::SavePng)} disabled={disabled} data-testid="save-png">{ "PNG" }</button>
                <button type="button" class="lt-btn lt-btn-small" onclick={picture(PictureAction::Copy)} disabled={disabled} data-testid="copy-picture">{ "Copy picture" }</button>
            </span>
            if let Some(said) = said {
                <span class="lt-muted" role="status" data-testid="picture-status">{ said.clone() }</span>
            }
        </>
    }
}
