use logtime_core::human;
use yew::prelude::*;

use super::{input_value, PanelProps};
use crate::app::model::{format, timeline};
use crate::app::state::Action;

/// The broker clock, playback controls and the scrubber over the scenario's steps.
#[function_component(ClockBar)]
pub fn clock_bar(p: &PanelProps) -> Html {
    let st = &*p.state;
    let d = p.state.dispatcher();
    let sid = super::use_uid("lt-speed");
    let scrub_id = super::use_uid("lt-scrub");
    let now = st.now();
    let on = |a: Action| {
        let d = d.clone();
        Callback::from(move |_: MouseEvent| d.dispatch(a.clone()))
    };
    let on_speed = {
        let d = d.clone();
        Callback::from(move |e: Event| {
            if let Ok(v) = input_value(&e).parse::<u32>() {
                d.dispatch(Action::SetSpeed(v));
            }
        })
    };
    let on_scrub = {
        let d = d.clone();
        let total = st.total;
        Callback::from(move |e: Event| {
            // Range inputs report integers; parsing as an integer keeps float parsing out of the wasm.
            let v = input_value(&e).trim().parse::<i64>().unwrap_or(0) as f64;
            d.dispatch(Action::Seek(timeline::scrub_to_step(v, total)));
        })
    };
    let disabled = st.runner.is_none();
    let at_end = st.done >= st.total;
    html! {
        <section class="lt-clockbar" aria-label="Broker clock and playback">
            <div class="lt-clock" data-testid="clock" aria-label="Broker clock">
                <span class="lt-clock-icon" aria-hidden="true">{ "◷" }</span>
                <time datetime={human::rfc3339(now)}>{ human::date(now) }</time>
                <span class="lt-muted">{ " UTC" }</span>
            </div>
            <div class="lt-transport" role="group" aria-label="Playback">
                <button type="button" class="lt-btn" onclick={on(Action::Back)} disabled={disabled || st.done == 0}
                        title="Step back (←)" data-testid="step-back">{ "◀ Back" }</button>
                <button type="button" class="lt-btn lt-btn-primary" onclick={on(Action::TogglePlay)} disabled={disabled}
                        title="Play or pause (space)" aria-pressed={if st.playing {"true"} else {"false"}} data-testid="play">
                    { if st.playing { "‖ Pause" } else if at_end && st.total > 0 { "↻ Replay" } else { "▶ Play" } }
                </button>
                <button type="button" class="lt-btn" onclick={on(Action::Step)} disabled={disabled || at_end}
                        title="Step forward (→)" data-testid="step">{ "Step ▶" }</button>
                <label class="lt-speed" for={sid.clone()}>
                    <span>{ "Speed" }</span>
                    <select id={sid} onchange={on_speed} data-testid="speed">
                        { for timeline::SPEEDS.iter().map(|s| html!{
                            <option value={s.to_string()} selected={*s == st.speed}>{ format!("{s}×") }</option>
                        }) }
                    </select>
                </label>
            </div>
            <div class="lt-scrub">
                <label for={scrub_id.clone()} class="lt-muted">
                    { format!("Step {} of {}", st.done, st.total) }
                </label>
                <input id={scrub_id} type="range" min="0" max={st.total.to_string()} step="1"
                       value={st.done.to_string()} onchange={on_scrub} disabled={disabled}
                       data-testid="scrubber" aria-valuetext={format!("step {} of {}", st.done, st.total)} />
            </div>
            <div class="lt-advance" role="group" aria-label="Move the broker clock">
                <span class="lt-muted">{ "Clock" }</span>
                <button type="button" class="lt-btn lt-btn-small" onclick={on(Action::Advance(60_000))} disabled={disabled}>{ "+1 min" }</button>
                <button type="button" class="lt-btn lt-btn-small" onclick={on(Action::Advance(3_600_000))} disabled={disabled}>{ "+1 h" }</button>
                <button type="button" class="lt-btn lt-btn-small" onclick={on(Action::Advance(86_400_000))} disabled={disabled}>{ "+1 d" }</button>
                <button type="button" class="lt-btn lt-btn-small" onclick={on(Action::Advance(7 * 86_400_000))} disabled={disabled}>{ "+7 d" }</button>
            </div>
            <p class="lt-progress lt-muted" aria-hidden="true">
                { format!("{}%", timeline::progress_percent(st.done, st.total)) }
                { " · " }{ format!("{} records", format::count(st.runner.as_ref().map(|r| r.borrow().partition().record_count() as i64).unwrap_or(0))) }
            </p>
        </section>
    }
}
