//! Plumbing tests in headless Chromium (wasm-bindgen-test).
//! Run: `cargo test -p logtime-web --target wasm32-unknown-unknown --test browser`
//! (scripts/test.sh sets CHROMEDRIVER and the runner; see .cargo/config.toml).
#![cfg(target_arch = "wasm32")]

use logtime_web::{mount, mount_source, render_error, ScenarioSource};
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;
use web_sys::Element;

mod support;

use support::{host, settle};

wasm_bindgen_test_configure!(run_in_browser);

/// The explorer's root wrapper inside `el`, once rendered.
async fn wait_root(el: &Element) -> Element {
    settle().await;
    el.query_selector("[data-testid=app-root]")
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
    let _x = mount(el.clone(), JsValue::UNDEFINED).unwrap();
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
    let mut xa = mount(a.clone(), options(&[("scenario", "lookup-scan")])).unwrap();
    let _xb = mount(b.clone(), options(&[("src", "scenarios/b.json")])).unwrap();
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
    assert!(a
        .query_selector("[data-testid=app-root]")
        .unwrap()
        .is_none());
    assert!(b
        .query_selector("[data-testid=app-root]")
        .unwrap()
        .is_some());
}

#[wasm_bindgen_test]
async fn inline_json_option() {
    let el = host();
    let _x = mount(el.clone(), options(&[("inline", r#"{"partitions":[]}"#)])).unwrap();
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
fn bad_options_show_error_box_naming_attribute() {
    let el = host();
    let err = mount(el.clone(), options(&[("scenario", "Not A Name")]))
        .err()
        .expect("bad scenario is rejected");
    let msg = err.as_string().unwrap();
    assert!(msg.contains("`scenario`"), "{msg}");
    let bx = el
        .query_selector("[data-testid=logtime-error]")
        .unwrap()
        .expect("error box shown");
    assert_eq!(bx.get_attribute("role").as_deref(), Some("alert"));
    assert!(bx.text_content().unwrap().contains("`scenario`"));

    let el2 = host();
    let err = mount(el2, options(&[("scenario", "x"), ("src", "y.json")]))
        .err()
        .unwrap();
    assert!(err.as_string().unwrap().contains("only one"));

    let el3 = host();
    let err = mount(el3, JsValue::from_f64(3.0)).err().unwrap();
    assert!(err.as_string().unwrap().contains("options"));
}

#[wasm_bindgen_test]
async fn update_with_bad_value_keeps_explorer() {
    let el = host();
    let mut x = mount_source(el.clone(), ScenarioSource::Builtin("lookup-scan".into()));
    settle().await;
    assert!(x
        .update(options(&[("src", "javascript:alert(1)")]))
        .is_err());
    settle().await;
    assert_eq!(
        wait_root(&el)
            .await
            .get_attribute("data-scenario")
            .as_deref(),
        Some("lookup-scan")
    );
}

#[wasm_bindgen_test]
fn render_error_replaces_content_with_text_not_html() {
    let el = host();
    el.set_inner_html("<p>old</p>");
    render_error(&el, "Title", "<b>not bold</b>");
    assert!(el.query_selector("p.old").unwrap().is_none());
    assert!(
        el.query_selector("b").unwrap().is_none(),
        "detail must be text, not HTML"
    );
    assert!(el.text_content().unwrap().contains("<b>not bold</b>"));
}
