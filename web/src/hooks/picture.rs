//! "Save picture" and "Copy picture": the moment shown, drawn by `logtime-render` (the same
//! picture as `logtime render`) and saved as SVG or PNG (the browser draws the SVG to a canvas:
//! no rasteriser ships in the wasm) or put on the clipboard; and an SVG made so, dropped on the
//! explorer, reopening its moment live.

use yew::prelude::*;

use super::loads::Loads;
use super::moment::MomentLink;
use crate::embed::ScenarioSource;
use crate::options::{Panel, Panels};
use crate::state::{Explorer, Log, Restore};
use logtime_lesson::{Affordance, Affordances};
use logtime_render::link::{self, SourceParam};
use logtime_render::PicturePanel;

/// What the picture buttons ask for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PictureAction {
    /// Download the SVG.
    SaveSvg,
    /// Download a PNG of it.
    SavePng,
    /// Put it on the clipboard.
    Copy,
}

/// Lines of "what happened" a picture takes from the log (its newest).
const HAPPENED_LINES: usize = 6;

/// What the reader has open besides the partition: the picture draws the same panels, as
/// `logtime render --panels` would, and leaves out what a lesson hides.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Shown {
    /// The picture's panels, in the picture's order.
    pub panels: Vec<PicturePanel>,
    /// The lookup's answer and marks may be drawn (a lesson's open question may hide them).
    pub lookup: bool,
    /// "What happened" as the log shows it: its newest lines, oldest first.
    pub happened: Vec<String>,
}

impl Shown {
    /// The panels on screen (`panels`), less what the lesson hides (`hidden`); the lane only
    /// when the scenario has a stream processor downstream (`stream`), under the partition.
    pub fn of(panels: Panels, hidden: Affordances, stream: bool, log: &Log) -> Shown {
        let lookup = !hidden.contains(Affordance::LookupTrace);
        let on = |p: PicturePanel| match p {
            PicturePanel::Lookup => panels.has(Panel::Lookup) && lookup,
            PicturePanel::Retention => {
                panels.has(Panel::Retention) && !hidden.contains(Affordance::Verdicts)
            }
            PicturePanel::Happened => panels.has(Panel::Log),
            PicturePanel::Lane => {
                panels.has(Panel::Partition)
                    && stream
                    && !hidden.contains(Affordance::StreamVerdicts)
            }
        };
        let lines = log.lines();
        let happened = if panels.has(Panel::Log) {
            lines[lines.len().saturating_sub(HAPPENED_LINES)..]
                .iter()
                .map(ToString::to_string)
                .collect()
        } else {
            Vec::new()
        };
        Shown {
            panels: PicturePanel::ALL.into_iter().filter(|p| on(*p)).collect(),
            lookup,
            happened,
        }
    }
}

/// The picture of what `state` shows with the panels `shown`, with `query` as its moment link
/// opening `page`; `captioned` when a caption around it gives its title and link (print).
pub fn picture_of(
    state: &Explorer,
    (query, page, title): (&str, &str, &str),
    dark: bool,
    shown: &Shown,
    captioned: bool,
) -> Option<String> {
    let runner = state.replay.runner()?;
    let lookup = state.lookup.result.as_deref().filter(|_| shown.lookup);
    let options = logtime_render::Options {
        width: 960.0,
        theme: if dark {
            logtime_render::Theme::Dark
        } else {
            logtime_render::Theme::Light
        },
        panels: shown.panels.clone(),
        captioned,
    };
    let m = logtime_render::Moment {
        title,
        partition: runner.partition(),
        lookup,
        happened: &shown.happened,
        stream: state.replay.stream.as_ref(),
        query,
        page,
    };
    logtime_render::picture(&m, &options).ok()
}

/// A file name for the picture: the scenario's name, or `logtime-moment`.
fn file_name(query: &str, ext: &str) -> String {
    let name = match link::parse_link(query).map(|m| m.source) {
        Ok(SourceParam::Builtin(n)) if n.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') => {
            n
        }
        _ => "logtime-moment".to_string(),
    };
    format!("{name}.{ext}")
}

/// The picture buttons' callback and the last outcome, for a status line.
#[hook]
pub fn use_picture(
    state: &UseReducerHandle<Explorer>,
    link: &MomentLink,
    page: &str,
    title: &AttrValue,
    dark: bool,
    shown: &Shown,
) -> (Option<AttrValue>, Callback<PictureAction>) {
    let status = use_state(|| None::<AttrValue>);
    let on = {
        let (status, state, link) = (status.clone(), state.clone(), link.clone());
        let (page, title, shown) = (page.to_string(), title.to_string(), shown.clone());
        Callback::from(move |a: PictureAction| {
            let query = link.query.clone().unwrap_or_default();
            let Some(svg) = picture_of(&state, (&query, &page, &title), dark, &shown, false) else {
                status.set(Some("There is no partition to draw yet.".into()));
                return;
            };
            let status = status.clone();
            wasm_bindgen_futures::spawn_local(async move {
                let said = match a {
                    PictureAction::SaveSvg => {
                        crate::glue::save_picture(&svg, &file_name(&query, "svg"), false).await
                    }
                    PictureAction::SavePng => {
                        crate::glue::save_picture(&svg, &file_name(&query, "png"), true).await
                    }
                    PictureAction::Copy => crate::glue::copy_picture(&svg).await,
                };
                status.set(Some(said.into()));
            });
        })
    };
    ((*status).clone(), on)
}

/// The picture printed in place of the explorer (`@media print`): the SVG of the moment shown,
/// redrawn when the moment changes but not on every frame of a playback (a printed page needs the
/// moment, not the animation; the last still moment stays until playback stops). Always the
/// light picture: it is printed on paper. Its caption gives the title and link, so the picture
/// leaves them out.
#[hook]
pub fn use_print_picture(
    state: &UseReducerHandle<Explorer>,
    link: &MomentLink,
    page: &str,
    title: &AttrValue,
    shown: &Shown,
) -> Option<AttrValue> {
    let query = link.query.clone().unwrap_or_default();
    let still = !state.playback.playing;
    let key = (
        query.clone(),
        page.to_string(),
        title.clone(),
        state.replay.done,
        state.lookup.result.is_some(),
        still,
        shown.clone(),
    );
    let last = use_mut_ref(|| None::<AttrValue>);
    let drawn = {
        let state = state.clone();
        use_memo(key, move |(query, page, title, _, _, still, shown)| {
            still
                .then(|| picture_of(&state, (query, page, title), false, shown, true))
                .flatten()
                .map(AttrValue::from)
        })
    };
    if let Some(svg) = (*drawn).clone() {
        *last.borrow_mut() = Some(svg);
    }
    let kept = last.borrow().clone();
    kept
}

/// The moment an SVG made by `logtime render` or "Save picture" names (its
/// `data-logtime-moment`), as a source and what to rebuild; `None` for any other SVG.
pub fn moment_of_svg(text: &str) -> Option<Result<(ScenarioSource, Restore), String>> {
    // The root element's start tag (after any XML declaration or comment).
    let start = text.find("<svg")?;
    let head = &text[start..start + text[start..].find('>')?];
    let at = head.find("data-logtime-moment=\"")? + "data-logtime-moment=\"".len();
    let raw = &head[at..at + head[at..].find('"')?];
    let query = raw
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&");
    Some(moment_of_query(&query))
}

fn moment_of_query(query: &str) -> Result<(ScenarioSource, Restore), String> {
    let m = link::parse_link(query)?;
    let label = |n: &str| n.to_string();
    let source = match m.source {
        SourceParam::Builtin(n) => ScenarioSource::parse_attr(&label("scenario"), &n),
        SourceParam::Url(u) => ScenarioSource::parse_url(&label("src"), &u),
        SourceParam::Packed(z) => ScenarioSource::parse_packed(&label("z"), &z),
    }
    .map_err(|e| e.to_string())?;
    let restore = Restore {
        moment: m.moment,
        step: m.step,
        lookup: m.lookup,
    };
    Ok((source, restore))
}

/// Drops on the explorer: an SVG picture of a moment reopens that moment; anything else is left
/// to the panels that take drops (the import panel).
#[hook]
pub fn use_picture_drop(loads: &Loads) -> (Callback<DragEvent>, Callback<DragEvent>) {
    let loads = loads.clone();
    let over = Callback::from(|e: DragEvent| {
        if crate::glue::drag_has_svg(&e) {
            e.prevent_default();
        }
    });
    let drop = Callback::from(move |e: DragEvent| {
        if !crate::glue::drag_has_svg(&e) {
            return;
        }
        e.prevent_default();
        let loads = loads.clone();
        let read = crate::glue::dropped_text(&e);
        wasm_bindgen_futures::spawn_local(async move {
            let Some(text) = read.await else { return };
            if let Some(Ok((source, restore))) = moment_of_svg(&text) {
                loads.go(source, Some(restore));
            }
        });
    });
    (over, drop)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rendered_svg_names_its_moment() {
        let svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" data-logtime-moment=\"?scenario=lookup-scan&amp;step=4&amp;lookup=2025-11-04T10%3A00%3A05Z\"><title>x</title></svg>";
        let (source, restore) = moment_of_svg(svg).unwrap().unwrap();
        assert_eq!(source, ScenarioSource::Builtin("lookup-scan".into()));
        assert_eq!(restore.step, Some(4));
        assert!(restore.lookup.is_some());
        assert!(moment_of_svg("<svg><rect/></svg>").is_none());
        assert!(moment_of_svg("<html data-logtime-moment=\"?scenario=x\">").is_none());
        let prolog = format!("<?xml version=\"1.0\"?>{svg}");
        assert!(moment_of_svg(&prolog).is_some());
        assert_eq!(file_name("?scenario=landing&step=2", "png"), "landing.png");
        assert_eq!(file_name("?z=abc", "svg"), "logtime-moment.svg");
    }
}
