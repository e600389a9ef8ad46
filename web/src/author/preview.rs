//! The learner's-eye preview, inside the page: the draft as core saves it, opened in a second
//! explorer of its own (the same `App`, so the same lesson plug-in: its mode, what each
//! question hides until answered, feedback and score), under a **Back to editing** bar. The
//! author's explorer stays mounted and only hidden meanwhile, so the draft, its undo history,
//! the step selected and the explorer's moment are all as they were on the way back; its page
//! keys are off while the preview has them.
//!
//! A draft that `logtime check` would refuse is not previewed: the step of core's first problem
//! is selected (its editor shows the problem at its field) and core's words are said.

use std::rc::Rc;

use yew::prelude::*;

use super::state::{AuthorAction, AuthorState};
use crate::embed::ScenarioSource;
use crate::options::{Context, Options};

/// The preview's state and what opens and closes it.
#[derive(Clone, PartialEq)]
pub struct Preview {
    /// The document being previewed (`None`: the author is editing).
    pub shown: Option<Rc<String>>,
    /// Opens the preview of the draft as it stands (or says why not).
    pub open: Callback<()>,
    /// Back to editing.
    pub back: Callback<()>,
}

/// The preview of `author`'s draft. `root` is the author's explorer, whose Preview button gets
/// the focus back on the way back.
#[hook]
pub fn use_preview(author: UseReducerHandle<AuthorState>, root: NodeRef) -> Preview {
    let shown = use_state(|| None::<Rc<String>>);
    let open = {
        let shown = shown.clone();
        Callback::from(move |()| {
            let Some(draft) = &author.draft else { return };
            match draft.checked.problems.first() {
                Some(p) => {
                    if let Some(step) = p.step {
                        author.dispatch(AuthorAction::Select(Some(step)));
                    }
                    author.dispatch(AuthorAction::Say(format!("Not playable yet: {p}"), true));
                }
                None => shown.set(Some(Rc::new(draft.document()))),
            }
        })
    };
    let back = {
        let shown = shown.clone();
        Callback::from(move |()| shown.set(None))
    };
    {
        // Back from the preview, the focus is where the author left for it.
        let was_open = use_mut_ref(|| false);
        let open_now = shown.is_some();
        use_effect_with(open_now, move |open_now| {
            if std::mem::replace(&mut *was_open.borrow_mut(), *open_now) && !*open_now {
                focus_in(&root, "[data-testid=author-preview]");
            }
        });
    }
    Preview {
        shown: (*shown).clone(),
        open,
        back,
    }
}

fn focus_in(root: &NodeRef, selector: &str) {
    use wasm_bindgen::JsCast;
    let el = root
        .cast::<web_sys::Element>()
        .and_then(|r| r.query_selector(selector).ok().flatten())
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok());
    if let Some(e) = el {
        let _ = e.focus();
    }
}

/// The options the preview's explorer opens with: the draft inline, in its own kind's mode,
/// on the standalone page's layout, without the scenario menu (the preview is of this lesson).
pub fn preview_options(outer: &Options, document: &str) -> Options {
    let mut o = Options::new(Context::Standalone);
    o.source = ScenarioSource::Inline(document.to_string());
    o.menu = false;
    o.theme = outer.theme;
    o
}

/// The preview bar's props.
#[derive(Properties, PartialEq, Clone)]
pub struct PreviewBarProps {
    /// Back to editing.
    pub on_back: Callback<()>,
}

/// The bar above the preview: what it is, and the way back.
#[function_component(PreviewBar)]
pub fn preview_bar(p: &PreviewBarProps) -> Html {
    let bar = use_node_ref();
    {
        // The preview opens with the focus on its way back, so Tab and Enter find it at once.
        let bar = bar.clone();
        use_effect_with((), move |()| focus_in(&bar, "button"));
    }
    let onclick = p.on_back.reform(|_: MouseEvent| ());
    html! {
        <div ref={bar} class="lt-preview-bar" role="region" aria-label="Learner's preview" data-testid="author-preview-bar">
            <p><strong>{ "Learner's preview: " }</strong>
               { "the lesson as a learner plays it. Your draft is kept as it is." }</p>
            <button type="button" class="lt-btn lt-btn-primary" {onclick} data-testid="author-preview-back">{ "Back to editing" }</button>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::Theme;

    #[test]
    fn the_preview_opens_the_draft_in_its_own_kind_on_the_standalone_layout() {
        let mut outer = Options::new(Context::Standalone);
        outer.theme = Theme::Dark;
        outer.mode = Some(crate::options::Mode::Author);
        let o = preview_options(&outer, "{\"steps\": []}");
        assert_eq!(o.source, ScenarioSource::Inline("{\"steps\": []}".into()));
        assert_eq!(
            (o.context, o.menu, o.theme, o.mode),
            (Context::Standalone, false, Theme::Dark, None)
        );
        assert!(!o.restores());
    }
}
