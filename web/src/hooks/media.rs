//! The reader's display preferences: reduced motion and a dark colour scheme, followed while
//! the page is open.

use yew::prelude::*;

/// `(prefers-reduced-motion: reduce, prefers-color-scheme: dark)` now.
fn media() -> (bool, bool) {
    #[cfg(target_arch = "wasm32")]
    {
        let q = |s: &str| {
            web_sys::window()
                .and_then(|w| w.match_media(s).ok().flatten())
                .map(|m| m.matches())
                .unwrap_or(false)
        };
        (
            q("(prefers-reduced-motion: reduce)"),
            q("(prefers-color-scheme: dark)"),
        )
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        (false, false)
    }
}

/// `(reduced motion, system dark)`, updated when either media query changes.
#[hook]
pub fn use_media() -> (bool, bool) {
    let prefs = use_state(media);
    {
        let prefs = prefs.clone();
        use_effect_with((), move |_| {
            #[cfg(target_arch = "wasm32")]
            let keep = {
                use wasm_bindgen::closure::Closure;
                use wasm_bindgen::JsCast;
                let cb = Closure::<dyn Fn()>::new(move || prefs.set(media()));
                let lists: Vec<web_sys::MediaQueryList> = [
                    "(prefers-color-scheme: dark)",
                    "(prefers-reduced-motion: reduce)",
                ]
                .iter()
                .filter_map(|q| web_sys::window()?.match_media(q).ok().flatten())
                .collect();
                for l in &lists {
                    let _ =
                        l.add_event_listener_with_callback("change", cb.as_ref().unchecked_ref());
                }
                (cb, lists)
            };
            #[cfg(not(target_arch = "wasm32"))]
            let _ = prefs;
            move || {
                #[cfg(target_arch = "wasm32")]
                {
                    use wasm_bindgen::JsCast;
                    let (cb, lists) = keep;
                    for l in &lists {
                        let _ = l.remove_event_listener_with_callback(
                            "change",
                            cb.as_ref().unchecked_ref(),
                        );
                    }
                }
            }
        });
    }
    *prefs
}
