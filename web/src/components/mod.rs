//! Components, named for what the user sees. Each takes the data it shows as props and reports
//! what the user does through callbacks; none keeps Kafka state of its own.

pub mod charts;
pub mod clock_bar;
pub mod config_panel;
pub mod confirm_bar;
pub mod density_canvas;
pub mod details_panel;
pub mod error_box;
pub mod import_panel;
pub mod live_region;
pub mod lookup_panel;
pub mod partition_view;
pub mod producer_panel;
pub mod rebuild_bar;
pub mod retention_panel;
pub mod scenario_menu;

use logtime_core::scenario::narrate::{Mention, Sentence, Span, Style};
use yew::prelude::*;

/// Reads an `<input>`/`<select>` value from an event.
pub fn input_value(e: &Event) -> String {
    use wasm_bindgen::JsCast;
    let t = e.target();
    if let Some(i) = t
        .as_ref()
        .and_then(|t| t.dyn_ref::<web_sys::HtmlInputElement>())
    {
        return i.value();
    }
    if let Some(s) = t
        .as_ref()
        .and_then(|t| t.dyn_ref::<web_sys::HtmlSelectElement>())
    {
        return s.value();
    }
    String::new()
}

/// A fresh id for label/for and aria pairs, so several explorers on one page never clash.
#[hook]
pub fn use_uid(prefix: &'static str) -> String {
    let id = use_memo((), move |_| format!("{prefix}-{}", (random() * 1e9) as u32));
    (*id).clone()
}

/// A text field's state, starting at `init`. Every `use_state` with its own initialiser
/// closure is its own copy of the hook's code in the wasm; this one hook serves every text field.
#[hook]
pub fn use_text(init: &'static str) -> UseStateHandle<String> {
    use_state(move || init.to_owned())
}

/// A random number in `[0, 1)` (0.5 off the browser).
#[cfg(target_arch = "wasm32")]
pub fn random() -> f64 {
    js_sys::Math::random()
}
/// A random number in `[0, 1)` (0.5 off the browser).
#[cfg(not(target_arch = "wasm32"))]
pub fn random() -> f64 {
    0.5
}

/// Paints a canvas, given its CSS size.
pub type Draw = Box<dyn Fn(&web_sys::HtmlCanvasElement, (f64, f64))>;

/// A canvas that `draw` paints, with its CSS size, after every render of the component and
/// when its size changes (in the browser only: a native build renders the element and draws
/// nothing). The size comes from a ResizeObserver, so drawing never forces a layout: the first
/// drawing waits for its first report, which arrives in the same frame, before the paint.
///
/// A canvas drawn less than `every_ms` ago is drawn again once that time has passed (its
/// latest render's picture): a chart beside a fast playback costs a drawing and a compositor
/// upload a few times a second instead of every frame, and still ends on the exact moment.
///
/// `draw` is boxed, not generic: one copy of the hook's code serves every canvas.
#[hook]
pub fn use_canvas(draw: Draw, every_ms: u32) -> NodeRef {
    let canvas = use_node_ref();
    let size = use_mut_ref(|| None::<(f64, f64)>);
    let redraw = use_force_update();
    // When it was last drawn (ms), and the drawing waiting for `every_ms` to pass.
    let drawn = use_mut_ref(|| (f64::NEG_INFINITY, None::<gloo_timers::callback::Timeout>));
    {
        let (canvas, size, redraw) = (canvas.clone(), size.clone(), redraw.clone());
        use_effect_with((), move |_| {
            let watch = canvas.cast::<web_sys::Element>().map(|el| {
                crate::glue::watch_size(&el, move |w, h| {
                    let now = Some((w.max(1.0), h.max(1.0)));
                    if *size.borrow() != now {
                        *size.borrow_mut() = now;
                        redraw.force_update();
                    }
                })
            });
            move || drop(watch)
        });
    }
    {
        let canvas = canvas.clone();
        use_effect(move || {
            #[cfg(target_arch = "wasm32")]
            if let Some(c) = canvas.cast::<web_sys::HtmlCanvasElement>() {
                // Until the observer's first report (in this frame, after the browser's own
                // layout and before its paint) the size is unknown: reading it here would force
                // a layout of the whole page in the middle of the render (4–9 ms in traces when the
                // partition view switches to this canvas), and the report draws it anyway.
                let Some(s) = *size.borrow() else {
                    return;
                };
                let now = js_sys::Date::now();
                let mut d = drawn.borrow_mut();
                let wait = f64::from(every_ms) - (now - d.0);
                if wait > 0.0 {
                    if d.1.is_none() {
                        d.1 = Some(gloo_timers::callback::Timeout::new(
                            wait.ceil() as u32,
                            move || redraw.force_update(),
                        ));
                    }
                    return;
                }
                *d = (now, None);
                draw(&c, s);
            }
            #[cfg(not(target_arch = "wasm32"))]
            let _ = (canvas, size, draw, drawn, redraw, every_ms);
        });
    }
    canvas
}

/// A form control's `<label>`, by the control's id. One copy in the wasm for every such label
/// (each `html!` element is its own inline code).
pub fn label(id: &str, text: &'static str) -> Html {
    html! { <label for={id.to_owned()}>{ text }</label> }
}

/// A `<select>`'s `<option>`: its value, whether it is the one chosen, and its text.
pub fn option(value: &'static str, selected: bool, text: &'static str) -> Html {
    html! { <option value={value} selected={selected}>{ text }</option> }
}

/// A narrator's sentence as inline HTML: what a span mentions is named in `data-mention`
/// (`segment`, `offset`, `offsets`, `config`, `time`) and `data-value`, for linking and
/// highlighting.
pub fn sentence(s: &Sentence) -> Html {
    s.spans().iter().map(|sp| span(sp, None)).collect()
}

/// A sentence whose mentions of segments, records, offsets and configs are buttons that give
/// the mention to `follow` (a lesson's narration: the explorer outlines what it names and
/// scrolls to it). Buttons, so Tab reaches them and Enter follows them.
pub fn sentence_live(s: &Sentence, follow: &Callback<Mention>) -> Html {
    s.spans().iter().map(|sp| span(sp, Some(follow))).collect()
}

fn span(s: &Span, follow: Option<&Callback<Mention>>) -> Html {
    // Generated narration is plain text; authored narration (lessons) adds `code`, **bold** and
    // links, never raw HTML.
    let inner = match s.style {
        Style::Code => html! { <code>{ s.text.clone() }</code> },
        Style::Strong => html! { <strong>{ s.text.clone() }</strong> },
        _ => html! { { s.text.clone() } },
    };
    let Some(m) = &s.mention else {
        return inner;
    };
    let (kind, value) = match m {
        Mention::Link(url) if !url.is_empty() => {
            return html! { <a href={url.clone()} target="_blank" rel="noopener noreferrer">{ inner }</a> }
        }
        Mention::Segment(o) => ("segment", o.to_string()),
        Mention::Offset(o) => ("offset", o.to_string()),
        Mention::Offsets { first, last } => ("offsets", format!("{first}-{last}")),
        Mention::Config(name) => ("config", name.clone()),
        Mention::Time(t) => ("time", t.to_string()),
        _ => return inner,
    };
    match follow {
        Some(cb) if kind != "time" => {
            let (cb, m) = (cb.clone(), m.clone());
            let onclick = Callback::from(move |_: MouseEvent| cb.emit(m.clone()));
            html! { <button type="button" class="lt-mention lt-mention-link" data-mention={kind} data-value={value}
            data-testid="mention-link" {onclick}>{ inner }</button> }
        }
        _ => {
            html! { <span class="lt-mention" data-mention={kind} data-value={value}>{ inner }</span> }
        }
    }
}
