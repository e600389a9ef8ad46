//! A picked variant: its values, and putting them into the lesson's JSON (whole values,
//! fields of a choice, and `${name}` inside text), bounded in the bytes it may add.

use super::{is_name, Variant, VariantKind};
use logtime_core::human::{date, duration, rfc3339};
use logtime_core::scenario::time::{parse_duration, parse_time};
use logtime_core::scenario::{ScenarioError, TimeSpec};
use serde_json::Value;

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
