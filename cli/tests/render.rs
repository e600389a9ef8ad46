//! `logtime render`: every built-in at several moments parses as XML, carries its moment link
//! (which rebuilds the same partition), and names every segment it draws; the committed posters
//! and documentation pictures are what a fresh render makes.

use logtime_cli::builtins::BUILTINS;
use logtime_cli::render::{parse_args, png, svg, Args};
use logtime_core::scenario::{Entry, Source};
use logtime_lesson::Pick;
use logtime_render::link;

fn args(list: &[&str]) -> Args {
    let v: Vec<String> = list.iter().map(|s| s.to_string()).collect();
    parse_args(&v).unwrap_or_else(|e| panic!("{list:?}: {e}"))
}

fn read(path: &str) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| e.to_string())
}

fn render(list: &[&str]) -> String {
    svg(&args(list), &read).unwrap_or_else(|e| panic!("{list:?}: {e}"))
}

/// The number of steps of a built-in's default variant.
fn steps_of(text: &str) -> usize {
    let l = logtime_lesson::parse(text).unwrap();
    l.instantiate(Pick::Default).unwrap().scenario.steps.len()
}

/// The partition a moment link rebuilds, as the model's state (compared exactly).
fn rebuilt(query: &str) -> String {
    let m = link::parse_link(query).unwrap();
    let link::SourceParam::Builtin(name) = &m.source else {
        panic!("{query}: not a built-in")
    };
    let text = logtime_cli::builtins::find(name).unwrap();
    let c = logtime_lesson::parse(text)
        .unwrap()
        .instantiate(m.seed.map_or(Pick::Default, Pick::Seed))
        .unwrap();
    let entries = link::entries_of(&m, text).unwrap();
    let r = logtime_render::rebuild(
        Source::Builtin(name.clone()),
        c.scenario,
        &entries,
        m.lookup,
    )
    .unwrap();
    let state = serde_json::to_string(&r.session.runner().partition().state_serialized());
    state.unwrap()
}

/// Checks one picture: XML, title, desc, the link in three places, the cards' names.
fn check_picture(doc: &str, what: &str) -> String {
    let x = roxmltree::Document::parse(doc).unwrap_or_else(|e| panic!("{what}: {e}"));
    let root = x.root_element();
    assert_eq!(root.tag_name().name(), "svg", "{what}");
    let query = root
        .attribute("data-logtime-moment")
        .unwrap_or_else(|| panic!("{what}: no data-logtime-moment"))
        .to_string();
    assert!(query.starts_with("?scenario="), "{what}: {query}");
    let has = |name: &str| x.descendants().any(|n| n.tag_name().name() == name);
    assert!(has("title") && has("desc"), "{what}: title and desc");
    let meta = x
        .descendants()
        .find(|n| n.tag_name().name() == "moment")
        .unwrap_or_else(|| panic!("{what}: no <logtime:moment>"));
    assert_eq!(
        meta.tag_name().namespace(),
        Some(logtime_render::LOGTIME_NS)
    );
    assert_eq!(meta.text(), Some(query.as_str()), "{what}");
    let a = x
        .descendants()
        .find(|n| n.tag_name().name() == "a")
        .unwrap();
    assert_eq!(
        a.attribute("href"),
        Some(format!("index.html{query}").as_str())
    );
    for g in x
        .descendants()
        .filter(|n| n.attribute("data-segment").is_some())
    {
        let base: i64 = g.attribute("data-segment").unwrap().parse().unwrap();
        let named = format!("Segment {}", logtime_render::format::count(base));
        assert!(
            g.descendants().any(|t| t.text() == Some(named.as_str())),
            "{what}: segment {base} is not named"
        );
    }
    query
}

/// Every built-in at its start, a middle step and its end: the picture parses, carries its
/// link, the link rebuilds the same partition, and every segment of a short log is drawn.
#[test]
fn every_builtin_at_several_steps() {
    for (name, text) in BUILTINS {
        let n = steps_of(text);
        let mut at = vec![0, n / 2, n];
        at.dedup();
        for step in at {
            let s = step.to_string();
            let what = format!("{name} at step {step}");
            let doc = render(&[name, "--step", &s, "--panels", "all", "-o", "x.svg"]);
            let query = check_picture(&doc, &what);
            let m = link::parse_link(&query).unwrap();
            assert_eq!(m.step.unwrap_or(0), step, "{what}");
            // The link rebuilds the very partition the picture drew.
            let c = logtime_lesson::parse(text)
                .unwrap()
                .instantiate(Pick::Default)
                .unwrap();
            let r = logtime_render::rebuild(
                Source::Builtin(name.to_string()),
                c.scenario,
                &vec![Entry::Step; step],
                None,
            )
            .unwrap();
            let p = r.session.runner().partition();
            assert_eq!(
                rebuilt(&query),
                serde_json::to_string(&p.state_serialized()).unwrap(),
                "{what}"
            );
            if p.segments().len() <= 12 {
                for seg in p.segments() {
                    let attr = format!("data-segment=\"{}\"", seg.base_offset().0);
                    assert!(
                        doc.contains(&attr),
                        "{what}: segment {} drawn",
                        seg.base_offset()
                    );
                }
            }
        }
    }
}

/// The built-ins whose lesson declares a stream processor downstream (`"stream"`).
fn with_stream() -> Vec<(&'static str, &'static str)> {
    BUILTINS
        .iter()
        .copied()
        .filter(|(_, text)| {
            let c = logtime_lesson::parse(text).unwrap();
            c.instantiate(Pick::Default).unwrap().stream.is_some()
        })
        .collect()
}

/// The text of the picture's lane panel, its lines joined by spaces (so a wrapped sentence reads
/// whole again), and its description.
fn lane_text(doc: &str, what: &str) -> (String, String) {
    let x = roxmltree::Document::parse(doc).unwrap_or_else(|e| panic!("{what}: {e}"));
    let lane = x
        .descendants()
        .find(|n| n.attribute("data-panel") == Some("lane"))
        .unwrap_or_else(|| panic!("{what}: no lane panel"));
    let text: Vec<&str> = lane
        .descendants()
        .filter(|n| n.tag_name().name() == "text")
        .filter_map(|n| n.text())
        .collect();
    let desc = x
        .descendants()
        .find(|n| n.tag_name().name() == "desc")
        .and_then(|n| n.text())
        .unwrap_or_default();
    (text.join(" "), desc.to_string())
}

/// `--panels lane` on every lesson with a stream, at its start, middle and end, narrow and wide,
/// light and dark: the lane panel is drawn as text, says the lesson crate's own figures and
/// window lines for that moment, and the description says what the lane shows.
#[test]
fn the_lane_panel_on_every_lesson_with_a_stream() {
    use logtime_lesson::stream::{self, lane as words};
    let lessons = with_stream();
    assert!(
        lessons.len() >= 2,
        "the incident 8 drill and walkthrough have a stream"
    );
    for (name, text) in lessons {
        let n = steps_of(text);
        let c = logtime_lesson::parse(text)
            .unwrap()
            .instantiate(Pick::Default)
            .unwrap();
        let config = c.stream.unwrap();
        for step in [0, n / 2, n] {
            let r = logtime_render::rebuild(
                Source::Builtin(name.to_string()),
                c.scenario.clone(),
                &vec![Entry::Step; step],
                None,
            )
            .unwrap();
            let rep = stream::run(&config, r.session.runner().partition());
            let tally = words::tally(&rep, usize::MAX);
            let s = step.to_string();
            for (width, theme) in [("320", "dark"), ("736", "light"), ("1280", "dark")] {
                let what = format!("{name} at step {step}, {width} px {theme}");
                let list = [
                    name, "--step", &s, "--panels", "lane", "--width", width, "--theme", theme,
                    "-o", "x.svg",
                ];
                let doc = render(&list);
                check_picture(&doc, &what);
                let (lane, desc) = lane_text(&doc, &what);
                assert!(lane.starts_with(words::HEADING), "{what}: {lane}");
                for (k, v) in words::figures(&rep, &tally) {
                    assert!(
                        lane.contains(&format!("{k}: {v}")),
                        "{what}: {k}: {v} in {lane}"
                    );
                }
                // the newest windows, in the lesson's words
                let laid = logtime_render::lane::Lane::at(&rep, usize::MAX);
                let newest = laid.windows.iter().rev().take(8);
                for w in newest {
                    let line = words::window_line(w.window, w.counted, w.late, w.closed_by);
                    assert!(lane.contains(&line), "{what}: {line} in {lane}");
                }
                if tally.read == 0 {
                    assert!(lane.contains(words::NOTHING_READ), "{what}");
                }
                assert!(desc.ends_with(&words::describe(&rep)), "{what}: {desc}");
            }
        }
    }
}

/// A lane asked for by name on a scenario without a stream is an error that says so; `all` on
/// it draws the other panels.
#[test]
fn a_lane_needs_a_stream() {
    let v: Vec<String> = ["landing", "--panels", "lane", "-o", "x.svg"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let e = svg(&parse_args(&v).unwrap(), &read).unwrap_err();
    assert!(
        e.starts_with("--panels: lane shows a lesson's stream processor"),
        "{e}"
    );
    let all = render(&["landing", "--panels", "all", "-o", "x.svg"]);
    assert!(all.contains("data-panel=\"retention\"") && !all.contains("data-panel=\"lane\""));
}

/// A lookup and a saved moment survive the trip through the picture's link.
#[test]
fn a_lookup_and_a_moment_come_back_from_the_link() {
    let doc = render(&[
        "lookup-scan",
        "--step",
        "end",
        "--lookup",
        "2025-11-04T10:00:05Z",
        "-o",
        "x.svg",
    ]);
    let query = check_picture(&doc, "lookup");
    assert!(query.contains("lookup=2025-11-04T10%3A00%3A05Z"), "{query}");
    assert!(doc.contains(" ✔"), "the answer's tile is marked");
    // A saved moment with an action: the link keeps its compact form.
    let doc = render(&["future-pins-retention", "--moment", "1~s~s", "-o", "x.svg"]);
    let q = check_picture(&doc, "moment");
    let again = render(&["--moment", &q, "-o", "y.svg"]);
    assert_eq!(doc, again, "a picture of the link is the same picture");
}

/// Untrusted text (a scenario's title) is escaped, and the XML still parses.
#[test]
fn titles_are_escaped() {
    let dir = std::env::temp_dir().join(format!("logtime-render-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("evil.json");
    let title = "</text><script>alert(1)</script> & \"quotes\" ]]>";
    let json = serde_json::json!({
        "title": title,
        "kafka": "4.1",
        "start": "2025-11-04T10:00:00Z",
        "steps": [{"produce": {"records": [{"timestamp": "now"}]}}]
    });
    std::fs::write(&file, json.to_string()).unwrap();
    let doc = render(&[file.to_str().unwrap(), "--step", "1", "-o", "x.svg"]);
    let x = roxmltree::Document::parse(&doc).unwrap();
    assert!(!x.descendants().any(|n| n.tag_name().name() == "script"));
    assert!(x.descendants().any(|n| n.text() == Some(title)));
    let root = x.root_element();
    assert!(root
        .attribute("data-logtime-moment")
        .unwrap()
        .starts_with("?z="));
}

/// Bad flags name the flag and the reason.
#[test]
fn bad_flags_are_named() {
    let err = |list: &[&str]| {
        let v: Vec<String> = list.iter().map(|s| s.to_string()).collect();
        match parse_args(&v) {
            Err(e) => e,
            Ok(a) => svg(&a, &read).unwrap_err(),
        }
    };
    assert!(err(&["landing", "--width", "12", "-o", "x.svg"]).starts_with("--width: "));
    assert!(err(&["landing", "--width", "wide", "-o", "x.svg"]).starts_with("--width takes"));
    assert!(err(&["landing", "--theme", "pink", "-o", "x.svg"]).starts_with("--theme: "));
    assert!(err(&["landing", "--panels", "charts", "-o", "x.svg"])
        .starts_with("--panels: unknown panel"));
    assert!(err(&["landing", "-o", "x.gif"]).starts_with("-o: "));
    assert!(err(&["landing"]).contains("-o FILE.svg"));
    assert!(
        err(&["landing", "--step", "99", "-o", "x.svg"]).starts_with("--step: the scenario has")
    );
    assert!(err(&["nope", "-o", "x.svg"]).contains("is not a built-in"));
    assert!(err(&["landing", "--lookup", "yesterday", "-o", "x.svg"]).starts_with("--lookup: "));
    assert!(err(&["landing", "--moment", "9~s", "-o", "x.svg"]).starts_with("--moment: "));
    assert!(
        err(&["landing", "--moment", "1~s", "--step", "1", "-o", "x.svg"])
            .starts_with("--moment already")
    );
}

/// The PNG is a PNG, twice the SVG's size, and the same bytes each time.
#[test]
fn png_is_deterministic() {
    let doc = render(&[
        "lookup-scan",
        "--step",
        "end",
        "--width",
        "480",
        "-o",
        "x.svg",
    ]);
    let a = png(&doc).unwrap();
    assert_eq!(&a[..8], b"\x89PNG\r\n\x1a\n");
    let width = u32::from_be_bytes([a[16], a[17], a[18], a[19]]);
    assert_eq!(width, 960);
    assert_eq!(a, png(&doc).unwrap());
}

/// The posters (`scripts/render-posters.sh`) and the README's pictures are what a fresh render
/// makes: regenerate them with the script when this fails.
#[test]
fn committed_pictures_are_fresh() {
    let root = format!("{}/..", env!("CARGO_MANIFEST_DIR"));
    for (name, _) in BUILTINS {
        let path = format!("{root}/static/posters/{name}.svg");
        let committed =
            read(&path).unwrap_or_else(|e| panic!("{path}: {e} (run scripts/render-posters.sh)"));
        let fresh = render(&poster_args(name));
        assert!(
            committed == fresh,
            "{path} is stale: run scripts/render-posters.sh"
        );
    }
    for (file, list) in docs_pictures() {
        let path = format!("{root}/docs/pictures/{file}");
        let committed = read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        assert!(
            committed == render(&list),
            "{path} is stale: run scripts/render-posters.sh"
        );
    }
}

/// The flags `scripts/render-posters.sh` gives each poster.
// A poster lives in static/posters/; its link opens the explorer page two folders up.
fn poster_args(name: &str) -> Vec<&str> {
    vec![
        name,
        "--step",
        "end",
        "--width",
        "736",
        "--page",
        "../../index.html",
        "-o",
        "x.svg",
    ]
}

/// The README's pictures and the flags the script gives them.
fn docs_pictures() -> Vec<(&'static str, Vec<&'static str>)> {
    vec![
        (
            "pinned-retention.svg",
            vec![
                "future-pins-retention",
                "--step",
                "end",
                "--panels",
                "retention",
                "--width",
                "880",
                "-o",
                "x.svg",
            ],
        ),
        (
            "lookup-scan.svg",
            vec![
                "lookup-scan",
                "--step",
                "end",
                "--lookup",
                "2025-11-04T10:00:05Z",
                "--panels",
                "lookup",
                "--width",
                "880",
                "-o",
                "x.svg",
            ],
        ),
        (
            "event-time-lane.svg",
            vec![
                "incident-08-event-time-downstream-walkthrough",
                "--step",
                "end",
                "--panels",
                "lane",
                "--width",
                "880",
                "-o",
                "x.svg",
            ],
        ),
    ]
}

/// Every built-in file is compiled into the command, once.
#[test]
fn every_static_file_is_a_builtin() {
    let root = format!("{}/../static", env!("CARGO_MANIFEST_DIR"));
    let mut files = 0;
    for dir in ["scenarios", "lessons", "incidents"] {
        for e in std::fs::read_dir(format!("{root}/{dir}")).unwrap() {
            let name = e.unwrap().file_name().into_string().unwrap();
            if let Some(stem) = name.strip_suffix(".json") {
                files += 1;
                let key = if dir == "incidents" {
                    format!("incident-{stem}")
                } else {
                    stem.to_string()
                };
                let text = read(&format!("{root}/{dir}/{name}")).unwrap();
                assert_eq!(
                    logtime_cli::builtins::find(&key),
                    Some(text.as_str()),
                    "{key}"
                );
            }
        }
    }
    assert_eq!(files, BUILTINS.len());
}

/// The command itself: writes the file; a bad flag is a usage error (exit 2) naming the flag.
#[test]
fn the_command_writes_the_file_and_names_bad_flags() {
    let dir = std::env::temp_dir().join(format!("logtime-render-bin-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("p.svg");
    let run = |extra: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_logtime"))
            .arg("render")
            .args(extra)
            .output()
            .unwrap()
    };
    let ok = run(&["landing", "--step", "2", "-o", out.to_str().unwrap()]);
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    let svg = std::fs::read_to_string(&out).unwrap();
    assert!(svg.contains("data-logtime-moment=\"?scenario=landing&amp;step=2\""));
    let bad = run(&["landing", "--theme", "sepia", "-o", out.to_str().unwrap()]);
    assert_eq!(bad.status.code(), Some(2));
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(err.contains("--theme: \"sepia\" is not a theme"), "{err}");
}
