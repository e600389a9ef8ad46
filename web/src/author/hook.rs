//! Author mode's behaviour: starting a draft (from what the explorer shows, from an imported
//! partition, or from an empty partition), recording what the author does in the explorer, and
//! sending core the pane's commands.

use logtime_core::scenario::Entry;
use logtime_lesson::author::{AuthorCommand, Authoring, Start};
use logtime_model::Timestamp;
use yew::prelude::*;

use super::pane::Tool;
use super::state::{AuthorAction, AuthorState, Draft};
use crate::embed::ScenarioSource;
use crate::hooks::Loads;
use crate::options::{Mode, Options};
use crate::state::Explorer;

/// How a draft starts.
#[derive(Clone, Debug, PartialEq)]
pub enum Begin {
    /// From the scenario or lesson the explorer shows.
    Shown,
    /// From the imported partition the explorer shows (its `log`).
    Imported,
    /// From an empty partition: the Kafka version and `(config, value)` rows.
    Empty(String, Vec<(String, String)>),
}

/// The options the explorer loads with: a lesson shown while author mode is on opens in the
/// explorer (its partition free to play with), and the page's link says `mode=author`.
pub fn options_in(opts: &Options, author: &AuthorState) -> Options {
    let on = author.draft.is_some() || (opts.mode == Some(Mode::Author) && !author.left);
    let mut o = opts.clone();
    if let Some(s) = author.loaded.as_ref().filter(|_| on) {
        o.source = s.clone();
    }
    o.mode = if on {
        Some(Mode::Author)
    } else if opts.mode == Some(Mode::Author) {
        None
    } else {
        opts.mode
    };
    o
}

/// The page's clock (ms since the epoch), where a new empty partition starts.
fn page_clock() -> i64 {
    #[cfg(target_arch = "wasm32")]
    return js_sys::Date::now() as i64;
    #[cfg(not(target_arch = "wasm32"))]
    0
}

/// Starts a draft as `begin` says; an empty partition is loaded in the explorer.
#[hook]
pub fn use_begin(
    author: UseReducerHandle<AuthorState>,
    explorer: UseReducerHandle<Explorer>,
    loads: &Loads,
) -> Callback<Begin> {
    let loads = loads.clone();
    Callback::from(move |begin: Begin| {
        let replay = &explorer.replay;
        let entries = replay.entries();
        let start = match begin {
            Begin::Shown => Start::Text(replay.source.to_string()),
            Begin::Imported => match serde_json::from_str(&replay.source) {
                Ok(v) => Start::Imported(v),
                Err(e) => {
                    author.dispatch(AuthorAction::Say(
                        format!("the imported partition could not be read: {e}"),
                        true,
                    ));
                    return;
                }
            },
            Begin::Empty(kafka, configs) => Start::Empty {
                kafka,
                configs,
                start: Timestamp(page_clock() / 1000 * 1000),
            },
        };
        let load_it = matches!(start, Start::Empty { .. });
        match Authoring::new(start) {
            Ok((a, _)) => {
                // The source shown stays while the draft is written (the page's options change
                // to author mode, and would otherwise load the page's own scenario again).
                let loaded = if load_it {
                    let s = ScenarioSource::Inline(a.document());
                    loads.go(s.clone(), None);
                    s
                } else {
                    (*loads.source).clone()
                };
                let recorded = if load_it { 0 } else { entries };
                author.dispatch(AuthorAction::Started(
                    Ok(Box::new(a)),
                    recorded,
                    Some(loaded),
                ));
            }
            Err(e) => author.dispatch(AuthorAction::Started(Err(e.to_string()), entries, None)),
        }
    })
}

/// With `mode=author` in the page's options, a draft starts from the first scenario loaded.
#[hook]
pub fn use_author_start(
    opts: &Options,
    author: &AuthorState,
    loaded: bool,
    begin: Callback<Begin>,
) {
    let wanted = opts.mode == Some(Mode::Author) && !author.left && author.draft.is_none();
    use_effect_with((wanted, loaded), move |(wanted, loaded)| {
        if *wanted && *loaded {
            begin.emit(Begin::Shown);
        }
    });
}

/// Records each explorer action that succeeded (the session journal's new entries: batches,
/// configs, the version, the clock, retention checks, DeleteRecords, lookups) as a draft step;
/// a scenario step run moves where recordings go past it. After a start or a reload (a shorter
/// journal) recordings are placed at the explorer's moment: after the steps it has run.
#[hook]
pub fn use_recording(author: UseReducerHandle<AuthorState>, explorer: &UseReducerHandle<Explorer>) {
    let entries = explorer.replay.entries();
    // While the explorer is moved to a step (`place.rs`), what it runs is not the author's.
    let on = author.draft.is_some() && author.placing.is_none();
    let synced = author.synced;
    let explorer = explorer.clone();
    use_effect_with((entries, on, synced), move |(entries, on, synced)| {
        let (entries, on, synced) = (*entries, *on, *synced);
        if !on || (synced && entries == author.recorded) {
            return;
        }
        let journal: Vec<Entry> = explorer
            .replay
            .journal()
            .map(|j| j.entries.clone())
            .unwrap_or_default();
        let record = |e: Entry, at: Timestamp| {
            author.dispatch(AuthorAction::Apply(at, Box::new(AuthorCommand::Record(e))))
        };
        let now = explorer.replay.now();
        if !synced || entries < author.recorded {
            let has_steps = author.draft.as_ref().is_some_and(|d| !d.steps.is_empty());
            if has_steps {
                let first = Box::new(AuthorCommand::RecordAfter(Some(0)));
                author.dispatch(AuthorAction::Apply(now, first));
                for e in journal.into_iter().filter(|e| *e == Entry::Step) {
                    record(e, now);
                }
            }
            author.dispatch(AuthorAction::Synced(entries));
            return;
        }
        for e in journal.into_iter().skip(author.recorded) {
            let at = match &e {
                Entry::Command { at, .. } => *at,
                _ => now,
            };
            record(e, at);
        }
        author.dispatch(AuthorAction::Recorded(entries));
    });
}

/// The link that opens the draft as a learner sees it (its own kind's mode), or why there is
/// none: a draft whose check finds problems is not played (as `logtime check` refuses it), and
/// one too large to pack into a link is refused with the size.
async fn learner_link(draft: &Draft) -> Result<String, String> {
    if !draft.checked.playable() {
        return Err(format!(
            "Not playable yet: {}",
            draft
                .checked
                .problems
                .first()
                .map(ToString::to_string)
                .unwrap_or_default()
        ));
    }
    let z = crate::glue::pack(&draft.document()).await?;
    if let Some(refused) = crate::model::import::link_refusal(z.len()) {
        return Err(refused);
    }
    let page = crate::hooks::absolute("");
    let page = page.split(['?', '#']).next().unwrap_or_default();
    Ok(format!("{page}?z={z}"))
}

/// The pane's tools: Save downloads the file (core's pretty document), Share makes a link and
/// copies it, Preview is `on_preview` (the learner's eye inside the page: `super::preview`),
/// Leave ends author mode.
#[hook]
pub fn use_tools(
    author: UseReducerHandle<AuthorState>,
    on_preview: Callback<()>,
) -> (Option<(AttrValue, bool)>, Callback<Tool>) {
    let link = use_state(|| None::<(AttrValue, bool)>);
    let rev = author.draft.as_ref().map(|d| d.rev);
    {
        // A link is of the draft it was made from.
        let link = link.clone();
        use_effect_with(rev, move |_| link.set(None));
    }
    let made = link.clone();
    let on_tool = Callback::from(move |t: Tool| {
        let Some(draft) = author.draft.clone() else {
            return;
        };
        match t {
            Tool::Leave => author.dispatch(AuthorAction::Stop),
            Tool::Preview => on_preview.emit(()),
            Tool::Save => {
                let title = draft.title();
                let title = if title.is_empty() {
                    "lesson".into()
                } else {
                    title
                };
                let name = crate::model::format::file_name(&title, true);
                crate::glue::download(&draft.document(), &name);
                author.dispatch(AuthorAction::Say(format!("Saved as {name}."), false));
            }
            Tool::Share => {
                let made = made.clone();
                wasm_bindgen_futures::spawn_local(async move {
                    match learner_link(&draft).await {
                        Ok(url) => {
                            let _ = crate::glue::copy_text(&url).await;
                            made.set(Some((AttrValue::from(url), true)));
                        }
                        Err(why) => made.set(Some((AttrValue::from(why), false))),
                    }
                });
            }
        }
    });
    ((*link).clone(), on_tool)
}
