//! Two seeds' variants side by side, for a draft with `variants`: what each learner gets (the
//! variant's values, each question's answer, the replay's effects that bite, what is wrong in
//! that variant alone), all from core's `Authoring::variant_preview`. The seeds are the
//! author's to change, so a range that breaks one variant can be found before a class does.

use logtime_lesson::author::VariantPreview;
use logtime_lesson::Pick;
use yew::prelude::*;

use super::state::Draft;
use crate::components::{input_value, sentence, use_uid};

#[derive(Properties, PartialEq, Clone)]
pub(super) struct VariantsProps {
    /// The draft (it has variants).
    pub draft: Draft,
}

/// One seed's column.
fn column(name: &str, seed: u64, v: &VariantPreview) -> Html {
    let label = if v.label.is_empty() {
        "(no values)".to_string()
    } else {
        v.label.clone()
    };
    html! {
        <div class="lt-author-variant" role="group" aria-label={format!("Seed {name}")} data-testid={format!("author-variant-{}", name.to_lowercase())}>
            <h4>{ format!("Seed {name} ({seed})") }</h4>
            <p class="lt-small" data-testid="author-variant-label">{ label }</p>
            <ul class="lt-small lt-author-variant-answers">
                { for v.answers.iter().map(|a| html!{
                    <li data-testid="author-variant-answer">
                        { format!("Step {}: ", a.step) }
                        { match &a.answer { Ok(t) => html!{ <strong>{ t.clone() }</strong> }, Err(e) => html!{ <span class="lt-author-bad">{ e.clone() }</span> } } }
                    </li>
                }) }
            </ul>
            if !v.problems.is_empty() || !v.bites.is_empty() {
                <ul class="lt-author-problems" data-testid="author-variant-problems">
                    { for v.problems.iter().map(|p| html!{ <li>{ p.to_string() }</li> }) }
                    { for v.bites.iter().map(|b| html!{ <li class="lt-author-bite">{ format!("Step {}: ", b.step) }{ sentence(&b.sentence) }</li> }) }
                </ul>
            } else {
                <p class="lt-small lt-muted">{ "No problem in this variant." }</p>
            }
        </div>
    }
}

/// The seed after `a` that picks another variant than `a` does (two learners' lessons that
/// differ), or `a + 1` when every seed picks the same.
fn other_seed(draft: &Draft, a: u64) -> u64 {
    let next = a.wrapping_add(1);
    let Ok(lesson) = draft.authoring().lesson() else {
        return next;
    };
    let v = lesson.variants();
    let first = v.pick(Pick::Seed(a)).index;
    (next..next.saturating_add(64))
        .find(|s| v.pick(Pick::Seed(*s)).index != first)
        .unwrap_or(next)
}

/// The preview: two seed fields and the two variants they pick. Until the author picks seeds,
/// seed B is the first after seed A that gives another variant.
#[function_component(VariantsPreview)]
pub(super) fn variants_preview(p: &VariantsProps) -> Html {
    let chosen = use_state(|| None::<(u64, u64)>);
    let ids = [use_uid("lt-au-seed-a"), use_uid("lt-au-seed-b")];
    let fallback = {
        let draft = p.draft.clone();
        use_memo(p.draft.rev, move |_| (1, other_seed(&draft, 1)))
    };
    let (a, b) = chosen.unwrap_or(*fallback);
    let previews = {
        let draft = p.draft.clone();
        use_memo((p.draft.rev, a, b), move |(_, a, b)| {
            (
                draft.variant_preview(Pick::Seed(*a)),
                draft.variant_preview(Pick::Seed(*b)),
            )
        })
    };
    let set = |first: bool| {
        let chosen = chosen.clone();
        Callback::from(move |e: Event| {
            // A seed that is not a number keeps the one shown.
            let Ok(n) = input_value(&e).trim().parse::<u64>() else {
                return;
            };
            chosen.set(Some(if first { (n, b) } else { (a, n) }));
        })
    };
    html! {
        <section class="lt-author-variants" aria-label="Two seeds' variants side by side" data-testid="author-variants">
            <h3>{ "Variants: two learners' lessons" }</h3>
            <div class="lt-author-row">
                <label for={ids[0].clone()}>{ "Seed A" }</label>
                <input id={ids[0].clone()} class="lt-author-n" inputmode="numeric" value={a.to_string()} onchange={set(true)} data-testid="author-seed-a" />
                <label for={ids[1].clone()}>{ "Seed B" }</label>
                <input id={ids[1].clone()} class="lt-author-n" inputmode="numeric" value={b.to_string()} onchange={set(false)} data-testid="author-seed-b" />
            </div>
            <div class="lt-author-variant-cols">
                { column("A", a, &previews.0) }
                { column("B", b, &previews.1) }
            </div>
        </section>
    }
}
