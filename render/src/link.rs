//! Moment links: the query string that names a scenario and everything done to it, so that
//! opening the link rebuilds the same partition at the same moment.
//!
//! A link holds the scenario (`scenario=` a built-in, `src=` a URL, or `z=` the scenario's JSON
//! packed), then either `step=` and `lookup=` (when the reader only stepped and looked, the
//! readable form) or `moment=` (the journal's compact form, when they acted), then the view
//! options that differ from the defaults.

use logtime_core::human;
use logtime_core::scenario::{Entry, Journal};
use logtime_model::OffsetSpec;

/// The scenario part of a link.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SourceParam {
    /// `scenario=NAME`.
    Builtin(String),
    /// `src=URL` (absolute, so the link works from any page).
    Url(String),
    /// `z=PACKED`: the JSON, deflated and base64url-encoded.
    Packed(String),
}

/// `step` and `lookup` when the journal is only steps followed by lookups: `(steps, last lookup)`.
pub fn simple(journal: &Journal) -> Option<(usize, Option<OffsetSpec>)> {
    let steps = journal
        .entries
        .iter()
        .take_while(|e| **e == Entry::Step)
        .count();
    let mut lookup = None;
    for e in &journal.entries[steps..] {
        match e {
            Entry::Lookup(spec) => lookup = Some(*spec),
            _ => return None,
        }
    }
    Some((steps, lookup))
}

/// A lookup as a link writes it: a special offset's name, or an RFC 3339 time.
pub fn lookup_param(spec: OffsetSpec) -> String {
    match spec {
        OffsetSpec::Timestamp(t) => human::rfc3339(t.0),
        other => other.to_string(),
    }
}

/// The query parameters of a moment link, in order.
pub fn params(
    source: &SourceParam,
    journal: &Journal,
    scenario_text: &str,
    view: &[(&str, String)],
) -> Vec<(String, String)> {
    let mut out = Vec::new();
    match source {
        SourceParam::Builtin(n) => out.push(("scenario".to_string(), n.clone())),
        SourceParam::Url(u) => out.push(("src".to_string(), u.clone())),
        SourceParam::Packed(z) => out.push(("z".to_string(), z.clone())),
    }
    match simple(journal) {
        Some((steps, lookup)) => {
            if steps > 0 {
                out.push(("step".into(), steps.to_string()));
            }
            if let Some(spec) = lookup {
                out.push(("lookup".into(), lookup_param(spec)));
            }
        }
        None => out.push(("moment".into(), journal.to_compact(Some(scenario_text)))),
    }
    for (k, v) in view {
        out.push((k.to_string(), v.clone()));
    }
    out
}

/// `?k=v&…`, percent-encoding all but RFC 3986's unreserved characters (as
/// `encodeURIComponent` does, less `!'()*`).
pub fn query_string(params: &[(String, String)]) -> String {
    let enc = |s: &str| {
        let mut out = String::with_capacity(s.len());
        for b in s.bytes() {
            if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
                out.push(b as char);
            } else {
                out.push_str(&format!("%{b:02X}"));
            }
        }
        out
    };
    let body: Vec<String> = params
        .iter()
        .map(|(k, v)| format!("{}={}", enc(k), enc(v)))
        .collect();
    format!("?{}", body.join("&"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use logtime_core::scenario::Source;
    use logtime_model::{Command, Timestamp};

    fn journal(entries: Vec<Entry>) -> Journal {
        Journal {
            source: Source::Builtin("lookup-scan".into()),
            entries,
        }
    }

    #[test]
    fn steps_and_lookups_are_readable() {
        let j = journal(vec![
            Entry::Step,
            Entry::Step,
            Entry::Lookup(OffsetSpec::Timestamp(Timestamp(1_762_250_405_000))),
        ]);
        let p = params(&SourceParam::Builtin("lookup-scan".into()), &j, "{}", &[]);
        assert_eq!(
            query_string(&p),
            "?scenario=lookup-scan&step=2&lookup=2025-11-04T10%3A00%3A05Z"
        );
        let j = journal(vec![]);
        let p = params(
            &SourceParam::Url("https://h/s.json".into()),
            &j,
            "{}",
            &[("theme", "dark".into())],
        );
        assert_eq!(query_string(&p), "?src=https%3A%2F%2Fh%2Fs.json&theme=dark");
        assert_eq!(lookup_param(OffsetSpec::MaxTimestamp), "max-timestamp");
    }

    #[test]
    fn actions_make_a_moment() {
        let j = journal(vec![
            Entry::Step,
            Entry::Command {
                at: Timestamp(5),
                command: Command::RunRetention,
            },
            Entry::Step,
        ]);
        assert_eq!(simple(&j), None);
        let p = params(&SourceParam::Packed("abc".into()), &j, "{}", &[]);
        assert_eq!(p[0], ("z".to_string(), "abc".to_string()));
        assert_eq!(p[1].0, "moment");
        assert!(
            p[1].1.starts_with("1.") && p[1].1.ends_with("~s~r5~s"),
            "{:?}",
            p[1]
        );
        // The compact form needs no escaping.
        let q = query_string(&p);
        assert!(q.contains("moment=1."), "{q}");
        assert!(!q.contains('%'), "{q}");
    }
}
