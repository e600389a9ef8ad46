//! The lessons and incidents Logtime ships: each passes `check` in every variant and tells the
//! story its numbers say.

use super::*;

#[test]
fn every_built_in_lesson_passes_check_in_every_variant() {
    for (name, json) in BUILT_INS {
        let l = parse(json).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(l.default_variant().is_lesson, "{name}");
        let total = l.variant_count();
        for k in 0..total {
            let c = l.instantiate(Pick::Index(k)).unwrap();
            if let Err(e) = check(&c) {
                panic!("{name}, variant {k} ({}): {e:?}", c.variant.label());
            }
        }
        let s = check_all(&l, 1000).unwrap_or_else(|(v, e)| panic!("{name} {v}: {e:?}"));
        assert_eq!(s.variants_checked, total.max(1), "{name}");
        assert!(
            s.questions + s.tasks >= 2,
            "{name}: a lesson asks something"
        );
        let key = answer_key(l.default_variant()).unwrap();
        assert_eq!(key.len(), s.questions + s.tasks, "{name}");
        let sheet = answer_sheet(l.default_variant()).unwrap();
        assert!(sheet
            .iter()
            .any(|l| l.kind == LineKind::Answer || l.kind == LineKind::Solution));
    }
}

#[test]
fn the_future_drill_has_the_numbers_of_the_story() {
    let c = concrete(FUTURE_DRILL);
    let mut play = Play::new(c).unwrap();
    // The five-segment table at 12 Mar 2027 08:59, retention.ms still 30 days.
    let bases: Vec<i64> = play
        .partition()
        .segments()
        .iter()
        .map(|s| s.base_offset().0)
        .collect();
    assert_eq!(bases, [0, 10000, 20000, 30000, 40000]);
    let largest: Vec<String> = play
        .partition()
        .segments()
        .iter()
        .map(|s| logtime_core::human::date(s.largest_timestamp().0))
        .collect();
    assert_eq!(
        largest,
        [
            "28 Feb 2027 23:58",
            "1 Mar 2027 23:59",
            "14 Mar 2030 11:20",
            "3 Mar 2027 23:57",
            "12 Mar 2027 08:59"
        ]
    );
    // Note, config, then the pinning question.
    for _ in 0..2 {
        play.advance(&mut |_| {}).unwrap().unwrap();
    }
    assert_eq!(
        play.advance(&mut |_| {}).unwrap().unwrap(),
        Reached::Question { item: 0 }
    );
    assert_eq!(
        play.solved().unwrap().as_ref().unwrap().answer,
        Answer::Segment(Offset(20000))
    );
    // The answer key holds every computed answer, in order.
    let key = answer_key(play.lesson()).unwrap();
    let answers: Vec<String> = key
        .iter()
        .map(|k| match &k.answer {
            KeyAnswer::Question(s) => s.answer.to_string(),
            KeyAnswer::Task(r) => format!("goal met: {}", r.goal.met),
        })
        .collect();
    assert_eq!(
        answers,
        [
            "segment 20000",
            "segments 0, 10000",
            "offset 20000",
            "goal met: true",
            "error 32 INVALID_TIMESTAMP"
        ]
    );
}

macro_rules! incidents {
    ($($n:literal $slug:literal),* $(,)?) => {
        [$(
            ($n, "walkthrough", include_str!(concat!("../../../static/incidents/", $slug, "-walkthrough.json"))),
            ($n, "drill", include_str!(concat!("../../../static/incidents/", $slug, "-drill.json"))),
        )*]
    };
}

const INCIDENTS: [(u32, &str, &str); 16] = incidents!(
    1 "01-nanoseconds",
    2 "02-reminder-pins-retention",
    3 "03-replay-into-24h-topic",
    4 "04-fixes-that-fail",
    5 "05-rolling-stops",
    6 "06-reset-by-time",
    7 "07-upgrade-to-4x",
    8 "08-event-time-downstream",
);

/// Every incident is a walkthrough and a drill that pass `check` in every variant, with the
/// first screen's one sentence, a level, a length and a post-mortem; a walkthrough narrates and
/// highlights, a drill asks at least three questions or tasks.
#[test]
fn every_incident_passes_check_in_every_variant() {
    for (n, kind, json) in INCIDENTS {
        let l = parse(json).unwrap_or_else(|e| panic!("incident {n} {kind}: {e}"));
        let summary =
            check_all(&l, 1000).unwrap_or_else(|(v, e)| panic!("incident {n} {kind} {v}: {e:?}"));
        assert_eq!(summary.variants_checked, l.variant_count());
        let c = l.default_variant();
        assert!(
            c.title().starts_with(&format!("Incident {n}")),
            "{}",
            c.title()
        );
        assert_eq!(c.meta.kind.key(), kind, "incident {n}");
        let s = c.meta.summary.as_ref().expect("a first-screen sentence");
        let words = s.sentences(&|_| Ok(Mention::Link(String::new()))).unwrap();
        assert_eq!(words.len(), 1, "incident {n} {kind}: one sentence");
        assert!(c.meta.level.is_some() && c.meta.minutes.is_some());
        assert!(c.meta.postmortem.is_some(), "incident {n} {kind}");
        match c.meta.kind {
            LessonKind::Drill => assert!(
                summary.questions + summary.tasks >= 3,
                "incident {n} drill: {summary:?}"
            ),
            LessonKind::Walkthrough => {
                let narrated = c.steps.iter().filter(|s| s.narration.is_some()).count();
                let shown = c.steps.iter().filter(|s| !s.show.is_empty()).count();
                assert!(
                    narrated >= 5 && shown >= 5,
                    "incident {n}: {narrated} {shown}"
                );
                assert!(c.steps.iter().any(|s| s.pause));
            }
        }
    }
    // Incident 8 reads the partition with the stream processor, in both kinds.
    for (n, _, json) in INCIDENTS.iter().filter(|i| i.0 == 8) {
        assert!(concrete(json).stream.is_some(), "incident {n}");
    }
}

/// Incident 2 reaches seed 001's table at 12 Mar 2027 09:00: segments 0 and 10000 deleted,
/// 20000 not old enough until 21 Mar 2030 11:20, 30000 kept behind it, 40000 not examined.
#[test]
fn incident_2_reaches_the_seed_001_table() {
    let c = concrete(INCIDENTS[2].2);
    let mut play = Play::new(c).unwrap();
    while play.partition().clock() < Timestamp(1_804_842_000_000) {
        play.advance(&mut |_| {}).unwrap().unwrap();
    }
    let p = play.partition();
    let bases: Vec<i64> = p.segments().iter().map(|s| s.base_offset().0).collect();
    assert_eq!(bases, [20_000, 30_000, 40_000]);
    let r = p.preview_retention(p.clock());
    let v: Vec<String> = r
        .verdicts
        .iter()
        .map(|v| narrate::verdict(v, &r).to_string())
        .collect();
    assert!(
        v[0].contains("not old enough until 21 Mar 2030 11:20"),
        "{v:?}"
    );
    assert!(v[1].contains("pinned behind segment 20000"), "{v:?}");
}
