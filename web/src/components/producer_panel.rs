//! The producer: compose and send a batch, and see the append or Kafka's exact rejection.

use logtime_core::human;
use logtime_core::scenario::narrate;
use logtime_core::scenario::{parse_duration, parse_time, ProduceOutcome};
use logtime_model::{Diagnosis, ErrorCode, ProduceError, Timestamp};
use yew::prelude::*;

use crate::author::PickPanel;
use logtime_core::scenario::narrate::Panel;

use super::{input_value, label, option, sentence};
use crate::model::format;
use crate::model::producer::{unit_of, BatchSpec, KeyChoice, When};
use crate::state::{ProducerState, Shared};

/// The producer panel's props.
#[derive(Properties, PartialEq, Clone)]
pub struct ProducerPanelProps {
    /// The broker clock (what `now` in a stamp means).
    pub now: Timestamp,
    /// A scenario is loaded (else nothing can be sent).
    pub loaded: bool,
    /// The last send's result.
    pub state: Shared<ProducerState>,
    /// Skip the landing and bounce animations.
    #[prop_or_default]
    pub reduced_motion: bool,
    /// A batch to send.
    pub on_send: Callback<BatchSpec>,
    /// In author mode: the batch composed, taken for a question instead of sent ("Use this
    /// batch" beside Send).
    #[prop_or_default]
    pub on_use: Option<Callback<BatchSpec>>,
}

/// Compose and send a batch; shows the append, or Kafka's exact rejection with the window.
#[function_component(ProducerPanel)]
pub fn producer_panel(p: &ProducerPanelProps) -> Html {
    let now = p.now.0;
    let mode = super::use_text("now");
    let amount = super::use_text("1h");
    let absolute = super::use_text("2030-03-14T11:20:00Z");
    let unit = super::use_text("ms");
    let skew = super::use_text("0");
    let count = super::use_text("1");
    let value_bytes = super::use_text("100");
    let key_kind = super::use_text(KeyChoice::Null.value());
    let key_bytes = super::use_text("8");
    let form_error = use_state(Option::<String>::default);
    let ids = [
        super::use_uid("lt-p-mode"),
        super::use_uid("lt-p-amount"),
        super::use_uid("lt-p-unit"),
        super::use_uid("lt-p-skew"),
        super::use_uid("lt-p-count"),
        super::use_uid("lt-p-value"),
        super::use_uid("lt-p-key"),
        super::use_uid("lt-p-key-bytes"),
        super::use_uid("lt-p-key-hint"),
    ];
    let bind = |h: &UseStateHandle<String>| {
        let h = h.clone();
        Callback::from(move |e: Event| h.set(input_value(&e)))
    };
    let bind_input = |h: &UseStateHandle<String>| {
        let h = h.clone();
        Callback::from(move |e: InputEvent| {
            use wasm_bindgen::JsCast;
            if let Some(i) = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
            {
                h.set(i.value());
            }
        })
    };
    let compose = {
        let (mode, amount, absolute, unit, skew, count, value_bytes, form_error) = (
            mode.clone(),
            amount.clone(),
            absolute.clone(),
            unit.clone(),
            skew.clone(),
            count.clone(),
            value_bytes.clone(),
            form_error.clone(),
        );
        let (key_kind, key_bytes) = (key_kind.clone(), key_bytes.clone());
        // The batch as the form says it, or why not (shown under the form); the same batch
        // is sent, or taken for an author's question.
        std::rc::Rc::new(move |to: &Callback<BatchSpec>| {
            let build = || -> Result<BatchSpec, String> {
                let when = match mode.as_str() {
                    "plus" => When::Offset(parse_duration(&amount)?),
                    "minus" => When::Offset(parse_duration(&amount)?.saturating_neg()),
                    "abs" => When::Absolute(Timestamp(
                        parse_time(&absolute)?
                            .resolve(now)
                            .ok_or("the time overflows a 64-bit long")?,
                    )),
                    _ => When::Now,
                };
                let skew_ms = parse_duration(&skew)?;
                let n = |s: &str, what: &str| {
                    s.trim()
                        .parse::<u32>()
                        .map_err(|_| format!("{what} must be a whole number"))
                };
                let spec = BatchSpec {
                    when,
                    unit: unit_of(&unit),
                    skew_ms,
                    count: n(&count, "records per batch")?.clamp(1, 1000),
                    key: KeyChoice::parse(&key_kind).key(&key_bytes)?,
                    value_bytes: n(&value_bytes, "value bytes")?,
                    spread_ms: 0,
                };
                // Stamped now as the reducer will: a unit mistake that overflows is refused here.
                spec.records(Timestamp(now))?;
                Ok(spec)
            };
            match build() {
                Ok(spec) => {
                    form_error.set(None);
                    to.emit(spec);
                }
                Err(msg) => form_error.set(Some(msg)),
            }
        })
    };
    let onsubmit = {
        let (compose, on_send) = (compose.clone(), p.on_send.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            compose(&on_send);
        })
    };
    let on_use = p.on_use.clone().map(|to| {
        let compose = compose.clone();
        Callback::from(move |_: MouseEvent| compose(&to))
    });
    let disabled = !p.loaded;
    let key_choice = KeyChoice::parse(&key_kind);
    // What the chosen key is, in the narrator's words (none while a sized key is mistyped).
    let key_hint = key_choice.key(&key_bytes).ok().map(narrate::key);
    html! {
        <section role="group" class="lt-panel lt-producer" aria-label="Producer" data-panel="producer">
            <h2><PickPanel panel={Panel::Producer}>{ "Producer" }</PickPanel></h2>
            <form class="lt-form" onsubmit={onsubmit} data-testid="producer-form">
                { label(&ids[0], "Timestamp") }
                <select id={ids[0].clone()} onchange={bind(&mode)} data-testid="ts-mode">
                    { option("now", *mode == "now", "now (broker clock)") }
                    { option("plus", *mode == "plus", "now + duration") }
                    { option("minus", *mode == "minus", "now − duration") }
                    { option("abs", *mode == "abs", "absolute time") }
                </select>
                if *mode == "plus" || *mode == "minus" {
                    { label(&ids[1], "Duration") }
                    <input id={ids[1].clone()} value={(*amount).clone()} oninput={bind_input(&amount)} placeholder="1h, 7d, 3y" data-testid="ts-amount" />
                }
                if *mode == "abs" {
                    { label(&ids[1], "Time (UTC)") }
                    <input id={ids[1].clone()} value={(*absolute).clone()} oninput={bind_input(&absolute)} placeholder="2030-03-14T11:20:00Z or epoch ms" data-testid="ts-absolute" />
                }
                { label(&ids[2], "Unit written") }
                <select id={ids[2].clone()} onchange={bind(&unit)} data-testid="ts-unit">
                    { option("ms", *unit == "ms", "milliseconds (correct)") }
                    { option("s", *unit == "s", "seconds (mistake)") }
                    { option("us", *unit == "us", "microseconds (mistake)") }
                    { option("ns", *unit == "ns", "nanoseconds (mistake)") }
                </select>
                { label(&ids[3], "Producer clock skew") }
                <input id={ids[3].clone()} value={(*skew).clone()} oninput={bind_input(&skew)} placeholder="0, +4s, -10min" data-testid="ts-skew" />
                { label(&ids[4], "Records per batch") }
                <input id={ids[4].clone()} type="number" min="1" max="1000" value={(*count).clone()} oninput={bind_input(&count)} />
                { label(&ids[5], "Value bytes") }
                <input id={ids[5].clone()} type="number" min="0" value={(*value_bytes).clone()} oninput={bind_input(&value_bytes)} />
                { label(&ids[6], "Key") }
                <select id={ids[6].clone()} onchange={bind(&key_kind)} aria-describedby={ids[8].clone()} data-testid="key-kind">
                    { for KeyChoice::ALL.into_iter().map(|c| option(c.value(), key_choice == c, key_label(c))) }
                </select>
                if key_choice == KeyChoice::Sized {
                    { label(&ids[7], "Key bytes") }
                    <input id={ids[7].clone()} type="number" min="0" value={(*key_bytes).clone()} oninput={bind_input(&key_bytes)} data-testid="key-bytes" />
                }
                <p id={ids[8].clone()} class="lt-hint" data-testid="key-hint">
                    if let Some(h) = &key_hint { { sentence(h) } }
                </p>
                <div class="lt-producer-go">
                    <button type="submit" class="lt-btn lt-btn-primary" disabled={disabled} data-testid="send">{ "Send batch" }</button>
                    if let Some(onclick) = on_use {
                        <button type="button" class="lt-btn" {disabled} {onclick} title="Take the batch for a question in the author pane, without sending it"
                                data-testid="use-batch">{ "Use this batch" }</button>
                    }
                </div>
            </form>
            if let Some(msg) = &*form_error { <p class="lt-field-error" role="alert">{ msg.clone() }</p> }
            { outcome(p.state.last.as_ref(), p.state.rev, p.reduced_motion) }
        </section>
    }
}

/// A key choice as the menu names it: the word Kafka's checks turn on (null or not), and the size.
fn key_label(c: KeyChoice) -> &'static str {
    match c {
        KeyChoice::Null => "null key",
        KeyChoice::Empty => "empty key (0 bytes)",
        KeyChoice::Sized => "sized key",
    }
}

fn outcome(o: Option<&ProduceOutcome>, rev: u64, reduced: bool) -> Html {
    match o {
        None => html! {},
        Some(ProduceOutcome::Appended(a)) => html! {
            <div key={rev.to_string()} class={classes!("lt-ok", (!reduced).then_some("fly"))} data-testid="produce-ok" role="status">
                <p><strong>{ "✓ Appended" }</strong>{ format!(" at {} in segment {} (batch max timestamp {})",
                    narrate::offset_range(a.base_offset, a.last_offset), a.segment.0, human::date(a.max_timestamp.0)) }</p>
                { for dedup(&a.diagnoses).into_iter().map(|dg| html!{ <p class="lt-diag">{ "⚠ Accepted, but " }{ narrate::diagnosis(dg).to_string() }</p> }) }
            </div>
        },
        Some(ProduceOutcome::Rejected(e)) => rejected(e, rev, reduced),
        Some(ProduceOutcome::Empty | ProduceOutcome::Traffic(_)) => html! {},
    }
}

fn rejected(e: &ProduceError, rev: u64, reduced: bool) -> Html {
    // The size errors' own text, which the producer does not get (10 and 18).
    let broker_log = narrate::broker_log(e).map(|mut s| {
        s.capitalize();
        s
    });
    html! {
        <div key={rev.to_string()} class={classes!("lt-reject", (!reduced).then_some("bounce"))} data-testid="produce-error" role="alert">
            <p class="lt-reject-head">
                <strong>{ format!("✕ Rejected: error {} {}", e.error.code(), e.error.name()) }</strong>
            </p>
            <p class="lt-reject-msg"><code>{ e.error_message.clone() }</code></p>
            if let Some(log) = broker_log {
                <p class="lt-broker-log" data-testid="broker-log">{ sentence(&log) }</p>
            }
            <ul class="lt-record-errors">
                { for e.record_errors.iter().take(5).map(|r| html!{
                    <li><span class="lt-muted">{ format!("record {}: ", r.batch_index) }</span><code>{ r.message.clone() }</code></li>
                }) }
                if e.record_errors.len() > 5 { <li class="lt-muted">{ format!("and {} more", e.record_errors.len() - 5) }</li> }
            </ul>
            { for dedup(&e.diagnoses).into_iter().take(2).map(|dg| html!{ <p class="lt-diag" data-testid="diagnosis">{ "→ " }{ narrate::diagnosis(dg).to_string() }</p> }) }
            // The window explains a stamp refused or suspect, not a batch refused for its size.
            if let Some((lower, upper)) = e.window.filter(|_| e.error == ErrorCode::InvalidTimestamp || !e.diagnoses.is_empty()) {
                { window_axis(lower.0, upper.0, e.now.0, e.diagnoses.first().map(|d| d.timestamp.0)) }
            }
        </div>
    }
}

/// Diagnosis sentences without repeats (a batch of identical mistakes says it once).
fn dedup(ds: &[Diagnosis]) -> Vec<&Diagnosis> {
    let mut seen: Vec<String> = Vec::new();
    ds.iter()
        .filter(|d| {
            let t = narrate::diagnosis(d).to_string();
            let new = !seen.contains(&t);
            seen.push(t);
            new
        })
        .collect()
}

/// The acceptable window on a time axis: the broker clock, the window and the stamp sent.
/// Unbounded (wrapped) sides are drawn open-ended.
fn window_axis(lower: i64, upper: i64, now: i64, stamp: Option<i64>) -> Html {
    let reach = stamp
        .map(|s| (s as i128 - now as i128).abs())
        .unwrap_or(0)
        .max(2 * 3_600_000) as f64;
    let (a, b) = (now as f64 - reach * 1.25, now as f64 + reach * 1.25);
    let pos = |t: f64| crate::model::clamp((t - a) / (b - a) * 100.0, 0.0, 100.0);
    // wrapped (3.x) or Long.MIN/MAX-derived (4.x) bounds more than 1000 years away are "no limit"
    let far: i128 = 1000 * 365 * 86_400_000;
    let lower_open = lower > now || (now as i128 - lower as i128) > far;
    let upper_open = upper < now || (upper as i128 - now as i128) > far;
    let l = if lower_open { 0.0 } else { pos(lower as f64) };
    let u = if upper_open { 100.0 } else { pos(upper as f64) };
    html! {
        <figure class="lt-window" aria-label="Acceptable timestamp window">
            <div class="lt-window-axis">
                <div class="lt-window-band" style={format!("left:{};width:{}", format::css_pct(l), format::css_pct((u - l).max(0.5)))}></div>
                <div class="lt-window-now" style={format!("left:{}", format::css_pct(pos(now as f64)))} title="broker clock"></div>
                if let Some(s) = stamp {
                    <div class="lt-window-stamp" style={format!("left:{}", format::css_pct(pos(s as f64)))} title="stamp sent">{ "✕" }</div>
                }
            </div>
            <figcaption class="lt-muted">
                { format!("Accepted window: {} … {} (broker clock {})",
                    if lower_open { "no lower limit".to_string() } else { human::date(lower) },
                    if upper_open { "no upper limit".to_string() } else { human::date(upper) },
                    human::date(now)) }
                if let Some(s) = stamp { { format!(" · sent {} ({})", s, format::relative(s.saturating_sub(now))) } }
            </figcaption>
        </figure>
    }
}
