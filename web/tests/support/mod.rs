//! What the browser test files share: a host element per test, and waiting for Yew.

use wasm_bindgen::JsValue;
use web_sys::Element;

/// Finds in an explorer's host: inside its shadow root when it has one (every mounted explorer
/// does), else in its light DOM.
pub(crate) trait Find {
    /// `querySelector` through the shadow root.
    fn find(&self, sel: &str) -> Result<Option<Element>, JsValue>;
}

impl Find for Element {
    fn find(&self, sel: &str) -> Result<Option<Element>, JsValue> {
        match self.shadow_root() {
            Some(root) => root.query_selector(sel),
            None => self.query_selector(sel),
        }
    }
}

/// A fresh `<div>` in the page's body to mount into.
pub(crate) fn host() -> Element {
    let doc = web_sys::window().unwrap().document().unwrap();
    let el = doc.create_element("div").unwrap();
    doc.body().unwrap().append_child(&el).unwrap();
    el
}

/// Lets Yew finish every render it has scheduled.
pub(crate) async fn settle() {
    yew::scheduler::flush().await;
}
