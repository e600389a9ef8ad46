//! Arbitrary text as a lesson file and as narration markup: parsing, checking and playing a
//! lesson (every item revealed) never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use logtime_core::lesson::{self, Markup, Play};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(m) = Markup::parse(text) {
        let _ = m.plain();
    }
    let Ok(l) = lesson::parse(text) else {
        return;
    };
    let c = l.default_variant();
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
