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

/// The incident library (`static/incidents/`): each incident as a walkthrough, then a drill.
pub const INCIDENTS: &[Builtin] = &[
    (
        "incident-01-nanoseconds-walkthrough",
        "Incident 1: a shared producer helper sends nanoseconds",
        include_str!("../../static/incidents/01-nanoseconds-walkthrough.json"),
    ),
    (
        "incident-01-nanoseconds-drill",
        "Incident 1 drill: a shared producer helper sends nanoseconds",
        include_str!("../../static/incidents/01-nanoseconds-drill.json"),
    ),
    (
        "incident-02-reminder-pins-retention-walkthrough",
        "Incident 2: a \"reminder due next month\" stamp pins a 7-day topic",
        include_str!("../../static/incidents/02-reminder-pins-retention-walkthrough.json"),
    ),
    (
        "incident-02-reminder-pins-retention-drill",
        "Incident 2 drill: a \"reminder due next month\" stamp pins a 7-day topic",
        include_str!("../../static/incidents/02-reminder-pins-retention-drill.json"),
    ),
    (
        "incident-03-replay-into-24h-topic-walkthrough",
        "Incident 3: a replay of three days into a 24-hour topic",
        include_str!("../../static/incidents/03-replay-into-24h-topic-walkthrough.json"),
    ),
    (
        "incident-03-replay-into-24h-topic-drill",
        "Incident 3 drill: a replay of three days into a short-retention topic",
        include_str!("../../static/incidents/03-replay-into-24h-topic-drill.json"),
    ),
    (
        "incident-04-fixes-that-fail-walkthrough",
        "Incident 4: fixes that do not work",
        include_str!("../../static/incidents/04-fixes-that-fail-walkthrough.json"),
    ),
    (
        "incident-04-fixes-that-fail-drill",
        "Incident 4 drill: fixes that do not work",
        include_str!("../../static/incidents/04-fixes-that-fail-drill.json"),
    ),
    (
        "incident-05-rolling-stops-walkthrough",
        "Incident 5: rolling stops",
        include_str!("../../static/incidents/05-rolling-stops-walkthrough.json"),
    ),
    (
        "incident-05-rolling-stops-drill",
        "Incident 5 drill: rolling stops",
        include_str!("../../static/incidents/05-rolling-stops-drill.json"),
    ),
    (
        "incident-06-reset-by-time-walkthrough",
        "Incident 6: resetting a consumer group by time",
        include_str!("../../static/incidents/06-reset-by-time-walkthrough.json"),
    ),
    (
        "incident-06-reset-by-time-drill",
        "Incident 6 drill: resetting a consumer group by time",
        include_str!("../../static/incidents/06-reset-by-time-drill.json"),
    ),
    (
        "incident-07-upgrade-to-4x-walkthrough",
        "Incident 7: upgrading from Kafka 3.6-3.9 to 4.x",
        include_str!("../../static/incidents/07-upgrade-to-4x-walkthrough.json"),
    ),
    (
        "incident-07-upgrade-to-4x-drill",
        "Incident 7 drill: upgrading from Kafka 3.6-3.9 to 4.x",
        include_str!("../../static/incidents/07-upgrade-to-4x-drill.json"),
    ),
    (
        "incident-08-event-time-downstream-walkthrough",
        "Incident 8: event time downstream (one nanosecond stamp closes every window)",
        include_str!("../../static/incidents/08-event-time-downstream-walkthrough.json"),
    ),
    (
        "incident-08-event-time-downstream-drill",
        "Incident 8 drill: event time downstream",
        include_str!("../../static/incidents/08-event-time-downstream-drill.json"),
    ),
];

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
        assert!(find("million").is_some());
        assert!(find("future-drill").is_some());
        assert!(find("nope").is_none());
        assert!(names().contains("lookup-scan"));
    }
}
