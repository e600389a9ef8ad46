//! Asks before a change that would undo what the reader did (stepping back past their actions,
//! switching scenario), naming what it would undo.

use yew::prelude::*;

use crate::state::Pending;

/// The confirm bar's props.
#[derive(Properties, PartialEq, Clone)]
pub struct ConfirmBarProps {
    /// The change waiting.
    pub pending: Pending,
    /// In the standalone page the browser's Back button brings an undone moment back.
    pub standalone: bool,
    /// Go ahead.
    pub on_confirm: Callback<()>,
    /// Keep the actions.
    pub on_dismiss: Callback<()>,
}

/// "Stepping back to step 2 undoes what you did after it: …" with the two choices.
#[function_component(ConfirmBar)]
pub fn confirm_bar(p: &ConfirmBarProps) -> Html {
    let (question, go, undone) = match &p.pending {
        Pending::Rewind {
            steps,
            play,
            undone,
        } => (
            if *play {
                "Playing from the start undoes what you did:".to_string()
            } else {
                format!("Going back to step {steps} undoes what you did after it:")
            },
            if *play {
                "Undo them and play"
            } else {
                "Undo them and go back"
            },
            undone,
        ),
        Pending::LessonBack { undone } => (
            "Going back to the previous step takes back what you did since:".to_string(),
            "Go back (keep my work to return to)",
            undone,
        ),
        Pending::Switch { undone, .. } => (
            "Switching scenario drops what you did in this one:".to_string(),
            "Drop them and switch",
            undone,
        ),
    };
    let list = undone.join("; ");
    let confirm = {
        let cb = p.on_confirm.clone();
        Callback::from(move |_: MouseEvent| cb.emit(()))
    };
    let dismiss = {
        let cb = p.on_dismiss.clone();
        Callback::from(move |_: MouseEvent| cb.emit(()))
    };
    html! {
        <div class="lt-confirm" role="alertdialog" aria-label="Undo your actions?" data-testid="confirm">
            <p>
                <strong>{ question }</strong>{ " " }{ list }{ "." }
                if p.standalone { { " The browser's Back button brings this moment back." } }
            </p>
            <button type="button" class="lt-btn" onclick={dismiss} data-testid="confirm-keep">{ "Keep them" }</button>
            <button type="button" class="lt-btn lt-btn-primary" onclick={confirm} data-testid="confirm-go">{ go }</button>
        </div>
    }
}
