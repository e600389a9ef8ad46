//! Imports: the running import's worker (dropping it stops the worker: a cancel, or a newer
//! import superseding it); a finished import loads its partition as an inline scenario.
//!
//! A scenario or lesson file dropped, picked or pasted on the import panel is opened, not
//! imported: one `.json` file, or pasted text that starts with `{`, goes to the scenario loader
//! (which says what is wrong with it, field by field), everything else to the import.

use yew::prelude::*;

use super::loads::Loads;
use crate::components::import_panel::ImportRequest;
use crate::embed::ScenarioSource;
use crate::state::{Explorer, ImportAction};

/// The import panel's requests: start an import of dropped files or pasted text, or cancel it.
#[hook]
pub fn use_import(loads: &Loads, d: UseReducerDispatcher<Explorer>) -> Callback<ImportRequest> {
    let worker = use_mut_ref(|| None::<crate::glue::Worker>);
    let jobs = use_mut_ref(|| 0u64);
    let load = {
        let loads = loads.clone();
        Callback::from(move |json: String| loads.go(ScenarioSource::Inline(json), None))
    };
    Callback::from(move |req: ImportRequest| {
        let job = {
            let mut n = jobs.borrow_mut();
            *n += 1;
            *n
        };
        let (files, paste, rules, now) = match req {
            ImportRequest::Cancel => {
                worker.borrow_mut().take();
                d.dispatch(ImportAction::Cancel.into());
                return;
            }
            ImportRequest::Paste(text, _, _) if text.trim_start().starts_with('{') => {
                load.emit(text);
                return;
            }
            ImportRequest::Paste(text, rules, now) => (Default::default(), Some(text), rules, now),
            ImportRequest::Files(files, _, _) if files.json_file().is_some() => {
                open_file(files, job, d.clone(), load.clone());
                return;
            }
            ImportRequest::Files(files, rules, now) => (files, None, rules, now),
        };
        let w = crate::importer::start(files, paste, rules, now, job, d.clone(), load.clone());
        *worker.borrow_mut() = Some(w);
    })
}

/// Reads a dropped or picked scenario or lesson file and loads it; a file that cannot be read
/// is named in the import panel's error.
fn open_file(
    files: crate::glue::Files,
    job: u64,
    d: UseReducerDispatcher<Explorer>,
    load: Callback<String>,
) {
    let Some((name, file)) = files.json_file() else {
        return;
    };
    wasm_bindgen_futures::spawn_local(async move {
        match crate::glue::file_text(&file).await {
            Ok(text) => load.emit(text),
            Err(why) => {
                d.dispatch(ImportAction::Start { job, total: 0 }.into());
                let result = Err(format!("{name}: {why}"));
                d.dispatch(ImportAction::End { job, result }.into());
            }
        }
    });
}
