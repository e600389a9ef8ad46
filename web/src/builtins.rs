//! Built-in scenarios and lessons, compiled into the wasm (`static/scenarios/*.json`,
//! `static/lessons/*.json`) so the page works offline from `dist/` and loads without extra
//! requests. Read-only data shared by instances.
//!
//! The menu shows them in [`GROUPS`]; a new group (the incident library) is one more entry there.

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

/// Built-in lessons: `(name, menu label, JSON)`, each story's walkthrough before its drill.
pub const LESSONS: &[(&str, &str, &str)] = &[
    (
        "future-walkthrough",
        "Walkthrough: timestamps from the future",
        include_str!("../../static/lessons/future-walkthrough.json"),
    ),
    (
        "future-drill",
        "Drill: find and fix the pinned segment",
        include_str!("../../static/lessons/future-drill.json"),
    ),
    (
        "two-kinds-walkthrough",
        "Walkthrough: two kinds of timestamp",
        include_str!("../../static/lessons/two-kinds-walkthrough.json"),
    ),
    (
        "two-kinds-drill",
        "Drill: predict where a lookup lands",
        include_str!("../../static/lessons/two-kinds-drill.json"),
    ),
    (
        "kip937-drill",
        "Drill: KIP-937 windows, 3.x and 4.x",
        include_str!("../../static/lessons/kip937-drill.json"),
    ),
];

/// A built-in: `(name, menu label, JSON)`.
pub type Builtin = (&'static str, &'static str, &'static str);

/// The menu's groups, in order: `(group label, entries)`. An empty group is not shown.
pub const GROUPS: &[(&str, &[Builtin])] = &[("Scenarios", BUILTINS), ("Lessons", LESSONS)];

/// Every built-in, in menu order.
pub fn all() -> impl Iterator<Item = &'static Builtin> {
    GROUPS.iter().flat_map(|(_, entries)| entries.iter())
}

/// The JSON of a built-in by name.
pub fn find(name: &str) -> Option<&'static str> {
    all().find(|(n, _, _)| *n == name).map(|(_, _, j)| *j)
}

/// The names, for error messages.
pub fn names() -> String {
    all().map(|(n, _, _)| *n).collect::<Vec<_>>().join(", ")
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
        for (name, _, json) in LESSONS {
            let l = logtime_core::lesson::parse(json).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(l.default_variant().is_lesson, "{name} is a lesson");
        }
        assert!(find("million").is_some());
        assert!(find("future-drill").is_some());
        assert!(find("nope").is_none());
        assert!(names().contains("lookup-scan"));
    }
}
