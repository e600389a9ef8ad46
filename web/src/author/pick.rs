//! Picking a step's highlights by pointing at the explorer: besides segments and records (a
//! second record with Shift makes a range, `offsets:a-b`), a config row and a panel's heading
//! become toggle buttons while the author picks, so they are picked by mouse and by keyboard
//! (Enter or Space) alike; Esc ends picking. The panels learn it from a context
//! ([`PickContext`]), so a panel outside author mode (an embed, a lesson) renders as before.
//! Every pick is core's `SetHighlights`.

use std::cell::Cell;
use std::rc::Rc;

use logtime_core::scenario::narrate::Panel;
use logtime_lesson::author::AuthorCommand;
use logtime_lesson::Target;
use logtime_model::Timestamp;
use yew::prelude::*;

use super::state::{AuthorAction, AuthorState, Pointing};

/// What the panels need while the author picks highlights for a step.
#[derive(Clone, PartialEq)]
pub struct PickContext {
    /// The step whose highlights are picked (1-based).
    pub step: usize,
    /// Its highlights, as targets.
    pub picked: Rc<Vec<Target>>,
    /// Something pointed at: added to the step's highlights, or removed when it is there.
    pub on_pick: Callback<Target>,
}

impl PickContext {
    /// Whether `t` is one of the step's highlights.
    pub fn has(&self, t: &Target) -> bool {
        self.picked.contains(t)
    }
}

/// The highlights written for a step, as targets (core wrote them: they parse).
fn targets(written: &[String]) -> Vec<Target> {
    written
        .iter()
        .filter_map(|t| Target::parse(t).ok())
        .collect()
}

/// The highlights after pointing at `t`: added, or removed when already there. With `range`
/// (Shift held) a record joins the last single record picked into one range of offsets.
pub(super) fn toggled(written: &[String], t: Target, range: bool) -> Vec<Target> {
    let mut list = targets(written);
    if let (true, Target::Offset(b)) = (range, &t) {
        let last = list.iter().enumerate().rev().find_map(|(k, x)| match x {
            Target::Offset(a) if a != b => Some((k, *a)),
            _ => None,
        });
        if let Some((k, a)) = last {
            list[k] = Target::Offsets {
                first: a.min(*b),
                last: a.max(*b),
            };
            return list;
        }
    }
    match list.iter().position(|x| *x == t) {
        Some(k) => {
            list.remove(k);
        }
        None => list.push(t),
    }
    list
}

/// The context while the author picks highlights for the selected step (`None` otherwise);
/// picks are applied at broker time `now`.
pub fn pick_context(author: &UseReducerHandle<AuthorState>, now: Timestamp) -> Option<PickContext> {
    if author.pointing != Pointing::Highlights {
        return None;
    }
    let step = author.selected?;
    let s = author.draft.as_ref()?.steps.get(step.checked_sub(1)?)?;
    let written = s.highlights.clone();
    let picked = Rc::new(targets(&written));
    let author = author.clone();
    let on_pick = Callback::from(move |t: Target| {
        let targets = toggled(&written, t, false);
        let cmd = AuthorCommand::SetHighlights { step, targets };
        author.dispatch(AuthorAction::Apply(now, Box::new(cmd)));
    });
    Some(PickContext {
        step,
        picked,
        on_pick,
    })
}

/// The panels the selected step highlights, outlined as a lesson outlines them.
pub fn marked_panels(author: &AuthorState) -> Vec<Panel> {
    let step = author.selected.and_then(|i| i.checked_sub(1));
    let Some(s) = author
        .draft
        .as_ref()
        .zip(step)
        .and_then(|(d, i)| d.steps.get(i))
    else {
        return Vec::new();
    };
    targets(&s.highlights)
        .into_iter()
        .filter_map(|t| match t {
            Target::Panel(p) => Some(p),
            _ => None,
        })
        .collect()
}

/// The panel heading's props.
#[derive(Properties, PartialEq, Clone)]
pub struct PickPanelProps {
    /// The panel.
    pub panel: Panel,
    /// Shown only while picking (a panel without a heading, like the clock bar).
    #[prop_or_default]
    pub only_picking: bool,
    /// The heading's text.
    pub children: Html,
}

/// A panel's heading text; while the author picks highlights, a toggle button that picks the
/// panel (`panel:lookup`).
#[function_component(PickPanel)]
pub fn pick_panel(p: &PickPanelProps) -> Html {
    let ctx = use_context::<Option<PickContext>>().flatten();
    let Some(ctx) = ctx else {
        return if p.only_picking {
            Html::default()
        } else {
            p.children.clone()
        };
    };
    let t = Target::Panel(p.panel);
    let on = ctx.has(&t);
    let onclick = ctx.on_pick.reform(move |_: MouseEvent| t.clone());
    // Named by its visible heading (what a voice user says), with what pressing it does.
    html! {
        <button type="button" class="lt-pick lt-pick-panel" {onclick} aria-pressed={if on { "true" } else { "false" }}
                data-testid={format!("pick-panel-{}", p.panel.key())}>
            <span class="lt-visually-hidden">{ "Highlight " }</span>
            { p.children.clone() }
            <span class="lt-visually-hidden">{ format!(" in step {}", ctx.step) }</span>
            <span class="lt-pick-mark" aria-hidden="true">{ if on { " ★" } else { " ☆" } }</span>
        </button>
    }
}

/// A config row's toggle button while the author picks highlights (`config:retention.ms`).
pub fn pick_config(ctx: Option<&PickContext>, name: &str) -> Html {
    let Some(ctx) = ctx else {
        return Html::default();
    };
    let t = Target::Config(name.to_string());
    let on = ctx.has(&t);
    let label = format!("Highlight {t} in step {}", ctx.step);
    let onclick = ctx.on_pick.reform(move |_: MouseEvent| t.clone());
    html! {
        <button type="button" class="lt-pick lt-pick-config" {onclick} aria-pressed={if on { "true" } else { "false" }}
                aria-label={label} data-testid={format!("pick-config-{name}")}>
            { if on { "★ highlighted" } else { "☆ highlight" } }
        </button>
    }
}

/// Esc ends picking (anywhere in the explorer); every other key goes to `rest`.
pub fn pick_keys(
    author: &UseReducerHandle<AuthorState>,
    rest: Callback<KeyboardEvent>,
) -> Callback<KeyboardEvent> {
    if author.pointing == Pointing::Off {
        return rest;
    }
    let author = author.clone();
    Callback::from(move |e: KeyboardEvent| {
        if e.key() == "Escape" {
            e.prevent_default();
            author.dispatch(AuthorAction::Point(Pointing::Off));
        } else {
            rest.emit(e);
        }
    })
}

/// Whether Shift was held for the last click or key inside `root` (a record picked with Shift
/// makes a range): read before the record's own handler runs, in the capture phase.
#[hook]
pub fn use_shift(root: NodeRef) -> Rc<Cell<bool>> {
    let held = use_memo((), |()| Rc::new(Cell::new(false)));
    let shift = (*held).clone();
    use_effect_with(root, move |root| {
        #[cfg(target_arch = "wasm32")]
        let kept = {
            use wasm_bindgen::closure::Closure;
            use wasm_bindgen::JsCast;
            let el = root.cast::<web_sys::Element>();
            let on = move |e: Event| {
                let held = js_sys::Reflect::get(&e, &"shiftKey".into())
                    .ok()
                    .and_then(|v| v.as_bool());
                shift.set(held.unwrap_or(false));
            };
            let cb = Closure::<dyn Fn(Event)>::new(on);
            if let Some(el) = &el {
                for kind in ["click", "keydown"] {
                    let f = cb.as_ref().unchecked_ref();
                    let _ = el.add_event_listener_with_callback_and_bool(kind, f, true);
                }
            }
            (el, cb)
        };
        #[cfg(not(target_arch = "wasm32"))]
        let _ = (root, shift);
        move || {
            #[cfg(target_arch = "wasm32")]
            if let (Some(el), cb) = kept {
                use wasm_bindgen::JsCast;
                for kind in ["click", "keydown"] {
                    let f = cb.as_ref().unchecked_ref();
                    let _ = el.remove_event_listener_with_callback_and_bool(kind, f, true);
                }
            }
        }
    });
    (*held).clone()
}

#[cfg(test)]
mod tests {
    use super::*;
    use logtime_model::Offset;

    fn written(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    fn shown(list: Vec<Target>) -> Vec<String> {
        list.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn pointing_at_something_adds_it_and_pointing_again_removes_it() {
        let w = written(&["segment:0"]);
        let cfg = Target::Config("retention.ms".into());
        assert_eq!(
            shown(toggled(&w, cfg.clone(), false)),
            ["segment:0", "config:retention.ms"]
        );
        let w = written(&["segment:0", "config:retention.ms", "panel:lookup"]);
        assert_eq!(
            shown(toggled(&w, cfg, false)),
            ["segment:0", "panel:lookup"]
        );
        assert_eq!(
            shown(toggled(&w, Target::Panel(Panel::Lookup), false)),
            ["segment:0", "config:retention.ms"]
        );
    }

    #[test]
    fn a_record_with_shift_makes_a_range_with_the_last_record_picked() {
        let w = written(&["offset:7", "segment:0", "offset:2"]);
        assert_eq!(
            shown(toggled(&w, Target::Offset(Offset(5)), true)),
            ["offset:7", "segment:0", "offsets:2-5"]
        );
        // Backwards works too; with no single record yet, Shift just picks it.
        let w = written(&["offset:9"]);
        assert_eq!(
            shown(toggled(&w, Target::Offset(Offset(4)), true)),
            ["offsets:4-9"]
        );
        let w = written(&["segment:0"]);
        assert_eq!(
            shown(toggled(&w, Target::Offset(Offset(4)), true)),
            ["segment:0", "offset:4"]
        );
        // The same record again with Shift is taken away, as without.
        let w = written(&["offset:4"]);
        assert!(toggled(&w, Target::Offset(Offset(4)), true).is_empty());
    }
}
