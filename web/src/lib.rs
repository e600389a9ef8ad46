//! Logtime web explorer: plumbing.
//!
//! * [`mount`] (exported to JS) mounts an independent explorer into any element;
//!   `static/logtime-embed.js` uses it for each `<logtime-explorer>` element.
//! * [`start`] runs when the module is initialised: it installs the panic hook and,
//!   when the page has a `<div id="app" data-logtime-auto>` (index.html), mounts the explorer there,
//!   taking `?scenario=` / `?src=` from the page URL.
//! * The panic hook logs to the console and replaces every mounted explorer with a
//!   visible error box, so a crash never leaves a dead, blank page.
//!
//! The explorer itself is [`app::App`]: its state in [`state`] (a reducer over one struct per
//! panel), plain maths in [`model`], drawing in [`draw`], the panels in [`components`], and the
//! built-in scenarios in [`builtins`].

pub mod app;
pub mod builtins;
pub mod components;
pub mod draw;
pub mod embed;
pub mod model;
pub mod state;

use std::cell::RefCell;

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::Element;
use yew::prelude::*;
use yew::AppHandle;

pub use app::{App, AppProps};
pub use embed::{EmbedError, ScenarioSource, DEFAULT_SCENARIO};

/// The `scenario` attribute, as error messages name it.
pub const ATTR_SCENARIO: &str = "scenario";
/// The `src` attribute, as error messages name it.
pub const ATTR_SRC: &str = "src";
/// Inline JSON in a child `<script>`, as error messages name it.
pub const ATTR_INLINE: &str = "script[type=application/json]";

/// Marker set on a host element while an explorer is mounted in it.
const MOUNTED_ATTR: &str = "data-logtime-mounted";
/// Marker on index.html's `#app` asking [`start`] to mount there.
const AUTO_ATTR: &str = "data-logtime-auto";

thread_local! {
    /// Elements that currently host an explorer; the panic hook draws its error box in each.
    static HOSTS: RefCell<Vec<Element>> = const { RefCell::new(Vec::new()) };
}

/// Properties of the plumbing's root wrapper.
#[derive(Properties, PartialEq, Clone)]
pub struct RootProps {
    /// Which scenario to show, exactly as the host page gave it.
    pub scenario: ScenarioSource,
}

/// Wraps the UI's [`App`] in the element the tests and styles rely on:
/// `<div class="logtime-root" data-testid="app-root" data-scenario-kind=… data-scenario=…>`.
#[function_component(Root)]
pub fn root(props: &RootProps) -> Html {
    let shown = match &props.scenario {
        ScenarioSource::Inline(_) => "inline".to_owned(),
        other => other.value().to_owned(),
    };
    html! {
        <div class="logtime-root" data-testid="app-root"
             data-scenario-kind={props.scenario.kind()} data-scenario={shown}>
            <App scenario={props.scenario.clone()} />
        </div>
    }
}

/// Picks the scenario from the (at most one) source the host gave.
/// Each argument is `(attribute name, value)`; `None` means "not given".
pub fn resolve_source(
    scenario: Option<(&str, &str)>,
    src: Option<(&str, &str)>,
    inline: Option<(&str, &str)>,
) -> Result<ScenarioSource, EmbedError> {
    let given: Vec<&str> = [scenario, src, inline]
        .iter()
        .flatten()
        .map(|(name, _)| *name)
        .collect();
    if given.len() > 1 {
        let (name, value) = scenario.or(src).or(inline).unwrap_or_default();
        return Err(EmbedError::new(
            name,
            value,
            format!(
                "give only one scenario source, but found {} ({})",
                given.len(),
                given.join(", ")
            ),
        ));
    }
    if let Some((name, v)) = scenario {
        ScenarioSource::parse_attr(name, v)
    } else if let Some((name, v)) = src {
        ScenarioSource::parse_url(name, v)
    } else if let Some((name, v)) = inline {
        ScenarioSource::parse_inline(name, v)
    } else {
        Ok(ScenarioSource::default())
    }
}

/// Reads `{ scenario?, src?, inline? }` (all strings) — or a bare string, taken
/// as `scenario` — from a JS value. `undefined`/`null` mean the default scenario.
fn source_from_js(options: &JsValue) -> Result<ScenarioSource, EmbedError> {
    if options.is_undefined() || options.is_null() {
        return Ok(ScenarioSource::default());
    }
    if let Some(s) = options.as_string() {
        return ScenarioSource::parse_attr(ATTR_SCENARIO, &s);
    }
    if !options.is_object() {
        return Err(EmbedError::new(
            "options",
            &format!("{options:?}"),
            "expected an object like { scenario: \"lookup-scan\" } or a string",
        ));
    }
    let field = |key: &str| -> Result<Option<String>, EmbedError> {
        let v =
            js_sys::Reflect::get(options, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED);
        if v.is_undefined() || v.is_null() {
            Ok(None)
        } else if let Some(s) = v.as_string() {
            Ok(Some(s))
        } else {
            Err(EmbedError::new(key, &format!("{v:?}"), "must be a string"))
        }
    };
    let scenario = field("scenario")?;
    let src = field("src")?;
    let inline = field("inline")?;
    resolve_source(
        scenario.as_deref().map(|v| (ATTR_SCENARIO, v)),
        src.as_deref().map(|v| (ATTR_SRC, v)),
        inline.as_deref().map(|v| (ATTR_INLINE, v)),
    )
}

/// A mounted explorer, returned to JS by [`mount`].
#[wasm_bindgen]
pub struct Explorer {
    host: Element,
    handle: Option<AppHandle<Root>>,
}

#[wasm_bindgen]
impl Explorer {
    /// Changes the scenario (same options as [`mount`]). On a bad value the
    /// explorer keeps running unchanged and the error is returned.
    pub fn update(&mut self, options: JsValue) -> Result<(), JsValue> {
        let scenario = source_from_js(&options).map_err(|e| JsValue::from_str(&e.to_string()))?;
        match self.handle.as_mut() {
            Some(h) => {
                h.update(RootProps { scenario });
                Ok(())
            }
            None => Err(JsValue::from_str("this Logtime explorer was destroyed")),
        }
    }

    /// Unmounts the explorer and empties its host element.
    pub fn destroy(&mut self) {
        if let Some(h) = self.handle.take() {
            h.destroy();
        }
        forget_host(&self.host);
        let _ = self.host.remove_attribute(MOUNTED_ATTR);
    }
}

/// Mounts an independent explorer into `element` (its previous content is replaced).
///
/// `options`: `{ scenario?: string, src?: string, inline?: string }` (at most one),
/// or a bare string taken as `scenario`, or `undefined` for the default scenario.
/// On a bad option an error box naming the attribute and the reason is shown in
/// `element` and the message is returned as the error.
#[wasm_bindgen]
pub fn mount(element: Element, options: JsValue) -> Result<Explorer, JsValue> {
    install_panic_hook();
    let scenario = match source_from_js(&options) {
        Ok(s) => s,
        Err(e) => {
            let msg = e.to_string();
            render_error(&element, "Logtime explorer: bad embed options", &msg);
            return Err(JsValue::from_str(&msg));
        }
    };
    Ok(mount_source(element, scenario))
}

/// Mounts with an already parsed scenario (Rust callers, tests).
pub fn mount_source(element: Element, scenario: ScenarioSource) -> Explorer {
    install_panic_hook();
    let _ = element.set_attribute(MOUNTED_ATTR, "");
    remember_host(&element);
    let handle =
        yew::Renderer::<Root>::with_root_and_props(element.clone(), RootProps { scenario })
            .render();
    Explorer {
        host: element,
        handle: Some(handle),
    }
}

/// Module entry point: panic hook, then auto-mount into `#app` if the page has one.
#[wasm_bindgen(start)]
pub fn start() {
    install_panic_hook();
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    // Only Logtime's own page opts in (`<div id="app" data-logtime-auto>`), so a docs
    // page that happens to have an `#app` and uses logtime-embed.js is left alone.
    let Some(app) = doc.get_element_by_id("app") else {
        return; // an embedding page: logtime-embed.js calls `mount` per element
    };
    if !app.has_attribute(AUTO_ATTR) || app.has_attribute(MOUNTED_ATTR) {
        return;
    }
    let search = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default();
    let params = web_sys::UrlSearchParams::new_with_str(&search).ok();
    let get = |k: &str| params.as_ref().and_then(|p| p.get(k));
    let scenario = get("scenario");
    let src = get("src");
    match resolve_source(
        scenario.as_deref().map(|v| ("?scenario", v)),
        src.as_deref().map(|v| ("?src", v)),
        None,
    ) {
        Ok(s) => {
            // The handle is not needed: the page-level app lives as long as the page.
            let _explorer = mount_source(app, s);
        }
        Err(e) => render_error(&app, "Logtime explorer: bad page URL", &e.to_string()),
    }
}

fn remember_host(el: &Element) {
    HOSTS.with(|h| {
        if let Ok(mut h) = h.try_borrow_mut() {
            if !h.iter().any(|x| x == el) {
                h.push(el.clone());
            }
        }
    });
}

fn forget_host(el: &Element) {
    HOSTS.with(|h| {
        if let Ok(mut h) = h.try_borrow_mut() {
            h.retain(|x| x != el);
        }
    });
}

/// Installs (once) the panic hook that shows crashes in the page.
/// It goes through `yew::set_custom_panic_hook` so Yew does not replace it.
pub fn install_panic_hook() {
    thread_local! {
        static INSTALLED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    }
    if INSTALLED.with(|i| i.replace(true)) {
        return;
    }
    yew::set_custom_panic_hook(Box::new(|info| {
        let msg = info.to_string();
        // Log with a JS stack so the console shows where it happened.
        web_sys::console::error_1(&js_sys::Error::new(&format!("Logtime panicked: {msg}")).into());
        let mut drawn = false;
        HOSTS.with(|h| {
            if let Ok(h) = h.try_borrow() {
                for el in h.iter().filter(|el| el.is_connected()) {
                    render_error(el, "Logtime explorer crashed", &msg);
                    drawn = true;
                }
            }
        });
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

/// Replaces `host`'s content with a visible error box (`role="alert"`).
/// Styled inline so it shows even on pages without `style.css`.
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
         max-width:100%;overflow:auto",
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
    host.set_inner_html("");
    let _ = host.append_child(&bx);
    if let Some(el) = host.dyn_ref::<web_sys::HtmlElement>() {
        el.set_hidden(false);
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    #[test]
    fn resolve_defaults_and_single_sources() {
        assert_eq!(
            resolve_source(None, None, None),
            Ok(ScenarioSource::default())
        );
        assert_eq!(
            resolve_source(Some(("scenario", "million")), None, None),
            Ok(ScenarioSource::Builtin("million".into()))
        );
        assert_eq!(
            resolve_source(None, Some(("src", "a.json")), None),
            Ok(ScenarioSource::Url("a.json".into()))
        );
        assert_eq!(
            resolve_source(None, None, Some((ATTR_INLINE, "{}"))),
            Ok(ScenarioSource::Inline("{}".into()))
        );
    }

    #[test]
    fn resolve_rejects_two_sources_naming_them() {
        let e = resolve_source(Some(("scenario", "x")), Some(("src", "y.json")), None).unwrap_err();
        assert!(e.reason.contains("only one"), "{e}");
        assert!(e.reason.contains("scenario, src"), "{e}");
    }

    #[test]
    fn resolve_passes_on_attribute_names() {
        let e = resolve_source(None, Some(("?src", "javascript:x")), None).unwrap_err();
        assert_eq!(e.attribute, "?src");
    }
}
