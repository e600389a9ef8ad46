//! Where recordings go follows the step the explorer shows. Selecting a step in the pane, or
//! stepping back and forward (the buttons, ← and →) while a draft is written, moves the
//! explorer to the partition after that step of the draft (it loads the draft as it stands and
//! runs core's count of scenario steps up to it, or just seeks when it already shows that
//! draft), and only then tells core to record after it (`RecordAfter`), so what the author
//! does next is recorded on that state and lands right after that step.

use std::rc::Rc;

use logtime_core::scenario::Entry;
use logtime_lesson::author::AuthorCommand;
use yew::prelude::*;

use super::state::{AuthorAction, AuthorState, Draft};
use crate::embed::ScenarioSource;
use crate::hooks::Loads;
use crate::state::{Explorer, Restore, TransportAction};

/// Where a transport action moves the draft while one is written (`Some(k)`: after step `k`):
/// back and step walk the draft's steps; `None` leaves the action to the explorer.
pub(super) fn transport_place(author: &AuthorState, a: &TransportAction) -> Option<Option<usize>> {
    let d = author.draft.as_ref()?;
    let n = d.steps.len();
    let here = d.recording_at.unwrap_or(n).min(n);
    match a {
        TransportAction::Back => Some(Some(here.checked_sub(1)?)),
        TransportAction::Step if here < n => Some(Some(here + 1)),
        _ => None,
    }
}

/// The transport while a draft is written: back and step show the draft's previous and next
/// step; the rest (play, speed, …) is the explorer's.
pub fn place_transport(
    author: &UseReducerHandle<AuthorState>,
    rest: Callback<TransportAction>,
) -> Callback<TransportAction> {
    if author.draft.is_none() {
        return rest;
    }
    let author = author.clone();
    Callback::from(
        move |a: TransportAction| match transport_place(&author, &a) {
            Some(at) => author.dispatch(AuthorAction::Show(at)),
            None if matches!(a, TransportAction::Back | TransportAction::Step) => {}
            None => rest.emit(a),
        },
    )
}

/// ← and → (and `j`, `l`) as [`place_transport`] takes them, where the explorer's keys would
/// step; every other key goes to `rest`.
pub fn place_keys(
    author: &UseReducerHandle<AuthorState>,
    rest: Callback<KeyboardEvent>,
) -> Callback<KeyboardEvent> {
    if author.draft.is_none() {
        return rest;
    }
    let author = author.clone();
    Callback::from(move |e: KeyboardEvent| {
        let tag = e
            .target_dyn_into::<web_sys::Element>()
            .map(|el| el.tag_name().to_ascii_lowercase())
            .unwrap_or_default();
        let a = crate::hooks::key_action(&e.key(), &tag, 1);
        match a.filter(|a| matches!(a, TransportAction::Back | TransportAction::Step)) {
            Some(a) => {
                e.prevent_default();
                if let Some(at) = transport_place(&author, &a) {
                    author.dispatch(AuthorAction::Show(at));
                }
            }
            None => rest.emit(e),
        }
    })
}

/// The command that records after the step shown: `None` (the end) for the last step.
fn record_after(at: Option<usize>, steps: usize) -> AuthorCommand {
    AuthorCommand::RecordAfter(at.filter(|k| *k < steps))
}

/// Moves the explorer to the step [`AuthorState::placing`] names, then records after it.
#[hook]
pub fn use_placing(
    author: UseReducerHandle<AuthorState>,
    explorer: &UseReducerHandle<Explorer>,
    loads: &Loads,
) {
    // The draft loaded and the scenario steps to run: what the explorer is waiting to show.
    let wanted = use_mut_ref(|| None::<(Rc<str>, usize)>);
    {
        let (author, explorer, loads, wanted) = (
            author.clone(),
            explorer.clone(),
            loads.clone(),
            wanted.clone(),
        );
        use_effect_with(author.placing, move |placing| {
            let (Some(at), Some(d)) = (*placing, author.draft.as_ref()) else {
                return;
            };
            let k = at.unwrap_or(d.steps.len());
            let m = match d.scenario_steps_to(k) {
                Ok(m) => m,
                Err(e) => {
                    author.dispatch(AuthorAction::Say(e, true));
                    author.dispatch(AuthorAction::Placed(None));
                    return;
                }
            };
            let doc: Rc<str> = Rc::from(d.document());
            *wanted.borrow_mut() = Some((doc.clone(), m));
            let r = &explorer.replay;
            let only_steps = r
                .journal()
                .is_some_and(|j| j.entries.iter().all(|e| *e == Entry::Step));
            if *r.source == *doc && only_steps && r.error.is_none() {
                if r.done == m && explorer.rebuild.is_none() {
                    placed(&author, d, at, r.now(), r.entries());
                    *wanted.borrow_mut() = None;
                } else {
                    explorer.dispatch(TransportAction::Seek(m).into());
                }
                return;
            }
            let s = ScenarioSource::Inline(doc.to_string());
            author.dispatch(AuthorAction::Showing(s.clone()));
            let restore = Restore {
                step: Some(m),
                ..Restore::default()
            };
            loads.go(s, Some(restore));
        });
    }
    let r = &explorer.replay;
    let shown = wanted.borrow().as_ref().is_some_and(|(doc, m)| {
        *r.source == **doc
            && !r.loading
            && explorer.rebuild.is_none()
            && (r.done == *m || r.error.is_some())
    });
    let ready = author.placing.is_some() && shown;
    let explorer = explorer.clone();
    use_effect_with(ready, move |ready| {
        let (Some(at), Some(d), true) = (author.placing, author.draft.as_ref(), *ready) else {
            return;
        };
        *wanted.borrow_mut() = None;
        let r = &explorer.replay;
        match &r.error {
            Some(e) => {
                author.dispatch(AuthorAction::Say(e.clone(), true));
                author.dispatch(AuthorAction::Placed(None));
            }
            None => placed(&author, d, at, r.now(), r.entries()),
        }
    });
}

/// The explorer shows the step: recordings go after it.
fn placed(
    author: &UseReducerHandle<AuthorState>,
    d: &Draft,
    at: Option<usize>,
    now: logtime_model::Timestamp,
    entries: usize,
) {
    let cmd = record_after(at, d.steps.len());
    author.dispatch(AuthorAction::Apply(now, Box::new(cmd)));
    author.dispatch(AuthorAction::Placed(Some(entries)));
}

/// Where the next recording goes, said in the pane (and to a screen reader as it changes),
/// with a way back to recording at the end.
pub(super) fn recording_line(d: &Draft, on_author: &Callback<AuthorAction>) -> Html {
    let n = d.steps.len();
    let (words, end) = match d.recording_at {
        Some(0) if n > 0 => ("Recording before step 1".to_string(), false),
        Some(k) if k < n => (format!("Recording after step {k}"), false),
        _ => ("Recording at the end".to_string(), true),
    };
    let onclick = on_author.reform(|_: MouseEvent| AuthorAction::Show(None));
    html! {
        <div class="lt-author-row lt-author-place">
            <span class="lt-small" role="status" data-testid="author-recording">{ words }</span>
            if !end {
                <button type="button" class="lt-btn lt-btn-small" {onclick} data-testid="author-record-end">{ "Record at the end" }</button>
            }
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use logtime_lesson::author::{Authoring, Start};
    use logtime_model::partition::Command;
    use logtime_model::{Record, Timestamp};
    use yew::Reducible;

    const T: Timestamp = Timestamp(1_805_446_800_000);

    /// A draft of three batches, recorded at the end.
    fn three() -> Rc<AuthorState> {
        let (a, _) = Authoring::new(Start::Empty {
            kafka: "4.0".into(),
            configs: vec![("retention.ms".into(), "1d".into())],
            start: T,
        })
        .unwrap();
        let mut s =
            Rc::new(AuthorState::default()).reduce(AuthorAction::Started(Ok(Box::new(a)), 0, None));
        for _ in 0..3 {
            let e = Entry::Command {
                at: T,
                command: Command::Produce {
                    records: vec![Record::at(T)],
                },
            };
            s = s.reduce(AuthorAction::Apply(T, Box::new(AuthorCommand::Record(e))));
        }
        s
    }

    #[test]
    fn back_and_step_walk_the_drafts_steps() {
        let s = three();
        assert_eq!(transport_place(&s, &TransportAction::Back), Some(Some(2)));
        assert_eq!(transport_place(&s, &TransportAction::Step), None);
        assert_eq!(transport_place(&s, &TransportAction::TogglePlay), None);
        // Shown at step 2 (the explorer moved there): back is step 1, step is step 3.
        let s = s.reduce(AuthorAction::Show(Some(2)));
        assert_eq!((s.selected, s.placing), (Some(2), Some(Some(2))));
        let d = s.draft.clone().unwrap();
        let s = s.reduce(AuthorAction::Apply(T, Box::new(record_after(Some(2), 3))));
        let s = s.reduce(AuthorAction::Placed(Some(2)));
        assert_eq!((s.placing, s.recorded, s.synced), (None, 2, true));
        assert_eq!(s.draft.as_ref().unwrap().recording_at, Some(2));
        assert_eq!(transport_place(&s, &TransportAction::Back), Some(Some(1)));
        assert_eq!(transport_place(&s, &TransportAction::Step), Some(Some(3)));
        assert_eq!(d.scenario_steps_to(2), Ok(2));
        assert_eq!(
            d.scenario_steps_to(4).unwrap_err(),
            "after: there is no step 4 (the lesson has 3 steps)"
        );
        // Before the first step there is nothing further back.
        let s = s.reduce(AuthorAction::Apply(T, Box::new(record_after(Some(0), 3))));
        assert_eq!(transport_place(&s, &TransportAction::Back), None);
    }

    #[test]
    fn a_move_that_fails_leaves_recording_as_it_was() {
        let s = three().reduce(AuthorAction::Show(Some(1)));
        let s = s.reduce(AuthorAction::Placed(None));
        assert_eq!(s.placing, None);
        assert!(!s.synced);
        assert_eq!(s.draft.as_ref().unwrap().recording_at, None);
    }

    #[test]
    fn the_last_step_records_at_the_end() {
        assert_eq!(
            record_after(Some(2), 3),
            AuthorCommand::RecordAfter(Some(2))
        );
        assert_eq!(record_after(Some(3), 3), AuthorCommand::RecordAfter(None));
        assert_eq!(record_after(None, 3), AuthorCommand::RecordAfter(None));
        assert_eq!(
            record_after(Some(0), 3),
            AuthorCommand::RecordAfter(Some(0))
        );
    }
}
