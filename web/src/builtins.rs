//! Built-in scenarios, lessons and incidents, compiled into the wasm (`static/scenarios/*.json`,
//! `static/lessons/*.json`, `static/incidents/*.json`) so the page works offline from `dist/` and loads without extra
//! requests. Read-only data shared by instances.
//!
//! The menu shows them in [`GROUPS`]: scenarios, lessons and the incident library.

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

/// The incident library (`static/incidents/*.json`): `(name, menu label, JSON)`, each incident's
/// walkthrough before its drill. A label says the incident's length and level, as its file does
/// (a test holds them to the file).
pub const INCIDENTS: &[(&str, &str, &str)] = &[
    (
        "incident-01-nanoseconds-walkthrough",
        "1. A shared helper sends nanoseconds: walkthrough, 10 min, intro",
        include_str!("../../static/incidents/01-nanoseconds-walkthrough.json"),
    ),
    (
        "incident-01-nanoseconds-drill",
        "1. A shared helper sends nanoseconds: drill, 12 min, intro",
        include_str!("../../static/incidents/01-nanoseconds-drill.json"),
    ),
    (
        "incident-02-reminder-pins-retention-walkthrough",
        "2. A \"reminder\" stamp pins a 7-day topic: walkthrough, 12 min, intro",
        include_str!("../../static/incidents/02-reminder-pins-retention-walkthrough.json"),
    ),
    (
        "incident-02-reminder-pins-retention-drill",
        "2. A \"reminder\" stamp pins a 7-day topic: drill, 15 min, intermediate",
        include_str!("../../static/incidents/02-reminder-pins-retention-drill.json"),
    ),
    (
        "incident-03-replay-into-24h-topic-walkthrough",
        "3. A replay into a 24-hour topic: walkthrough, 12 min, intro",
        include_str!("../../static/incidents/03-replay-into-24h-topic-walkthrough.json"),
    ),
    (
        "incident-03-replay-into-24h-topic-drill",
        "3. A replay into a 24-hour topic: drill, 12 min, intro",
        include_str!("../../static/incidents/03-replay-into-24h-topic-drill.json"),
    ),
    (
        "incident-04-fixes-that-fail-walkthrough",
        "4. Fixes that do not work: walkthrough, 10 min, intermediate",
        include_str!("../../static/incidents/04-fixes-that-fail-walkthrough.json"),
    ),
    (
        "incident-04-fixes-that-fail-drill",
        "4. Fixes that do not work: drill, 10 min, intermediate",
        include_str!("../../static/incidents/04-fixes-that-fail-drill.json"),
    ),
    (
        "incident-05-rolling-stops-walkthrough",
        "5. Rolling stops: walkthrough, 10 min, advanced",
        include_str!("../../static/incidents/05-rolling-stops-walkthrough.json"),
    ),
    (
        "incident-05-rolling-stops-drill",
        "5. Rolling stops: drill, 12 min, advanced",
        include_str!("../../static/incidents/05-rolling-stops-drill.json"),
    ),
    (
        "incident-06-reset-by-time-walkthrough",
        "6. Resetting a group by time: walkthrough, 10 min, intermediate",
        include_str!("../../static/incidents/06-reset-by-time-walkthrough.json"),
    ),
    (
        "incident-06-reset-by-time-drill",
        "6. Resetting a group by time: drill, 10 min, intermediate",
        include_str!("../../static/incidents/06-reset-by-time-drill.json"),
    ),
    (
        "incident-07-upgrade-to-4x-walkthrough",
        "7. Upgrading from 3.x to 4.x: walkthrough, 10 min, intermediate",
        include_str!("../../static/incidents/07-upgrade-to-4x-walkthrough.json"),
    ),
    (
        "incident-07-upgrade-to-4x-drill",
        "7. Upgrading from 3.x to 4.x: drill, 12 min, advanced",
        include_str!("../../static/incidents/07-upgrade-to-4x-drill.json"),
    ),
    (
        "incident-08-event-time-downstream-walkthrough",
        "8. Event time downstream: walkthrough, 12 min, intermediate",
        include_str!("../../static/incidents/08-event-time-downstream-walkthrough.json"),
    ),
    (
        "incident-08-event-time-downstream-drill",
        "8. Event time downstream: drill, 15 min, intermediate",
        include_str!("../../static/incidents/08-event-time-downstream-drill.json"),
    ),
];

/// A built-in: `(name, menu label, JSON)`.
pub type Builtin = (&'static str, &'static str, &'static str);

/// The menu's groups, in order: `(group label, entries)`. An empty group is not shown.
pub const GROUPS: &[(&str, &[Builtin])] = &[
    ("Scenarios", BUILTINS),
    ("Lessons", LESSONS),
    ("Incidents", INCIDENTS),
];

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
        for (name, _, json) in LESSONS.iter().chain(INCIDENTS) {
            let l = logtime_core::lesson::parse(json).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(l.default_variant().is_lesson, "{name} is a lesson");
        }
        assert_eq!(
            INCIDENTS.len(),
            16,
            "eight incidents, a walkthrough and a drill each"
        );
        for (name, label, json) in INCIDENTS {
            let l = logtime_core::lesson::parse(json).unwrap_or_else(|e| panic!("{name}: {e}"));
            let meta = &l.default_variant().meta;
            let minutes = meta
                .minutes
                .unwrap_or_else(|| panic!("{name} has a length"));
            let level = meta
                .level
                .unwrap_or_else(|| panic!("{name} has a level"))
                .key();
            assert!(
                label.ends_with(&format!(": {}, {minutes} min, {level}", meta.kind.key())),
                "{name}: the label {label:?} says the file's kind, length and level"
            );
            assert!(
                meta.summary.is_some(),
                "{name}: its first screen has a summary"
            );
            assert!(
                name.ends_with(meta.kind.key()),
                "{name} is named for its kind"
            );
        }
        assert!(find("incident-08-event-time-downstream-drill").is_some());
        assert!(find("million").is_some());
        assert!(find("future-drill").is_some());
        assert!(find("nope").is_none());
        assert!(names().contains("lookup-scan"));
    }
}
