//! Loads: the scenario source the explorer shows, followed from the host's options, loaded
//! (fetched or unpacked when needed) whenever it changes; the last choice wins.

use std::cell::RefCell;
use std::rc::Rc;

use logtime_core::scenario::Source;
use yew::prelude::*;

use crate::builtins;
use crate::embed::{self, ScenarioSource};
use crate::options::Options;
use crate::state::{self, Explorer, LoadAction, Restore};

/// The moment a page's options ask for.
pub fn restore_of(o: &Options) -> Restore {
    Restore {
        moment: o.moment.clone(),
        step: o.step,
        lookup: o.lookup,
    }
}

/// A URL made absolute against the page's base (a link must work from any page).
pub fn absolute(url: &str) -> String {
    #[cfg(target_arch = "wasm32")]
    {
        let base = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.base_uri().ok().flatten())
            .unwrap_or_default();
        web_sys::Url::new_with_base(url, &base)
            .map(|u| u.href())
            .unwrap_or_else(|_| url.to_string())
    }
    #[cfg(not(target_arch = "wasm32"))]
    url.to_string()
}

/// A fetch in flight that the reader (or a newer load) can cancel.
type InFlight = Rc<RefCell<Option<web_sys::AbortController>>>;

/// The source shown and the moment its next load rebuilds.
#[derive(Clone)]
pub struct Loads {
    /// The scenario source (set it to load another).
    pub source: UseStateHandle<ScenarioSource>,
    /// The moment the next load rebuilds (the page's, then the one a history entry names).
    pub restore_next: Rc<RefCell<Option<Restore>>>,
    /// The fetch of the load in progress, when it fetches.
    in_flight: InFlight,
}

impl Loads {
    /// Cancels the fetch in progress: its load ends with "was cancelled", and the explorer
    /// stays usable (pick another scenario, or reload).
    pub fn cancel(&self) {
        if let Some(c) = self.in_flight.borrow_mut().take() {
            c.abort();
        }
    }

    /// Loads `source`, rebuilding `restore` once it is loaded.
    pub fn go(&self, source: ScenarioSource, restore: Option<Restore>) {
        *self.restore_next.borrow_mut() = restore;
        self.source.set(source);
    }
}

/// The explorer's loads: follows the host's options (a new source, or a new moment of it; other
/// options, such as panels, leave the moment and the reader's actions alone) and loads whenever
/// the source, mode or seed changes.
#[hook]
pub fn use_loads(opts: &Options, d: UseReducerDispatcher<Explorer>) -> Loads {
    let source = use_state(|| opts.source.clone());
    let restore_next = use_mut_ref(|| Some(restore_of(opts)));
    let tokens = use_mut_ref(|| 0u64);
    let in_flight: InFlight = use_mut_ref(|| None);
    let loads = Loads {
        source: source.clone(),
        restore_next: restore_next.clone(),
        in_flight: in_flight.clone(),
    };
    {
        let loads = loads.clone();
        let asked = use_mut_ref(|| restore_of(opts));
        let d = d.clone();
        use_effect_with(opts.clone(), move |o| {
            let restore = restore_of(o);
            let changed = *asked.borrow() != restore;
            *asked.borrow_mut() = restore.clone();
            if *loads.source != o.source {
                loads.go(o.source.clone(), Some(restore));
            } else if changed && o.restores() {
                d.dispatch(LoadAction::Restore(restore).into());
            }
        });
    }
    use_effect_with(
        ((*source).clone(), opts.mode, opts.seed),
        move |(s, mode, seed)| {
            d.dispatch(LoadAction::Want(*mode, *seed).into());
            let token = {
                let mut t = tokens.borrow_mut();
                *t += 1;
                *t
            };
            let restore = restore_next.borrow_mut().take().unwrap_or_default();
            // The last choice wins: an earlier fetch still running is stopped, not just ignored.
            if let Some(c) = in_flight.borrow_mut().take() {
                c.abort();
            }
            #[cfg(target_arch = "wasm32")]
            let controller = web_sys::AbortController::new().ok();
            #[cfg(not(target_arch = "wasm32"))]
            let controller = None::<web_sys::AbortController>;
            let signal = controller.as_ref().map(|c| c.signal());
            *in_flight.borrow_mut() = controller;
            load(s, token, restore, signal, d);
        },
    );
    loads
}

/// Loads a scenario source into the reducer as load `token`, fetching or unpacking it when
/// needed; a response for an older token is ignored by the reducer.
fn load(
    source: &ScenarioSource,
    token: u64,
    restore: Restore,
    signal: Option<web_sys::AbortSignal>,
    dispatch: UseReducerDispatcher<Explorer>,
) {
    dispatch.dispatch(LoadAction::Loading(token).into());
    let done = move |json: Result<String, String>, origin: Source| {
        LoadAction::Load {
            token,
            json,
            origin,
            restore,
        }
        .into()
    };
    match source {
        ScenarioSource::Builtin(name) => {
            let origin = Source::Builtin(name.clone());
            let Some(b) = builtins::find(name) else {
                let json = Err(format!(
                    "scenario: unknown built-in scenario {name:?} (built-ins: {})",
                    builtins::names()
                ));
                dispatch.dispatch(done(json, origin));
                return;
            };
            // Fetched from beside the wasm module when opened (the files are not compiled in).
            wasm_bindgen_futures::spawn_local(async move {
                let url = b.url();
                let json = crate::glue::fetch_text(&url, signal.as_ref())
                    .await
                    .map_err(|f| builtins::fetch_message(b, &url, &f))
                    .and_then(|text| match state::Replay::check(&text) {
                        Ok(()) => Ok(text),
                        Err(e) => Err(embed::not_a_scenario(&url, &e)),
                    });
                dispatch.dispatch(done(json, origin));
            });
        }
        ScenarioSource::Inline(json) => {
            dispatch.dispatch(done(Ok(json.clone()), Source::Inline(json.clone())))
        }
        ScenarioSource::Packed(z) => {
            let z = z.clone();
            wasm_bindgen_futures::spawn_local(async move {
                let json = crate::glue::unpack(&z).await.map_err(|e| {
                    format!("The scenario in this link is damaged (truncated or edited): {e}.")
                });
                let origin = Source::Inline(json.clone().unwrap_or_default());
                dispatch.dispatch(done(json, origin));
            });
        }
        ScenarioSource::Url(url) => {
            let url = url.clone();
            wasm_bindgen_futures::spawn_local(async move {
                let shown = absolute(&url);
                let json = crate::glue::fetch_text(&url, signal.as_ref())
                    .await
                    .map_err(|f| embed::fetch_message(&shown, &f))
                    .and_then(|text| match state::Replay::check(&text) {
                        Ok(()) => Ok(text),
                        Err(e) => Err(embed::not_a_scenario(&shown, &e)),
                    });
                dispatch.dispatch(done(json, Source::Url(url)));
            });
        }
    }
}
