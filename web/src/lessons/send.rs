//! "Send my results": the learner's optional name and every move so far, as a code to paste, a
//! link to the class page and a file. There is no server: the code is what the learner sends
//! their trainer, whose class page re-scores it (core's `rescore`). Packed as `z=` links are
//! (deflate-raw, base64url, by the browser), after `LTR1.`.

use logtime_lesson::Results;
use yew::prelude::*;

use crate::glue;

/// What a results code starts with (`logtime grade` reads the same).
pub const CODE_PREFIX: &str = "LTR1.";

/// The send box's props.
#[derive(Properties, PartialEq, Clone)]
pub struct SendProps {
    /// The learner's results so far, without a name.
    pub results: Option<Results>,
    /// Open at once (at the end of the lesson).
    #[prop_or_default]
    pub open: bool,
    /// The name an assignment was started with: fixed, since it picked the variant.
    #[prop_or_default]
    pub learner: Option<AttrValue>,
}

/// The class page's address for a code: `class.html` beside this page, the code after `#`
/// (a fragment never reaches a server; the class page adds it to its table).
fn class_link(code: &str) -> String {
    let base = web_sys::window()
        .and_then(|w| w.location().href().ok())
        .unwrap_or_default();
    let dir = base
        .split(['?', '#'])
        .next()
        .unwrap_or_default()
        .rsplit_once('/')
        .map_or(String::new(), |(d, _)| format!("{d}/"));
    format!("{dir}class.html#{code}")
}

/// The send box.
#[function_component(SendResults)]
pub fn send_results(p: &SendProps) -> Html {
    let name = use_state(String::new);
    let code = use_state(|| None::<Result<String, String>>);
    let copied = use_state(|| None::<bool>);
    let Some(results) = p.results.clone() else {
        return html! {};
    };
    let fixed = p.learner.clone();
    let oninput = {
        let name = name.clone();
        let code = code.clone();
        Callback::from(move |e: InputEvent| {
            use wasm_bindgen::JsCast;
            if let Some(i) = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
            {
                name.set(i.value());
                code.set(None);
            }
        })
    };
    let make = {
        let (name, code, copied) = (name.clone(), code.clone(), copied.clone());
        let fixed = fixed.clone();
        Callback::from(move |_: MouseEvent| {
            let mut r = results.clone();
            r.learner = fixed.as_deref().unwrap_or(&name).trim().to_string();
            let json = r.to_json();
            let (code, copied) = (code.clone(), copied.clone());
            copied.set(None);
            wasm_bindgen_futures::spawn_local(async move {
                code.set(Some(
                    glue::pack(&json).await.map(|z| format!("{CODE_PREFIX}{z}")),
                ));
            });
        })
    };
    let shown = match &*code {
        Some(Ok(c)) => {
            let typed = fixed.as_deref().unwrap_or(&name).trim().to_string();
            code_box(c, &typed, copied.clone())
        }
        Some(Err(e)) => {
            html! { <p class="lt-field-error" role="alert">{ format!("The code could not be made: {e}") }</p> }
        }
        None => html! {},
    };
    html! {
        <details class="lt-send" open={p.open} data-testid="send-results">
            <summary>{ "Send my results" }</summary>
            <p class="lt-muted lt-small">{ "Every answer, hint and reveal so far, with its time; no score (your trainer's class page re-scores it). Nothing is sent anywhere: you send the code." }</p>
            if let Some(n) = &fixed {
                <label class="lt-inline"><span>{ "Your name (it picked your variant)" }</span>
                    <input value={n.clone()} readonly=true data-testid="results-name" /></label>
            } else {
                <label class="lt-inline"><span>{ "Your name (optional)" }</span>
                    <input value={(*name).clone()} {oninput} autocomplete="name" data-testid="results-name" /></label>
            }
            <button type="button" class="lt-btn lt-btn-primary lt-btn-small" onclick={make} data-testid="results-make">{ "Make my results code" }</button>
            { shown }
        </details>
    }
}

/// The code made: as text and as a class-page link, with buttons to copy it, save it as a
/// file named after `typed` (the learner's name) and open the class page.
fn code_box(c: &str, typed: &str, copied: UseStateHandle<Option<bool>>) -> Html {
    let copy = {
        let (c, copied) = (c.to_string(), copied.clone());
        Callback::from(move |_: MouseEvent| {
            let (c, copied) = (c.clone(), copied.clone());
            wasm_bindgen_futures::spawn_local(async move {
                copied.set(Some(glue::copy_text(&c).await));
            });
        })
    };
    let file = {
        let c = c.to_string();
        let who = if typed.is_empty() {
            "results".to_string()
        } else {
            typed.replace(|ch: char| !ch.is_alphanumeric(), "-")
        };
        Callback::from(move |_: MouseEvent| {
            glue::download(&c, &format!("{who}.logtime-results.txt"))
        })
    };
    // A button, not a link: an outside link inside the explorer's shadow root would make
    // the page's skip link look like ordinary content to checkers.
    let link = class_link(c);
    let open_link = {
        let link = link.clone();
        Callback::from(move |_: MouseEvent| {
            if let Some(w) = web_sys::window() {
                let _ = w.open_with_url_and_target_and_features(&link, "_blank", "noopener");
            }
        })
    };
    html! {
        <>
            <label class="lt-send-code"><span>{ "Your results code" }</span>
                <textarea readonly=true rows="3" data-testid="results-code" value={c.to_string()} /></label>
            <label class="lt-send-code"><span>{ "Or send this link" }</span>
                <input readonly=true value={link.clone()} data-testid="results-link" /></label>
            <div class="lt-item-actions">
                <button type="button" class="lt-btn lt-btn-small" onclick={copy} data-testid="results-copy">{ "Copy the code" }</button>
                <button type="button" class="lt-btn lt-btn-small" onclick={file} data-testid="results-file">{ "Save as a file" }</button>
                <button type="button" class="lt-btn lt-btn-small" onclick={open_link} data-testid="results-open">{ "Open in a class page" }</button>
            </div>
            if let Some(ok) = *copied {
                <p class="lt-muted lt-small" role="status">{ if ok { "Copied to the clipboard." } else { "Copying failed: select the code and copy it." } }</p>
            }
        </>
    }
}
