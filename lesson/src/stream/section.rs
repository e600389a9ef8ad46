//! The `stream` section of a lesson: the downstream processor ([`crate::stream`]) that
//! questions and goals about windows and late records read the partition with.
//!
//! ```text
//! "stream": {"window": "5m", "delay": "1m", "semantics": "kafka-streams", "from": 0}
//! ```
//!
//! | key | value | default |
//! |---|---|---|
//! | `window` | the tumbling window's size, a duration | required |
//! | `delay` | Kafka Streams' grace period, Flink's out-of-orderness bound | `0` |
//! | `semantics` | `"kafka-streams"` or `"flink"` | `"kafka-streams"` |
//! | `allowed_lateness` | Flink's allowed lateness | `0` |
//! | `from` | the offset the processor starts reading at (`"earliest"`: the log start offset) | `"earliest"` |
//!
//! A question may carry its own `stream` object: its keys replace the lesson's for that question
//! only ("and with a one-hour grace?").

use crate::action::FieldError;
use crate::stream::{Semantics, StreamConfig};
use logtime_core::scenario::parse_duration;
use logtime_model::units::Offset;
use serde_json::{Map, Value};

/// The keys of a `stream` object.
pub const STREAM_KEYS: &[&str] = &["window", "delay", "semantics", "allowed_lateness", "from"];

fn duration(v: &Value) -> Result<i64, String> {
    match v {
        Value::Number(n) => n
            .as_i64()
            .ok_or_else(|| format!("{n} is not a 64-bit integer")),
        Value::String(s) => parse_duration(s),
        _ => Err("expected a duration (ms, or a string like 5m)".into()),
    }
}

/// Parses a `stream` object; with `base`, a question's override of the lesson's section (every
/// key optional). The error's field is relative to the object.
pub(crate) fn parse(v: &Value, base: Option<&StreamConfig>) -> Result<StreamConfig, FieldError> {
    let Value::Object(m) = v else {
        return Err((
            String::new(),
            "expected an object like {\"window\": \"5m\", \"delay\": \"1m\"}".into(),
        ));
    };
    if let Some(k) = m.keys().find(|k| !STREAM_KEYS.contains(&k.as_str())) {
        return Err((
            k.clone(),
            format!("unknown key (expected: {})", STREAM_KEYS.join(", ")),
        ));
    }
    let get = |k: &str, m: &Map<String, Value>| -> Result<Option<i64>, FieldError> {
        m.get(k)
            .map(|x| duration(x).map_err(|r| (k.to_string(), r)))
            .transpose()
    };
    let window = match (get("window", m)?, base) {
        (Some(w), _) => w,
        (None, Some(b)) => b.window_ms(),
        (None, None) => {
            return Err((
                "window".into(),
                "missing: the tumbling window's size, like \"5m\"".into(),
            ))
        }
    };
    let delay = get("delay", m)?.unwrap_or(base.map_or(0, |b| b.delay_ms()));
    let semantics = match m.get("semantics") {
        None => base.map_or(Semantics::KafkaStreams, |b| b.semantics()),
        Some(Value::String(s)) => Semantics::parse(s).ok_or((
            "semantics".to_string(),
            format!("unknown semantics {s:?} (expected \"kafka-streams\" or \"flink\")"),
        ))?,
        Some(_) => {
            return Err((
                "semantics".into(),
                "expected \"kafka-streams\" or \"flink\"".into(),
            ))
        }
    };
    let lateness = match get("allowed_lateness", m)? {
        Some(l) => l,
        // Kafka Streams has no lateness: switching a question to it drops the lesson's.
        None if semantics == Semantics::KafkaStreams => 0,
        None => base.map_or(0, |b| b.allowed_lateness_ms()),
    };
    let from = match m.get("from") {
        None => base.and_then(|b| b.from()),
        Some(Value::String(s)) if s == "earliest" => None,
        Some(x) => Some(Offset(x.as_i64().filter(|n| *n >= 0).ok_or((
            "from".to_string(),
            "expected an offset or \"earliest\"".to_string(),
        ))?)),
    };
    let field = |e: &crate::stream::StreamConfigError| match e {
        crate::stream::StreamConfigError::Window(_) => "window",
        crate::stream::StreamConfigError::Delay(_) => "delay",
        _ => "allowed_lateness",
    };
    StreamConfig::new(window, delay)
        .and_then(|c| c.with_semantics(semantics, lateness))
        .map(|c| c.starting_at(from))
        .map_err(|e| (field(&e).to_string(), e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_stream_section_and_a_question_override() {
        let c = parse(&json!({"window": "5m", "delay": "1m"}), None).unwrap();
        assert_eq!(
            (c.window_ms(), c.delay_ms(), c.semantics(), c.from()),
            (300_000, 60_000, Semantics::KafkaStreams, None)
        );
        let o = parse(
            &json!({"semantics": "flink", "allowed_lateness": "2m", "from": 7}),
            Some(&c),
        )
        .unwrap();
        assert_eq!(
            (
                o.window_ms(),
                o.delay_ms(),
                o.allowed_lateness_ms(),
                o.from()
            ),
            (300_000, 60_000, 120_000, Some(Offset(7)))
        );
        let back = parse(&json!({"semantics": "kafka-streams"}), Some(&o)).unwrap();
        assert_eq!(back.allowed_lateness_ms(), 0);
        let e = |v: Value| parse(&v, None).unwrap_err();
        assert_eq!(e(json!({})).0, "window");
        assert_eq!(
            e(json!({"window": "5m", "grace": "1m"})),
            (
                "grace".into(),
                "unknown key (expected: window, delay, semantics, allowed_lateness, from)".into()
            )
        );
        assert_eq!(
            e(json!({"window": "0s"})),
            (
                "window".into(),
                "window size 0 ms is not from 1 ms to 100 y".into()
            )
        );
        assert_eq!(
            e(json!({"window": "5m", "allowed_lateness": "1m"})).0,
            "allowed_lateness"
        );
        assert_eq!(
            e(json!({"window": "5m", "semantics": "spark"})).0,
            "semantics"
        );
        assert_eq!(e(json!({"window": "5m", "from": -3})).0, "from");
        assert_eq!(e(json!({"window": "5x"})).0, "window");
    }
}
