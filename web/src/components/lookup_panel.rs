//! The lookup panel: enter a time (or earliest / latest / max-timestamp) and watch the broker
//! find the offset.

use logtime_core::human;
use logtime_core::scenario::narrate;
use logtime_core::scenario::parse_time;
use logtime_model::{OffsetSpec, Timestamp};
use yew::prelude::*;

use crate::author::PickPanel;
use logtime_core::scenario::narrate::Panel;

use super::{label, sentence};
use crate::model::format;
use crate::model::marks::late_records;
use crate::state::{LookupState, ReplayView, Shared};

/// The lookup panel's props.
#[derive(Properties, PartialEq, Clone)]
pub struct LookupPanelProps {
    /// The replay (the clock, and the records after an answer).
    pub replay: ReplayView,
    /// The latest lookup and its walk.
    pub state: Shared<LookupState>,
    /// Show the whole trace at once.
    #[prop_or_default]
    pub reduced_motion: bool,
    /// A lookup to run.
    pub on_lookup: Callback<OffsetSpec>,
    /// Open a trace line's details.
    #[prop_or_default]
    pub on_inspect: Callback<crate::state::Inspect>,
}

/// Enter a time (or earliest / latest / max-timestamp); watch the broker find the offset.
#[function_component(LookupPanel)]
pub fn lookup_panel(p: &LookupPanelProps) -> Html {
    let tid = super::use_uid("lt-lk");
    let text = super::use_text("now-1h");
    let err = use_state(Option::<String>::default);
    let now = p.replay.now().0;
    let go = |spec: OffsetSpec| {
        let cb = p.on_lookup.clone();
        Callback::from(move |_: MouseEvent| cb.emit(spec))
    };
    let onsubmit = {
        let cb = p.on_lookup.clone();
        let text = text.clone();
        let err = err.clone();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let parsed = parse_time(&text).and_then(|t| {
                t.resolve(now)
                    .ok_or_else(|| "the time overflows a 64-bit long".to_string())
            });
            match parsed {
                Ok(t) => {
                    err.set(None);
                    cb.emit(OffsetSpec::Timestamp(Timestamp(t)));
                }
                Err(m) => err.set(Some(m)),
            }
        })
    };
    let oninput = {
        let text = text.clone();
        Callback::from(move |e: InputEvent| {
            use wasm_bindgen::JsCast;
            if let Some(i) = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
            {
                text.set(i.value());
            }
        })
    };
    let disabled = !p.replay.is_loaded();
    // The trace scrolls in its own box (a lookup past hundreds of segments lists a hundred
    // passes before it folds the rest), and the line the walk is on stays in view.
    let trace_ref = use_node_ref();
    let walked = p
        .state
        .result
        .as_ref()
        .map(|l| (l.trace.len(), p.state.cursor));
    {
        let trace_ref = trace_ref.clone();
        use_effect_with(walked, move |_| follow_current(&trace_ref));
    }
    let result = p.state.result.as_ref().map(|l| {
        let shown = if p.reduced_motion { l.trace.len() } else { p.state.cursor.min(l.trace.len()) };
        let finished = shown >= l.trace.len();
        // Records after the answer stamped before T.
        let late = match (l.spec, finished, l.offset.0 >= 0, p.replay.runner()) {
            (OffsetSpec::Timestamp(t), true, true, Some(r)) => late_records(r.partition(), l.offset, t, 50),
            _ => Vec::new(),
        };
        html! {
            <div class="lt-lookup-result">
                <p class="lt-muted">{ "ListOffsets for " }{ sentence(&narrate::lookup_target(l.spec)) }</p>
                // Three-digit line numbers need room the usual short trace does not.
                <ol class={classes!("lt-trace", (l.trace.len() >= 100).then_some("lt-trace-long"))} ref={trace_ref.clone()}>
                    { for l.trace.iter().take(shown).enumerate().map(|(i, s)| {
                        let what = crate::state::Inspect::Trace(i);
                        let (a, b) = (p.on_inspect.clone(), p.on_inspect.clone());
                        let onclick = Callback::from(move |_: MouseEvent| a.emit(what));
                        let onkeydown = Callback::from(move |e: KeyboardEvent| if e.key() == "Enter" { e.prevent_default(); b.emit(what) });
                        html!{
                        <li class={classes!("lt-trace-line", (i + 1 == shown && !finished).then_some("current"))} tabindex="0" {onclick} {onkeydown}
                            data-testid={format!("trace-{i}")}>{ sentence(&narrate::trace_step(s, l.spec)) }</li>
                    } }) }
                </ol>
                if finished {
                    <p class="lt-answer" data-testid="lookup-answer">
                        { "Answer: offset " }<strong>{ l.offset.0 }</strong>
                        if l.timestamp.0 >= 0 { { format!(" (stamped {})", human::date(l.timestamp.0)) } }
                    </p>
                    if let OffsetSpec::Timestamp(t) = l.spec {
                        <p class="lt-guarantee">
                            { format!("Guarantee: every record stamped at or after {} is at or after offset {}. Not promised: that records after it are all later.", human::date(t.0), l.offset.0) }
                        </p>
                        if !late.is_empty() {
                            <p class="lt-late" data-testid="lookup-late">
                                { "↩ After the answer but stamped before T: " }
                                { late.iter().take(8).map(|(o, ts)| format!("offset {o} ({})", format::stamp(ts.0, ts.0))).collect::<Vec<_>>().join(", ") }
                                if late.len() > 8 { { format!(" and {} more", late.len() - 8) } }
                            </p>
                        }
                    }
                }
            </div>
        }
    });
    html! {
        <section role="group" class="lt-panel lt-lookup" aria-label="Lookup" data-panel="lookup">
            <h2><PickPanel panel={Panel::Lookup}>{ "Lookup (offsetsForTimes)" }</PickPanel></h2>
            <form class="lt-lookup-form" onsubmit={onsubmit}>
                { label(&tid, "Time T") }
                <input id={tid} value={(*text).clone()} {oninput} placeholder="now-1h, 2025-11-04T10:00:05Z, epoch ms" data-testid="lookup-time" />
                <button type="submit" class="lt-btn lt-btn-primary" disabled={disabled} data-testid="lookup-go">{ "Look up" }</button>
            </form>
            <div class="lt-chips" role="group" aria-label="Special offsets">
                <button type="button" class="lt-btn lt-btn-small" onclick={go(OffsetSpec::Earliest)} disabled={disabled}>{ "earliest" }</button>
                <button type="button" class="lt-btn lt-btn-small" onclick={go(OffsetSpec::Latest)} disabled={disabled}>{ "latest" }</button>
                <button type="button" class="lt-btn lt-btn-small" onclick={go(OffsetSpec::MaxTimestamp)} disabled={disabled}>{ "max-timestamp" }</button>
            </div>
            if let Some(m) = &*err { <p class="lt-field-error" role="alert">{ m.clone() }</p> }
            if let Some(m) = &p.state.error { <p class="lt-field-error" role="alert">{ m.clone() }</p> }
            { result.unwrap_or_default() }
        </section>
    }
}

/// Scrolls the trace's box, not the page, just enough to show its current line.
fn follow_current(list: &NodeRef) {
    use wasm_bindgen::JsCast;
    let Some(ol) = list.cast::<web_sys::HtmlElement>() else {
        return;
    };
    let Some(line) = ol
        .query_selector("li.current")
        .ok()
        .flatten()
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
    else {
        return;
    };
    let (top, height) = (line.offset_top(), line.offset_height());
    let (scroll, view) = (ol.scroll_top(), ol.client_height());
    if top < scroll {
        ol.set_scroll_top(top);
    } else if top + height > scroll + view {
        ol.set_scroll_top(top + height - view);
    }
}
