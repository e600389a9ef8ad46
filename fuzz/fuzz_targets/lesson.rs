//! Arbitrary text as a lesson file and as narration markup: parsing, checking and playing a
//! lesson (every item revealed) never panic; `is_lesson_file` (a lesson file told from a
//! scenario by its shape) says yes to every file that uses a lesson feature and no to every plain
//! scenario.
#![no_main]

use libfuzzer_sys::fuzz_target;
use logtime_lesson::{self as lesson, Markup, Play};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(m) = Markup::parse(text) {
        let _ = m.plain();
    }
    let shaped = lesson::is_lesson_file(text);
    if logtime_core::scenario::parse(text).is_ok() {
        assert!(!shaped, "a plain scenario is not lesson-shaped");
    }
    let Ok(l) = lesson::parse(text) else {
        return;
    };
    let c = l.default_variant();
    assert!(!c.is_lesson || shaped, "a file using a lesson feature is lesson-shaped");
    let _ = lesson::check(c);
    let _ = lesson::answer_sheet(c);
    if let Ok(mut play) = Play::new(c.clone()) {
        while let Some(step) = play.advance(&mut |_| {}) {
            if step.is_err() || play.open_item().is_some() && play.reveal(&mut |_| {}).is_err() {
                break;
            }
            let _ = play.hidden();
        }
        let _ = play.scorecard().summary();
    }
});
