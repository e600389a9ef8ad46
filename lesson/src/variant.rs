//! Variants: a lesson declares ranges and choices (`"variants"`), a seed picks one value of each,
//! and the values are put into the file before it is parsed, so every answer is recomputed from
//! the model for the numbers a learner actually gets.
//!
//! ```json
//! "variants": {
//!   "retention": {"from": "5d", "to": "7d", "step": "1d", "default": "7d"},
//!   "bad_offset": {"from": 20000, "to": 20090, "step": 10},
//!   "clock": {"from": "2027-03-12T09:00:00Z", "to": "2027-03-12T12:00:00Z", "step": "1h"},
//!   "case": {"choices": [{"label": "...", "stamp": "2030-03-14T11:20:00Z"}, {"label": "...", "stamp": "now"}]}
//! }
//! ```
//!
//! A range of JSON numbers is an integer variable; of durations, a duration (in ms); of RFC 3339
//! times, a time (in ms). A string that is exactly `"$name"` (or `"$name.field"` for a choice that
//! is an object) becomes the value itself, a number for ranges; `${name}` inside a longer string
//! is replaced by its text, and `${name:date}`, `${name:duration}`, `${name:rfc3339}` format a
//! time or duration for people.
//!
//! Determinism: the variables are ordered by name; the variant with index `k` takes digit `k mod
//! n₀` of the first variable, `(k / n₀) mod n₁` of the second, and so on; a seed picks the index
//! `SplitMix64(seed) mod total`. No clock and no unseeded randomness: the same seed gives the same
//! numbers on every machine, natively and in wasm.

use logtime_core::human::{date, duration, rfc3339};
use logtime_core::scenario::time::{parse_duration, parse_time};
use logtime_core::scenario::{ScenarioError, TimeSpec};
use logtime_model::rng::SplitMix64;
use serde_json::{Map, Value};

/// What kind of value a variable holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VariantKind {
    /// An integer (a range of JSON numbers).
    Integer,
    /// A duration in ms (a range of durations such as `"5d"`).
    Duration,
    /// An instant in ms (a range of RFC 3339 times).
    Time,
    /// One of a list of JSON values.
    Choice,
}

#[derive(Clone, Debug, PartialEq)]
enum Values {
    Range { from: i64, step: i64, count: u64 },
    Choices(Vec<Value>),
}

/// One declared variable.
#[derive(Clone, Debug, PartialEq)]
pub struct Variable {
    name: String,
    kind: VariantKind,
    values: Values,
    default: u64,
}

impl Variable {
    /// Its name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Its kind.
    pub fn kind(&self) -> VariantKind {
        self.kind
    }

    /// How many values it can take.
    pub fn count(&self) -> u64 {
        match &self.values {
            Values::Range { count, .. } => *count,
            Values::Choices(c) => c.len() as u64,
        }
    }

    fn value(&self, k: u64) -> Value {
        match &self.values {
            Values::Range { from, step, .. } => {
                Value::from((*from as i128 + k as i128 * *step as i128) as i64)
            }
            Values::Choices(c) => c[k as usize].clone(),
        }
    }
}

/// The variables a lesson declares, ordered by name.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Variants {
    vars: Vec<Variable>,
}

/// Which variant to build.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pick {
    /// Every variable at its `default` (the numbers the lesson was written with).
    Default,
    /// The variant a seed picks.
    Seed(u64),
    /// The variant with this index (from 0 to [`Variants::count`] − 1), for enumerating them all.
    Index(u64),
}

/// One picked value of each variable.
#[derive(Clone, Debug, PartialEq)]
pub struct Variant {
    /// How it was picked.
    pub pick: Pick,
    /// Its index among all variants.
    pub index: u64,
    values: Vec<(String, VariantKind, Value)>,
    /// Bytes of text its values added to the lesson (0 until substituted).
    added: u64,
}

/// The most values one variable may take.
pub const MAX_VALUES: u64 = 1_000_000;

fn is_name(s: &str) -> bool {
    let mut c = s.chars();
    c.next().is_some_and(|f| f.is_ascii_lowercase() || f == '_')
        && c.all(|ch| ch.is_ascii_lowercase() || ch.is_ascii_digit() || ch == '_')
}

fn verr(field: String, reason: impl Into<String>) -> ScenarioError {
    ScenarioError {
        step: None,
        field,
        reason: reason.into(),
        line_column: None,
    }
}

/// A range bound in ms, and the kind it implies.
fn bound(v: &Value) -> Result<(i64, VariantKind), String> {
    match v {
        Value::Number(n) => n
            .as_i64()
            .map(|n| (n, VariantKind::Integer))
            .ok_or_else(|| format!("{n} is not a 64-bit integer")),
        Value::String(s) => {
            if let Ok(d) = parse_duration(s) {
                return Ok((d, VariantKind::Duration));
            }
            match parse_time(s) {
                Ok(TimeSpec::Absolute(t)) => Ok((t, VariantKind::Time)),
                _ => Err(format!(
                    "expected a number, a duration (\"5d\") or an RFC 3339 time, got {s:?}"
                )),
            }
        }
        _ => Err("expected a number, a duration (\"5d\") or an RFC 3339 time".into()),
    }
}

impl Variants {
    /// Parses the `variants` object.
    pub fn parse(v: &Value) -> Result<Variants, ScenarioError> {
        let Value::Object(m) = v else {
            return Err(verr(
                "variants".into(),
                "expected an object of variable names to ranges or choices",
            ));
        };
        let mut vars = Vec::with_capacity(m.len());
        let mut names: Vec<&String> = m.keys().collect();
        names.sort();
        for name in names {
            let field = |k: &str| format!("variants.{name}{k}");
            if !is_name(name) {
                return Err(verr(
                    field(""),
                    "a variable name is lowercase letters, digits and _, starting with a letter or _",
                ));
            }
            let Value::Object(d) = &m[name] else {
                return Err(verr(
                    field(""),
                    "expected {\"from\", \"to\", \"step\", \"default\"} or {\"choices\": [...]}",
                ));
            };
            vars.push(if d.contains_key("choices") {
                choices(d, &field)?
            } else {
                range(name, d, &field)?
            });
        }
        Ok(Variants { vars })
    }

    /// The variables, ordered by name.
    pub fn variables(&self) -> &[Variable] {
        &self.vars
    }

    /// How many variants there are (1 without variables; saturates at `u64::MAX`).
    pub fn count(&self) -> u64 {
        self.vars
            .iter()
            .fold(1u64, |acc, v| acc.saturating_mul(v.count()))
    }

    /// The variant `pick` names.
    pub fn pick(&self, pick: Pick) -> Variant {
        let total = self.count();
        let digits: Vec<u64> = match pick {
            Pick::Default => self.vars.iter().map(|v| v.default).collect(),
            Pick::Seed(_) | Pick::Index(_) => {
                let mut rest = match pick {
                    Pick::Seed(s) => SplitMix64::new(s).next_u64() % total,
                    Pick::Index(k) => k % total,
                    Pick::Default => unreachable!("handled above"),
                };
                self.vars
                    .iter()
                    .map(|v| {
                        let d = rest % v.count();
                        rest /= v.count();
                        d
                    })
                    .collect()
            }
        };
        let mut index = 0u64;
        for (v, d) in self.vars.iter().zip(&digits).rev() {
            index = index.saturating_mul(v.count()).saturating_add(*d);
        }
        Variant {
            pick,
            index,
            added: 0,
            values: self
                .vars
                .iter()
                .zip(digits)
                .map(|(v, d)| (v.name.clone(), v.kind, v.value(d)))
                .collect(),
        }
    }
}

fn range(
    name: &str,
    d: &Map<String, Value>,
    field: &dyn Fn(&str) -> String,
) -> Result<Variable, ScenarioError> {
    for k in d.keys() {
        if !["from", "to", "step", "default"].contains(&k.as_str()) {
            return Err(verr(
                field(&format!(".{k}")),
                "unknown key (expected: from, to, step, default; or choices)",
            ));
        }
    }
    let get = |k: &str| -> Result<(i64, VariantKind), ScenarioError> {
        let v = d
            .get(k)
            .ok_or_else(|| verr(field(&format!(".{k}")), "missing"))?;
        bound(v).map_err(|r| verr(field(&format!(".{k}")), r))
    };
    let (from, kind) = get("from")?;
    let (to, kind_to) = get("to")?;
    if kind_to != kind {
        return Err(verr(
            field(".to"),
            "must be the same kind of value as from (a number, a duration or a time)",
        ));
    }
    if to < from {
        return Err(verr(field(".to"), "is before from"));
    }
    let step = match d.get("step") {
        None if kind == VariantKind::Integer => 1,
        None => {
            return Err(verr(
                field(".step"),
                "missing: a duration between values, like \"1d\"",
            ))
        }
        Some(Value::Number(n)) if kind == VariantKind::Integer => n.as_i64().unwrap_or(0),
        Some(Value::String(s)) if kind != VariantKind::Integer => {
            parse_duration(s).map_err(|r| verr(field(".step"), r))?
        }
        Some(_) => {
            return Err(verr(
                field(".step"),
                if kind == VariantKind::Integer {
                    "expected a positive integer"
                } else {
                    "expected a duration, like \"1d\""
                },
            ))
        }
    };
    if step <= 0 {
        return Err(verr(field(".step"), "must be positive"));
    }
    let count = ((to as i128 - from as i128) / step as i128 + 1) as u128;
    if count > MAX_VALUES as u128 {
        return Err(verr(
            field(".step"),
            format!("{name} would take {count} values; a variable may take at most {MAX_VALUES}"),
        ));
    }
    let count = count as u64;
    let default = match d.get("default") {
        None => 0,
        Some(v) => {
            let (x, k) = bound(v).map_err(|r| verr(field(".default"), r))?;
            let off = x as i128 - from as i128;
            if k != kind
                || off < 0
                || off % step as i128 != 0
                || (off / step as i128) as u128 >= count as u128
            {
                return Err(verr(
                    field(".default"),
                    "must be one of the range's values (from, from + step, ... up to to)",
                ));
            }
            (off / step as i128) as u64
        }
    };
    Ok(Variable {
        name: name.to_string(),
        kind,
        values: Values::Range { from, step, count },
        default,
    })
}

fn choices(
    d: &Map<String, Value>,
    field: &dyn Fn(&str) -> String,
) -> Result<Variable, ScenarioError> {
    if let Some(k) = d.keys().find(|k| k.as_str() != "choices") {
        return Err(verr(
            field(&format!(".{k}")),
            "unknown key beside choices (the first choice is the default)",
        ));
    }
    let Some(Value::Array(c)) = d.get("choices") else {
        return Err(verr(field(".choices"), "expected an array of values"));
    };
    if c.is_empty() {
        return Err(verr(field(".choices"), "expected at least one value"));
    }
    if c.len() as u64 > MAX_VALUES {
        return Err(verr(
            field(".choices"),
            format!("at most {MAX_VALUES} values"),
        ));
    }
    // Objects are records of correlated values: every one must have the same fields.
    if let Value::Object(first) = &c[0] {
        let keys: Vec<&String> = first.keys().collect();
        for (i, v) in c.iter().enumerate().skip(1) {
            let same = matches!(v, Value::Object(o) if o.keys().collect::<Vec<_>>() == keys);
            if !same {
                return Err(verr(
                    field(&format!(".choices[{i}]")),
                    format!(
                        "every choice must be an object with the fields of the first ({})",
                        keys.iter()
                            .map(|k| k.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                ));
            }
        }
    }
    let name = field("");
    Ok(Variable {
        name: name.trim_start_matches("variants.").to_string(),
        kind: VariantKind::Choice,
        values: Values::Choices(c.clone()),
        default: 0,
    })
}

/// A reference to a variable: `name`, `name.field`, with an optional `:format`.
struct Ref<'a> {
    name: &'a str,
    field: Option<&'a str>,
    format: Option<&'a str>,
}

fn parse_ref(s: &str) -> Option<Ref<'_>> {
    let (body, format) = match s.split_once(':') {
        Some((b, f)) => (b, Some(f)),
        None => (s, None),
    };
    let (name, field) = match body.split_once('.') {
        Some((n, f)) => (n, Some(f)),
        None => (body, None),
    };
    (is_name(name) && field.is_none_or(is_name)).then_some(Ref {
        name,
        field,
        format,
    })
}

impl Variant {
    /// The picked values, ordered by variable name.
    pub fn values(&self) -> impl Iterator<Item = (&str, VariantKind, &Value)> {
        self.values.iter().map(|(n, k, v)| (n.as_str(), *k, v))
    }

    /// The value of a variable.
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.values
            .iter()
            .find(|(n, _, _)| n == name)
            .map(|(_, _, v)| v)
    }

    /// For people: `retention = 5 d, clock = 12 Mar 2027 10:00` (a choice that is an object
    /// shows its `label` field when it has one); empty without variables.
    pub fn label(&self) -> String {
        self.values
            .iter()
            .map(|(n, k, v)| format!("{n} = {}", display(*k, v)))
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn lookup(&self, r: &Ref<'_>) -> Result<(VariantKind, Value), String> {
        let (_, kind, v) = self
            .values
            .iter()
            .find(|(n, _, _)| n == r.name)
            .ok_or_else(|| format!("unknown variable {:?}", r.name))?;
        match r.field {
            None => Ok((*kind, v.clone())),
            Some(f) => match v {
                Value::Object(o) => o
                    .get(f)
                    .map(|x| (VariantKind::Choice, x.clone()))
                    .ok_or_else(|| format!("variable {} has no field {f:?}", r.name)),
                _ => Err(format!(
                    "variable {} is not an object: it has no field {f:?}",
                    r.name
                )),
            },
        }
    }

    fn text(&self, r: &Ref<'_>) -> Result<String, String> {
        let (_, v) = self.lookup(r)?;
        // A format reads a number of ms, or a string in the time or duration grammar.
        let ms = |as_time: bool| -> Result<i64, String> {
            match &v {
                Value::Number(n) => n
                    .as_i64()
                    .ok_or_else(|| format!("{n} is not a 64-bit integer")),
                Value::String(s) if as_time => match parse_time(s) {
                    Ok(TimeSpec::Absolute(t)) => Ok(t),
                    _ => Err(format!(
                        "{} is not an absolute time, so it has no time format",
                        r.name
                    )),
                },
                Value::String(s) => parse_duration(s).map_err(|_| {
                    format!(
                        "{} is not a duration, so it has no :duration format",
                        r.name
                    )
                }),
                _ => Err(format!(
                    "{} is not a number of ms, so it has no format",
                    r.name
                )),
            }
        };
        match r.format {
            None => match &v {
                Value::String(s) => Ok(s.clone()),
                Value::Number(n) => Ok(n.to_string()),
                Value::Bool(b) => Ok(b.to_string()),
                _ => Err(format!(
                    "{} is an object or a list; name one of its fields (${{{}.field}})",
                    r.name, r.name
                )),
            },
            Some("date") => ms(true).map(date),
            Some("rfc3339") => ms(true).map(rfc3339),
            Some("duration") => ms(false).map(duration),
            Some(f) => Err(format!(
                "unknown format :{f} (expected :date, :rfc3339 or :duration)"
            )),
        }
    }

    /// Puts the picked values into a lesson's JSON, everywhere but the `variants` object itself.
    ///
    /// The text the values add is bounded by [`MAX_SUBSTITUTED_BYTES`]: a small file can
    /// reference a large choice many times, and without the bound the lesson it stands for could
    /// take gigabytes (and stop every explorer on the page) before anything else is checked.
    pub(crate) fn substitute(&mut self, root: &mut Value) -> Result<(), ScenarioError> {
        let declared: Vec<&str> = self.values.iter().map(|(n, _, _)| n.as_str()).collect();
        let mut path = Vec::new();
        let mut added = 0u64;
        if let Value::Object(m) = root {
            for (k, v) in m.iter_mut() {
                if k == "variants" {
                    continue;
                }
                path.push(Seg::Key(k.clone()));
                self.walk(v, &mut path, &declared, &mut added)?;
                path.pop();
            }
        }
        self.added = added;
        Ok(())
    }

    /// Bytes of text the values added when they were put into the lesson.
    pub fn added_bytes(&self) -> u64 {
        self.added
    }

    fn walk(
        &self,
        v: &mut Value,
        path: &mut Vec<Seg>,
        declared: &[&str],
        added: &mut u64,
    ) -> Result<(), ScenarioError> {
        match v {
            Value::String(s) => {
                if let Some(r) = s.strip_prefix('$').and_then(parse_ref) {
                    if r.format.is_none() {
                        let value = self.lookup(&r).map_err(|e| located(path, e))?.1;
                        spend(added, json_len(&value)).map_err(|e| located(path, e))?;
                        *v = value;
                        return Ok(());
                    }
                }
                if s.contains('$') {
                    *s = self
                        .interpolate(s, declared, added)
                        .map_err(|e| located(path, e))?;
                }
            }
            Value::Array(a) => {
                for (i, x) in a.iter_mut().enumerate() {
                    path.push(Seg::Index(i));
                    self.walk(x, path, declared, added)?;
                    path.pop();
                }
            }
            Value::Object(m) => {
                for (k, x) in m.iter_mut() {
                    path.push(Seg::Key(k.clone()));
                    self.walk(x, path, declared, added)?;
                    path.pop();
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn interpolate(&self, s: &str, declared: &[&str], added: &mut u64) -> Result<String, String> {
        let mut out = String::with_capacity(s.len());
        let mut rest = s;
        while let Some(i) = rest.find('$') {
            let escaped = rest[..i].ends_with('\\');
            out.push_str(&rest[..i]);
            let after = &rest[i + 1..];
            if escaped {
                out.push('$');
                rest = after;
                continue;
            }
            if let Some(body) = after.strip_prefix('{') {
                let end = body
                    .find('}')
                    .ok_or_else(|| "${ is not closed by }".to_string())?;
                let r = parse_ref(&body[..end])
                    .ok_or_else(|| format!("malformed variable reference ${{{}}}", &body[..end]))?;
                let text = self.text(&r)?;
                spend(added, text.len() as u64)?;
                out.push_str(&text);
                rest = &body[end + 1..];
            } else {
                let word: String = after
                    .chars()
                    .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_')
                    .collect();
                if declared.contains(&word.as_str()) {
                    return Err(format!(
                        "write ${{{word}}} to put a variable inside text (or \\$ for a literal $)"
                    ));
                }
                out.push('$');
                rest = after;
            }
        }
        out.push_str(rest);
        Ok(out)
    }
}

/// The most bytes of text the picked values may add to a lesson in all (16 MiB, the size of the
/// largest scenario file): the lesson a variant stands for is never larger than twice the
/// largest file.
pub const MAX_SUBSTITUTED_BYTES: u64 = logtime_core::scenario::MAX_SCENARIO_BYTES;

/// Counts `bytes` more of substituted text, refusing past [`MAX_SUBSTITUTED_BYTES`].
fn spend(added: &mut u64, bytes: u64) -> Result<(), String> {
    *added = added.saturating_add(bytes);
    if *added > MAX_SUBSTITUTED_BYTES {
        return Err(format!(
            "the variables put in by here add more than {MAX_SUBSTITUTED_BYTES} bytes ({} MiB) of text, the most a lesson's variables may add (reference large values fewer times)",
            MAX_SUBSTITUTED_BYTES >> 20
        ));
    }
    Ok(())
}

/// The length of `v` as compact JSON, without building the text.
fn json_len(v: &Value) -> u64 {
    struct Count(u64);
    impl std::io::Write for Count {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0 += b.len() as u64;
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut c = Count(0);
    // Writing to a counter cannot fail.
    let _ = serde_json::to_writer(&mut c, v);
    c.0
}

fn display(kind: VariantKind, v: &Value) -> String {
    match (kind, v.as_i64()) {
        (VariantKind::Duration, Some(ms)) => duration(ms),
        (VariantKind::Time, Some(ms)) => date(ms),
        _ => match v {
            Value::Object(o) => match o.get("label") {
                Some(Value::String(l)) => l.clone(),
                _ => v.to_string(),
            },
            Value::String(s) => s.clone(),
            other => other.to_string(),
        },
    }
}

/// One step of a JSON path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Seg {
    /// An object key.
    Key(String),
    /// An array index.
    Index(usize),
}

/// Names a JSON path the way scenario errors do: `steps[3].produce.records[0].timestamp` becomes
/// step 3, field `produce.records[0].timestamp`.
pub(crate) fn located(path: &[Seg], reason: String) -> ScenarioError {
    let (step, rest) = match path {
        [Seg::Key(k), Seg::Index(i), rest @ ..] if k == "steps" => (Some(*i), rest),
        _ => (None, path),
    };
    let mut field = String::new();
    for s in rest {
        match s {
            Seg::Key(k) => {
                if !field.is_empty() {
                    field.push('.');
                }
                field.push_str(k);
            }
            Seg::Index(i) => field.push_str(&format!("[{i}]")),
        }
    }
    ScenarioError {
        step,
        field,
        reason,
        line_column: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn vars() -> Variants {
        Variants::parse(&json!({
            "retention": {"from": "5d", "to": "7d", "step": "1d", "default": "7d"},
            "bad": {"from": 20000, "to": 20090, "step": 10},
            "clock": {"from": "2027-03-12T09:00:00Z", "to": "2027-03-12T11:00:00Z", "step": "1h"},
            "case": {"choices": [{"label": "two", "stamp": "now+3y"}, {"label": "one", "stamp": "now+1y"}]}
        }))
        .unwrap()
    }

    #[test]
    fn ranges_and_choices_count_and_default() {
        let v = vars();
        assert_eq!(v.count(), 3 * 10 * 3 * 2);
        let names: Vec<&str> = v.variables().iter().map(Variable::name).collect();
        assert_eq!(names, ["bad", "case", "clock", "retention"]);
        let d = v.pick(Pick::Default);
        assert_eq!(d.get("retention"), Some(&json!(7 * 86_400_000)));
        assert_eq!(d.get("bad"), Some(&json!(20000)));
        assert_eq!(d.get("clock"), Some(&json!(1_804_842_000_000i64)));
        assert_eq!(
            d.label(),
            "bad = 20000, case = two, clock = 12 Mar 2027 09:00, retention = 7 d"
        );
        assert_eq!(
            v.pick(Pick::Index(d.index)),
            Variant {
                pick: Pick::Index(d.index),
                ..d
            }
        );
    }

    #[test]
    fn same_seed_same_numbers_and_seeds_differ() {
        let v = vars();
        assert_eq!(v.pick(Pick::Seed(42)).values, v.pick(Pick::Seed(42)).values);
        let distinct: std::collections::BTreeSet<u64> =
            (0..20).map(|s| v.pick(Pick::Seed(s)).index).collect();
        assert!(distinct.len() > 10, "{distinct:?}");
        let all: std::collections::BTreeSet<String> = (0..v.count())
            .map(|k| v.pick(Pick::Index(k)).label())
            .collect();
        assert_eq!(
            all.len() as u64,
            v.count(),
            "every index is a different variant"
        );
    }

    #[test]
    fn substitution_whole_values_fields_and_text() {
        let mut v = vars().pick(Pick::Default);
        let mut doc = json!({
            "variants": {"x": "$bad"},
            "steps": [
                {"produce": {"records": [{"timestamp": "$case.stamp"}]}},
                {"note": "offset ${bad} at ${clock:date}, kept ${retention:duration}; costs $5, \\${bad}"},
                {"delete_records": {"offset": "$bad"}}
            ]
        });
        v.substitute(&mut doc).unwrap();
        assert_eq!(
            doc["variants"]["x"],
            json!("$bad"),
            "declarations are left alone"
        );
        assert_eq!(
            doc["steps"][0]["produce"]["records"][0]["timestamp"],
            json!("now+3y")
        );
        assert_eq!(
            doc["steps"][1]["note"],
            json!("offset 20000 at 12 Mar 2027 09:00, kept 7 d; costs $5, \\${bad}")
        );
        assert_eq!(doc["steps"][2]["delete_records"]["offset"], json!(20000));
    }

    #[test]
    fn errors_name_the_field() {
        let mut v = vars().pick(Pick::Default);
        let mut e = |doc: Value| {
            let mut d = doc;
            v.substitute(&mut d).unwrap_err().to_string()
        };
        assert_eq!(
            e(json!({"steps": [{"advance": "$nope"}]})),
            "step 0: advance: unknown variable \"nope\""
        );
        assert_eq!(
            e(json!({"steps": [{"note": "at $bad"}]})),
            "step 0: note: write ${bad} to put a variable inside text (or \\$ for a literal $)"
        );
        assert_eq!(
            e(json!({"lesson": {"summary": "${case}"}})),
            "lesson.summary: case is an object or a list; name one of its fields (${case.field})"
        );
        assert_eq!(
            e(json!({"steps": [{"note": "${bad:when}"}]})),
            "step 0: note: unknown format :when (expected :date, :rfc3339 or :duration)"
        );
        let p = |doc: Value| Variants::parse(&doc).unwrap_err().to_string();
        assert_eq!(
            p(json!({"r": {"from": "5d", "to": "2027-03-12T09:00:00Z", "step": "1d"}})),
            "variants.r.to: must be the same kind of value as from (a number, a duration or a time)"
        );
        assert_eq!(
            p(json!({"r": {"from": "5d", "to": "7d", "step": "1d", "default": "6h"}})),
            "variants.r.default: must be one of the range's values (from, from + step, ... up to to)"
        );
        assert_eq!(
            p(json!({"r": {"from": 0, "to": 10000000}})),
            "variants.r.step: r would take 10000001 values; a variable may take at most 1000000"
        );
        assert_eq!(
            p(json!({"c": {"choices": [{"a": 1}, {"b": 2}]}})),
            "variants.c.choices[1]: every choice must be an object with the fields of the first (a)"
        );
        assert_eq!(
            p(json!({"Bad": {"choices": [1]}})),
            "variants.Bad: a variable name is lowercase letters, digits and _, starting with a letter or _"
        );
        assert_eq!(p(json!({"r": {"to": 3}})), "variants.r.from: missing");
    }
}
