//! Built-in scenarios, compiled into the wasm (`static/scenarios/*.json`) so the page works
//! offline from `dist/` and loads without extra requests. Read-only data shared by instances.

/// `(name, menu label, JSON)`, in menu order.
pub const BUILTINS: &[(&str, &str, &str)] = &[
    (
        "lookup-scan",
        "Lookup: the scan past T",
        include_str!("../../static/scenarios/lookup-scan.json"),
    ),
    (
        "landing",
        "Records landing, rolls by size and time",
        include_str!("../../static/scenarios/landing.json"),
    ),
    (
        "future-pins-retention",
        "A future stamp pins retention",
        include_str!("../../static/scenarios/future-pins-retention.json"),
    ),
    (
        "replay-24h",
        "Replay into a 24 h topic",
        include_str!("../../static/scenarios/replay-24h.json"),
    ),
    (
        "nanoseconds-4x",
        "Nanoseconds rejected under 4.x",
        include_str!("../../static/scenarios/nanoseconds-4x.json"),
    ),
    (
        "million",
        "A million records (performance)",
        include_str!("../../static/scenarios/million.json"),
    ),
];

/// The JSON of a built-in by name.
pub fn find(name: &str) -> Option<&'static str> {
    BUILTINS
        .iter()
        .find(|(n, _, _)| *n == name)
        .map(|(_, _, j)| *j)
}

/// The names, for error messages.
pub fn names() -> String {
    BUILTINS
        .iter()
        .map(|(n, _, _)| *n)
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_is_json_with_a_title() {
        for (name, _, json) in BUILTINS {
            let v: serde_json::Value =
                serde_json::from_str(json).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(
                v.get("title").and_then(|t| t.as_str()).is_some(),
                "{name} has a title"
            );
            assert!(
                v.get("steps").and_then(|t| t.as_array()).is_some(),
                "{name} has steps"
            );
        }
        assert!(find("million").is_some());
        assert!(find("nope").is_none());
        assert!(names().contains("lookup-scan"));
    }
}
