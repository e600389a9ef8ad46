//! How a draft starts: from the scenario shown, or from an empty partition with a Kafka version
//! and a few configs (the values as the file grammar writes them: `1d`, `1048576`).

use logtime_model::KafkaVersion;
use yew::prelude::*;

use super::hook::Begin;
use crate::components::{input_value, use_uid};

/// The start card's props.
#[derive(Properties, PartialEq, Clone)]
pub struct AuthorStartProps {
    /// The title of the scenario shown (what "this scenario" is).
    pub title: AttrValue,
    /// Why the last start failed (core's words).
    pub error: Option<AttrValue>,
    /// Start.
    pub on_begin: Callback<Begin>,
    /// Close the card.
    pub on_close: Callback<()>,
}

/// Config rows an empty partition starts with (the author edits or clears them).
const ROWS: [(&str, &str); 3] = [("retention.ms", ""), ("segment.bytes", ""), ("", "")];

/// Start a draft from the scenario shown or from an empty partition.
#[function_component(AuthorStart)]
pub fn author_start(p: &AuthorStartProps) -> Html {
    let kafka = use_state(|| KafkaVersion::V3_6.key().to_string());
    let rows = use_state(|| ROWS.map(|(n, v)| (n.to_string(), v.to_string())).to_vec());
    let kafka_id = use_uid("lt-au-kafka");
    let row_id = use_uid("lt-au-row");
    let on_shown = p.on_begin.reform(|_: MouseEvent| Begin::Shown);
    let on_empty = {
        let (kafka, rows, on) = (kafka.clone(), rows.clone(), p.on_begin.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let configs = rows
                .iter()
                .filter(|(n, v)| !n.trim().is_empty() && !v.trim().is_empty())
                .map(|(n, v)| (n.trim().to_string(), v.trim().to_string()))
                .collect();
            on.emit(Begin::Empty((*kafka).clone(), configs));
        })
    };
    let on_kafka = {
        let kafka = kafka.clone();
        Callback::from(move |e: Event| kafka.set(input_value(&e)))
    };
    let cell = |i: usize, value: bool| {
        let rows = rows.clone();
        Callback::from(move |e: InputEvent| {
            let Some(t) = e.target_dyn_into::<web_sys::HtmlInputElement>() else {
                return;
            };
            let mut r = (*rows).clone();
            if value {
                r[i].1 = t.value();
            } else {
                r[i].0 = t.value();
            }
            rows.set(r);
        })
    };
    let on_close = p.on_close.reform(|_: MouseEvent| ());
    html! {
        <section role="group" class="lt-panel lt-author lt-author-start" aria-label="Author: start a lesson" data-testid="author-start" tabindex="-1">
            <h2>{ "Write a lesson" }</h2>
            <p class="lt-small">{ "What you do in the explorer becomes the lesson's steps: send batches, change configs, move the clock, run retention, look up. Then add narration, highlights and questions." }</p>
            <p><button type="button" class="lt-btn lt-btn-primary" onclick={on_shown} data-testid="author-from-shown">
                { format!("Start from “{}”", p.title) }
            </button></p>
            <form class="lt-author-empty" onsubmit={on_empty}>
                <fieldset>
                    <legend>{ "Or start from an empty partition" }</legend>
                    <label for={kafka_id.clone()}>{ "Kafka version" }</label>
                    <select id={kafka_id} onchange={on_kafka} data-testid="author-kafka">
                        { for KafkaVersion::ALL.iter().map(|k| html!{
                            <option value={k.key()} selected={k.key() == kafka.as_str()}>{ k.label() }</option>
                        }) }
                    </select>
                    <table class="lt-author-configs">
                        <thead><tr><th scope="col">{ "Config" }</th><th scope="col">{ "Value" }</th></tr></thead>
                        <tbody>
                        { for rows.iter().enumerate().map(|(i, (n, v))| html!{
                            <tr>
                                <td><input aria-label={format!("config {} name", i + 1)} id={format!("{row_id}-{i}")} value={n.clone()} oninput={cell(i, false)}
                                           placeholder="retention.ms" data-testid={format!("author-config-name-{i}")} /></td>
                                <td><input aria-label={format!("config {} value", i + 1)} value={v.clone()} oninput={cell(i, true)}
                                           placeholder="1d" data-testid={format!("author-config-value-{i}")} /></td>
                            </tr>
                        }) }
                        </tbody>
                    </table>
                    <button type="submit" class="lt-btn" data-testid="author-from-empty">{ "Start from an empty partition" }</button>
                </fieldset>
            </form>
            if let Some(e) = &p.error {
                <p class="lt-field-error" role="alert" data-testid="author-error">{ e.clone() }</p>
            }
            <p><button type="button" class="lt-btn lt-btn-small" onclick={on_close}>{ "Cancel" }</button></p>
        </section>
    }
}
