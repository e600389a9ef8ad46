//! Leaving a page whose embedded explorer holds the reader's actions asks first (the
//! standalone page keeps them in its URL).

use yew::prelude::*;

/// While `guard` holds, the browser asks before the page is left.
#[hook]
pub fn use_unload_guard(guard: bool) {
    use_effect_with(guard, move |guard| {
        #[cfg(target_arch = "wasm32")]
        let keep = guard.then(|| {
            use wasm_bindgen::closure::Closure;
            use wasm_bindgen::JsCast;
            let cb = Closure::<dyn Fn(web_sys::BeforeUnloadEvent)>::new(
                |e: web_sys::BeforeUnloadEvent| {
                    e.prevent_default();
                    e.set_return_value("Your actions in the Logtime explorer will be lost.");
                },
            );
            if let Some(w) = web_sys::window() {
                let _ =
                    w.add_event_listener_with_callback("beforeunload", cb.as_ref().unchecked_ref());
            }
            cb
        });
        #[cfg(not(target_arch = "wasm32"))]
        let _ = guard;
        move || {
            #[cfg(target_arch = "wasm32")]
            if let (Some(cb), Some(w)) = (keep, web_sys::window()) {
                use wasm_bindgen::JsCast;
                let _ = w.remove_event_listener_with_callback(
                    "beforeunload",
                    cb.as_ref().unchecked_ref(),
                );
            }
        }
    });
}
