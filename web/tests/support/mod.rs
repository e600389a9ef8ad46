//! What the browser test files share: a host element per test, and waiting for Yew.

use web_sys::Element;

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
