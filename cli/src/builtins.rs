//! The built-in scenarios, lessons and incidents, compiled into the command (the explorer
//! fetches the same files from `static/`), so that `logtime render lookup-scan` works anywhere.
//! A test holds this table to the files in `static/`.

/// `(name, file text)`: a built-in's name is its file's (an incident's has `incident-` before it).
pub const BUILTINS: &[(&str, &str)] = &[
    (
        "future-pins-retention",
        include_str!("../../static/scenarios/future-pins-retention.json"),
    ),
    (
        "landing",
        include_str!("../../static/scenarios/landing.json"),
    ),
    (
        "lookup-scan",
        include_str!("../../static/scenarios/lookup-scan.json"),
    ),
    (
        "million",
        include_str!("../../static/scenarios/million.json"),
    ),
    (
        "nanoseconds-4x",
        include_str!("../../static/scenarios/nanoseconds-4x.json"),
    ),
    (
        "replay-24h",
        include_str!("../../static/scenarios/replay-24h.json"),
    ),
    (
        "future-drill",
        include_str!("../../static/lessons/future-drill.json"),
    ),
    (
        "future-walkthrough",
        include_str!("../../static/lessons/future-walkthrough.json"),
    ),
    (
        "kip937-drill",
        include_str!("../../static/lessons/kip937-drill.json"),
    ),
    (
        "two-kinds-drill",
        include_str!("../../static/lessons/two-kinds-drill.json"),
    ),
    (
        "two-kinds-walkthrough",
        include_str!("../../static/lessons/two-kinds-walkthrough.json"),
    ),
    (
        "incident-01-nanoseconds-drill",
        include_str!("../../static/incidents/01-nanoseconds-drill.json"),
    ),
    (
        "incident-01-nanoseconds-walkthrough",
        include_str!("../../static/incidents/01-nanoseconds-walkthrough.json"),
    ),
    (
        "incident-02-reminder-pins-retention-drill",
        include_str!("../../static/incidents/02-reminder-pins-retention-drill.json"),
    ),
    (
        "incident-02-reminder-pins-retention-walkthrough",
        include_str!("../../static/incidents/02-reminder-pins-retention-walkthrough.json"),
    ),
    (
        "incident-03-replay-into-24h-topic-drill",
        include_str!("../../static/incidents/03-replay-into-24h-topic-drill.json"),
    ),
    (
        "incident-03-replay-into-24h-topic-walkthrough",
        include_str!("../../static/incidents/03-replay-into-24h-topic-walkthrough.json"),
    ),
    (
        "incident-04-fixes-that-fail-drill",
        include_str!("../../static/incidents/04-fixes-that-fail-drill.json"),
    ),
    (
        "incident-04-fixes-that-fail-walkthrough",
        include_str!("../../static/incidents/04-fixes-that-fail-walkthrough.json"),
    ),
    (
        "incident-05-rolling-stops-drill",
        include_str!("../../static/incidents/05-rolling-stops-drill.json"),
    ),
    (
        "incident-05-rolling-stops-walkthrough",
        include_str!("../../static/incidents/05-rolling-stops-walkthrough.json"),
    ),
    (
        "incident-06-reset-by-time-drill",
        include_str!("../../static/incidents/06-reset-by-time-drill.json"),
    ),
    (
        "incident-06-reset-by-time-walkthrough",
        include_str!("../../static/incidents/06-reset-by-time-walkthrough.json"),
    ),
    (
        "incident-07-upgrade-to-4x-drill",
        include_str!("../../static/incidents/07-upgrade-to-4x-drill.json"),
    ),
    (
        "incident-07-upgrade-to-4x-walkthrough",
        include_str!("../../static/incidents/07-upgrade-to-4x-walkthrough.json"),
    ),
    (
        "incident-08-event-time-downstream-drill",
        include_str!("../../static/incidents/08-event-time-downstream-drill.json"),
    ),
    (
        "incident-08-event-time-downstream-walkthrough",
        include_str!("../../static/incidents/08-event-time-downstream-walkthrough.json"),
    ),
];

/// A built-in's text by name.
pub fn find(name: &str) -> Option<&'static str> {
    BUILTINS.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
}

/// Every name, for error messages.
pub fn names() -> String {
    BUILTINS
        .iter()
        .map(|(n, _)| *n)
        .collect::<Vec<_>>()
        .join(", ")
}
