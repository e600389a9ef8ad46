//! The floor of the explorer's module: what any module that shows a scenario must hold.
//!
//! [`explain`] parses a scenario document, replays every step and builds the narration of each
//! one and of the end, which is the least the explorer's first screen needs before it draws
//! anything. `scripts/measure-web.sh` builds this crate with the page's own profile and tools
//! (`wasm-release`, wasm-bindgen, `wasm-opt -Oz` with the page's flags) and prints its gzip size
//! as `wasm_floor_gzip_bytes`: the page weight's share that is the exact model, the scenario
//! format and the narration, before a renderer, a component, the state or a stylesheet is
//! added. Nothing loads this module; it is measured, not served.

#![forbid(unsafe_code)]

use logtime_core::scenario::{self, narrate, Session, Source};
use wasm_bindgen::prelude::*;

/// The narration of `text`'s replay as plain text, a sentence a line, or why it could not be
/// read. Every sentence is turned into text, so that none of the narration is optimised away.
#[wasm_bindgen]
pub fn explain(text: &str) -> String {
    let parsed = match scenario::parse(text) {
        Ok(s) => s,
        Err(e) => return e.to_string(),
    };
    let mut lines = vec![plain(&narrate::setting(&parsed))];
    let config = parsed.config.clone();
    let mut session = Session::new(Source::Inline(text.to_string()), parsed);
    while let Some(step) = session.step(&mut |_| {}) {
        match step {
            Ok(report) => lines.extend(narrate::step(&report, &config).iter().map(plain)),
            Err(e) => lines.push(e.to_string()),
        }
    }
    lines.push(plain(&narrate::end(session.runner().partition())));
    lines.join("\n")
}

fn plain(sentence: &narrate::Sentence) -> String {
    sentence.spans().iter().map(|s| s.text.as_str()).collect()
}
