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

use logtime_core::scenario::time::{parse_duration, parse_time};
use logtime_core::scenario::{ScenarioError, TimeSpec};
use logtime_model::rng::SplitMix64;
use serde_json::{Map, Value};

mod apply;
#[cfg(test)]
mod tests;
pub use apply::MAX_SUBSTITUTED_BYTES;

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
    let step = range_step(d, kind, field)?;
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

/// A range's `step`: 1 by default for integers; a duration, required, for durations and times.
fn range_step(
    d: &Map<String, Value>,
    kind: VariantKind,
    field: &dyn Fn(&str) -> String,
) -> Result<i64, ScenarioError> {
    Ok(match d.get("step") {
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
