//! The JSON value forms of scenario files: integers, times, durations and config values.

use crate::scenario::time::{parse_duration, parse_time};
use crate::scenario::TimeSpec;
use logtime_model::config::ConfigValue;
use serde_json::Value;

/// How a JSON value reads in an error message: `a string`, `an array`, ...
pub fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// A JSON number as a 64-bit integer. JSON's `-0` reads as the float `-0.0`; it is zero.
fn integer(n: &serde_json::Number) -> Result<i64, String> {
    n.as_i64()
        .or_else(|| (n.as_f64() == Some(0.0)).then_some(0))
        .ok_or_else(|| format!("{n} is not a 64-bit integer"))
}

pub(super) fn config_value(v: &Value) -> Result<ConfigValue, String> {
    match v {
        Value::String(s) => Ok(ConfigValue::Text(s.clone())),
        Value::Number(n) => integer(n).map(ConfigValue::Number),
        other => Err(format!(
            "expected a number or a string, got {}",
            kind_of(other)
        )),
    }
}

pub(super) fn int(v: &Value) -> Result<i64, String> {
    match v {
        Value::Number(n) => integer(n),
        other => Err(format!("expected an integer, got {}", kind_of(other))),
    }
}

/// A time: integer ms, RFC 3339, `now`, `now+D`, `now-D`.
pub(super) fn time_value(v: &Value) -> Result<TimeSpec, String> {
    match v {
        Value::String(s) => parse_time(s),
        Value::Number(_) => int(v).map(TimeSpec::Absolute),
        other => Err(format!(
            "expected a time (ms, RFC 3339, now, now+D or now-D), got {}",
            kind_of(other)
        )),
    }
}

/// A duration: integer ms or a string like `90s`.
pub(super) fn duration_value(v: &Value) -> Result<i64, String> {
    match v {
        Value::String(s) => parse_duration(s),
        Value::Number(_) => int(v),
        other => Err(format!(
            "expected a duration (ms or a string like 90s, 5m, 1h, 7d), got {}",
            kind_of(other)
        )),
    }
}
