//! Imports: the running import's worker (dropping it stops the worker: a cancel, or a newer
//! import superseding it); a finished import loads its partition as an inline scenario.

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
            ImportRequest::Paste(text, rules, now) => (Default::default(), Some(text), rules, now),
            ImportRequest::Files(files, rules, now) => (files, None, rules, now),
        };
        let w = crate::importer::start(files, paste, rules, now, job, d.clone(), load.clone());
        *worker.borrow_mut() = Some(w);
    })
}
