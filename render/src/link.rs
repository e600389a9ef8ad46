//! Moment links: the query string that names a scenario and everything done to it, so that
//! opening the link rebuilds the same partition at the same moment.
//!
//! A link holds the scenario (`scenario=` a built-in, `src=` a URL, or `z=` the scenario's JSON
//! packed), then either `step=` and `lookup=` (when the reader only stepped and looked, the
//! readable form) or `moment=` (the journal's compact form, when they acted), then the view
//! options that differ from the defaults.

use logtime_core::human;
use logtime_core::scenario::{parse_time, Entry, Journal, TimeSpec};
use logtime_model::OffsetSpec;

/// A lookup as a link or an option names it, before the broker clock is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LookupTarget {
    /// A time, resolved against the broker clock when it runs.
    Time(TimeSpec),
    /// `earliest`, `latest` or `max-timestamp`.
    Special(OffsetSpec),
}

impl LookupTarget {
    /// Reads `earliest`, `latest`, `max-timestamp` or a time in the scenario grammar.
    pub fn parse(v: &str) -> Result<LookupTarget, String> {
        match v.trim() {
            "earliest" => Ok(LookupTarget::Special(OffsetSpec::Earliest)),
            "latest" => Ok(LookupTarget::Special(OffsetSpec::Latest)),
            "max-timestamp" => Ok(LookupTarget::Special(OffsetSpec::MaxTimestamp)),
            t => parse_time(t).map(LookupTarget::Time),
        }
    }

    /// The spec at broker time `now`; `None` on overflow.
    pub fn resolve(self, now: i64) -> Option<OffsetSpec> {
        match self {
            LookupTarget::Special(s) => Some(s),
            LookupTarget::Time(t) => t
                .resolve(now)
                .map(|t| OffsetSpec::Timestamp(logtime_model::Timestamp(t))),
        }
    }
}

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

/// What a moment link names, read back: the scenario, then either steps and a lookup or a saved
/// moment, and the view options a picture needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkMoment {
    /// The scenario.
    pub source: SourceParam,
    /// `step=`: steps to run.
    pub step: Option<usize>,
    /// `lookup=`: a lookup after them.
    pub lookup: Option<LookupTarget>,
    /// `moment=`: the journal's compact form.
    pub moment: Option<String>,
    /// `seed=`: a lesson's variant.
    pub seed: Option<u64>,
    /// `theme=`, as written.
    pub theme: Option<String>,
    /// `panels=`, as written.
    pub panels: Option<String>,
}

/// `%XX` and `+` decoded; `None` for a bad escape or bytes that are not UTF-8.
fn percent_decode(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'%' => {
                let hex = std::str::from_utf8(b.get(i + 1..i + 3)?).ok()?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 3;
            }
            b'+' => {
                out.push(b' ');
                i += 1;
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8(out).ok()
}

/// Reads a moment link (a whole URL, or its `?…` part). Errors name the parameter and the
/// reason; parameters that are not Logtime's (a site's tracking ones) are ignored.
pub fn parse_link(link: &str) -> Result<LinkMoment, String> {
    let query = link.split_once('?').map_or(link, |(_, q)| q);
    let query = query.split('#').next().unwrap_or_default();
    let mut source = None;
    let mut m = LinkMoment {
        source: SourceParam::Builtin(String::new()),
        step: None,
        lookup: None,
        moment: None,
        seed: None,
        theme: None,
        panels: None,
    };
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        let k = percent_decode(k).ok_or_else(|| format!("{k:?}: a bad %-escape"))?;
        let v = percent_decode(v).ok_or_else(|| format!("{k}: a bad %-escape in the value"))?;
        let bad = |why: &str| format!("{k}: {why}");
        match k.as_str() {
            "scenario" => source = Some(SourceParam::Builtin(v)),
            "src" => source = Some(SourceParam::Url(v)),
            "z" => source = Some(SourceParam::Packed(v)),
            "step" => {
                m.step = Some(
                    v.parse()
                        .map_err(|_| bad("expected a whole number of steps"))?,
                )
            }
            "lookup" => m.lookup = Some(LookupTarget::parse(&v).map_err(|e| bad(&e))?),
            "moment" => m.moment = Some(v),
            "seed" => m.seed = Some(v.parse().map_err(|_| bad("expected a whole number"))?),
            "theme" => m.theme = Some(v),
            "panels" => m.panels = Some(v),
            _ => {}
        }
    }
    m.source = source.ok_or("the link names no scenario (scenario=, src= or z=)")?;
    if m.moment.is_some() && (m.step.is_some() || m.lookup.is_some()) {
        return Err("moment: a saved moment already holds the steps and lookups".into());
    }
    Ok(m)
}

/// The journal entries a link names: its saved moment, or its steps and lookup (resolved at
/// `now_after`, the broker clock once the steps have run, which the caller learns by replaying).
pub fn entries_of(m: &LinkMoment, scenario_text: &str) -> Result<Vec<Entry>, String> {
    match &m.moment {
        Some(c) => Journal::entries_from_compact(c, Some(scenario_text))
            .map_err(|e| format!("moment: {e}")),
        None => Ok(vec![Entry::Step; m.step.unwrap_or(0)]),
    }
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
