//! Runs an import in the import worker (`import-worker/`, loaded only now): hands it the files or
//! the pasted text, turns what it reports into reducer actions, and loads the imported partition
//! as the explorer's scenario. Dropping the returned handle stops the worker: a cancel, or a
//! newer import superseding this one.

use std::rc::Rc;

use logtime_model::{KafkaVersion, Timestamp};
use yew::{Callback, UseReducerDispatcher};

use crate::glue::{self, Files, Worker, WorkerMessage};
use crate::state::{Explorer, ImportAction};

/// Starts import `job` of `files` (or of `paste`, dump text) under `rules` at broker time `now`;
/// `load` gets the imported partition's scenario JSON once the import succeeded.
pub fn start(
    files: Files,
    paste: Option<String>,
    rules: KafkaVersion,
    now: Timestamp,
    job: u64,
    dispatch: UseReducerDispatcher<Explorer>,
    load: Callback<String>,
) -> Worker {
    let total = paste.as_ref().map_or(0, |p| p.len() as u64);
    dispatch.dispatch(ImportAction::Start { job, total }.into());
    glue::import_start(&files, paste, rules.key(), now.0, move |m| match m {
        WorkerMessage::Progress(done, total, file) => dispatch.dispatch(
            ImportAction::Progress {
                job,
                done,
                total,
                file,
            }
            .into(),
        ),
        WorkerMessage::Done(done) => {
            let scenario = done.scenario.clone();
            dispatch.dispatch(
                ImportAction::End {
                    job,
                    result: Ok(Rc::new(done)),
                }
                .into(),
            );
            load.emit(scenario);
        }
        WorkerMessage::Error(e) => dispatch.dispatch(
            ImportAction::End {
                job,
                result: Err(e),
            }
            .into(),
        ),
    })
}
