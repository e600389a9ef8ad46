//! The explorer's keyboard shortcuts: space or `k` plays and pauses, → or `l` steps, ← or `j`
//! steps back, `+` and `−` change the speed. Form controls keep their own keys.

use yew::prelude::*;

use crate::model::timeline;
use crate::state::{Explorer, TransportAction};

/// What `key` does when pressed on an element named `tag` (lowercase), at `speed`: `None`
/// leaves it to the element (space on a button presses it, a text field takes letters).
pub fn key_action(key: &str, tag: &str, speed: u32) -> Option<TransportAction> {
    let control = matches!(tag, "input" | "select" | "textarea" | "button" | "summary");
    let arrow = key == "ArrowLeft" || key == "ArrowRight";
    if control && key != "Escape" && !(tag == "button" && arrow) {
        return None;
    }
    match key {
        " " | "k" => Some(TransportAction::TogglePlay),
        "ArrowRight" | "l" => Some(TransportAction::Step),
        "ArrowLeft" | "j" => Some(TransportAction::Back),
        "+" | "=" => Some(TransportAction::SetSpeed(timeline::next_speed(speed, true))),
        "-" | "_" => Some(TransportAction::SetSpeed(timeline::next_speed(
            speed, false,
        ))),
        _ => None,
    }
}

/// The explorer's `keydown` handler at `speed`.
#[hook]
pub fn use_keys(d: UseReducerDispatcher<Explorer>, speed: u32) -> Callback<KeyboardEvent> {
    use_callback((d, speed), |e: KeyboardEvent, (d, speed)| {
        use wasm_bindgen::JsCast;
        let tag = e
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .map(|el| el.tag_name().to_ascii_lowercase())
            .unwrap_or_default();
        if let Some(a) = key_action(&e.key(), &tag, *speed) {
            e.prevent_default();
            d.dispatch(a.into());
        }
    })
}

/// On the standalone page the shortcuts work before any click: a key pressed with the focus on
/// nothing (the page body) goes to `on_key`, the explorer's handler. Keys pressed inside the
/// explorer reach its own handler, so they are not handled twice; an embed listens only while
/// the focus is inside it (its host page keeps its keys).
#[hook]
pub fn use_page_keys(standalone: bool, on_key: Callback<KeyboardEvent>) {
    use_effect_with((standalone, on_key), move |(standalone, on_key)| {
        #[cfg(target_arch = "wasm32")]
        let keep = standalone.then(|| {
            use wasm_bindgen::closure::Closure;
            use wasm_bindgen::JsCast;
            let on_key = on_key.clone();
            let cb = Closure::<dyn Fn(KeyboardEvent)>::new(move |e: KeyboardEvent| {
                let on_body = e
                    .target()
                    .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                    .is_none_or(|el| {
                        matches!(el.tag_name().to_ascii_lowercase().as_str(), "body" | "html")
                    });
                if on_body && !e.default_prevented() {
                    on_key.emit(e);
                }
            });
            if let Some(w) = web_sys::window() {
                let _ = w.add_event_listener_with_callback("keydown", cb.as_ref().unchecked_ref());
            }
            cb
        });
        #[cfg(not(target_arch = "wasm32"))]
        let _ = (standalone, on_key);
        move || {
            #[cfg(target_arch = "wasm32")]
            if let (Some(cb), Some(w)) = (keep, web_sys::window()) {
                use wasm_bindgen::JsCast;
                let _ =
                    w.remove_event_listener_with_callback("keydown", cb.as_ref().unchecked_ref());
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_on_the_explorer_drive_the_transport() {
        assert_eq!(key_action(" ", "div", 4), Some(TransportAction::TogglePlay));
        assert_eq!(key_action("l", "div", 4), Some(TransportAction::Step));
        assert_eq!(
            key_action("ArrowLeft", "div", 4),
            Some(TransportAction::Back)
        );
        assert_eq!(
            key_action("+", "div", 4),
            Some(TransportAction::SetSpeed(timeline::next_speed(4, true)))
        );
        assert_eq!(key_action("x", "div", 4), None);
    }

    #[test]
    fn form_controls_keep_their_keys_but_buttons_pass_the_arrows() {
        assert_eq!(key_action(" ", "button", 4), None);
        assert_eq!(key_action("k", "input", 4), None);
        assert_eq!(key_action("ArrowRight", "select", 4), None);
        assert_eq!(
            key_action("ArrowRight", "button", 4),
            Some(TransportAction::Step)
        );
        assert_eq!(key_action("Escape", "input", 4), None);
    }
}
