//! Helpers shared by the import tests.

use serde_json::Value;

/// `[[a, b], ...]` of `report.json` as pairs (index entries).
pub(crate) fn pairs(v: &Value) -> Vec<(i64, i64)> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|p| (p[0].as_i64().unwrap(), p[1].as_i64().unwrap()))
        .collect()
}
