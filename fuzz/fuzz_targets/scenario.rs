//! Arbitrary text as a scenario file: parsing and replay never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(scenario) = logtime_core::scenario::parse(text) {
            let _ = logtime_core::scenario::run(&scenario);
        }
    }
});
