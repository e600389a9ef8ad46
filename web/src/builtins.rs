//! Built-in scenarios, lessons and incidents: the menu's table, compiled in, and where each one's
//! file is. The files themselves (`static/scenarios/*.json`, `static/lessons/*.json`,
//! `static/incidents/*.json`, copied to `dist/static/` by the build) are fetched when a reader
//! opens one, from beside the wasm module (so a page on another site, in an iframe or under a
//! sub-path finds them where Logtime is served): compiled in, they were a third of the wasm.
//!
//! The menu shows them in [`GROUPS`] before anything is fetched; the native tests hold each
//! entry's title, kind, length and level to its file and read the files from `static/` directly.

/// One built-in, as the menu needs it before its file is fetched.
#[derive(Debug, PartialEq, Eq)]
pub struct Builtin {
    /// Its name: `?scenario=`, an embed's `scenario` attribute, moment links.
    pub name: &'static str,
    /// The menu's label (an incident's says its kind, length and level, as its file does).
    pub label: &'static str,
    /// The file's `title`, shown while the file loads.
    pub title: &'static str,
    /// The file, relative to `static/` (`dist/static/` in a build).
    pub file: &'static str,
}

const fn b(
    name: &'static str,
    label: &'static str,
    title: &'static str,
    file: &'static str,
) -> Builtin {
    Builtin {
        name,
        label,
        title,
        file,
    }
}

/// Built-in scenarios, in menu order.
pub const BUILTINS: &[Builtin] = &[
    b(
        "lookup-scan",
        "Lookup: the scan past T",
        "Lookup: the scan past T",
        "scenarios/lookup-scan.json",
    ),
    b(
        "landing",
        "Records landing, rolls by size and time",
        "Records landing, rolls by size and time",
        "scenarios/landing.json",
    ),
    b(
        "future-pins-retention",
        "A future stamp pins retention",
        "A future stamp pins retention",
        "scenarios/future-pins-retention.json",
    ),
    b(
        "replay-24h",
        "Replay into a 24 h topic",
        "Replay into a 24 h topic",
        "scenarios/replay-24h.json",
    ),
    b(
        "nanoseconds-4x",
        "Nanoseconds rejected under 4.x",
        "Nanoseconds rejected under 4.x",
        "scenarios/nanoseconds-4x.json",
    ),
    b(
        "million",
        "A million records (performance)",
        "A million records",
        "scenarios/million.json",
    ),
];

/// Built-in lessons, each story's walkthrough before its drill.
pub const LESSONS: &[Builtin] = &[
    b(
        "future-walkthrough",
        "Walkthrough: timestamps from the future",
        "Timestamps from the future",
        "lessons/future-walkthrough.json",
    ),
    b(
        "future-drill",
        "Drill: find and fix the pinned segment",
        "Timestamps from the future: find and fix the pinned segment",
        "lessons/future-drill.json",
    ),
    b(
        "two-kinds-walkthrough",
        "Walkthrough: two kinds of timestamp",
        "Two kinds of timestamp",
        "lessons/two-kinds-walkthrough.json",
    ),
    b(
        "two-kinds-drill",
        "Drill: predict where a lookup lands",
        "Two kinds of timestamp: predict where a lookup lands",
        "lessons/two-kinds-drill.json",
    ),
    b(
        "kip937-drill",
        "Drill: KIP-937 windows, 3.x and 4.x",
        "KIP-937 windows under 3.6-3.9 and 4.x defaults",
        "lessons/kip937-drill.json",
    ),
];

/// The incident library, each incident's walkthrough before its drill.
pub const INCIDENTS: &[Builtin] = &[
    b(
        "incident-01-nanoseconds-walkthrough",
        "1. A shared helper sends nanoseconds: walkthrough, 10 min, intro",
        "Incident 1: a shared producer helper sends nanoseconds",
        "incidents/01-nanoseconds-walkthrough.json",
    ),
    b(
        "incident-01-nanoseconds-drill",
        "1. A shared helper sends nanoseconds: drill, 12 min, intro",
        "Incident 1 drill: a shared producer helper sends nanoseconds",
        "incidents/01-nanoseconds-drill.json",
    ),
    b(
        "incident-02-reminder-pins-retention-walkthrough",
        "2. A \"reminder\" stamp pins a 7-day topic: walkthrough, 12 min, intro",
        "Incident 2: a \"reminder due next month\" stamp pins a 7-day topic",
        "incidents/02-reminder-pins-retention-walkthrough.json",
    ),
    b(
        "incident-02-reminder-pins-retention-drill",
        "2. A \"reminder\" stamp pins a 7-day topic: drill, 15 min, intermediate",
        "Incident 2 drill: a \"reminder due next month\" stamp pins a 7-day topic",
        "incidents/02-reminder-pins-retention-drill.json",
    ),
    b(
        "incident-03-replay-into-24h-topic-walkthrough",
        "3. A replay into a 24-hour topic: walkthrough, 12 min, intro",
        "Incident 3: a replay of three days into a 24-hour topic",
        "incidents/03-replay-into-24h-topic-walkthrough.json",
    ),
    b(
        "incident-03-replay-into-24h-topic-drill",
        "3. A replay into a 24-hour topic: drill, 12 min, intro",
        "Incident 3 drill: a replay of three days into a short-retention topic",
        "incidents/03-replay-into-24h-topic-drill.json",
    ),
    b(
        "incident-04-fixes-that-fail-walkthrough",
        "4. Fixes that do not work: walkthrough, 10 min, intermediate",
        "Incident 4: fixes that do not work",
        "incidents/04-fixes-that-fail-walkthrough.json",
    ),
    b(
        "incident-04-fixes-that-fail-drill",
        "4. Fixes that do not work: drill, 10 min, intermediate",
        "Incident 4 drill: fixes that do not work",
        "incidents/04-fixes-that-fail-drill.json",
    ),
    b(
        "incident-05-rolling-stops-walkthrough",
        "5. Rolling stops: walkthrough, 10 min, advanced",
        "Incident 5: rolling stops",
        "incidents/05-rolling-stops-walkthrough.json",
    ),
    b(
        "incident-05-rolling-stops-drill",
        "5. Rolling stops: drill, 12 min, advanced",
        "Incident 5 drill: rolling stops",
        "incidents/05-rolling-stops-drill.json",
    ),
    b(
        "incident-06-reset-by-time-walkthrough",
        "6. Resetting a group by time: walkthrough, 10 min, intermediate",
        "Incident 6: resetting a consumer group by time",
        "incidents/06-reset-by-time-walkthrough.json",
    ),
    b(
        "incident-06-reset-by-time-drill",
        "6. Resetting a group by time: drill, 10 min, intermediate",
        "Incident 6 drill: resetting a consumer group by time",
        "incidents/06-reset-by-time-drill.json",
    ),
    b(
        "incident-07-upgrade-to-4x-walkthrough",
        "7. Upgrading from 3.x to 4.x: walkthrough, 10 min, intermediate",
        "Incident 7: upgrading from Kafka 3.6-3.9 to 4.x",
        "incidents/07-upgrade-to-4x-walkthrough.json",
    ),
    b(
        "incident-07-upgrade-to-4x-drill",
        "7. Upgrading from 3.x to 4.x: drill, 12 min, advanced",
        "Incident 7 drill: upgrading from Kafka 3.6-3.9 to 4.x",
        "incidents/07-upgrade-to-4x-drill.json",
    ),
    b(
        "incident-08-event-time-downstream-walkthrough",
        "8. Event time downstream: walkthrough, 12 min, intermediate",
        "Incident 8: event time downstream (one nanosecond stamp closes every window)",
        "incidents/08-event-time-downstream-walkthrough.json",
    ),
    b(
        "incident-08-event-time-downstream-drill",
        "8. Event time downstream: drill, 15 min, intermediate",
        "Incident 8 drill: event time downstream",
        "incidents/08-event-time-downstream-drill.json",
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

/// A built-in by name.
pub fn find(name: &str) -> Option<&'static Builtin> {
    all().find(|b| b.name == name)
}

/// The names, for error messages.
pub fn names() -> String {
    all().map(|b| b.name).collect::<Vec<_>>().join(", ")
}

impl Builtin {
    /// What it is, for messages: `scenario`, `lesson` or `incident`.
    pub fn kind(&self) -> &'static str {
        match self.file.split('/').next() {
            Some("lessons") => "lesson",
            Some("incidents") => "incident",
            _ => "scenario",
        }
    }

    /// Whether it is a lesson or an incident (which the lesson engine plays), not a scenario.
    /// Exactly those are named `*-drill` or `*-walkthrough`: index.html's loader picks the
    /// module with the lesson engine for such a `?scenario=` by that rule.
    pub fn is_lesson(&self) -> bool {
        self.kind() != "scenario"
    }

    /// The file's URL, beside the wasm module (`static/…` in `dist/`).
    pub fn url(&self) -> String {
        crate::glue::asset_url(&format!("static/{}", self.file))
    }

    /// The file's text, read from `static/` (native tests replay every built-in from it).
    #[cfg(test)]
    pub fn read(&self) -> String {
        let path = format!("{}/../static/{}", env!("CARGO_MANIFEST_DIR"), self.file);
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
    }
}

/// One sentence for people about a built-in whose file (at `url`, as the browser resolved it)
/// could not be fetched: which one, where from, and what to do.
pub fn fetch_message(b: &Builtin, url: &str, failure: &crate::embed::FetchFailure) -> String {
    use crate::embed::FetchFailure;
    let (name, kind) = (b.name, b.kind());
    let why = match failure {
        FetchFailure::Network => {
            "the browser could not fetch it (the network is down, or the site \
             serving Logtime does not let this page read its files)"
                .to_string()
        }
        FetchFailure::Status(404) => {
            "the server answered 404 (not found): Logtime's static/ folder \
             is missing beside logtime-web.js (deploy all of dist/)"
                .to_string()
        }
        FetchFailure::Status(s) => format!("the server answered HTTP {s}; try again later"),
        FetchFailure::Body => "the response could not be read as text".to_string(),
        FetchFailure::TooLarge(n) => format!(
            "it is longer than {n} bytes, more than the {} MiB a scenario may be",
            logtime_core::scenario::MAX_SCENARIO_BYTES >> 20
        ),
        FetchFailure::TimedOut(s) => format!("the server had not sent it after {s} s"),
        FetchFailure::Cancelled => "the load was cancelled".to_string(),
    };
    format!("Could not load the built-in {kind} \"{name}\" from {url}: {why}.")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::embed::FetchFailure;

    fn title_of(json: &str) -> String {
        let v: serde_json::Value = serde_json::from_str(json).unwrap();
        v["title"].as_str().unwrap_or_default().to_string()
    }

    /// The compiled-in table says what each file says: an edit to a file's title, kind, length or
    /// level that the table does not follow fails here.
    #[test]
    fn the_table_follows_the_files() {
        for b in BUILTINS {
            let json = b.read();
            logtime_core::scenario::parse(&json).unwrap_or_else(|e| panic!("{}: {e}", b.name));
            assert_eq!(title_of(&json), b.title, "{}: the title", b.name);
            assert_eq!(b.kind(), "scenario");
            assert!(!b.is_lesson() && !logtime_lesson::is_lesson_file(&json));
        }
        for b in LESSONS.iter().chain(INCIDENTS) {
            let json = b.read();
            let l = logtime_lesson::parse(&json).unwrap_or_else(|e| panic!("{}: {e}", b.name));
            assert_eq!(title_of(&json), b.title, "{}: the title", b.name);
            let meta = &l.default_variant().meta;
            assert!(l.default_variant().is_lesson, "{} is a lesson", b.name);
            assert!(b.is_lesson() && logtime_lesson::is_lesson_file(&json));
            assert!(
                b.name.ends_with(meta.kind.key()),
                "{} is named for its kind",
                b.name
            );
            let kind = meta.kind.key();
            if b.kind() == "lesson" {
                let mut cap = kind.chars();
                let first = cap.next().unwrap().to_ascii_uppercase();
                assert!(
                    b.label.starts_with(&format!("{first}{}: ", cap.as_str())),
                    "{}: the label {:?} says the file's kind",
                    b.name,
                    b.label
                );
                continue;
            }
            assert_eq!(b.kind(), "incident");
            let minutes = meta
                .minutes
                .unwrap_or_else(|| panic!("{} has a length", b.name));
            let level = meta
                .level
                .unwrap_or_else(|| panic!("{} has a level", b.name))
                .key();
            assert!(
                b.label
                    .ends_with(&format!(": {kind}, {minutes} min, {level}")),
                "{}: the label {:?} says the file's kind, length and level",
                b.name,
                b.label
            );
            assert!(
                meta.summary.is_some(),
                "{}: its first screen has a summary",
                b.name
            );
        }
        assert_eq!(
            INCIDENTS.len(),
            16,
            "eight incidents, a walkthrough and a drill each"
        );
    }

    /// A built-in lesson says what it is in its name (the menu's groups and links read so).
    #[test]
    fn lessons_are_named_for_their_kind() {
        for b in all() {
            let named = b.name.ends_with("-drill") || b.name.ends_with("-walkthrough");
            assert_eq!(b.is_lesson(), named, "{}", b.name);
        }
    }

    /// Every file in the three folders is in the menu, once.
    #[test]
    fn every_file_is_listed_once() {
        let root = format!("{}/../static", env!("CARGO_MANIFEST_DIR"));
        let mut files = Vec::new();
        for dir in ["scenarios", "lessons", "incidents"] {
            for e in std::fs::read_dir(format!("{root}/{dir}")).unwrap() {
                let name = e.unwrap().file_name().into_string().unwrap();
                if name.ends_with(".json") {
                    files.push(format!("{dir}/{name}"));
                }
            }
        }
        files.sort();
        let mut listed: Vec<String> = all().map(|b| b.file.to_string()).collect();
        listed.sort();
        assert_eq!(files, listed);
        let mut names: Vec<&str> = all().map(|b| b.name).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), all().count(), "names are unique");
    }

    #[test]
    fn lookups_and_messages() {
        assert_eq!(
            find("incident-08-event-time-downstream-drill")
                .unwrap()
                .kind(),
            "incident"
        );
        assert_eq!(find("million").unwrap().kind(), "scenario");
        assert_eq!(find("future-drill").unwrap().kind(), "lesson");
        assert!(find("nope").is_none());
        assert!(names().contains("lookup-scan"));
        let b = find("future-drill").unwrap();
        let url = "https://docs.example/logtime/static/lessons/future-drill.json";
        let m = fetch_message(b, url, &FetchFailure::Status(404));
        assert!(m.starts_with("Could not load the built-in lesson \"future-drill\" from https://docs.example/logtime/static/lessons/future-drill.json: the server answered 404"), "{m}");
        assert!(fetch_message(b, url, &FetchFailure::Network).contains("could not fetch it"));
        assert!(fetch_message(b, url, &FetchFailure::Status(503)).contains("HTTP 503"));
        assert!(fetch_message(b, url, &FetchFailure::TooLarge(20_000_000))
            .contains("longer than 20000000 bytes"));
    }
}
