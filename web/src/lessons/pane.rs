//! The lesson pane: a walkthrough's narration with its controls, a drill's question card, a
//! task's goal checked live, and the score at the end. Everything it says comes from core's
//! play (the state records it); the learner answers in the partition view.

use logtime_core::human;
use logtime_core::scenario::narrate::{Mention, Origin, Sentence};
use logtime_lesson::{Narration, Outcome};
use logtime_model::{Offset, Timestamp};
use yew::prelude::*;

use super::assign::Assignment;
use super::progress::use_progress;
use super::send::SendResults;
use super::{ItemView, LessonView, Takes};
use crate::components::{sentence, sentence_live};
use crate::model::format;
use crate::options::Mode;
use crate::state::{LessonAction, Shared, TransportAction};

/// The lesson pane's props.
#[derive(Properties, PartialEq, Clone)]
pub struct LessonPaneProps {
    /// What the pane shows.
    pub view: Shared<LessonView>,
    /// The broker clock.
    pub now: Timestamp,
    /// Playing from stop to stop.
    pub playing: bool,
    /// Where the learner's progress on this lesson is kept on this device
    /// ([`progress::key`](super::progress::key)); empty in an author's preview, which keeps nothing.
    pub progress_key: AttrValue,
    /// The learner's moves: next, an answer, a hint, a reveal, a restart, a return.
    pub on_lesson: Callback<LessonAction>,
    /// The pane's transport: back to the previous stop, and play from stop to stop.
    pub on_transport: Callback<TransportAction>,
    /// An assignment link's lesson fingerprint: the learner's name picks their variant.
    #[prop_or_default]
    pub assign: Option<AttrValue>,
}

/// Following a narration link: the mention's target, outlined and brought into view.
fn follower(on_lesson: &Callback<LessonAction>) -> Callback<Mention> {
    let cb = on_lesson.clone();
    Callback::from(move |m: Mention| {
        if let Some(t) = super::follow::target_of(&m) {
            cb.emit(LessonAction::Follow(t));
        }
    })
}

/// The stop's narration; its mentions of segments, records and configs are links to them.
fn paragraphs(n: &[Narration], follow: &Callback<Mention>) -> Html {
    n.iter()
        .map(|n| {
            let generated = n.origin == Origin::Generated;
            let class = classes!("lt-say", generated.then_some("lt-say-generated"));
            if generated {
                let s = Sentence::join(n.sentences.clone(), "; ");
                html! { <p class={class}>{ sentence_live(&s, follow) }{ "." }</p> }
            } else {
                n.sentences
                    .iter()
                    .map(|s| html! { <p class={class.clone()}>{ sentence_live(s, follow) }</p> })
                    .collect::<Html>()
            }
        })
        .collect()
}

/// What the learner picked, in words.
fn picked(takes: &Takes, sel: &[Offset]) -> String {
    let list = |v: &[Offset]| {
        v.iter()
            .map(|o| format::count(o.0))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match (takes, sel) {
        (Takes::Segments, []) => "no segment struck (click segments to strike them)".into(),
        (Takes::Segments, v) => format!("segments {} struck", list(v)),
        (Takes::Records, []) => "no record struck (click records to strike them)".into(),
        (Takes::Records, v) => format!("records {} struck", list(v)),
        (Takes::Segment, []) => "click a segment in the partition".into(),
        (Takes::Segment, v) => format!("segment {}", list(&v[v.len() - 1..])),
        (Takes::Offset | Takes::Closing, []) => "click a record in the partition".into(),
        (Takes::Offset | Takes::Closing, v) => format!("offset {}", list(&v[v.len() - 1..])),
        _ => String::new(),
    }
}

fn item_card(
    item: &ItemView,
    node: &NodeRef,
    view: &LessonView,
    value: &UseStateHandle<String>,
    form_error: &UseStateHandle<Option<String>>,
    on_lesson: &Callback<LessonAction>,
) -> Html {
    let open = item.outcome == Outcome::Open;
    let task = item.takes == Takes::Task;
    let follow = follower(on_lesson);
    let kind = if task { "Task" } else { "Question" };
    html! {
        <section ref={node.clone()} tabindex="-1" class={classes!("lt-item", (!open).then_some("settled"))} aria-label={format!("{kind} {} of {}", item.index + 1, item.of)} data-testid="lesson-item">
            <p class="lt-item-kicker">{ format!("{kind} {} of {} · {} points", item.index + 1, item.of, item.points) }</p>
            <h3 class="lt-item-title">{ item.title.clone() }</h3>
            { for item.ask.iter().map(|s| html!{ <p>{ sentence_live(s, &follow) }</p> }) }
            if let Some(g) = &item.goal {
                <ul class="lt-goal" aria-label="Goal" data-testid="goal">
                    { for g.checks.iter().map(|c| html!{
                        <li class={classes!(c.met.then_some("met"))}>
                            <span class="lt-goal-mark" aria-hidden="true">{ if c.met { "✓" } else { "○" } }</span>
                            <span class="lt-visually-hidden">{ if c.met { "met: " } else { "not yet: " } }</span>
                            <span class="lt-goal-text">{ sentence(&c.sentence) }</span>
                        </li>
                    }) }
                </ul>
            }
            if open && !task {
                { answer_form(item, view, value, form_error, on_lesson) }
            }
            if open && task {
                <p class="lt-muted lt-small">{ "Act in the explorer (producer, config, retention panels): the goal is checked after every action." }</p>
            }
            if let Some(e) = form_error.as_ref().or(view.error.as_ref()) {
                <p class="lt-field-error" role="alert" data-testid="lesson-error">{ e.clone() }</p>
            }
            <div role="status" aria-live="polite">
                if let Some((ok, words)) = &item.feedback {
                    <div class={classes!("lt-feedback", if *ok {"right"} else {"wrong"})} data-testid="feedback">
                        <strong>{ if *ok { "✓ Right: " } else { "✗ Not quite: " } }</strong>
                        { for words.iter().enumerate().map(|(i, s)| {
                            // each sentence after the first starts one of its own
                            let mut s = s.clone();
                            if i > 0 { s.capitalize(); }
                            html!{ <span>{ sentence(&s) }{ ". " }</span> }
                        }) }
                    </div>
                }
                { status(item, task) }
                if !item.explanation.is_empty() {
                    <div class="lt-explain" data-testid="explanation">
                        <strong>{ "Why: " }</strong>
                        { for item.explanation.iter().map(|s| html!{ <span>{ sentence(s) }{ " " }</span> }) }
                    </div>
                }
            </div>
            if !item.hints.is_empty() {
                <ol class="lt-hints" aria-label="Hints" data-testid="hints">
                    { for item.hints.iter().map(|h| html!{ <li>{ for h.iter().map(|s| html!{ <span>{ sentence(s) }{ " " }</span> }) }</li> }) }
                </ol>
            }
            if let Some(r) = &item.revealed {
                <div class="lt-reveal" data-testid="reveal">
                    <strong>{ "Answer: " }</strong>
                    { for r.iter().map(|s| html!{ <p>{ sentence(s) }</p> }) }
                </div>
            }
            if open {
                { actions(item, task, on_lesson) }
            }
        </section>
    }
}

/// A question's answer form: the value typed or picked in the partition, checked by core
/// (an error code by number or by Kafka's name), and "nothing" where −1 is an answer.
fn answer_form(
    item: &ItemView,
    view: &LessonView,
    value: &UseStateHandle<String>,
    form_error: &UseStateHandle<Option<String>>,
    on_lesson: &Callback<LessonAction>,
) -> Html {
    let check = {
        let cb = on_lesson.clone();
        let value = value.clone();
        let form_error = form_error.clone();
        let code = item.takes == Takes::ErrorCode;
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            if code {
                // A number or Kafka's name, in any case: core reads it.
                match logtime_lesson::parse_error_code(&value) {
                    Ok(c) => {
                        form_error.set(None);
                        cb.emit(LessonAction::Answer(Some(i64::from(c))));
                    }
                    Err(r) => form_error.set(Some(r)),
                }
                return;
            }
            let typed = value.trim().replace([',', '_'], "");
            let v = typed.parse::<i64>().ok();
            if v.is_none() && !typed.is_empty() {
                form_error.set(Some(format!("{typed:?} is not a whole number")));
                return;
            }
            form_error.set(None);
            cb.emit(LessonAction::Answer(v));
        })
    };
    let nothing = {
        let cb = on_lesson.clone();
        Callback::from(move |_: MouseEvent| cb.emit(LessonAction::Answer(Some(-1))))
    };
    let oninput = {
        let value = value.clone();
        Callback::from(move |e: InputEvent| {
            use wasm_bindgen::JsCast;
            if let Some(i) = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
            {
                value.set(i.value());
            }
        })
    };
    html! {
        <form class="lt-answer-form" onsubmit={check}>
            if let Takes::Value(config) = &item.takes {
                <label class="lt-inline"><span>{ format!("Value of {config}") }</span>
                    <input inputmode="numeric" value={(**value).clone()} oninput={oninput.clone()} data-testid="answer-value" /></label>
            } else if item.takes == Takes::ErrorCode {
                <label class="lt-inline"><span>{ "Error code or name (0 or none: appended)" }</span>
                    <input autocapitalize="off" spellcheck="false" value={(**value).clone()} oninput={oninput.clone()} data-testid="answer-value" /></label>
            } else {
                <p class="lt-pick" data-testid="answer-pick"><span class="lt-muted">{ "Your answer: " }</span>{ picked(&item.takes, &view.selection) }</p>
                if matches!(item.takes, Takes::Offset | Takes::Closing | Takes::Segment) {
                    <label class="lt-inline"><span>{ if item.takes == Takes::Segment { "or type its base offset" } else { "or type the offset" } }</span>
                        <input inputmode="numeric" value={(**value).clone()} oninput={oninput.clone()} data-testid="answer-value" /></label>
                }
            }
            <button type="submit" class="lt-btn lt-btn-primary" data-testid="answer-check">{ "Check answer" }</button>
            if item.takes == Takes::Offset {
                <button type="button" class="lt-btn" onclick={nothing} data-testid="answer-none">{ "It finds nothing (−1)" }</button>
            } else if item.takes == Takes::Closing {
                <button type="button" class="lt-btn" onclick={nothing} data-testid="answer-none">{ "No record read closes it (−1)" }</button>
            }
        </form>
    }
}

/// An open item's buttons: a hint (and what it costs) and the answer or solution revealed.
fn actions(item: &ItemView, task: bool, on_lesson: &Callback<LessonAction>) -> Html {
    let emit = |a: LessonAction| {
        let cb = on_lesson.clone();
        Callback::from(move |_: MouseEvent| cb.emit(a.clone()))
    };
    let (hint_cost, wrong_cost) = item.costs;
    html! {
        <div class="lt-item-actions">
            <button type="button" class="lt-btn" onclick={emit(LessonAction::Hint)} disabled={item.hints_left == 0} data-testid="hint">
                { if item.hints_left == 0 { "No more hints".to_string() } else { format!("Hint (−{hint_cost} points, {} left)", item.hints_left) } }
            </button>
            <button type="button" class="lt-btn" onclick={emit(LessonAction::Reveal)} data-testid="reveal-button">
                { if task { "Show me the solution" } else { "Reveal the answer" } }
            </button>
            if !task && wrong_cost > 0 { <span class="lt-muted lt-small">{ format!("A wrong answer costs {wrong_cost} points.") }</span> }
        </div>
    }
}

/// Where a settled item stands: done (right, or the goal holds) or revealed.
fn status(item: &ItemView, task: bool) -> Html {
    match item.outcome {
        Outcome::Done if task => {
            html! { <p class="lt-done" data-testid="item-done"><span aria-hidden="true">{ "✓ " }</span>{ "Done: the goal holds." }</p> }
        }
        Outcome::Done => {
            html! { <p class="lt-done" data-testid="item-done"><span aria-hidden="true">{ "✓ " }</span>{ "Right." }</p> }
        }
        Outcome::Revealed => {
            html! { <p class="lt-revealed" data-testid="item-revealed">{ "Revealed: no points for this one." }</p> }
        }
        _ => html! {},
    }
}

#[derive(Properties, PartialEq, Clone)]
struct ScoreCardProps {
    view: Shared<LessonView>,
    progress_key: AttrValue,
    on_lesson: Callback<LessonAction>,
}

/// The score at the end: each item's points, copying the summary, another variant, starting
/// again, and the best score kept on this device (recorded as the card appears).
#[function_component(ScoreCard)]
fn score_card(p: &ScoreCardProps) -> Html {
    let copied = use_state(|| None::<bool>);
    let (best, on_reset) = use_progress(p.progress_key.to_string(), p.view.card.clone(), true);
    let Some(card) = &p.view.card else {
        return html! {};
    };
    let (got, max) = card.total();
    let summary = card.summary();
    let copy = {
        let copied = copied.clone();
        let summary = summary.clone();
        Callback::from(move |_: MouseEvent| {
            let copied = copied.clone();
            let text = summary.clone();
            wasm_bindgen_futures::spawn_local(async move {
                copied.set(Some(crate::glue::copy_text(&text).await));
            });
        })
    };
    let restart = {
        let cb = p.on_lesson.clone();
        Callback::from(move |_: MouseEvent| cb.emit(LessonAction::Restart(None)))
    };
    let again = {
        let cb = p.on_lesson.clone();
        let copied = copied.clone();
        let seed = p.view.seed;
        Callback::from(move |_: MouseEvent| {
            copied.set(None);
            // a fresh seed, never the one in use
            let mut next = (crate::components::random() * 1e9) as u64;
            if Some(next) == seed {
                next += 1;
            }
            cb.emit(LessonAction::Restart(Some(next)))
        })
    };
    let reset = on_reset.reform(|_: MouseEvent| ());
    html! {
        <section class="lt-score" aria-label="Your score" data-testid="scorecard">
            <h3>{ "Your score: " }<span data-testid="score">{ format!("{got} / {max}") }</span></h3>
            if !card.variant.is_empty() { <p class="lt-muted lt-small">{ format!("Variant: {}", card.variant) }</p> }
            <ol class="lt-score-list">
                { for card.items.iter().map(|i| {
                    let mark = match i.outcome { Outcome::Done => "✓", Outcome::Revealed => "◐", Outcome::Skipped => "–", Outcome::Open => "○" };
                    html!{ <li><span aria-hidden="true">{ mark }{ " " }</span>{ i.title.clone() }
                        <span class="lt-muted">{ if i.outcome == Outcome::Skipped { " skipped".to_string() } else { format!(" {}/{}", i.score(&card.scoring), i.points) } }</span>
                        if i.hints_used > 0 || i.wrong > 0 { <span class="lt-muted lt-small">{ format!(" ({} hint{}, {} wrong)", i.hints_used, if i.hints_used == 1 {""} else {"s"}, i.wrong) }</span> }
                    </li> }
                }) }
            </ol>
            <div class="lt-item-actions">
                <button type="button" class="lt-btn lt-btn-primary" onclick={copy} data-testid="copy-score">{ "Copy summary" }</button>
                if p.view.has_variants {
                    <button type="button" class="lt-btn" onclick={again} data-testid="new-variant">{ "Try a new variant" }</button>
                }
                <button type="button" class="lt-btn" onclick={restart} data-testid="restart">{ "Start again" }</button>
            </div>
            if let Some(c) = *copied {
                <p class="lt-muted lt-small" role="status">{ if c { "Summary copied to the clipboard." } else { "Copying failed: select the summary below and copy it." } }</p>
                if !c { <pre class="lt-summary">{ summary }</pre> }
            }
            <p class="lt-muted lt-small">
                if let Some(b) = &best { { format!("Best score on this device: {b}. ") } }
                <button type="button" class="lt-link" onclick={reset} data-testid="reset-progress">{ "Reset progress" }</button>
            </p>
        </section>
    }
}

/// The answer field and its error, both emptied when a new item (`at`: its index and step)
/// comes.
#[hook]
fn use_fresh_field(
    at: Option<(usize, usize)>,
) -> (UseStateHandle<String>, UseStateHandle<Option<String>>) {
    let value = use_state(String::new);
    let form_error = use_state(Option::<String>::default);
    {
        let (value, form_error) = (value.clone(), form_error.clone());
        use_effect_with(at, move |_| {
            value.set(String::new());
            form_error.set(None);
        });
    }
    (value, form_error)
}

/// The open item's card, focused when an item opens (`open_at`): when Next turns into a
/// disabled "Answer first", the focus would fall to the page body; it moves to the question
/// instead, unless the reader is elsewhere on purpose.
#[hook]
fn use_item_focus(open_at: Option<(usize, usize)>) -> NodeRef {
    let item_node = use_node_ref();
    {
        let node = item_node.clone();
        use_effect_with(open_at, move |at| {
            if at.is_some() {
                focus_if_lost(&node);
            }
        });
    }
    item_node
}

/// Back, play (not in a drill) and Next, which waits for an open item's answer.
fn lesson_nav(p: &LessonPaneProps, drill: bool, blocked: bool) -> Html {
    let v = &*p.view;
    let emit = |a: LessonAction| {
        let cb = p.on_lesson.clone();
        Callback::from(move |_: MouseEvent| cb.emit(a.clone()))
    };
    let transport = |a: TransportAction| {
        let cb = p.on_transport.clone();
        Callback::from(move |_: MouseEvent| cb.emit(a.clone()))
    };
    html! {
    <nav class="lt-lesson-nav" aria-label="Lesson steps">
        <button type="button" class="lt-btn" onclick={transport(TransportAction::Back)} disabled={v.stops.len() < 2} data-testid="lesson-back" aria-keyshortcuts="ArrowLeft">{ "◀ Back" }</button>
        if !drill {
            <button type="button" class="lt-btn" onclick={transport(TransportAction::TogglePlay)} disabled={blocked || v.finished} data-testid="lesson-play" aria-keyshortcuts="Space">
                { if p.playing { "‖ Pause" } else { "▶ Play" } }
            </button>
        }
        <button type="button" class="lt-btn lt-btn-primary" onclick={emit(LessonAction::Next)} disabled={blocked || v.finished} data-testid="lesson-next" aria-keyshortcuts="ArrowRight">
            { if v.finished { "Finished" } else if blocked { "Answer first" } else { "Next ▶" } }
        </button>
    </nav>
    }
}

/// The pane's head: the mode, the step, the broker clock, and the toggle that folds the
/// narration away on a phone embed.
fn lesson_head(label: &str, v: &LessonView, now: Timestamp, folded: &UseStateHandle<bool>) -> Html {
    let on_fold = {
        let folded = folded.clone();
        Callback::from(move |_: MouseEvent| folded.set(!*folded))
    };
    let step = v.at.map_or(0, |a| a + 1);
    let folded = **folded;
    html! {
        <div class="lt-lesson-head">
            <span class="lt-badge">{ label }</span>
            <span class="lt-lesson-progress" data-testid="lesson-step">{ format!("Step {step} of {}", v.steps) }</span>
            <span class="lt-lesson-clock" data-testid="lesson-clock"><span class="lt-muted">{ "Broker clock " }</span>{ human::date(now.0) }</span>
            <button type="button" class="lt-btn lt-btn-small lt-narration-toggle" aria-expanded={(!folded).to_string()} aria-controls="lt-narration"
                    onclick={on_fold} data-testid="narration-toggle">
                <span aria-hidden="true">{ if folded { "▸" } else { "▾" } }</span>{ "Narration" }
            </button>
        </div>
    }
}

/// The lesson pane.
#[function_component(LessonPane)]
pub fn lesson_pane(p: &LessonPaneProps) -> Html {
    let (value, form_error) = use_fresh_field(p.view.item.as_ref().map(|i| (i.index, i.step)));
    // A phone embed can fold the narration away (its toggle shows only there: embed.css).
    let folded = use_state(|| false);
    let item_node = use_item_focus(p.view.open().map(|i| (i.index, i.step)));
    // The assignment's learner: kept by the pane, as the lesson restarts with their variant.
    let assigned = use_state(|| None::<AttrValue>);
    let on_assign = {
        let (assigned, cb, fp) = (assigned.clone(), p.on_lesson.clone(), p.assign.clone());
        Callback::from(move |name: String| {
            let seed = logtime_lesson::seed_for(&name, fp.as_deref().unwrap_or_default());
            assigned.set(Some(AttrValue::from(name)));
            cb.emit(LessonAction::Restart(Some(seed)));
        })
    };
    let v = &*p.view;
    let emit = |a: LessonAction| {
        let cb = p.on_lesson.clone();
        Callback::from(move |_: MouseEvent| cb.emit(a.clone()))
    };
    let follow = follower(&p.on_lesson);
    let blocked = v.open().is_some();
    let presenter = v.mode == Some(Mode::Presenter);
    let drill = v.mode == Some(Mode::Drill);
    let label = match v.mode {
        Some(Mode::Drill) => "Drill",
        Some(Mode::Presenter) => "Presenter",
        _ => "Walkthrough",
    };
    html! {
        <section role="group" class={classes!("lt-panel", "lt-lesson", presenter.then_some("presenter"))} aria-label={format!("{label}: narration and questions")} data-testid="lesson" data-mode={v.mode.map_or("walkthrough", Mode::name)}>
            { lesson_head(label, v, p.now, &folded) }
            if let Some(fp) = &p.assign {
                <Assignment fingerprint={fp.clone()} learner={(*assigned).clone()} on_start={on_assign}
                            loaded={v.results.as_ref().map(|r| AttrValue::from(r.fingerprint.clone()))} />
            }
            if v.stops.len() <= 1 && !v.summary.is_empty() {
                <p class="lt-lesson-summary" data-testid="lesson-summary">{ for v.summary.iter().map(sentence) }</p>
            }
            if let (Some(seed), true) = (v.seed, v.has_variants) {
                // the variant's values can name an answer: the score card says them at the end
                <p class="lt-muted lt-small" data-testid="variant">{ format!("Variant {seed}") }</p>
            }
            <div id="lt-narration" class={classes!("lt-narration", folded.then_some("lt-folded"))} data-testid="narration" tabindex="0" role="group" aria-label="Narration">
                if !v.passed.is_empty() {
                    <details class="lt-passed">
                        <summary>{ format!("{} step{} ran on the way", v.passed.len(), if v.passed.len() == 1 { "" } else { "s" }) }</summary>
                        <ol>{ for v.passed.iter().map(|s| html!{ <li>{ sentence(s) }</li> }) }</ol>
                    </details>
                }
                { paragraphs(&v.narration, &follow) }
                if v.pause && !blocked && !v.finished {
                    <p class="lt-pause" data-testid="pause"><span aria-hidden="true">{ "‖ " }</span>{ "Pause: take your time, then go on." }</p>
                }
            </div>
            if let Some(item) = &v.item { { item_card(item, &item_node, v, &value, &form_error, &p.on_lesson) } }
            else if let Some(e) = &v.error { <p class="lt-field-error" role="alert" data-testid="lesson-error">{ e.clone() }</p> }
            if v.branch.is_some() {
                <p class="lt-branch" data-testid="branch">
                    { "Your earlier work is kept. " }
                    <button type="button" class="lt-btn lt-btn-small" onclick={emit(LessonAction::Return)} data-testid="return-branch">{ "Return to where I was" }</button>
                </p>
            }
            { lesson_nav(p, drill, blocked) }
            if v.finished && v.card.as_ref().is_some_and(|c| !c.items.is_empty()) { <ScoreCard view={p.view.clone()} progress_key={p.progress_key.clone()} on_lesson={p.on_lesson.clone()} /> }
            else if v.finished { <p class="lt-done" data-testid="lesson-finished">{ "✓ End of the walkthrough." }</p> }
            if v.card.as_ref().is_some_and(|c| !c.items.is_empty()) {
                <SendResults results={v.results.clone()} open={v.finished} learner={(*assigned).clone()} />
            }
        </section>
    }
}

/// Focuses `node` when the focus is on nothing (the page body) or on a disabled control.
fn focus_if_lost(node: &NodeRef) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let lost = match doc.active_element() {
        None => true,
        Some(a) => {
            a.tag_name().eq_ignore_ascii_case("body")
                || a.has_attribute("disabled")
                || a.get_attribute("data-testid").as_deref() == Some("lesson-next")
        }
    };
    if let (true, Some(el)) = (lost, node.cast::<web_sys::HtmlElement>()) {
        let _ = el.focus();
    }
}
