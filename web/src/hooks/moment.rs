//! The link to the moment shown: for the standalone page's URL (each change a history entry,
//! Back and Forward rebuilding the moment they name) and for "Copy link to this moment".

use logtime_core::scenario::{Entry, Journal, Source};
use yew::prelude::*;

#[cfg(target_arch = "wasm32")]
use super::loads::restore_of;
use super::loads::{absolute, Loads};
use crate::embed::ScenarioSource;
use crate::model::import;
use crate::model::moment::{self, SourceParam};
#[cfg(target_arch = "wasm32")]
use crate::model::timeline;
use crate::options::{Context, Options, Theme};
use crate::state::Explorer;
#[cfg(target_arch = "wasm32")]
use crate::state::LoadAction;

/// The link to the moment shown, or why there is none to carry.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MomentLink {
    /// The query string (`?scenario=…&step=…`) naming the moment, once there is one.
    pub query: Option<String>,
    /// Why this scenario cannot travel in a link (an imported partition too large to pack).
    pub refused: Option<String>,
}

/// The scenario part of a moment link for the loaded scenario; packing an inline scenario is
/// asynchronous, so it comes from `packed` once ready.
fn source_param(source: &ScenarioSource, packed: Option<&String>) -> Option<SourceParam> {
    Some(match source {
        ScenarioSource::Builtin(n) => SourceParam::Builtin(n.clone()),
        ScenarioSource::Url(u) => SourceParam::Url(absolute(u)),
        ScenarioSource::Packed(z) => SourceParam::Packed(z.clone()),
        ScenarioSource::Inline(_) => SourceParam::Packed(packed?.clone()),
    })
}

/// The link to what the replay shows, named by the origin it was loaded from (not by a pick
/// still loading, which would pair the new scenario with the old moment): a scenario's moment,
/// or a lesson (`Some` of the step it was opened at, when not its own start). A lesson's link
/// names where it opened, not the reader's latest step: a lesson run keeps no journal to
/// rebuild a moment from, and its steps are no history entries (Back leaves the lesson).
/// `picked` is the packed form of an inline origin.
pub fn shown_query(
    origin: &Source,
    picked: Option<SourceParam>,
    journal: Option<&Journal>,
    lesson: Option<Option<usize>>,
    text: &str,
    view: &[(&'static str, String)],
) -> Option<String> {
    let sp = match origin {
        Source::Builtin(n) => SourceParam::Builtin(n.clone()),
        Source::Url(u) => SourceParam::Url(absolute(u)),
        Source::Inline(_) => picked.filter(|p| matches!(p, SourceParam::Packed(_)))?,
    };
    match journal {
        Some(j) => Some(moment::query_string(&moment::params(&sp, j, text, view))),
        None => {
            let opened = Journal {
                source: origin.clone(),
                entries: vec![Entry::Step; lesson?.unwrap_or(0)],
            };
            Some(moment::query_string(&moment::params(
                &sp, &opened, text, view,
            )))
        }
    }
}

/// The view options a standalone link keeps (those that differ from the defaults), and for a
/// lesson the mode and variant it is played in.
fn view_params(o: &Options, lesson: Option<(&str, Option<u64>)>) -> Vec<(&'static str, String)> {
    let mut v = Vec::new();
    if o.context != Context::Standalone {
        return v;
    }
    // Author mode is kept: reloading the page starts a draft from the moment again.
    if o.mode == Some(crate::options::Mode::Author) {
        v.push(("mode", "author".to_string()));
    }
    if let Some((mode, seed)) = lesson {
        if !mode.is_empty() {
            v.push(("mode", mode.to_string()));
        }
        if let Some(s) = seed {
            v.push(("seed", s.to_string()));
        }
    }
    if let Some(p) = o.panels {
        v.push(("panels", p.names()));
    }
    if !o.menu {
        v.push(("menu", "false".to_string()));
    }
    if o.theme != Theme::Auto {
        v.push(("theme", o.theme.name().to_string()));
    }
    v
}

/// The link to the moment `st` shows, loaded from `source`; an inline scenario is packed once
/// for it (asynchronously).
#[hook]
pub fn use_moment_link(opts: &Options, st: &Explorer, source: &ScenarioSource) -> MomentLink {
    let packed = use_state(|| None::<(usize, String)>);
    {
        let packed = packed.clone();
        let text = st.replay.source.clone();
        let inline = matches!(source, ScenarioSource::Inline(_)) && !text.is_empty();
        use_effect_with((text, inline), move |(text, inline)| {
            if *inline {
                let text = text.clone();
                wasm_bindgen_futures::spawn_local(async move {
                    if let Ok(z) = crate::glue::pack(&text).await {
                        packed.set(Some((text.len(), z)));
                    }
                });
            }
        });
    }
    let replay = &st.replay;
    let packed_z = packed
        .as_ref()
        .filter(|(n, _)| *n == replay.source.len())
        .map(|(_, z)| z.clone());
    // A scenario too large to carry in a link (an imported partition) is refused with a reason.
    let refused = packed_z
        .as_ref()
        .and_then(|z| import::link_refusal(z.len()));
    let packed_z = packed_z.filter(|_| refused.is_none());
    // The pick names the packed form of an inline scenario only when it is the one shown.
    let picked = match (source, &*replay.origin) {
        (ScenarioSource::Inline(j), Source::Inline(t)) if j == t => {
            source_param(source, packed_z.as_ref())
        }
        (ScenarioSource::Packed(_), Source::Inline(_)) => source_param(source, packed_z.as_ref()),
        _ => None,
    };
    // A lesson's link keeps the mode and variant it is played in (every load takes them).
    let (mode, seed) = st.wanted;
    let lesson = replay
        .is_lesson()
        .then(|| (mode.map_or("", |m| m.name()), seed));
    let view = view_params(opts, lesson);
    // A half-rebuilt journal is no moment to link to (or to put in the history).
    let query = (replay.error.is_none() && replay.notice.is_none() && st.rebuild.is_none())
        .then(|| {
            shown_query(
                &replay.origin,
                picked,
                replay.journal().as_deref(),
                replay.lesson_opened_at(),
                &replay.source,
                &view,
            )
        })
        .flatten();
    MomentLink { query, refused }
}

/// The URL last written to the standalone page (empty before the first write: that one
/// replaces the entry the page opened with instead of adding one).
pub type LastUrl = std::rc::Rc<std::cell::RefCell<String>>;

/// The standalone page: the URL always holds the moment; each change is a history entry
/// (playback replaces it instead, at most once a second: a history write costs milliseconds,
/// and pausing writes the moment stopped at).
#[hook]
pub fn use_url_sync(standalone: bool, link: &MomentLink, playing: bool) -> LastUrl {
    let last_url = use_mut_ref(String::new);
    let written = last_url.clone();
    // When the URL was last written (page clock, ms).
    let written_at = use_mut_ref(|| f64::NEG_INFINITY);
    let refused = link.refused.is_some();
    use_effect_with(
        (link.query.clone(), refused, playing),
        move |(q, refused, _)| {
            #[cfg(target_arch = "wasm32")]
            write_url(
                standalone,
                q.as_ref(),
                *refused,
                playing,
                &last_url,
                &written_at,
            );
            #[cfg(not(target_arch = "wasm32"))]
            let _ = (standalone, playing, q, refused, last_url, written_at);
        },
    );
    written
}

#[cfg(target_arch = "wasm32")]
fn write_url(
    standalone: bool,
    q: Option<&String>,
    refused: bool,
    playing: bool,
    last_url: &std::cell::RefCell<String>,
    written_at: &std::cell::RefCell<f64>,
) {
    let Some(w) = web_sys::window().filter(|_| standalone) else {
        return;
    };
    if refused {
        let path = w.location().pathname().unwrap_or_default();
        if let Ok(h) = w.history() {
            let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&path));
        }
        *last_url.borrow_mut() = String::new();
    }
    let now = js_sys::Date::now();
    if !timeline::url_due(playing, *written_at.borrow(), now) {
        return;
    }
    *written_at.borrow_mut() = now;
    let Some(q) = q else { return };
    let here = w.location().search().unwrap_or_default();
    let first = last_url.borrow().is_empty();
    // In an iframe a history entry would be the host page's too: its Back button would step the
    // explorer instead of leaving the page.
    let framed = w.parent().ok().flatten().is_some_and(|p| p != w);
    if *q != here {
        if let Ok(h) = w.history() {
            let _ = if first || playing || framed {
                h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(q))
            } else {
                h.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(q))
            };
        }
    }
    *last_url.borrow_mut() = q.clone();
}

/// The standalone page: Back and Forward rebuild the moment the URL names (a moment of the
/// scenario shown, or another scenario).
#[hook]
pub fn use_history_moments(
    standalone: bool,
    loads: &Loads,
    last_url: LastUrl,
    d: UseReducerDispatcher<Explorer>,
) {
    let current = (*loads.source).clone();
    let loads = loads.clone();
    use_effect_with((current, standalone), move |(current, standalone)| {
        #[cfg(target_arch = "wasm32")]
        let keep = standalone.then(|| {
            use wasm_bindgen::closure::Closure;
            use wasm_bindgen::JsCast;
            let current = current.clone();
            let cb = Closure::<dyn Fn()>::new(move || {
                let Ok(o) = crate::page_options() else { return };
                let search = web_sys::window()
                    .and_then(|w| w.location().search().ok())
                    .unwrap_or_default();
                *last_url.borrow_mut() = search;
                if o.source == current {
                    d.dispatch(LoadAction::Restore(restore_of(&o)).into());
                } else {
                    loads.go(o.source.clone(), Some(restore_of(&o)));
                }
            });
            if let Some(w) = web_sys::window() {
                let _ = w.add_event_listener_with_callback("popstate", cb.as_ref().unchecked_ref());
            }
            cb
        });
        #[cfg(not(target_arch = "wasm32"))]
        let _ = (current, standalone, d, loads, last_url);
        move || {
            #[cfg(target_arch = "wasm32")]
            if let (Some(cb), Some(w)) = (keep, web_sys::window()) {
                use wasm_bindgen::JsCast;
                let _ =
                    w.remove_event_listener_with_callback("popstate", cb.as_ref().unchecked_ref());
            }
        }
    });
}

/// "Copy link to this moment": the last link made (and whether it reached the clipboard), and
/// the callback that makes it. An embed's link opens `page` (default `index.html` beside the
/// module) at the moment.
#[hook]
pub fn use_copy_link(
    opts: &Options,
    link: &MomentLink,
) -> (Option<(AttrValue, bool)>, Callback<()>) {
    let made = use_state(|| None::<(AttrValue, bool)>);
    let on_copy = {
        let made = made.clone();
        let link = link.clone();
        let page = match opts.context {
            Context::Standalone => None,
            Context::Embed => Some(opts.page.clone().unwrap_or_else(|| "index.html".into())),
        };
        Callback::from(move |()| {
            if let Some(r) = &link.refused {
                made.set(Some((AttrValue::from(r.clone()), false)));
                return;
            }
            let Some(q) = &link.query else { return };
            let url = match &page {
                None => absolute(q),
                Some(p) => {
                    let base = absolute(p);
                    let base = base
                        .split(['?', '#'])
                        .next()
                        .unwrap_or_default()
                        .to_string();
                    format!("{base}{q}")
                }
            };
            let made = made.clone();
            wasm_bindgen_futures::spawn_local(async move {
                let copied = crate::glue::copy_text(&url).await;
                made.set(Some((AttrValue::from(url), copied)));
            });
        })
    };
    ((*made).clone(), on_copy)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn journal(source: Source, steps: usize) -> Journal {
        Journal {
            source,
            entries: vec![Entry::Step; steps],
        }
    }

    #[test]
    fn the_link_names_what_is_shown() {
        let view = [("theme", "dark".to_string())];
        let shown = Source::Builtin("lookup-scan".into());
        let j = journal(shown.clone(), 2);
        assert_eq!(
            shown_query(&shown, None, Some(&j), None, "{}", &view).as_deref(),
            Some("?scenario=lookup-scan&step=2&theme=dark")
        );
        // A lesson has no journal: its link names it alone, with no step, or the step a link
        // opened it at.
        let lesson = Source::Builtin("future-walkthrough".into());
        assert_eq!(
            shown_query(&lesson, None, None, Some(None), "{}", &view).as_deref(),
            Some("?scenario=future-walkthrough&theme=dark")
        );
        assert_eq!(
            shown_query(&lesson, None, None, Some(Some(3)), "{}", &[]).as_deref(),
            Some("?scenario=future-walkthrough&step=3")
        );
        // Nothing loaded: no link.
        assert_eq!(shown_query(&lesson, None, None, None, "{}", &view), None);
        // An inline scenario waits for its packed form.
        let inline = Source::Inline("{}".into());
        let j = journal(inline.clone(), 1);
        assert_eq!(shown_query(&inline, None, Some(&j), None, "{}", &[]), None);
        assert_eq!(
            shown_query(
                &inline,
                Some(SourceParam::Packed("abc".into())),
                Some(&j),
                None,
                "{}",
                &[]
            )
            .as_deref(),
            Some("?z=abc&step=1")
        );
        // A pick still loading cannot name an inline origin.
        assert_eq!(
            shown_query(
                &inline,
                Some(SourceParam::Builtin("lookup-scan".into())),
                Some(&j),
                None,
                "{}",
                &[]
            ),
            None
        );
    }

    #[test]
    fn a_standalone_link_keeps_the_lesson_mode_and_the_view_options_that_differ() {
        let mut o = Options::new(Context::Standalone);
        assert!(view_params(&o, None).is_empty());
        o.menu = false;
        o.theme = Theme::Dark;
        assert_eq!(
            view_params(&o, Some(("drill", Some(7)))),
            vec![
                ("mode", "drill".to_string()),
                ("seed", "7".to_string()),
                ("menu", "false".to_string()),
                ("theme", "dark".to_string()),
            ]
        );
        // An embed's link names no view options: the page it opens has its own.
        let mut e = Options::new(Context::Embed);
        e.menu = false;
        assert!(view_params(&e, Some(("drill", None))).is_empty());
    }
}
