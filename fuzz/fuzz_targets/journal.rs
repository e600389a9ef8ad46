//! Arbitrary text as a saved moment (a journal's compact form, as a link carries it): reading and
//! replaying it against a scenario never panics.
#![no_main]

use libfuzzer_sys::fuzz_target;
use logtime_core::scenario::{parse, Journal, Source};

const SCENARIO: &str = r#"{"start": "2027-03-12T09:00:00Z", "topic": {"segment.bytes": "1MiB"},
  "steps": [{"produce": {"records": [{"timestamp": "now"}]}}, {"advance": "1h"}, {"retention": {}}]}"#;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(entries) = Journal::entries_from_compact(text, None) {
            // Bound the work a fuzz input can ask for (a link may name millions of steps).
            if entries.len() > 2_000 {
                return;
            }
            let journal = Journal {
                source: Source::Builtin("fuzz".into()),
                entries,
            };
            let _ = journal.replay(parse(SCENARIO).expect("the fuzz scenario parses"));
        }
    }
});
