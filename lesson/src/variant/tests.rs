//! Variants: counting, picking by seed, substituting, and the errors that name their field.

use super::*;
use serde_json::json;

fn vars() -> Variants {
    Variants::parse(&json!({
        "retention": {"from": "5d", "to": "7d", "step": "1d", "default": "7d"},
        "bad": {"from": 20000, "to": 20090, "step": 10},
        "clock": {"from": "2027-03-12T09:00:00Z", "to": "2027-03-12T11:00:00Z", "step": "1h"},
        "case": {"choices": [{"label": "two", "stamp": "now+3y"}, {"label": "one", "stamp": "now+1y"}]}
    }))
    .unwrap()
}

#[test]
fn ranges_and_choices_count_and_default() {
    let v = vars();
    assert_eq!(v.count(), 3 * 10 * 3 * 2);
    let names: Vec<&str> = v.variables().iter().map(Variable::name).collect();
    assert_eq!(names, ["bad", "case", "clock", "retention"]);
    let d = v.pick(Pick::Default);
    assert_eq!(d.get("retention"), Some(&json!(7 * 86_400_000)));
    assert_eq!(d.get("bad"), Some(&json!(20000)));
    assert_eq!(d.get("clock"), Some(&json!(1_804_842_000_000i64)));
    assert_eq!(
        d.label(),
        "bad = 20000, case = two, clock = 12 Mar 2027 09:00, retention = 7 d"
    );
    assert_eq!(
        v.pick(Pick::Index(d.index)),
        Variant {
            pick: Pick::Index(d.index),
            ..d
        }
    );
}

#[test]
fn same_seed_same_numbers_and_seeds_differ() {
    let v = vars();
    assert_eq!(v.pick(Pick::Seed(42)).values, v.pick(Pick::Seed(42)).values);
    let distinct: std::collections::BTreeSet<u64> =
        (0..20).map(|s| v.pick(Pick::Seed(s)).index).collect();
    assert!(distinct.len() > 10, "{distinct:?}");
    let all: std::collections::BTreeSet<String> = (0..v.count())
        .map(|k| v.pick(Pick::Index(k)).label())
        .collect();
    assert_eq!(
        all.len() as u64,
        v.count(),
        "every index is a different variant"
    );
}

#[test]
fn substitution_whole_values_fields_and_text() {
    let mut v = vars().pick(Pick::Default);
    let mut doc = json!({
        "variants": {"x": "$bad"},
        "steps": [
            {"produce": {"records": [{"timestamp": "$case.stamp"}]}},
            {"note": "offset ${bad} at ${clock:date}, kept ${retention:duration}; costs $5, \\${bad}"},
            {"delete_records": {"offset": "$bad"}}
        ]
    });
    v.substitute(&mut doc).unwrap();
    assert_eq!(
        doc["variants"]["x"],
        json!("$bad"),
        "declarations are left alone"
    );
    assert_eq!(
        doc["steps"][0]["produce"]["records"][0]["timestamp"],
        json!("now+3y")
    );
    assert_eq!(
        doc["steps"][1]["note"],
        json!("offset 20000 at 12 Mar 2027 09:00, kept 7 d; costs $5, \\${bad}")
    );
    assert_eq!(doc["steps"][2]["delete_records"]["offset"], json!(20000));
}

#[test]
fn errors_name_the_field() {
    let mut v = vars().pick(Pick::Default);
    let mut e = |doc: Value| {
        let mut d = doc;
        v.substitute(&mut d).unwrap_err().to_string()
    };
    assert_eq!(
        e(json!({"steps": [{"advance": "$nope"}]})),
        "step 0: advance: unknown variable \"nope\""
    );
    assert_eq!(
        e(json!({"steps": [{"note": "at $bad"}]})),
        "step 0: note: write ${bad} to put a variable inside text (or \\$ for a literal $)"
    );
    assert_eq!(
        e(json!({"lesson": {"summary": "${case}"}})),
        "lesson.summary: case is an object or a list; name one of its fields (${case.field})"
    );
    assert_eq!(
        e(json!({"steps": [{"note": "${bad:when}"}]})),
        "step 0: note: unknown format :when (expected :date, :rfc3339 or :duration)"
    );
    let p = |doc: Value| Variants::parse(&doc).unwrap_err().to_string();
    assert_eq!(
        p(json!({"r": {"from": "5d", "to": "2027-03-12T09:00:00Z", "step": "1d"}})),
        "variants.r.to: must be the same kind of value as from (a number, a duration or a time)"
    );
    assert_eq!(
        p(json!({"r": {"from": "5d", "to": "7d", "step": "1d", "default": "6h"}})),
        "variants.r.default: must be one of the range's values (from, from + step, ... up to to)"
    );
    assert_eq!(
        p(json!({"r": {"from": 0, "to": 10000000}})),
        "variants.r.step: r would take 10000001 values; a variable may take at most 1000000"
    );
    assert_eq!(
        p(json!({"c": {"choices": [{"a": 1}, {"b": 2}]}})),
        "variants.c.choices[1]: every choice must be an object with the fields of the first (a)"
    );
    assert_eq!(
        p(json!({"Bad": {"choices": [1]}})),
        "variants.Bad: a variable name is lowercase letters, digits and _, starting with a letter or _"
    );
    assert_eq!(p(json!({"r": {"to": 3}})), "variants.r.from: missing");
}
