//! Variant substitution: a lesson whose variables (choices of fuzzed text, repeated, and a range)
//! are referenced by fuzzed notes, many times over. Parsing and instantiating any variant never
//! panics, and what the values add stays within `MAX_SUBSTITUTED_BYTES` (else an error naming
//! it); libFuzzer's memory and time limits catch a substitution that is not bounded.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use logtime_lesson::{self as lesson, Pick, MAX_SUBSTITUTED_BYTES};
use serde_json::json;

#[derive(Arbitrary, Debug)]
enum Piece {
    Text(String),
    Ref(u8),
    Field(u8, String),
    Format(u8, u8),
    Whole(u8),
    Dollar,
}

#[derive(Arbitrary, Debug)]
struct Input {
    choices: Vec<(String, u16)>,
    range: (i64, i64, i64),
    notes: Vec<(Vec<Piece>, u16)>,
    pick: u64,
}

const NAMES: &[&str] = &["big", "n", "missing"];
const FORMATS: &[&str] = &["date", "rfc3339", "duration", "bogus"];

fn piece(p: &Piece) -> String {
    let name = |i: &u8| NAMES[*i as usize % NAMES.len()];
    match p {
        Piece::Text(t) => t.clone(),
        Piece::Ref(i) => format!("${{{}}}", name(i)),
        Piece::Field(i, f) => format!("${{{}.{f}}}", name(i)),
        Piece::Format(i, f) => format!("${{{}:{}}}", name(i), FORMATS[*f as usize % FORMATS.len()]),
        Piece::Whole(i) => format!("${}", name(i)),
        Piece::Dollar => "$".into(),
    }
}

fuzz_target!(|input: Input| {
    let mut choices: Vec<String> = input
        .choices
        .iter()
        .take(4)
        .map(|(s, times)| s.repeat(*times as usize % 4096))
        .collect();
    if choices.is_empty() {
        choices.push(String::new());
    }
    let (from, span, step) = input.range;
    let mut steps = Vec::new();
    for (pieces, times) in input.notes.iter().take(8) {
        let note: String = pieces.iter().take(32).map(piece).collect();
        let note = note.repeat(*times as usize % 2048 + 1);
        if note.len() > 1 << 20 {
            return;
        }
        steps.push(json!({ "note": note }));
    }
    let doc = json!({
        "start": "2027-03-12T09:00:00Z",
        "variants": {
            "big": {"choices": choices},
            "n": {"from": from, "to": from.saturating_add(span.rem_euclid(1000)), "step": step},
        },
        "steps": steps,
    });
    let text = doc.to_string();
    let Ok(l) = lesson::parse(&text) else {
        return;
    };
    for pick in [Pick::Default, Pick::Seed(input.pick), Pick::Index(input.pick)] {
        match l.instantiate(pick) {
            Ok(c) => {
                let _ = lesson::check(&c);
                let _ = lesson::answer_sheet(&c);
            }
            Err(e) => {
                let text = e.to_string();
                assert!(!text.is_empty());
                if text.contains("the most a lesson's variables may add") {
                    assert!(text.contains(&MAX_SUBSTITUTED_BYTES.to_string()));
                }
            }
        }
    }
});
