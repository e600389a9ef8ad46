//! Component tests in headless Chromium (wasm-bindgen-test): render into a div, assert DOM.
//! Run: `cargo test -p logtime-web --target wasm32-unknown-unknown --test components`
#![cfg(target_arch = "wasm32")]

use logtime_web::components::error_box::{ErrorBox, ErrorBoxProps};
use logtime_web::{mount_source, ScenarioSource};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement};

mod support;

use support::{host, settle};

wasm_bindgen_test_configure!(run_in_browser);

/// Waits (up to ~10 s) for `sel` to appear in `el`: for what a timer drives (the lookup walk),
/// not for rendering, which [`settle`] completes.
async fn wait_for(el: &Element, sel: &str) {
    for _ in 0..200 {
        settle().await;
        if el.query_selector(sel).unwrap().is_some() {
            return;
        }
        gloo_timers::future::TimeoutFuture::new(50).await;
    }
    panic!("{sel} never appeared");
}

fn text(el: &Element, sel: &str) -> String {
    el.query_selector(sel)
        .unwrap()
        .unwrap_or_else(|| panic!("{sel} rendered"))
        .text_content()
        .unwrap_or_default()
}

fn click(el: &Element, sel: &str) {
    el.query_selector(sel)
        .unwrap()
        .unwrap()
        .dyn_into::<HtmlElement>()
        .unwrap()
        .click();
}

#[wasm_bindgen_test]
async fn error_box_names_the_problem() {
    let el = host();
    let props = ErrorBoxProps {
        title: "This scenario could not be shown".into(),
        detail: "step 3: advance: malformed duration \"5x\"".into(),
        hint: None,
    };
    let _h = yew::Renderer::<ErrorBox>::with_root_and_props(el.clone(), props).render();
    settle().await;
    let bx = el
        .query_selector("[data-testid=scenario-error]")
        .unwrap()
        .unwrap();
    assert_eq!(bx.get_attribute("role").as_deref(), Some("alert"));
    assert!(text(&el, "pre").contains("step 3"));
}

#[wasm_bindgen_test]
async fn lookup_scan_steps_to_offset_3() {
    let el = host();
    let _x = mount_source(el.clone(), ScenarioSource::Builtin("lookup-scan".into()));
    settle().await;
    assert!(text(&el, "[data-testid=clock]").contains("4 Nov 2025 10:00"));
    assert!(text(&el, ".lt-scrub").contains("Step 0 of 4"));
    for _ in 0..4 {
        click(&el, "[data-testid=step]");
        settle().await;
    }
    // the walk animates on a timer; wait for the answer
    wait_for(&el, "[data-testid=lookup-answer]").await;
    assert!(text(&el, "[data-testid=lookup-answer]").contains("offset 3"));
    assert!(el
        .query_selector("[data-testid=segment-0]")
        .unwrap()
        .is_some());
    let late = el
        .query_selector("[data-testid=record-5]")
        .unwrap()
        .unwrap();
    assert!(late.class_name().contains("late"), "{}", late.class_name());
}

#[wasm_bindgen_test]
async fn bad_inline_scenario_shows_its_error_line() {
    let el = host();
    let _x = mount_source(
        el.clone(),
        ScenarioSource::Inline(r#"{"title":"x","steps":[]}"#.into()),
    );
    settle().await;
    let msg = text(&el, "[data-testid=scenario-error]");
    assert!(msg.contains("start"), "{msg}");
}

#[wasm_bindgen_test]
async fn two_explorers_step_independently() {
    let a = host();
    let b = host();
    let _xa = mount_source(a.clone(), ScenarioSource::Builtin("landing".into()));
    let _xb = mount_source(b.clone(), ScenarioSource::Builtin("landing".into()));
    settle().await;
    click(&a, "[data-testid=step]");
    click(&a, "[data-testid=step]");
    settle().await;
    assert!(text(&a, ".lt-scrub").contains("Step 2 of"));
    assert!(text(&b, ".lt-scrub").contains("Step 0 of"));
}
