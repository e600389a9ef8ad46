//! Plumbing tests in headless Chromium (wasm-bindgen-test).
//! Run: `cargo test -p logtime-web --target wasm32-unknown-unknown --test browser`
//! (scripts/test.sh sets CHROMEDRIVER and the runner; see .cargo/config.toml).
#![cfg(target_arch = "wasm32")]

use logtime_web::{mount, mount_source, render_error, ScenarioSource};
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;
use web_sys::Element;

mod support;

use support::{host, settle, Find};

wasm_bindgen_test_configure!(run_in_browser);

/// The explorer's root wrapper inside `el`, once rendered.
async fn wait_root(el: &Element) -> Element {
    settle().await;
    el.find("[data-testid=app-root]")
        .unwrap()
        .unwrap_or_else(|| {
            panic!(
                "no [data-testid=app-root] rendered; host contains: {}",
                el.inner_html().chars().take(300).collect::<String>()
            )
        })
}

/// Asserts that, once rendered, the root's `attr` equals `want`.
async fn wait_attr(el: &Element, attr: &str, want: &str) {
    let root = wait_root(el).await;
    assert_eq!(
        root.get_attribute(attr).as_deref(),
        Some(want),
        "app root's {attr}"
    );
}

fn options(pairs: &[(&str, &str)]) -> JsValue {
    let o = js_sys::Object::new();
    for (k, v) in pairs {
        js_sys::Reflect::set(&o, &JsValue::from_str(k), &JsValue::from_str(v)).unwrap();
    }
    o.into()
}

#[wasm_bindgen_test]
async fn mounts_default_scenario() {
    let el = host();
    let _x = mount(el.clone().into(), JsValue::UNDEFINED).unwrap();
    settle().await;
    let root = wait_root(&el).await;
    assert_eq!(
        root.get_attribute("data-scenario-kind").as_deref(),
        Some("builtin")
    );
    assert_eq!(
        root.get_attribute("data-scenario").as_deref(),
        Some(logtime_web::DEFAULT_SCENARIO)
    );
}

#[wasm_bindgen_test]
async fn two_instances_are_independent() {
    let a = host();
    let b = host();
    let mut xa = mount(a.clone().into(), options(&[("scenario", "lookup-scan")])).unwrap();
    let _xb = mount(b.clone().into(), options(&[("src", "scenarios/b.json")])).unwrap();
    settle().await;
    assert_eq!(
        wait_root(&a)
            .await
            .get_attribute("data-scenario")
            .as_deref(),
        Some("lookup-scan")
    );
    assert_eq!(
        wait_root(&b)
            .await
            .get_attribute("data-scenario-kind")
            .as_deref(),
        Some("url")
    );

    xa.update(JsValue::from_str("landing")).unwrap();
    wait_attr(&a, "data-scenario", "landing").await;
    assert_eq!(
        wait_root(&b)
            .await
            .get_attribute("data-scenario")
            .as_deref(),
        Some("scenarios/b.json"),
        "updating one explorer must not touch the other"
    );

    xa.destroy();
    settle().await;
    assert!(a.find("[data-testid=app-root]").unwrap().is_none());
    assert!(b.find("[data-testid=app-root]").unwrap().is_some());
}

#[wasm_bindgen_test]
async fn inline_json_option() {
    let el = host();
    let _x = mount(
        el.clone().into(),
        options(&[("inline", r#"{"partitions":[]}"#)]),
    )
    .unwrap();
    settle().await;
    assert_eq!(
        wait_root(&el)
            .await
            .get_attribute("data-scenario-kind")
            .as_deref(),
        Some("inline")
    );
}

#[wasm_bindgen_test]
async fn bad_options_show_error_box_naming_attribute() {
    let el = host();
    let err = mount(el.clone().into(), options(&[("scenario", "Not A Name")]))
        .err()
        .expect("bad scenario is rejected");
    settle().await;
    let msg = message(&err);
    assert!(msg.contains("`scenario`"), "{msg}");
    let bx = el
        .find("[data-testid=logtime-error]")
        .unwrap()
        .expect("error box shown");
    assert_eq!(bx.get_attribute("role").as_deref(), Some("alert"));
    assert!(bx.text_content().unwrap().contains("`scenario`"));

    let el2 = host();
    let err = mount(el2.into(), options(&[("scenario", "x"), ("src", "y.json")]))
        .err()
        .unwrap();
    assert!(message(&err).contains("only one"));

    let el3 = host();
    let err = mount(el3.into(), JsValue::from_f64(3.0)).err().unwrap();
    assert!(message(&err).contains("options"));
}

#[wasm_bindgen_test]
async fn update_with_bad_value_shows_the_error_in_the_explorer() {
    let el = host();
    let mut x = mount_source(el.clone(), ScenarioSource::Builtin("lookup-scan".into()));
    settle().await;
    let e = x
        .update(options(&[("src", "javascript:alert(1)")]))
        .err()
        .unwrap();
    assert!(message(&e).contains("`src`"));
    settle().await;
    let bx = el
        .find("[data-testid=logtime-error]")
        .unwrap()
        .expect("error box");
    assert!(bx.text_content().unwrap().contains("not allowed"));
}

#[wasm_bindgen_test]
fn render_error_replaces_content_with_text_not_html() {
    let el = host();
    el.set_inner_html("<p>old</p>");
    render_error(&el, "Title", "<b>not bold</b>");
    assert!(el.find("p.old").unwrap().is_none());
    assert!(
        el.find("b").unwrap().is_none(),
        "detail must be text, not HTML"
    );
    assert!(el.text_content().unwrap().contains("<b>not bold</b>"));
}

#[wasm_bindgen_test]
async fn explorers_render_in_a_shadow_root_with_their_own_styles() {
    let el = host();
    let _x = mount(el.clone().into(), options(&[("scenario", "landing")])).unwrap();
    settle().await;
    let root = el.shadow_root().expect("a shadow root");
    assert!(root.query_selector("style").unwrap().is_some());
    assert!(el
        .query_selector("[data-testid=app-root]")
        .unwrap()
        .is_none());
    let app = wait_root(&el).await;
    assert_eq!(app.get_attribute("data-context").as_deref(), Some("embed"));
}

#[wasm_bindgen_test]
async fn mount_edges_are_clear() {
    let e = mount(JsValue::NULL, JsValue::UNDEFINED).err().unwrap();
    assert!(message(&e).contains("`element` is null"), "{}", message(&e));
    let e = mount(JsValue::from_str("#x"), JsValue::UNDEFINED)
        .err()
        .unwrap();
    assert!(message(&e).contains("must be a DOM element"));

    // Mounting again into the same element replaces the explorer there.
    let el = host();
    let mut first = mount(el.clone().into(), JsValue::from_str("landing")).unwrap();
    let _second = mount(el.clone().into(), JsValue::from_str("lookup-scan")).unwrap();
    settle().await;
    let root = el.shadow_root().unwrap();
    assert_eq!(
        root.query_selector_all("[data-testid=app-root]")
            .unwrap()
            .length(),
        1
    );
    wait_attr(&el, "data-scenario", "lookup-scan").await;
    let e = first.update(JsValue::from_str("landing")).err().unwrap();
    assert!(message(&e).contains("replaced by a later mount"));

    // update() refuses what is not options, and the explorer keeps running unchanged.
    let el = host();
    let mut x = mount(el.clone().into(), JsValue::from_str("landing")).unwrap();
    let arr = js_sys::Array::of2(&JsValue::from(1), &JsValue::from(2));
    let e = x.update(arr.into()).err().unwrap();
    assert!(message(&e).contains("not an array"), "{}", message(&e));
    settle().await;
    wait_attr(&el, "data-scenario", "landing").await;

    // A bad value shows the error box in the explorer; a good one brings it back.
    assert!(x.update(options(&[("panels", "nope")])).is_err());
    settle().await;
    let bx = el
        .find("[data-testid=logtime-error]")
        .unwrap()
        .expect("error box");
    assert!(bx.text_content().unwrap().contains("`panels`"));
    x.update(options(&[("scenario", "landing")])).unwrap();
    settle().await;
    assert!(el.find("[data-testid=logtime-error]").unwrap().is_none());
}

/// The message of an error thrown to JS (a JS `Error`, or a string).
fn message(e: &JsValue) -> String {
    e.as_string().unwrap_or_else(|| {
        js_sys::Reflect::get(e, &"message".into())
            .ok()
            .and_then(|m| m.as_string())
            .unwrap_or_default()
    })
}

/// The warm-up runs to its end in the browser, its density drawing on a real (unshown) canvas
/// included, and leaves the page as it was: no element added, no replay time counted.
#[wasm_bindgen_test]
async fn the_warm_up_runs_to_its_end_and_leaves_the_page_alone() {
    let window = web_sys::window().unwrap();
    let before = window
        .document()
        .unwrap()
        .body()
        .unwrap()
        .child_element_count();
    let clock = |name: &str| js_sys::Reflect::get(&window, &name.into()).unwrap();
    let _ = js_sys::Reflect::set(&window, &"__logtimeReplayMs".into(), &JsValue::from(0.0));
    let mut warm = logtime_web::warm::WarmUp::new();
    let mut pieces = 0;
    while warm.piece() {
        pieces += 1;
        assert!(pieces < 10, "the warm-up never ends");
    }
    assert_eq!(pieces, 4);
    assert!(warm.state().replay.at_end());
    let after = window
        .document()
        .unwrap()
        .body()
        .unwrap()
        .child_element_count();
    assert_eq!(before, after, "the warm-up added an element to the page");
    assert_eq!(
        clock("__logtimeReplayMs").as_f64(),
        Some(0.0),
        "the warm-up's steps were timed"
    );
}
