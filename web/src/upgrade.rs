//! The hand-over from the page's first module to the module with the lesson engine.
//!
//! The page loads `logtime-web` built without its `lessons` feature (index.html,
//! logtime-embed.js): the explorer, the scenario menu and the import, but not the lesson and
//! incident engine nor the lesson pane, which would be a fifth of its download. When a reader
//! opens a lesson (from the menu, a link or an embed's attributes), the load finds a document
//! that module cannot play ([`Replay::needs_lessons`](crate::state::Replay::needs_lessons)) and
//! hands its explorer over: `glue.js` loads `logtime-full.js` (this crate with the feature,
//! built as `web-full/`) once per page, this module's explorer is unmounted from its host
//! element, and the other module mounts one there with the same options and the lesson as its
//! source. The standalone page keeps its URL and history (a lesson picked from the menu is a new
//! history entry); an embed's element is told by a `logtime-upgraded` event carrying the new
//! module and explorer handle.

use crate::embed::ScenarioSource;

/// The option that names `source`, as `mount` and the page URL take it.
pub fn source_option(source: &ScenarioSource) -> (&'static str, String) {
    let key = match source {
        ScenarioSource::Builtin(_) => "scenario",
        ScenarioSource::Url(_) => "src",
        ScenarioSource::Inline(_) => "inline",
        ScenarioSource::Packed(_) => "z",
    };
    (key, source.value().to_string())
}

/// Hands the explorer rendered at `node` over to the module with the lesson engine, to load
/// `source` there. `source` replaces the options' own source (and the moment they ask for) when
/// it differs from it: `same` says whether it does. `failed` gets a sentence when the module
/// cannot be loaded; the explorer here then stays mounted.
pub fn hand_over(
    node: &web_sys::Node,
    source: &ScenarioSource,
    same: bool,
    standalone: bool,
    failed: impl FnOnce(String) + 'static,
) {
    #[cfg(target_arch = "wasm32")]
    {
        use wasm_bindgen::JsCast;
        let Some(host) = node
            .get_root_node()
            .dyn_into::<web_sys::ShadowRoot>()
            .ok()
            .map(|r| r.host())
        else {
            failed("the explorer is not mounted in a page".into());
            return;
        };
        let given = crate::given_options(&host).unwrap_or(wasm_bindgen::JsValue::UNDEFINED);
        let (key, value) = source_option(source);
        let key = (!same).then_some(key);
        let unmount = {
            let host = host.clone();
            wasm_bindgen::closure::Closure::once_into_js(move || crate::unmount(&host))
        };
        let done = crate::glue::hand_over(&host, &given, key, &value, standalone, &unmount);
        wasm_bindgen_futures::spawn_local(async move {
            if let Err(e) = wasm_bindgen_futures::JsFuture::from(done).await {
                let why = js_sys::Error::from(e)
                    .message()
                    .as_string()
                    .unwrap_or_default();
                failed(format!(
                    "This is a lesson, and the module that plays lessons could not start: {why}"
                ));
            }
        });
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        let _ = (node, source, same, standalone);
        failed("lessons need the browser's second module".into());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_source_is_named_by_its_option() {
        let cases = [
            (ScenarioSource::Builtin("future-drill".into()), "scenario"),
            (ScenarioSource::Url("x/lesson.json".into()), "src"),
            (ScenarioSource::Inline("{}".into()), "inline"),
            (ScenarioSource::Packed("abc".into()), "z"),
        ];
        for (source, key) in cases {
            let (k, v) = source_option(&source);
            assert_eq!(k, key);
            assert_eq!(v, source.value());
            assert!(crate::options::OPTION_NAMES.contains(&k));
        }
    }

    /// web-full/ compiles these sources as a second package: its dependencies must be these.
    #[test]
    fn web_full_dependencies_match() {
        let section = |toml: &str| -> Vec<String> {
            let start = toml
                .find("[dependencies]")
                .expect("a [dependencies] section");
            let rest = &toml[start..];
            let end = rest[1..].find("\n[").map_or(rest.len(), |i| i + 1);
            rest[..end]
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty() && !l.starts_with('#'))
                .map(String::from)
                .collect()
        };
        let web = include_str!("../Cargo.toml");
        let full = include_str!("../../web-full/Cargo.toml");
        assert_eq!(section(web), section(full));
        assert!(full.contains("path = \"../web/src/lib.rs\""));
    }
}
