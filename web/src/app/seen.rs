//! What the explorer shows this render, worked out once from its state, options and author
//! mode: the scenario's name and title, the panels, the lesson's overlay and the columns.

use yew::prelude::*;

use crate::author::{self, AuthorState};
use crate::builtins;
use crate::components::partition_view::LessonMarks;
use crate::embed::ScenarioSource;
use crate::hooks;
use crate::lessons::{self, Overlay};
use crate::options::{Context, Options, Panel, Panels};
use crate::shown::{panels_shown, title_of};
use crate::state::Explorer;
use logtime_lesson::Affordances;

/// What the explorer shows.
pub(super) struct Seen {
    /// The built-in shown, by name (`None`: a URL's, an inline or an imported scenario).
    pub current: Option<AttrValue>,
    /// The scenario's title (or what is loading).
    pub title: AttrValue,
    /// The panels the reader has open.
    pub panels: Panels,
    /// A lesson plays when its pane has a mode; its overlay is all the explorer knows of it.
    pub overlay: Option<Overlay>,
    /// What the lesson hides.
    pub hidden: Affordances,
    /// Whether author mode is on (a draft written, or its start card open).
    pub author_on: bool,
    /// What the author's draft highlights: records and segments, and configs.
    pub author_marks: Option<(LessonMarks, Vec<String>)>,
    /// The page the pictures and the printed link point at, without query or fragment.
    pub picture_page: String,
    /// The side column shows (narration, producer, config, a lesson or author mode).
    pub side: bool,
    /// The wide column shows (partition, retention, lookup, charts).
    pub wide: bool,
}

impl Seen {
    /// What the explorer shows of `st`.
    pub(super) fn of(
        opts: &Options,
        st: &Explorer,
        author: &AuthorState,
        source: &ScenarioSource,
    ) -> Seen {
        let current = match source {
            ScenarioSource::Builtin(n) => Some(AttrValue::from(n.clone())),
            _ => None,
        };
        let builtin = current.as_deref().and_then(builtins::find);
        let title = title_of(st, builtin);
        let panels = panels_shown(opts, st);
        let show = |p: Panel| panels.has(p);
        let overlay: Option<Overlay> = st
            .replay
            .is_lesson()
            .then(|| lessons::overlay(&st.lesson))
            .flatten();
        let author_on = author.draft.is_some() || author.opening;
        let side = show(Panel::Log)
            || show(Panel::Producer)
            || show(Panel::Config)
            || overlay.is_some()
            || author_on;
        let wide = show(Panel::Partition)
            || show(Panel::Retention)
            || show(Panel::Lookup)
            || show(Panel::Chart)
            || show(Panel::Disk);
        Seen {
            current,
            title,
            panels,
            hidden: overlay.as_ref().map_or(Affordances::NONE, |o| o.hidden),
            overlay,
            author_on,
            author_marks: author::marks(author),
            picture_page: picture_page(opts),
            side,
            wide,
        }
    }

    /// Whether a lesson plays.
    pub(super) fn lesson_on(&self) -> bool {
        self.overlay.is_some()
    }

    /// Whether panel `p` shows.
    pub(super) fn show(&self, p: Panel) -> bool {
        self.panels.has(p)
    }

    /// The panels outlined: the lesson stop's, else the author's draft's.
    pub(super) fn pointed(&self, author: &AuthorState) -> Vec<Panel> {
        self.overlay
            .as_ref()
            .map(|o| o.panels.clone())
            .unwrap_or_else(|| author::marked_panels(author))
    }

    /// The narration link the learner followed last.
    pub(super) fn follow(&self) -> Option<(u32, String)> {
        self.overlay.as_ref().and_then(|o| o.follow.clone())
    }
}

fn picture_page(opts: &Options) -> String {
    let standalone = opts.context == Context::Standalone;
    let page = opts
        .page
        .as_deref()
        .unwrap_or(if standalone { "" } else { "index.html" });
    let page = hooks::absolute(page);
    page.split(['?', '#'])
        .next()
        .unwrap_or_default()
        .to_string()
}
