//! Where an explorer's scenario comes from, as given by the embedding page.
//!
//! The host page says it through one of:
//! * `<logtime-explorer scenario="lookup-scan">` — a built-in scenario name,
//!   a URL, or inline JSON (detected from the value's shape);
//! * `<logtime-explorer src="scenarios/x.json">` — always a URL;
//! * a child `<script type="application/json">…</script>` — inline JSON;
//! * `index.html?scenario=…` / `?src=…` for the full-page app (and iframes).
//!
//! This module only classifies and checks the *shape* of the value; loading a
//! URL and interpreting the JSON is the UI's job (see `app.rs`).

use std::fmt;

/// The scenario shown when the host says nothing.
pub const DEFAULT_SCENARIO: &str = "lookup-scan";

/// Longest accepted built-in name; anything longer is surely a mistake.
const MAX_NAME_LEN: usize = 64;

/// The scenario an explorer instance should show, passed through to the UI unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScenarioSource {
    /// A scenario compiled into the app, e.g. `lookup-scan` or `million`.
    Builtin(String),
    /// A URL (absolute `http(s)://` or relative to the page) of a scenario JSON document.
    Url(String),
    /// A scenario JSON document given inline (already checked to be well-formed JSON).
    Inline(String),
    /// A scenario JSON document deflated and base64url-encoded (a moment link's `z`); unpacked
    /// by the browser when it loads.
    Packed(String),
}

impl Default for ScenarioSource {
    fn default() -> Self {
        ScenarioSource::Builtin(DEFAULT_SCENARIO.to_owned())
    }
}

impl ScenarioSource {
    /// Short kind name, used in `data-scenario-kind` attributes.
    pub fn kind(&self) -> &'static str {
        match self {
            ScenarioSource::Builtin(_) => "builtin",
            ScenarioSource::Url(_) => "url",
            ScenarioSource::Inline(_) => "inline",
            ScenarioSource::Packed(_) => "packed",
        }
    }

    /// The raw value (name, URL or JSON text).
    pub fn value(&self) -> &str {
        match self {
            ScenarioSource::Builtin(s)
            | ScenarioSource::Url(s)
            | ScenarioSource::Inline(s)
            | ScenarioSource::Packed(s) => s,
        }
    }

    /// Parses the value of a `scenario` attribute (or `?scenario=` parameter):
    /// a built-in name, a URL or inline JSON, told apart by shape.
    /// `attribute` names where the value came from, for the error message.
    pub fn parse_attr(attribute: &str, value: &str) -> Result<Self, EmbedError> {
        let v = value.trim();
        if v.is_empty() {
            return Err(EmbedError::new(attribute, value, "it is empty"));
        }
        if v.starts_with('{') || v.starts_with('[') {
            return Self::parse_inline(attribute, v);
        }
        if looks_like_url(v) {
            return Self::parse_url(attribute, v);
        }
        check_builtin_name(v).map_err(|reason| EmbedError::new(attribute, value, reason))?;
        Ok(ScenarioSource::Builtin(v.to_owned()))
    }

    /// Parses a value that must be a URL (the `src` attribute, `?src=`).
    pub fn parse_url(attribute: &str, value: &str) -> Result<Self, EmbedError> {
        let v = value.trim();
        if v.is_empty() {
            return Err(EmbedError::new(attribute, value, "it is empty"));
        }
        if v.chars().any(char::is_whitespace) {
            return Err(EmbedError::new(
                attribute,
                value,
                "a URL may not contain spaces (percent-encode them as %20)",
            ));
        }
        if let Some((scheme, _)) = v.split_once(':') {
            let is_scheme = !scheme.is_empty()
                && scheme
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
                && !scheme.contains('/');
            if is_scheme && !matches!(scheme.to_ascii_lowercase().as_str(), "http" | "https") {
                return Err(EmbedError::new(
                    attribute,
                    value,
                    format!("URL scheme `{scheme}:` is not allowed (use http:, https: or a relative path)"),
                ));
            }
        }
        Ok(ScenarioSource::Url(v.to_owned()))
    }

    /// Parses inline scenario JSON (a child `<script type="application/json">`).
    /// Only well-formedness is checked here; the UI validates the content.
    pub fn parse_inline(attribute: &str, value: &str) -> Result<Self, EmbedError> {
        let v = value.trim();
        if v.is_empty() {
            return Err(EmbedError::new(attribute, value, "it is empty"));
        }
        match serde_json::from_str::<serde_json::Value>(v) {
            Ok(serde_json::Value::Object(_)) | Ok(serde_json::Value::Array(_)) => {
                Ok(ScenarioSource::Inline(v.to_owned()))
            }
            Ok(_) => Err(EmbedError::new(
                attribute,
                value,
                "inline JSON must be an object or an array",
            )),
            Err(e) => Err(EmbedError::new(
                attribute,
                value,
                format!("inline JSON is not well-formed: {e}"),
            )),
        }
    }
}

impl ScenarioSource {
    /// Parses a packed scenario (`z`): base64url characters only, checked here; whether it
    /// unpacks to a scenario is known when it loads.
    pub fn parse_packed(attribute: &str, value: &str) -> Result<Self, EmbedError> {
        let v = value.trim();
        if v.is_empty() {
            return Err(EmbedError::new(attribute, value, "it is empty"));
        }
        if let Some(bad) = v
            .chars()
            .find(|c| !(c.is_ascii_alphanumeric() || *c == '-' || *c == '_'))
        {
            return Err(EmbedError::new(
                attribute,
                value,
                format!("character {bad:?} is not allowed in a packed scenario (base64url: letters, digits, '-', '_')"),
            ));
        }
        Ok(ScenarioSource::Packed(v.to_owned()))
    }
}

/// Why a scenario URL could not be fetched, as the browser said it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FetchFailure {
    /// The request did not complete: the browser says only "Failed to fetch".
    Network,
    /// The server answered with this HTTP status.
    Status(u16),
    /// The body could not be read as text.
    Body,
    /// The body is longer than a scenario may be (more than this many bytes).
    TooLarge(u64),
    /// The server did not send it whole within this many seconds.
    TimedOut(u32),
    /// The reader cancelled the load.
    Cancelled,
}

impl FetchFailure {
    /// What `glue.js`'s bounded fetch said (`took longer than 30 s`, `is larger than N bytes`,
    /// `was cancelled`, `HTTP 404`, `is not UTF-8 text`, `could not be fetched`).
    pub fn of_sentence(why: &str) -> FetchFailure {
        let number = |s: &str| {
            s.split(|c: char| !c.is_ascii_digit())
                .find(|w| !w.is_empty())
                .and_then(|w| w.parse::<u64>().ok())
        };
        if let Some(rest) = why.strip_prefix("HTTP ") {
            return number(rest).map_or(FetchFailure::Network, |n| {
                FetchFailure::Status(u16::try_from(n).unwrap_or(u16::MAX))
            });
        }
        if let Some(rest) = why.strip_prefix("took longer than ") {
            let s = number(rest).unwrap_or(0);
            return FetchFailure::TimedOut(u32::try_from(s).unwrap_or(u32::MAX));
        }
        if let Some(rest) = why.strip_prefix("is larger than ") {
            return FetchFailure::TooLarge(number(rest).unwrap_or(0));
        }
        match why {
            "was cancelled" => FetchFailure::Cancelled,
            "is not UTF-8 text" | "could not be read" => FetchFailure::Body,
            _ => FetchFailure::Network,
        }
    }
}

/// One sentence for people about a scenario that could not be fetched from `url` (shown as the
/// browser resolved it): what happened and the likely causes, never a JS stack.
pub fn fetch_message(url: &str, failure: &FetchFailure) -> String {
    match failure {
        FetchFailure::Network => format!(
            "Could not load the scenario from {url}: the browser could not fetch it. Likely causes: \
             it is on another site that does not allow cross-origin requests (no CORS headers), \
             the network is down, or the address is wrong."
        ),
        FetchFailure::Status(404) => format!(
            "Could not load the scenario from {url}: the server answered 404 (not found). Check the address."
        ),
        FetchFailure::Status(s) => format!(
            "Could not load the scenario from {url}: the server answered HTTP {s}. Check the address, or try again later."
        ),
        FetchFailure::Body => format!(
            "Could not load the scenario from {url}: the response could not be read as text."
        ),
        FetchFailure::TooLarge(n) => format!(
            "Could not load the scenario from {url}: it is longer than {n} bytes, more than the {} MiB \
             a scenario may be, so the explorer stopped reading it.",
            logtime_core::scenario::MAX_SCENARIO_BYTES >> 20
        ),
        FetchFailure::TimedOut(s) => format!(
            "Could not load the scenario from {url}: the server had not sent it after {s} s. \
             Try again later, or check the address."
        ),
        FetchFailure::Cancelled => format!("Loading the scenario from {url} was cancelled."),
    }
}

/// The message for a fetched document that is not a scenario: it names the URL and says
/// whether it is not JSON at all (an HTML error page, say) or a JSON file with a problem.
pub fn not_a_scenario(url: &str, error: &str) -> String {
    if error.contains("json syntax error") {
        format!("The file at {url} is not a Logtime scenario: it is not JSON ({error}).")
    } else {
        format!("The scenario at {url} has a problem: {error}")
    }
}

impl fmt::Display for ScenarioSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScenarioSource::Builtin(n) => write!(f, "built-in scenario `{n}`"),
            ScenarioSource::Url(u) => write!(f, "scenario from {u}"),
            ScenarioSource::Inline(j) => write!(f, "inline scenario ({} bytes of JSON)", j.len()),
            ScenarioSource::Packed(z) => write!(f, "packed scenario ({} characters)", z.len()),
        }
    }
}

fn looks_like_url(v: &str) -> bool {
    let lower = v.to_ascii_lowercase();
    lower.starts_with("http://")
        || lower.starts_with("https://")
        || v.starts_with('/')
        || v.starts_with("./")
        || v.starts_with("../")
        || lower.ends_with(".json")
        || v.contains(':')
        || v.contains('/')
        || v.contains('?')
}

fn check_builtin_name(v: &str) -> Result<(), String> {
    if v.len() > MAX_NAME_LEN {
        return Err(format!(
            "a built-in scenario name is at most {MAX_NAME_LEN} characters (got {})",
            v.len()
        ));
    }
    if let Some(bad) = v
        .chars()
        .find(|c| !(c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '-' || *c == '_'))
    {
        return Err(format!(
            "character {bad:?} is not allowed: expected a built-in scenario name \
             (lowercase letters, digits, '-', '_'), a URL (http(s)://…, /…, ./…, ../…, *.json) \
             or inline JSON ({{…}})"
        ));
    }
    if v.starts_with('-') || v.starts_with('_') {
        return Err("a built-in scenario name starts with a letter or digit".to_owned());
    }
    Ok(())
}

/// A bad value given by the host page, naming the attribute and the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EmbedError {
    /// Where the value came from, e.g. `scenario`, `src`, `?scenario`.
    pub attribute: String,
    /// The offending value (shortened for display).
    pub value: String,
    /// Why it was rejected.
    pub reason: String,
}

impl EmbedError {
    /// Why `value` of `attribute` was refused.
    pub fn new(attribute: &str, value: &str, reason: impl Into<String>) -> Self {
        EmbedError {
            attribute: attribute.to_owned(),
            value: value.to_owned(),
            reason: reason.into(),
        }
    }
}

impl fmt::Display for EmbedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const MAX: usize = 80;
        let shown: String = self.value.chars().take(MAX).collect();
        let ellipsis = if self.value.chars().count() > MAX {
            "…"
        } else {
            ""
        };
        write!(
            f,
            "invalid `{}` value {:?}{}: {}",
            self.attribute, shown, ellipsis, self.reason
        )
    }
}

impl std::error::Error for EmbedError {}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    #[test]
    fn builtin_names() {
        assert_eq!(
            ScenarioSource::parse_attr("scenario", "lookup-scan"),
            Ok(ScenarioSource::Builtin("lookup-scan".into()))
        );
        assert_eq!(
            ScenarioSource::parse_attr("scenario", "  million \n"),
            Ok(ScenarioSource::Builtin("million".into()))
        );
        assert_eq!(
            ScenarioSource::parse_attr("scenario", "retention_2"),
            Ok(ScenarioSource::Builtin("retention_2".into()))
        );
    }

    #[test]
    fn urls() {
        for u in [
            "https://example.com/s.json",
            "HTTP://example.com/s",
            "/scenarios/a.json",
            "./a.json",
            "../up/a.json",
            "scenarios/a.json",
            "a.json",
            "s?x=1",
        ] {
            assert_eq!(
                ScenarioSource::parse_attr("scenario", u),
                Ok(ScenarioSource::Url(u.into())),
                "{u}"
            );
        }
        assert_eq!(
            ScenarioSource::parse_url("src", "plain-name"),
            Ok(ScenarioSource::Url("plain-name".into()))
        );
    }

    #[test]
    fn inline_json() {
        let j = r#"{"partitions": []}"#;
        assert_eq!(
            ScenarioSource::parse_attr("scenario", j),
            Ok(ScenarioSource::Inline(j.into()))
        );
        assert_eq!(
            ScenarioSource::parse_inline("script", "\n [1,2]\n"),
            Ok(ScenarioSource::Inline("[1,2]".into()))
        );
    }

    #[test]
    fn errors_name_attribute_and_reason() {
        let e = ScenarioSource::parse_attr("scenario", "").unwrap_err();
        assert_eq!(e.attribute, "scenario");
        assert!(e.to_string().contains("`scenario`"), "{e}");
        assert!(e.to_string().contains("empty"), "{e}");

        let e = ScenarioSource::parse_attr("scenario", "Lookup Scan").unwrap_err();
        assert!(e.reason.contains("not allowed"), "{e}");

        let e = ScenarioSource::parse_attr("scenario", "{\"a\": ").unwrap_err();
        assert!(e.reason.contains("not well-formed"), "{e}");

        let e = ScenarioSource::parse_inline("script[type=application/json]", "42").unwrap_err();
        assert!(e.reason.contains("object or an array"), "{e}");
        assert!(
            e.to_string().contains("script[type=application/json]"),
            "{e}"
        );

        let e = ScenarioSource::parse_url("src", "javascript:alert(1)").unwrap_err();
        assert_eq!(e.attribute, "src");
        assert!(e.reason.contains("javascript:"), "{e}");

        let e = ScenarioSource::parse_url("src", "a b.json").unwrap_err();
        assert!(e.reason.contains("spaces"), "{e}");

        let e = ScenarioSource::parse_attr("scenario", "-x").unwrap_err();
        assert!(e.reason.contains("starts with"), "{e}");

        let long = "a".repeat(65);
        let e = ScenarioSource::parse_attr("scenario", &long).unwrap_err();
        assert!(e.reason.contains("at most"), "{e}");
    }

    #[test]
    fn packed_and_fetch_messages() {
        assert_eq!(
            ScenarioSource::parse_packed("?z", "q1Yq-_z"),
            Ok(ScenarioSource::Packed("q1Yq-_z".into()))
        );
        assert!(ScenarioSource::parse_packed("?z", "a+b")
            .unwrap_err()
            .reason
            .contains("'+'"));
        let m = fetch_message("https://other.example/s.json", &FetchFailure::Network);
        assert!(
            m.contains("https://other.example/s.json") && m.contains("CORS"),
            "{m}"
        );
        assert!(!m.contains("JsValue") && !m.contains('\n'));
        assert!(fetch_message("u", &FetchFailure::Status(404)).contains("404 (not found)"));
        assert!(fetch_message("u", &FetchFailure::Status(500)).contains("HTTP 500"));
        assert!(fetch_message("u", &FetchFailure::TooLarge(20_000_000))
            .contains("more than the 16 MiB"));
        assert!(fetch_message("u", &FetchFailure::TimedOut(30)).contains("after 30 s"));
        assert!(fetch_message("u", &FetchFailure::Cancelled).contains("was cancelled"));
        for (said, failure) in [
            ("took longer than 30 s", FetchFailure::TimedOut(30)),
            (
                "is larger than 16777216 bytes (600000000)",
                FetchFailure::TooLarge(16_777_216),
            ),
            (
                "is larger than 16777216 bytes",
                FetchFailure::TooLarge(16_777_216),
            ),
            ("was cancelled", FetchFailure::Cancelled),
            ("HTTP 404", FetchFailure::Status(404)),
            ("is not UTF-8 text", FetchFailure::Body),
            ("could not be fetched", FetchFailure::Network),
        ] {
            assert_eq!(FetchFailure::of_sentence(said), failure, "{said}");
        }
        assert_eq!(
            not_a_scenario("http://h/x.json", "line 1, column 1: json syntax error: expected value"),
            "The file at http://h/x.json is not a Logtime scenario: it is not JSON (line 1, column 1: json syntax error: expected value)."
        );
    }

    #[test]
    fn long_values_are_shortened_in_messages() {
        let e = EmbedError::new("scenario", &"x".repeat(500), "nope");
        assert!(e.to_string().len() < 200);
        assert!(e.to_string().contains('…'));
    }

    #[test]
    fn default_and_accessors() {
        let d = ScenarioSource::default();
        assert_eq!(d.kind(), "builtin");
        assert_eq!(d.value(), DEFAULT_SCENARIO);
        assert_eq!(ScenarioSource::Url("u".into()).kind(), "url");
        assert_eq!(ScenarioSource::Inline("{}".into()).kind(), "inline");
        assert!(d.to_string().contains(DEFAULT_SCENARIO));
    }
}
