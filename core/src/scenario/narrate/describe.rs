//! The describer: what a picture of a moment shows, in one paragraph for people (a picture's
//! `<desc>`, read by screen readers and search). It says what the narrator says, gathered for a
//! still picture instead of a step.

use super::{end, lookup, verdict_brief, Sentence};
use crate::human;
use logtime_model::lookup::Lookup;
use logtime_model::retention::{RetentionReport, Verdict};
use logtime_model::Partition;

/// One paragraph: which scenario, the broker clock, the partition's segments and offsets, what
/// pins retention (from a retention `preview` at the clock) and, when there is one, the lookup's
/// answer.
pub fn moment(
    title: &str,
    p: &Partition,
    preview: &RetentionReport,
    last_lookup: Option<&Lookup>,
) -> String {
    let mut s = Sentence::plain(format!(
        "Partition {} of \"{}\" at {} (broker clock), {}: ",
        p.topic_partition(),
        title,
        human::date(p.clock().0),
        super::count(p.record_count(), "record", "records"),
    ));
    // The narrator's end-of-replay line, without its "at the end:" lead-in: a picture is a
    // moment, not the end of anything.
    let segments = end(p).to_string();
    s.text(segments.trim_start_matches("at the end: "));
    let pinned: Vec<Sentence> = preview
        .verdicts
        .iter()
        .filter(|v| matches!(v.verdict, Verdict::NotOldEnough { future: true, .. }))
        .map(|v| {
            let mut one = Sentence::new();
            one.text("segment ").segment(v.base_offset).text(" is ");
            one.append(verdict_brief(v));
            one
        })
        .collect();
    if !pinned.is_empty() {
        s.text(". Retention: ");
        s.append(Sentence::join(pinned, "; "));
    }
    if let Some(l) = last_lookup {
        s.text(". The ");
        s.append(lookup(l.spec, &Ok(l.clone())));
    }
    s.text(".");
    s.to_string()
}

#[cfg(test)]
mod tests {
    use crate::scenario::{parse, Runner};
    use logtime_model::{OffsetSpec, Timestamp};

    fn replayed(file: &str) -> Runner {
        let path = format!("{}/../static/scenarios/{file}", env!("CARGO_MANIFEST_DIR"));
        let json = std::fs::read_to_string(path).unwrap();
        let mut r = Runner::new(parse(&json).unwrap());
        while r.step(&mut |_| {}).is_some() {}
        r
    }

    #[test]
    fn a_lookup_moment_says_the_answer() {
        let r = replayed("lookup-scan.json");
        let p = r.partition();
        let l = p
            .lookup(OffsetSpec::Timestamp(Timestamp(1_762_250_405_000)))
            .unwrap();
        let d = super::moment("Lookup", p, &p.preview_retention(p.clock()), Some(&l));
        assert!(d.starts_with("Partition "), "{d}");
        assert!(d.contains("\"Lookup\""), "{d}");
        assert!(d.contains("returned offset 3"), "{d}");
        assert!(!d.contains('\n'), "one paragraph: {d}");
    }

    #[test]
    fn a_pinned_moment_says_what_pins() {
        let r = replayed("future-pins-retention.json");
        let p = r.partition();
        let d = super::moment("Pins", p, &p.preview_retention(p.clock()), None);
        assert!(d.contains("pinned: stamped in the future"), "{d}");
    }
}
