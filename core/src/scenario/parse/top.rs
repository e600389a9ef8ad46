//! A scenario file's top-level keys around its steps: the version preset (`kafka`), the topic
//! and broker configs, each under its own section as `LogConfig` and `KafkaConfig` split them,
//! and the broker clock at the start.

use super::value::{config_value, kind_of, time_value};
use super::{err, R, TOP_LEVEL_KEYS};
use crate::scenario::TimeSpec;
use logtime_model::config::{Config, ConfigKey, KafkaVersion};
use serde_json::{Map, Value};

/// The `kafka` key: a version preset by name, the default when absent.
pub(super) fn kafka_version(key: Option<String>) -> R<KafkaVersion> {
    Ok(match key {
        None => KafkaVersion::default(),
        Some(s) => KafkaVersion::parse(&s).ok_or_else(|| {
            err(
                None,
                "kafka",
                format!(
                    "unknown version {s:?} (expected {})",
                    KafkaVersion::keys_for_people()
                ),
            )
        })?,
    })
}

/// The scenario's top-level object, every key known.
pub(super) fn top_object(root: &Value) -> R<&Map<String, Value>> {
    let obj = match root {
        Value::Object(m) => m,
        other => {
            return Err(err(
                None,
                "",
                format!("a scenario is a JSON object, not {}", kind_of(other)),
            ))
        }
    };
    for k in obj.keys() {
        if !TOP_LEVEL_KEYS.contains(&k.as_str()) {
            return Err(err(
                None,
                k.clone(),
                format!(
                    "unknown top-level key (expected one of: {})",
                    TOP_LEVEL_KEYS.join(", ")
                ),
            ));
        }
    }
    Ok(obj)
}

/// Sets the configs of the `topic` and `broker` sections, each under its own section.
pub(super) fn set_sections(obj: &Map<String, Value>, config: &mut Config) -> R<()> {
    for (section, broker) in [("topic", false), ("broker", true)] {
        match obj.get(section) {
            None => {}
            Some(Value::Object(m)) => {
                for (name, v) in m {
                    let field = format!("{section}.{name}");
                    if let Some(key) = ConfigKey::find(name) {
                        if key.broker != broker {
                            let other = if key.broker { "broker" } else { "topic" };
                            return Err(err(
                                None,
                                field,
                                format!("{name} is a {other} config; put it under \"{other}\""),
                            ));
                        }
                    }
                    let value = config_value(v).map_err(|r| err(None, field.clone(), r))?;
                    config
                        .set(name, &value)
                        .map_err(|e| err(None, field, e.to_string()))?;
                }
            }
            Some(v) => {
                return Err(err(
                    None,
                    section,
                    format!(
                        "expected an object of config names to values, got {}",
                        kind_of(v)
                    ),
                ))
            }
        }
    }
    Ok(())
}

/// The `start` key: the broker clock at the start, absolute.
pub(super) fn start_time(obj: &Map<String, Value>) -> R<i64> {
    Ok(match obj.get("start") {
        None => {
            return Err(err(
                None,
                "start",
                "missing: the broker clock at the start (ms or RFC 3339)",
            ))
        }
        Some(v) => match time_value(v).map_err(|r| err(None, "start", r))? {
            TimeSpec::Absolute(ms) => ms,
            TimeSpec::Now(_) => {
                return Err(err(
                    None,
                    "start",
                    "must be absolute (ms or RFC 3339), not relative to now",
                ))
            }
        },
    })
}
