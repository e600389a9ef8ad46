//! The embed options model: every option an explorer takes, read in one place for the three ways
//! a page gives them: `<logtime-explorer>` attributes, `mount(element, options)` /
//! `update(options)` from JS, and the standalone page's (or an iframe's) URL parameters.
//!
//! | option | values | default |
//! | --- | --- | --- |
//! | `scenario` | a built-in name, a URL or inline JSON (told apart by shape) | `lookup-scan` |
//! | `src` | a scenario URL | |
//! | `inline` | scenario JSON (JS only; the element reads a child `<script type="application/json">`) | |
//! | `z` | the scenario JSON, deflated and base64url-encoded (written by moment links) | |
//! | `panels` | names from [`shown_panels`] (or `all`), separated by spaces or commas | all in the standalone page; in an embed, [`default_embed_panels`] |
//! | `menu` | `true`/`false` (a bare attribute is `true`) | `true` standalone, `false` embedded |
//! | `theme` | `light`, `dark`, `auto` | `auto` standalone; embedded, the host page's declared `color-scheme` |
//! | `mode` | `explorer`, `walkthrough`, `drill`, `presenter`, `author` (standalone page only) | a lesson's own kind (`walkthrough` or `drill`); `explorer` for a plain scenario |
//! | `seed` | a lesson's variant: a whole number (the same seed gives the same numbers) | the lesson's default variant |
//! | `step` | steps to run on load (0 to the scenario's length) | 0 |
//! | `lookup` | a lookup to run after them: a time (`now-1h`, RFC 3339, ms) or `earliest`, `latest`, `max-timestamp` | |
//! | `moment` | a saved moment: the journal's compact form (`logtime_core::scenario::session`) | |
//! | `page` | the standalone page's URL, for "Copy link to this moment" in an embed | |
//! | `assign` | an assignment: the lesson's fingerprint (16 hex digits); the learner types their name and gets the variant it picks (`seed_for`) | |
//!
//! Errors name the option as the page wrote it (`panels`, `?panels`) and the reason.

mod mode;
mod panels;

pub use logtime_core::scenario::narrate::Panel;
pub use mode::Mode;
pub use panels::{default_embed_panels, shown_panels, Panels};

use crate::embed::{EmbedError, ScenarioSource};

/// Where the explorer runs, which decides the defaults.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Context {
    /// Logtime's own page (index.html, also inside an iframe).
    Standalone,
    /// Embedded in another page (`<logtime-explorer>` or `mount`).
    Embed,
}

impl Context {
    /// `standalone` or `embed`, for `data-context`.
    pub fn name(self) -> &'static str {
        match self {
            Context::Standalone => "standalone",
            Context::Embed => "embed",
        }
    }
}

/// The colour theme.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Theme {
    /// Always light.
    Light,
    /// Always dark.
    Dark,
    /// Follow the reader's system setting.
    Auto,
}

impl Theme {
    /// `light`, `dark` or `auto`.
    pub fn name(self) -> &'static str {
        match self {
            Theme::Light => "light",
            Theme::Dark => "dark",
            Theme::Auto => "auto",
        }
    }

    /// The default theme of an embed on a page whose computed `color-scheme` is `scheme`
    /// (`normal` when the page declares none): a page that declares only light (or only dark)
    /// gets that; otherwise the explorer follows the reader's setting.
    pub fn for_host(scheme: &str) -> Theme {
        let words: Vec<&str> = scheme.split_whitespace().collect();
        let light = words.contains(&"light");
        let dark = words.contains(&"dark");
        match (light, dark) {
            (true, false) => Theme::Light,
            (false, true) => Theme::Dark,
            _ => Theme::Auto,
        }
    }
}

/// A lookup to run once the explorer has loaded (moment links read it the same way).
pub use logtime_render::link::LookupTarget;

/// Everything an explorer was told, checked.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// Where it runs.
    pub context: Context,
    /// The scenario.
    pub source: ScenarioSource,
    /// The panels shown (`None`: the context's default).
    pub panels: Option<Panels>,
    /// Show the scenario menu.
    pub menu: bool,
    /// The colour theme.
    pub theme: Theme,
    /// What the explorer is for (`None`: a lesson's own kind, else the explorer).
    pub mode: Option<Mode>,
    /// A lesson's variant (`None`: the default variant).
    pub seed: Option<u64>,
    /// Steps to run on load.
    pub step: Option<usize>,
    /// A lookup to run on load.
    pub lookup: Option<LookupTarget>,
    /// A saved moment (a journal's compact form) to rebuild on load.
    pub moment: Option<String>,
    /// The standalone page's URL, for moment links from an embed.
    pub page: Option<String>,
    /// An assignment: the fingerprint of the lesson the trainer assigned.
    pub assign: Option<String>,
}

impl Options {
    /// The defaults of a context.
    pub fn new(context: Context) -> Options {
        Options {
            context,
            source: ScenarioSource::default(),
            panels: None,
            menu: context == Context::Standalone,
            theme: Theme::Auto,
            mode: None,
            seed: None,
            step: None,
            lookup: None,
            moment: None,
            page: None,
            assign: None,
        }
    }

    /// Whether a saved moment, a step or a lookup asks for more than the scenario's start.
    pub fn restores(&self) -> bool {
        self.moment.is_some() || self.step.is_some() || self.lookup.is_some()
    }
}

/// Every option name, as attributes and URL parameters spell them (logtime-embed.js observes
/// the attributes by these names).
pub const OPTION_NAMES: &[&str] = &[
    "scenario", "src", "inline", "z", "panels", "menu", "theme", "mode", "seed", "step", "lookup",
    "moment", "page", "load", "poster", "assign",
];

/// When an embed loads its explorer (`load`): logtime-embed.js acts on it before the module is
/// there; the module only checks it, so that a mistake gets the error box naming it.
pub const LOAD_VALUES: &[&str] = &["visible", "click", "eager"];

/// How the page gave the options, which decides how errors name them and what is tolerated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// `<logtime-explorer>` attributes (only Logtime's names are passed in).
    Attribute,
    /// An options object given to `mount`/`update` (unknown keys are refused).
    Object,
    /// URL parameters (`?scenario=`; unknown ones, such as a site's tracking parameters, are
    /// ignored).
    Url,
}

impl Origin {
    fn label(self, name: &str) -> String {
        match self {
            Origin::Url => format!("?{name}"),
            _ => name.to_string(),
        }
    }
}

/// Reads options from `(name, value)` pairs. `host_scheme` is the host page's computed
/// `color-scheme` (for an embed's default theme).
pub fn parse(
    context: Context,
    origin: Origin,
    pairs: &[(String, String)],
    host_scheme: Option<&str>,
) -> Result<Options, EmbedError> {
    let mut o = Options::new(context);
    if context == Context::Embed {
        o.theme = Theme::for_host(host_scheme.unwrap_or("normal"));
    }
    let mut sources: Vec<(String, &str, &str)> = Vec::new();
    let mut seen: Vec<&str> = Vec::new();
    for (name, value) in pairs {
        let name = name.as_str();
        let label = origin.label(name);
        let bad = |reason: String| EmbedError::new(&label, value, reason);
        if !OPTION_NAMES.contains(&name) {
            if origin == Origin::Url {
                continue;
            }
            return Err(bad(format!(
                "unknown option (expected one of: {})",
                OPTION_NAMES.join(", ")
            )));
        }
        if seen.contains(&name) {
            return Err(bad("given twice".into()));
        }
        seen.push(name);
        if SOURCE_OPTIONS.contains(&name) {
            sources.push((label, name, value));
        } else {
            set_option(&mut o, name, &label, value)?;
        }
    }
    if o.moment.is_some() && (o.step.is_some() || o.lookup.is_some()) {
        let label = origin.label("moment");
        return Err(EmbedError::new(
            &label,
            o.moment.as_deref().unwrap_or_default(),
            "a saved moment already holds the steps and lookups; give either moment or step/lookup",
        ));
    }
    if context == Context::Embed && o.mode == Some(Mode::Author) {
        return Err(EmbedError::new(
            &origin.label("mode"),
            "author",
            "author mode runs only on the standalone page (index.html?mode=author)",
        ));
    }
    if let Some(source) = one_source(sources)? {
        o.source = source;
    }
    Ok(o)
}

/// The options that name the scenario (at most one may be given).
const SOURCE_OPTIONS: [&str; 4] = ["scenario", "src", "inline", "z"];

/// Sets option `name` (a known option that names no source) to `value`, as `label` names it.
fn set_option(o: &mut Options, name: &str, label: &str, value: &str) -> Result<(), EmbedError> {
    let bad = |reason: String| EmbedError::new(label, value, reason);
    let v = value.trim();
    match name {
        "panels" => o.panels = Some(Panels::parse(v).map_err(bad)?),
        "menu" => o.menu = boolean(v).map_err(bad)?,
        "theme" => {
            o.theme = match v {
                "light" => Theme::Light,
                "dark" => Theme::Dark,
                "auto" => Theme::Auto,
                _ => return Err(bad("expected light, dark or auto".into())),
            }
        }
        "mode" => o.mode = Some(Mode::parse(v).map_err(bad)?),
        "seed" => {
            o.seed = Some(v.parse::<u64>().map_err(|_| {
                bad("expected a whole number from 0 to 18446744073709551615".into())
            })?)
        }
        "step" => {
            o.step =
                Some(v.parse::<usize>().map_err(|_| {
                    bad("expected a whole number of steps (0 for the start)".into())
                })?)
        }
        "lookup" => o.lookup = Some(LookupTarget::parse(v).map_err(bad)?),
        "assign" => {
            if v.len() != 16 || !v.bytes().all(|b| b.is_ascii_hexdigit()) {
                return Err(bad(
                    "expected the lesson's fingerprint: 16 hex digits, as the class page writes it"
                        .into(),
                ));
            }
            o.assign = Some(v.to_ascii_lowercase())
        }
        "moment" => {
            if v.is_empty() {
                return Err(bad("it is empty".into()));
            }
            o.moment = Some(v.to_string())
        }
        "page" => {
            ScenarioSource::parse_url(label, v)?;
            o.page = Some(v.to_string())
        }
        // Used by logtime-embed.js before the explorer loads: only checked here.
        "load" => {
            if !LOAD_VALUES.contains(&v) {
                return Err(bad("expected visible, click or eager".into()));
            }
        }
        "poster" => {
            ScenarioSource::parse_url(label, v)?;
        }
        _ => return Err(bad("not an option of this explorer".into())),
    }
    Ok(())
}

/// The one scenario source among `(label, name, value)`, read; more than one is refused.
fn one_source(
    mut sources: Vec<(String, &str, &str)>,
) -> Result<Option<ScenarioSource>, EmbedError> {
    if sources.len() > 1 {
        let names: Vec<&str> = sources.iter().map(|(l, _, _)| l.as_str()).collect();
        let (label, _, value) = &sources[0];
        return Err(EmbedError::new(
            label,
            value,
            format!(
                "give only one scenario source, but found {} ({})",
                sources.len(),
                names.join(", ")
            ),
        ));
    }
    let Some((label, name, value)) = sources.pop() else {
        return Ok(None);
    };
    Ok(Some(match name {
        "scenario" => ScenarioSource::parse_attr(&label, value)?,
        "src" => ScenarioSource::parse_url(&label, value)?,
        "inline" => ScenarioSource::parse_inline(&label, value)?,
        _ => ScenarioSource::parse_packed(&label, value)?,
    }))
}

fn boolean(v: &str) -> Result<bool, String> {
    match v {
        "" | "true" | "yes" | "on" | "1" => Ok(true),
        "false" | "no" | "off" | "0" => Ok(false),
        _ => Err("expected true or false".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(p: &[(&str, &str)]) -> Vec<(String, String)> {
        p.iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    }

    fn embed(p: &[(&str, &str)]) -> Result<Options, EmbedError> {
        parse(Context::Embed, Origin::Attribute, &pairs(p), None)
    }

    #[test]
    fn defaults_depend_on_the_context() {
        let s = parse(Context::Standalone, Origin::Url, &[], None).unwrap();
        assert!(s.menu);
        assert_eq!(s.theme, Theme::Auto);
        assert_eq!(s.source, ScenarioSource::default());
        let e = embed(&[]).unwrap();
        assert!(!e.menu);
        assert_eq!(e.panels, None);
        assert_eq!(e.mode, None);
        assert_eq!(e.seed, None);
    }

    #[test]
    fn embed_theme_follows_the_host_declaration() {
        let t = |scheme| {
            parse(Context::Embed, Origin::Attribute, &[], Some(scheme))
                .unwrap()
                .theme
        };
        assert_eq!(t("light"), Theme::Light);
        assert_eq!(t("only light"), Theme::Light);
        assert_eq!(t("dark"), Theme::Dark);
        assert_eq!(t("light dark"), Theme::Auto);
        assert_eq!(t("normal"), Theme::Auto);
        // An explicit theme wins.
        let o = parse(
            Context::Embed,
            Origin::Attribute,
            &pairs(&[("theme", "dark")]),
            Some("light"),
        )
        .unwrap();
        assert_eq!(o.theme, Theme::Dark);
    }

    #[test]
    fn every_option() {
        let o = embed(&[
            ("scenario", "future-pins-retention"),
            ("panels", "partition, lookup log"),
            ("menu", ""),
            ("theme", "light"),
            ("mode", "drill"),
            ("seed", "42"),
            ("step", "3"),
            ("lookup", "now-1h"),
            ("page", "https://example.com/logtime/"),
        ])
        .unwrap();
        assert_eq!(
            o.source,
            ScenarioSource::Builtin("future-pins-retention".into())
        );
        let panels = o.panels.unwrap();
        assert!(
            panels.has(Panel::Partition) && panels.has(Panel::Lookup) && panels.has(Panel::Log)
        );
        assert!(!panels.has(Panel::Config));
        assert_eq!(panels.names(), "partition lookup log");
        assert!(o.menu);
        assert_eq!(o.step, Some(3));
        assert_eq!(o.mode, Some(Mode::Drill));
        assert_eq!(o.seed, Some(42));
        for m in ["explorer", "walkthrough", "drill", "presenter"] {
            assert_eq!(embed(&[("mode", m)]).unwrap().mode.map(Mode::name), Some(m));
        }
        assert_eq!(
            o.lookup,
            Some(LookupTarget::Time(logtime_core::scenario::TimeSpec::Now(
                -3_600_000
            )))
        );
        assert_eq!(
            embed(&[("panels", "all")]).unwrap().panels,
            Some(Panels::ALL)
        );
        assert!(!embed(&[("menu", "false")]).unwrap().menu);
        assert_eq!(
            embed(&[("lookup", "max-timestamp")]).unwrap().lookup,
            Some(LookupTarget::Special(
                logtime_model::OffsetSpec::MaxTimestamp
            ))
        );
        assert_eq!(
            embed(&[("moment", "1~s3")]).unwrap().moment.as_deref(),
            Some("1~s3")
        );
        // load and poster are the loader's; the explorer accepts them as they are.
        for load in LOAD_VALUES {
            assert!(embed(&[("load", load), ("poster", "posters/a.svg")]).is_ok());
        }
    }

    #[test]
    fn errors_name_the_option_and_the_reason() {
        let e = |p: &[(&str, &str)]| embed(p).unwrap_err().to_string();
        assert_eq!(
            e(&[("panels", "partition charts")]),
            "invalid `panels` value \"partition charts\": unknown panel \"charts\" (expected names from: partition, lookup, retention, log, producer, config, chart, disk, import, or all)"
        );
        assert_eq!(
            e(&[("panels", " ")]),
            "invalid `panels` value \" \": name at least one panel"
        );
        assert_eq!(
            e(&[("theme", "sepia")]),
            "invalid `theme` value \"sepia\": expected light, dark or auto"
        );
        assert_eq!(
            e(&[("mode", "quiz")]),
            "invalid `mode` value \"quiz\": unknown mode (expected one of: explorer, walkthrough, drill, presenter, author)"
        );
        assert_eq!(
            e(&[("seed", "-3")]),
            "invalid `seed` value \"-3\": expected a whole number from 0 to 18446744073709551615"
        );
        assert_eq!(
            e(&[("assign", "abc")]),
            "invalid `assign` value \"abc\": expected the lesson's fingerprint: 16 hex digits, as the class page writes it"
        );
        assert_eq!(
            e(&[("step", "-1")]),
            "invalid `step` value \"-1\": expected a whole number of steps (0 for the start)"
        );
        assert!(e(&[("lookup", "yesterday")])
            .starts_with("invalid `lookup` value \"yesterday\": malformed time"));
        assert_eq!(
            e(&[("menu", "maybe")]),
            "invalid `menu` value \"maybe\": expected true or false"
        );
        assert_eq!(
            e(&[("scenario", "x"), ("src", "a.json")]),
            "invalid `scenario` value \"x\": give only one scenario source, but found 2 (scenario, src)"
        );
        assert!(
            e(&[("moment", "1~s"), ("step", "2")]).contains("give either moment or step/lookup")
        );
        assert!(e(&[("page", "javascript:alert(1)")]).contains("not allowed"));
        assert_eq!(
            e(&[("load", "lazy")]),
            "invalid `load` value \"lazy\": expected visible, click or eager"
        );
        assert!(e(&[("poster", "javascript:alert(1)")]).contains("not allowed"));
        assert!(e(&[("pannels", "log")]).starts_with(
            "invalid `pannels` value \"log\": unknown option (expected one of: scenario, src,"
        ));
        // URL parameters are named with their `?`, and unknown ones (utm_source…) are ignored.
        let url = |p: &[(&str, &str)]| parse(Context::Standalone, Origin::Url, &pairs(p), None);
        assert!(url(&[("utm_source", "x"), ("scenario", "landing")]).is_ok());
        assert_eq!(
            url(&[("step", "x")]).unwrap_err().to_string(),
            "invalid `?step` value \"x\": expected a whole number of steps (0 for the start)"
        );
        assert!(url(&[("step", "1"), ("step", "2")])
            .unwrap_err()
            .to_string()
            .contains("given twice"));
    }

    #[test]
    fn default_embed_panels_follow_the_scenario() {
        let sc = |name| {
            logtime_core::scenario::parse(&crate::builtins::find(name).unwrap().read()).unwrap()
        };
        let p = default_embed_panels(&sc("lookup-scan"));
        assert!(p.has(Panel::Lookup) && p.has(Panel::Partition) && p.has(Panel::Log));
        assert!(!p.has(Panel::Config) && !p.has(Panel::Chart));
        let p = default_embed_panels(&sc("future-pins-retention"));
        assert!(p.has(Panel::Retention));
        assert!(default_embed_panels(&sc("nanoseconds-4x")).has(Panel::Producer));
    }
}
