//! A lesson stop that points at panels (`panel:lookup`): each is outlined, and the first is
//! scrolled into view, in this explorer only (its own shadow root).

use logtime_core::scenario::narrate::Panel;
use yew::prelude::*;

/// The attribute that outlines a pointed panel (`app.css`); Yew does not manage it, so a
/// panel's own re-render leaves it alone.
pub const POINTED_ATTR: &str = "data-lt-pointed";

/// The selector of a panel's root element in the explorer (`data-panel` on each panel's
/// `section`; the picture of the moment, kept in the page for printing, marks its own panels
/// `data-panel` too, and comes first).
pub fn panel_selector(p: Panel) -> String {
    format!("section[data-panel={}]", p.key())
}

/// Outlines `panels` inside `root` (and no others) whenever the list changes, and scrolls the
/// first into view, except for the first list shown: a page (or a docs page with an embed)
/// opening at a lesson's first stop stays where the reader is.
#[hook]
pub fn use_pointed_panels(root: NodeRef, panels: Vec<Panel>) {
    let shown_before = use_mut_ref(|| false);
    use_effect_with(panels, move |panels| {
        let scroll = *shown_before.borrow();
        if !panels.is_empty() {
            *shown_before.borrow_mut() = true;
        }
        #[cfg(target_arch = "wasm32")]
        if let Some(root) = root.cast::<web_sys::Element>() {
            point(&root, panels, scroll);
        }
        #[cfg(not(target_arch = "wasm32"))]
        let _ = (root, panels, scroll);
    });
}

/// Scrolls to what a followed narration link names (`follow`: a count, so following the same
/// link again scrolls again, and a selector inside `root`), after the render that outlines it.
#[hook]
pub fn use_followed(root: NodeRef, follow: Option<(u32, String)>) {
    use_effect_with(follow, move |follow| {
        #[cfg(target_arch = "wasm32")]
        if let (Some((_, sel)), Some(root)) = (follow, root.cast::<web_sys::Element>()) {
            if let Ok(Some(el)) = root.query_selector(sel) {
                let opts = web_sys::ScrollIntoViewOptions::new();
                opts.set_block(web_sys::ScrollLogicalPosition::Center);
                opts.set_inline(web_sys::ScrollLogicalPosition::Nearest);
                el.scroll_into_view_with_scroll_into_view_options(&opts);
            }
        }
        #[cfg(not(target_arch = "wasm32"))]
        let _ = (root, follow);
    });
}

#[cfg(target_arch = "wasm32")]
fn point(root: &web_sys::Element, panels: &[Panel], scroll: bool) {
    if let Ok(old) = root.query_selector_all(&format!("[{POINTED_ATTR}]")) {
        for i in 0..old.length() {
            if let Some(el) = old
                .item(i)
                .and_then(|n| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(n).ok())
            {
                let _ = el.remove_attribute(POINTED_ATTR);
            }
        }
    }
    let mut first = true;
    for p in panels {
        let Ok(Some(el)) = root.query_selector(&panel_selector(*p)) else {
            continue;
        };
        let _ = el.set_attribute(POINTED_ATTR, "");
        if first && scroll {
            first = false;
            let opts = web_sys::ScrollIntoViewOptions::new();
            opts.set_block(web_sys::ScrollLogicalPosition::Nearest);
            el.scroll_into_view_with_scroll_into_view_options(&opts);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_panel_has_a_selector_naming_its_key() {
        assert_eq!(panel_selector(Panel::Lookup), "section[data-panel=lookup]");
        assert_eq!(panel_selector(Panel::Clock), "section[data-panel=clock]");
    }
}
