//! Logtime web explorer: plumbing.
//!
//! * [`mount`] (exported to JS) mounts an independent explorer into any element that can host a
//!   shadow root; `static/logtime-embed.js` uses it for each `<logtime-explorer>` element.
//!   Mounting again into the same element replaces the explorer there.
//! * [`start`] runs when the module is initialised: it installs the panic hook and the
//!   stopped-instance guard and, when the page has a `<main id="app" data-logtime-auto>`
//!   (index.html), mounts the standalone explorer there with the options of the page URL.
//! * Every explorer renders in its own shadow root with Logtime's stylesheets (compiled in
//!   below) as its only styles, so nothing leaks in either direction.
//! * The panic hook replaces every mounted explorer with a visible error box; the guard
//!   (`glue.js`) does the same in plain JS when the instance dies without a panic (out of memory
//!   is a trap), so a crash never leaves a page that looks alive.
//!
//! Options are read in one place, [`options`]. The explorer itself is [`app::App`]: its state in
//! [`state`] (a reducer over one struct per panel and a session journal), plain maths in
//! [`model`], drawing in [`draw`], the panels in [`components`], the built-in scenarios in
//! [`builtins`], and the idle-time warm-up of a play's code in [`warm`].

pub mod app;
pub mod author;
pub mod builtins;
pub mod class_page;
pub mod components;
pub mod draw;
pub mod embed;
pub mod glue;
pub mod hooks;
pub mod importer;
pub mod lessons;
pub mod model;
pub mod options;
pub mod shown;
pub mod state;
pub mod warm;

use std::cell::{Cell, RefCell};

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::Element;
use yew::prelude::*;
use yew::AppHandle;

pub use app::{App, AppProps};
pub use embed::{EmbedError, ScenarioSource, DEFAULT_SCENARIO};
pub use options::{Context, Options, Origin};

/// Inline JSON in a child `<script>`, as error messages name it.
pub const ATTR_INLINE: &str = "script[type=application/json]";

/// Logtime's stylesheets (static/style.css, the design tokens and themes, static/app.css,
/// the components, and static/embed.css, compact embeds), minified by build.rs. Each shadow
/// root gets them.
pub const STYLES: &str = include_str!(concat!(env!("OUT_DIR"), "/logtime.min.css"));

/// Marker set on a host element while an explorer is mounted in it.
const MOUNTED_ATTR: &str = "data-logtime-mounted";
/// Marker on index.html's `#app` asking [`start`] to mount there.
const AUTO_ATTR: &str = "data-logtime-auto";

/// One mounted explorer.
struct Mounted {
    id: u32,
    host: Element,
    handle: AppHandle<Root>,
}

thread_local! {
    /// Every mounted explorer; the panic hook draws its error box in each host.
    static MOUNTED: RefCell<Vec<Mounted>> = const { RefCell::new(Vec::new()) };
    static NEXT_ID: Cell<u32> = const { Cell::new(1) };
}

/// Properties of the plumbing's root wrapper.
#[derive(Properties, PartialEq, Clone)]
pub struct RootProps {
    /// The options, or why they were refused (shown instead of the explorer).
    pub options: Result<Options, EmbedError>,
}

/// Wraps the UI's [`App`] in the element the tests and styles rely on:
/// `<div class="logtime-root" data-testid="app-root" data-context data-theme data-scenario-kind
/// data-scenario>`; with refused options, an error box naming the option and the reason.
#[function_component(Root)]
pub fn root(props: &RootProps) -> Html {
    match &props.options {
        Ok(o) => {
            let shown = match &o.source {
                ScenarioSource::Inline(_) => "inline".to_owned(),
                ScenarioSource::Packed(_) => "packed".to_owned(),
                other => other.value().to_owned(),
            };
            html! {
                <div class="logtime-root" data-testid="app-root" data-context={o.context.name()}
                     data-theme={o.theme.name()} data-scenario-kind={o.source.kind()} data-scenario={shown}>
                    <App options={o.clone()} />
                </div>
            }
        }
        Err(e) => html! {
            <div class="logtime-root" data-testid="app-root" data-theme="auto">
                <div class="lt-error" role="alert" data-testid="logtime-error">
                    <strong class="lt-error-title">{ "⚠ Logtime explorer: bad options" }</strong>
                    <pre class="lt-error-detail">{ e.to_string() }</pre>
                    <p class="lt-error-hint">{ "Fix the attribute or option named above; the rest of the page is unaffected." }</p>
                </div>
            </div>
        },
    }
}

/// A JS error with a message (what `mount`/`update` throw).
fn js_error(message: &str) -> JsValue {
    js_sys::Error::new(message).into()
}

/// Reads options given from JS: `undefined`/`null` (the defaults), a string (a `scenario`), or an
/// object of option names to strings (numbers and booleans are taken as their text). The
/// internal key `hostColorScheme` carries the host page's computed `color-scheme`.
///
/// `Err(Ok(..))` is a bad value (shown in the explorer), `Err(Err(..))` a bad argument (refused).
fn options_from_js(
    context: Context,
    options: &JsValue,
) -> Result<Options, Result<EmbedError, String>> {
    if options.is_undefined() || options.is_null() {
        return options::parse(context, Origin::Object, &[], None).map_err(Ok);
    }
    if let Some(s) = options.as_string() {
        let pairs = [("scenario".to_string(), s)];
        return options::parse(context, Origin::Object, &pairs, None).map_err(Ok);
    }
    if js_sys::Array::is_array(options) || !options.is_object() {
        let what = if js_sys::Array::is_array(options) {
            "an array".to_string()
        } else {
            format!("a {}", options.js_typeof().as_string().unwrap_or_default())
        };
        return Err(Err(format!(
            "Logtime: options must be an object like {{ scenario: \"lookup-scan\", panels: \"partition lookup\" }} or a scenario name, not {what}"
        )));
    }
    let mut pairs = Vec::new();
    let mut host_scheme = None;
    for entry in js_sys::Object::entries(options.unchecked_ref()).iter() {
        let pair: js_sys::Array = entry.unchecked_into();
        let key = pair.get(0).as_string().unwrap_or_default();
        let value = pair.get(1);
        if value.is_undefined() || value.is_null() {
            continue;
        }
        let text = if let Some(s) = value.as_string() {
            s
        } else if let Some(b) = value.as_bool() {
            b.to_string()
        } else if let Some(n) = value.as_f64() {
            // JS's own number-to-text, as a page author reads it (and no float formatting
            // code in the wasm).
            js_sys::Number::from(n)
                .to_string_with_radix(10)
                .map(String::from)
                .unwrap_or_default()
        } else {
            return Err(Ok(EmbedError::new(
                &key,
                &format!("{value:?}"),
                "must be a string",
            )));
        };
        if key == "hostColorScheme" {
            host_scheme = Some(text);
        } else {
            pairs.push((key, text));
        }
    }
    options::parse(context, Origin::Object, &pairs, host_scheme.as_deref()).map_err(Ok)
}

/// A mounted explorer, returned to JS by [`mount`].
#[wasm_bindgen]
pub struct Explorer {
    id: u32,
}

#[wasm_bindgen]
impl Explorer {
    /// Changes the options (same forms as [`mount`]). A bad value shows an error box naming it
    /// in this explorer and is thrown; a bad argument (an array, a number) is refused and the
    /// explorer keeps running unchanged.
    pub fn update(&mut self, options: JsValue) -> Result<(), JsValue> {
        let parsed = match options_from_js(Context::Embed, &options) {
            Err(Err(refused)) => return Err(js_error(&refused)),
            Ok(o) => Ok(o),
            Err(Ok(e)) => Err(e),
        };
        let message = parsed.as_ref().err().map(ToString::to_string);
        let found = MOUNTED.with(|m| {
            let mut m = m.borrow_mut();
            match m.iter_mut().find(|x| x.id == self.id) {
                Some(x) => {
                    x.handle.update(RootProps { options: parsed });
                    true
                }
                None => false,
            }
        });
        if !found {
            return Err(js_error(
                "Logtime: this explorer was destroyed, or replaced by a later mount into the same element",
            ));
        }
        match message {
            Some(m) => Err(js_error(&m)),
            None => Ok(()),
        }
    }

    /// Unmounts the explorer and empties its host element's shadow root.
    pub fn destroy(&mut self) {
        let gone = MOUNTED.with(|m| {
            let mut m = m.borrow_mut();
            m.iter().position(|x| x.id == self.id).map(|i| m.remove(i))
        });
        if let Some(x) = gone {
            unmount_one(x);
        }
    }
}

fn unmount_one(x: Mounted) {
    x.handle.destroy();
    glue::unguard(&x.host);
    let _ = x.host.remove_attribute(MOUNTED_ATTR);
    if let Some(root) = x.host.shadow_root() {
        root.set_inner_html("");
    }
}

/// Mounts an independent explorer into `element` (a `<div>`, `<section>`, a custom element…:
/// anything that can host a shadow root). Mounting again into the same element replaces the
/// explorer there.
///
/// `options`: an object of option names to values (see [`options`]), a scenario name, or
/// `undefined` for the defaults. A bad option shows an error box naming it in `element` and is
/// thrown; a bad `element` or options argument is thrown.
#[wasm_bindgen]
pub fn mount(element: JsValue, options: JsValue) -> Result<Explorer, JsValue> {
    install_panic_hook();
    glue::install_guard();
    let element = element_arg(&element).map_err(|m| js_error(&m))?;
    let parsed = match options_from_js(Context::Embed, &options) {
        Err(Err(refused)) => return Err(js_error(&refused)),
        Ok(o) => Ok(o),
        Err(Ok(e)) => Err(e),
    };
    let message = parsed.as_ref().err().map(ToString::to_string);
    let explorer = mount_options(element, parsed).map_err(|m| js_error(&m))?;
    match message {
        Some(m) => Err(js_error(&m)),
        None => Ok(explorer),
    }
}

/// Destroys whatever explorer is mounted in `element` (one mounted with options that were
/// refused has no handle to destroy it by).
#[wasm_bindgen]
pub fn unmount(element: &Element) {
    let gone = MOUNTED.with(|m| {
        let mut m = m.borrow_mut();
        m.iter()
            .position(|x| x.host == *element)
            .map(|i| m.remove(i))
    });
    if let Some(x) = gone {
        unmount_one(x);
    }
}

/// The `element` argument of [`mount`], or a sentence naming it.
fn element_arg(element: &JsValue) -> Result<Element, String> {
    if element.is_null() || element.is_undefined() {
        return Err(format!(
            "Logtime: mount(element, options): `element` is {}; pass the element to mount into, e.g. document.querySelector('#explorer')",
            if element.is_null() { "null" } else { "undefined" }
        ));
    }
    element.dyn_ref::<Element>().cloned().ok_or_else(|| {
        format!(
            "Logtime: mount(element, options): `element` must be a DOM element, not {}",
            element.js_typeof().as_string().unwrap_or_default()
        )
    })
}

/// Mounts with already parsed options (or the reason they were refused, shown in place).
/// Replaces an explorer already mounted in `element`.
pub fn mount_options(
    element: Element,
    options: Result<Options, EmbedError>,
) -> Result<Explorer, String> {
    install_panic_hook();
    let previous = MOUNTED.with(|m| {
        let mut m = m.borrow_mut();
        m.iter()
            .position(|x| x.host == element)
            .map(|i| m.remove(i))
    });
    if let Some(x) = previous {
        unmount_one(x);
    }
    let container = shadow_container(&element)?;
    let _ = element.set_attribute(MOUNTED_ATTR, "");
    glue::guard(&element);
    let handle =
        yew::Renderer::<Root>::with_root_and_props(container, RootProps { options }).render();
    let id = NEXT_ID.with(|n| n.replace(n.get() + 1));
    MOUNTED.with(|m| {
        m.borrow_mut().push(Mounted {
            id,
            host: element,
            handle,
        })
    });
    Ok(Explorer { id })
}

/// Mounts a scenario with the embed defaults (Rust callers, tests).
pub fn mount_source(element: Element, scenario: ScenarioSource) -> Explorer {
    let mut o = Options::new(Context::Embed);
    o.source = scenario;
    mount_options(element, Ok(o)).expect("the test host can hold a shadow root")
}

/// The element's shadow root (attached on first use), emptied, with Logtime's styles and a
/// container for the app.
fn shadow_container(host: &Element) -> Result<Element, String> {
    let doc = host
        .owner_document()
        .ok_or("the element is not in a document")?;
    let root = match host.shadow_root() {
        Some(r) => r,
        None => host
            .attach_shadow(&web_sys::ShadowRootInit::new(web_sys::ShadowRootMode::Open))
            .map_err(|_| {
                format!(
                    "Logtime: cannot mount into <{}>: it cannot host a shadow root; use a <div>, a <section> or <logtime-explorer>",
                    host.tag_name().to_ascii_lowercase()
                )
            })?,
    };
    root.set_inner_html("");
    let style = doc.create_element("style").map_err(|_| "no <style>")?;
    style.set_text_content(Some(STYLES));
    let container = doc.create_element("div").map_err(|_| "no <div>")?;
    let _ = container.set_attribute("class", "logtime-container");
    let _ = root.append_child(&style);
    let _ = root.append_child(&container);
    Ok(container)
}

/// The standalone page's options, from its URL.
pub fn page_options() -> Result<Options, EmbedError> {
    let search = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default();
    let mut pairs = Vec::new();
    if let Ok(params) = web_sys::UrlSearchParams::new_with_str(&search) {
        for entry in js_sys::try_iter(&params)
            .ok()
            .flatten()
            .into_iter()
            .flatten()
        {
            let Ok(entry) = entry else { continue };
            let pair: js_sys::Array = entry.unchecked_into();
            pairs.push((
                pair.get(0).as_string().unwrap_or_default(),
                pair.get(1).as_string().unwrap_or_default(),
            ));
        }
    }
    options::parse(Context::Standalone, Origin::Url, &pairs, None)
}

/// Mounts the class page (`class.html`) into `element`: the lesson named by the page's
/// `?lesson=`, results pasted, dropped or picked, re-scored in the browser.
#[wasm_bindgen]
pub fn mount_class(element: Element) {
    install_panic_hook();
    let location = web_sys::window().map(|w| w.location());
    let lesson = location
        .as_ref()
        .and_then(|l| l.search().ok())
        .and_then(|s| web_sys::UrlSearchParams::new_with_str(&s).ok())
        .and_then(|p| p.get("lesson"));
    let code = location
        .and_then(|l| l.hash().ok())
        .map(|h| h.trim_start_matches('#').to_string())
        .filter(|h| !h.is_empty());
    element.set_inner_html("");
    yew::Renderer::<class_page::ClassPage>::with_root_and_props(
        element,
        class_page::ClassProps { lesson, code },
    )
    .render();
}

/// Module entry point: panic hook and guard, then auto-mount into `#app` if the page asks.
#[wasm_bindgen(start)]
pub fn start() {
    mount_page();
}

/// Mounts the standalone explorer into the page's `<main id="app" data-logtime-auto>` with the
/// options of the page URL, unless one is mounted there already ([`start`] does at load).
#[wasm_bindgen]
pub fn mount_page() {
    install_panic_hook();
    glue::install_guard();
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    // Only Logtime's own page opts in (`<main id="app" data-logtime-auto>`), so a docs page
    // that happens to have an `#app` and uses logtime-embed.js is left alone.
    let Some(app) = doc.get_element_by_id("app") else {
        return; // an embedding page: logtime-embed.js calls `mount` per element
    };
    if !app.has_attribute(AUTO_ATTR) || app.has_attribute(MOUNTED_ATTR) {
        return;
    }
    let options = page_options();
    // The page follows an explicit theme too (its background around the explorer).
    if let (Ok(o), Some(html)) = (&options, doc.document_element()) {
        if o.theme != options::Theme::Auto {
            let _ = html.set_attribute("style", &format!("color-scheme: {}", o.theme.name()));
        }
    }
    // The handle is not needed: the page-level app lives as long as the page.
    if let Err(m) = mount_options(app.clone(), options) {
        render_error(&app, "Logtime explorer could not start", &m);
    }
    glue::post_height();
}

/// Installs (once) the panic hook that shows crashes in the page.
/// It goes through `yew::set_custom_panic_hook` so Yew does not replace it.
pub fn install_panic_hook() {
    thread_local! {
        static INSTALLED: Cell<bool> = const { Cell::new(false) };
    }
    if INSTALLED.with(|i| i.replace(true)) {
        return;
    }
    yew::set_custom_panic_hook(Box::new(|info| {
        let msg = info.to_string();
        // Log with a JS stack so the console shows where it happened.
        web_sys::console::error_1(&js_sys::Error::new(&format!("Logtime panicked: {msg}")).into());
        let hosts: Vec<Element> = MOUNTED.with(|m| {
            m.try_borrow()
                .map(|m| m.iter().map(|x| x.host.clone()).collect())
                .unwrap_or_default()
        });
        let mut drawn = false;
        for el in hosts.iter().filter(|el| el.is_connected()) {
            render_error(el, "Logtime explorer crashed", &msg);
            drawn = true;
        }
        if !drawn {
            let fallback = web_sys::window().and_then(|w| w.document()).and_then(|d| {
                d.get_element_by_id("app")
                    .or_else(|| d.body().map(Into::into))
            });
            if let Some(el) = fallback {
                render_error(&el, "Logtime explorer crashed", &msg);
            }
        }
    }));
}

/// Replaces `host`'s content (its shadow root's, when it has one) with a visible error box
/// (`role="alert"`). Styled inline so it shows without Logtime's stylesheets.
pub fn render_error(host: &Element, title: &str, detail: &str) {
    let Some(doc) = host.owner_document() else {
        return;
    };
    let make = |tag: &str| doc.create_element(tag).ok();
    let (Some(bx), Some(head), Some(pre), Some(hint)) =
        (make("div"), make("strong"), make("pre"), make("p"))
    else {
        return;
    };
    let _ = bx.set_attribute("class", "logtime-error");
    let _ = bx.set_attribute("role", "alert");
    let _ = bx.set_attribute("data-testid", "logtime-error");
    let _ = bx.set_attribute(
        "style",
        "box-sizing:border-box;margin:0.5rem 0;padding:0.75rem 1rem;border:2px solid #b00020;\
         border-radius:6px;background:#fff4f4;color:#5c0011;font:14px/1.4 system-ui,sans-serif;\
         max-width:100%;overflow:auto;color-scheme:light",
    );
    head.set_text_content(Some(title));
    let _ = pre.set_attribute(
        "style",
        "white-space:pre-wrap;word-break:break-word;margin:0.5rem 0;font:13px/1.4 ui-monospace,monospace",
    );
    pre.set_text_content(Some(detail));
    hint.set_text_content(Some(
        "Reload the page to try again. Details are in the browser console.",
    ));
    let _ = hint.set_attribute("style", "margin:0");
    let _ = bx.append_child(&head);
    let _ = bx.append_child(&pre);
    let _ = bx.append_child(&hint);
    match host.shadow_root() {
        Some(root) => {
            root.set_inner_html("");
            let _ = root.append_child(&bx);
        }
        None => {
            host.set_inner_html("");
            let _ = host.append_child(&bx);
        }
    }
    if let Some(el) = host.dyn_ref::<web_sys::HtmlElement>() {
        el.set_hidden(false);
    }
}

/// Test-only: exhausts the wasm instance's memory, the way a scenario too large for the browser
/// would. The allocation failure aborts (a `RuntimeError: unreachable` trap, not a panic), which
/// kills the instance; the end-to-end tests use it to check that every explorer on the page
/// then says it stopped. Never called by the explorer.
#[wasm_bindgen]
pub fn testing_exhaust_memory() -> usize {
    let mut blocks: Vec<Vec<u8>> = Vec::new();
    loop {
        // 256 MiB at a time, never written: reserved, not touched, until the 4 GiB limit.
        blocks.push(Vec::with_capacity(256 << 20));
        std::hint::black_box(&blocks);
        if blocks.len() > 64 {
            return blocks.len();
        }
    }
}
