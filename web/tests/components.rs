//! Component tests in headless Chromium (wasm-bindgen-test): render into a div, assert DOM.
//! Run: `cargo test -p logtime-web --target wasm32-unknown-unknown --test components`
#![cfg(target_arch = "wasm32")]

use logtime_web::components::error_box::{ErrorBox, ErrorBoxProps};
use logtime_web::options::Panels;
use logtime_web::{mount_options, mount_source, Context, Explorer, Options, ScenarioSource};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement};

mod support;

use support::{host, settle, Find};

wasm_bindgen_test_configure!(run_in_browser);

// The test runner serves no `static/` folder, so these tests give the built-ins' files inline
// (the page fetches them; the end-to-end tests cover that).
const LOOKUP_SCAN: &str = include_str!("../../static/scenarios/lookup-scan.json");
const LANDING: &str = include_str!("../../static/scenarios/landing.json");

/// Waits (up to ~10 s) for `sel` to appear in `el`: for what a timer drives (the lookup walk),
/// not for rendering, which [`settle`] completes.
async fn wait_for(el: &Element, sel: &str) {
    for _ in 0..200 {
        settle().await;
        if el.find(sel).unwrap().is_some() {
            return;
        }
        gloo_timers::future::TimeoutFuture::new(50).await;
    }
    panic!("{sel} never appeared");
}

fn text(el: &Element, sel: &str) -> String {
    el.find(sel)
        .unwrap()
        .unwrap_or_else(|| panic!("{sel} rendered"))
        .text_content()
        .unwrap_or_default()
}

fn click(el: &Element, sel: &str) {
    el.find(sel)
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
    let bx = el.find("[data-testid=scenario-error]").unwrap().unwrap();
    assert_eq!(bx.get_attribute("role").as_deref(), Some("alert"));
    assert!(text(&el, "pre").contains("step 3"));
}

#[wasm_bindgen_test]
async fn lookup_scan_steps_to_offset_3() {
    let el = host();
    let _x = mount_source(el.clone(), ScenarioSource::Inline(LOOKUP_SCAN.into()));
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
    assert!(el.find("[data-testid=segment-0]").unwrap().is_some());
    let late = el.find("[data-testid=record-5]").unwrap().unwrap();
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
    let _xa = mount_source(a.clone(), ScenarioSource::Inline(LANDING.into()));
    let _xb = mount_source(b.clone(), ScenarioSource::Inline(LANDING.into()));
    settle().await;
    click(&a, "[data-testid=step]");
    click(&a, "[data-testid=step]");
    settle().await;
    assert!(text(&a, ".lt-scrub").contains("Step 2 of"));
    assert!(text(&b, ".lt-scrub").contains("Step 0 of"));
}

/// Mounts `scenario` as an embed showing every panel (an embed's default shows only the panels
/// its steps use, and these tests work the retention and producer panels).
fn mount_all_panels(el: &Element, scenario: ScenarioSource) -> Explorer {
    let mut o = Options::new(Context::Embed);
    o.source = scenario;
    o.panels = Some(Panels::ALL);
    mount_options(el.clone(), Ok(o)).expect("the test host can hold a shadow root")
}

/// Sets a `<select>` or `<input>` in `el` to `value` and fires the `input` and `change` events
/// Yew listens to, as a person picking an option or typing does.
fn choose(el: &Element, sel: &str, value: &str) {
    let node = el
        .find(sel)
        .unwrap()
        .unwrap_or_else(|| panic!("{sel} rendered"));
    js_sys::Reflect::set(&node, &"value".into(), &value.into()).unwrap();
    let fire = js_sys::Function::new_with_args(
        "n",
        "n.dispatchEvent(new InputEvent('input', { bubbles: true })); n.dispatchEvent(new Event('change', { bubbles: true }))",
    );
    fire.call1(&wasm_bindgen::JsValue::NULL, &node).unwrap();
}

/// A compacted topic (3.6 rules, 1000-byte segments) that has just rejected an oversized batch.
const COMPACTED: &str = r#"{"title": "compacted", "kafka": "3.6", "start": "2027-03-12T09:00:00Z",
    "topic": {"cleanup.policy": "compact,delete", "segment.bytes": 1000},
    "steps": [{"produce": {"records": [{"timestamp": "now", "key_bytes": 8, "value_bytes": 2000}]}}]}"#;

/// Wherever the policy includes compact, the explorer says compaction is not modelled and the
/// retention panel names the log cleaner's next pass; elsewhere neither.
#[wasm_bindgen_test]
async fn compacted_topics_say_compaction_is_not_modelled() {
    let el = host();
    let _x = mount_all_panels(&el, ScenarioSource::Inline(COMPACTED.into()));
    settle().await;
    let note = text(&el, "[data-testid=compaction-note]");
    assert!(
        note.contains("cleanup.policy compact,delete: compaction is not modelled"),
        "{note}"
    );
    let settings = text(&el, "[data-testid=retention-settings]");
    assert!(
        settings.contains("next log cleaner pass 12 Mar 2027 09:00"),
        "{settings}"
    );
    let other = host();
    let _y = mount_all_panels(&other, ScenarioSource::Inline(LOOKUP_SCAN.into()));
    settle().await;
    assert!(other
        .find("[data-testid=compaction-note]")
        .unwrap()
        .is_none());
    let settings = text(&other, "[data-testid=retention-settings]");
    assert!(settings.contains("next retention check"), "{settings}");
}

/// The rejection box of a size error shows the producer's message and what the broker logs.
#[wasm_bindgen_test]
async fn size_errors_show_the_broker_log() {
    let el = host();
    let _x = mount_all_panels(&el, ScenarioSource::Inline(COMPACTED.into()));
    settle().await;
    click(&el, "[data-testid=step]");
    settle().await;
    let err = text(&el, "[data-testid=produce-error]");
    assert!(err.contains("error 18 RECORD_LIST_TOO_LARGE"), "{err}");
    assert!(
        err.contains("The request included message batch larger than the configured segment size on the server."),
        "{err}"
    );
    assert!(!err.contains("Accepted window"), "{err}");
    assert_eq!(
        text(&el, "[data-testid=broker-log]"),
        "The broker logs: \"Message batch size is 2078 bytes in append to partition clicks-0, which exceeds the maximum configured segment size of 1000.\""
    );
}

/// The producer offers a null, an empty and a sized key, says what each is, and the compacted
/// topic refuses the null one and appends the empty one.
#[wasm_bindgen_test]
async fn producer_tells_a_null_key_from_an_empty_one() {
    let el = host();
    let _x = mount_all_panels(&el, ScenarioSource::Inline(COMPACTED.into()));
    settle().await;
    let options: Vec<String> = {
        let list = el
            .shadow_root()
            .unwrap()
            .query_selector_all("[data-testid=key-kind] option")
            .unwrap();
        (0..list.length())
            .map(|i| list.item(i).unwrap().text_content().unwrap_or_default())
            .collect()
    };
    assert_eq!(options, ["null key", "empty key (0 bytes)", "sized key"]);
    assert!(text(&el, "[data-testid=key-hint]").starts_with("a null key: the record has no key"));
    click(&el, "[data-testid=send]");
    settle().await;
    assert!(text(&el, "[data-testid=produce-error]").contains("error 87 INVALID_RECORD"));
    choose(&el, "[data-testid=key-kind]", "empty");
    settle().await;
    assert!(text(&el, "[data-testid=key-hint]")
        .starts_with("an empty key: a key of zero bytes (key length 0), not a null key"));
    assert!(el.find("[data-testid=key-bytes]").unwrap().is_none());
    click(&el, "[data-testid=send]");
    settle().await;
    assert!(text(&el, "[data-testid=produce-ok]").contains("at offset 0 in segment 0"));
    choose(&el, "[data-testid=key-kind]", "sized");
    settle().await;
    choose(&el, "[data-testid=key-bytes]", "3");
    settle().await;
    assert_eq!(
        text(&el, "[data-testid=key-hint]"),
        "a key of 3 bytes: any topic accepts it"
    );
}
