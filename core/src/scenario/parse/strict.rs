//! JSON text to a [`Value`] that refuses an object with the same key twice.
//!
//! `serde_json` keeps the last of two equal keys, so a second `"steps": []` would silently drop
//! every step written before it; a scenario or lesson says what it means once or is refused,
//! with the key named (and, through `serde_json`, the line and column).

use serde::de::{DeserializeSeed, Deserializer, Error, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};
use std::fmt;

/// Parses `json` as [`serde_json::from_str`] does, but an object that repeats a key is an error
/// naming the key.
pub fn from_str(json: &str) -> serde_json::Result<Value> {
    let mut de = serde_json::Deserializer::from_str(json);
    let v = Strict.deserialize(&mut de)?;
    de.end()?;
    Ok(v)
}

/// Builds one value, its objects checked for repeated keys.
struct Strict;

impl<'de> DeserializeSeed<'de> for Strict {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Strict {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E: Error>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }

    fn visit_i64<E: Error>(self, n: i64) -> Result<Value, E> {
        Ok(Value::from(n))
    }

    fn visit_u64<E: Error>(self, n: u64) -> Result<Value, E> {
        Ok(Value::from(n))
    }

    fn visit_f64<E: Error>(self, n: f64) -> Result<Value, E> {
        Ok(Number::from_f64(n).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E: Error>(self, s: &str) -> Result<Value, E> {
        Ok(Value::String(s.to_owned()))
    }

    fn visit_string<E: Error>(self, s: String) -> Result<Value, E> {
        Ok(Value::String(s))
    }

    fn visit_unit<E: Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E: Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut out = Vec::new();
        while let Some(v) = seq.next_element_seed(Strict)? {
            out.push(v);
        }
        Ok(Value::Array(out))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if out.contains_key(&key) {
                return Err(A::Error::custom(format!(
                    "duplicate key {key:?} (an object may name each key once)"
                )));
            }
            let v = map.next_value_seed(Strict)?;
            out.insert(key, v);
        }
        Ok(Value::Object(out))
    }
}

#[cfg(test)]
mod tests {
    use super::from_str;
    use serde_json::json;

    #[test]
    fn a_repeated_key_is_named() {
        let e = from_str(r#"{"steps": [{"advance": "1s"}], "steps": []}"#).unwrap_err();
        assert_eq!(
            e.to_string(),
            "duplicate key \"steps\" (an object may name each key once) at line 1 column 38"
        );
        let e = from_str(r#"{"a": {"b": 1, "b": 2}}"#).unwrap_err();
        assert!(e.to_string().starts_with("duplicate key \"b\""), "{e}");
    }

    #[test]
    fn values_read_as_serde_json_reads_them() {
        let text = r#"{"a": [1, -2, 3.5, "x", null, true, {"b": {}}], "c": 18446744073709551615}"#;
        assert_eq!(
            from_str(text).unwrap(),
            serde_json::from_str::<serde_json::Value>(text).unwrap()
        );
        assert_eq!(from_str("[]").unwrap(), json!([]));
        assert!(from_str("{} x").is_err());
    }
}
