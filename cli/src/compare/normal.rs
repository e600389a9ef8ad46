//! Each side's step in one normal form: what both `logtime run` and the Kafka oracle (Apache
//! Kafka 4.1.1's `UnifiedLog`, `LogSegment` and `ListOffsets` code replaying the scenario)
//! report, under one name, so that the two can be compared field by field.

use serde_json::{json, Map, Value};

/// The normal forms of one step of kind `kind`, Logtime's body `l` and the oracle's `k`.
pub(super) fn normal_forms(kind: &str, l: &Value, k: &Value) -> (Value, Value) {
    match kind {
        "produce" => (logtime_produce(l), kafka_produce(k)),
        "advance" | "at" => (
            json!({"passes": logtime_passes(&l["retention"])}),
            json!({"passes": kafka_passes(&k["passes"])}),
        ),
        "retention" => (logtime_retention(l), kafka_retention(k)),
        "lookup" | "delete_records" => {
            (pick(l, FIELDS_LOOKUP_DELETE), pick(k, FIELDS_LOOKUP_DELETE))
        }
        "config" => (logtime_config(l), kafka_config(k)),
        "snapshot" => (state(l), state(k)),
        _ => (l.clone(), k.clone()),
    }
}

const FIELDS_LOOKUP_DELETE: &[&str] = &[
    "offset",
    "timestamp",
    "low_watermark",
    "error_code",
    "error_message",
];

pub(super) fn kind_and_body(step: &Value) -> (&str, &Value) {
    step.as_object()
        .and_then(|m| {
            m.iter()
                .find(|(k, _)| k.as_str() != "index" && k.as_str() != "now")
        })
        .map_or(("?", &Value::Null), |(k, v)| (k.as_str(), v))
}

/// The listed fields that are present.
fn pick(v: &Value, fields: &[&str]) -> Value {
    let mut m = Map::new();
    for f in fields {
        if let Some(x) = v.get(*f) {
            m.insert((*f).to_string(), x.clone());
        }
    }
    Value::Object(m)
}

/// A field under another name: `rename(v, &[("appended_batches", "appended")])`.
fn pick_as(v: &Value, fields: &[(&str, &str)]) -> Map<String, Value> {
    let mut m = Map::new();
    for (from, to) in fields {
        if let Some(x) = v.get(*from) {
            m.insert((*to).to_string(), x.clone());
        }
    }
    m
}

const REJECTION: &[&str] = &[
    "appended",
    "error_code",
    "error_message",
    "record_errors",
    "broker_log",
];
const APPENDED: &[&str] = &[
    "appended",
    "base_offset",
    "last_offset",
    "log_append_time",
    "rolled",
];

fn rejection_or_append(v: &Value) -> Value {
    if v["appended"] == true {
        pick(v, APPENDED)
    } else {
        let mut r = pick(v, REJECTION);
        // Both sides list record errors as {batch_index, message}; keep only those two.
        if let Some(errs) = r.get_mut("record_errors").and_then(Value::as_array_mut) {
            for e in errs {
                *e = pick(e, &["batch_index", "message"]);
            }
        }
        r
    }
}

/// Where the two reports keep what a produce step's entry says under other names.
struct ProduceNames {
    /// Batches appended and rejected by generated traffic.
    appended: &'static str,
    rejected: &'static str,
    /// When the first rejected batch was sent.
    rejected_at: &'static str,
}

/// A produce entry in the common form; `passes` are the retention passes of the step, already
/// in it.
fn produce(b: &Value, names: &ProduceNames, passes: Value) -> Value {
    if b.get("batches").is_none() {
        let mut v = rejection_or_append(b);
        v["passes"] = passes;
        return v;
    }
    let mut m = pick_as(
        b,
        &[
            ("batches", "batches"),
            (names.appended, "appended"),
            (names.rejected, "rejected"),
            ("first_offset", "first_offset"),
            ("last_offset", "last_offset"),
            ("rolled", "rolled"),
        ],
    );
    let first = match &b["first_rejection"] {
        Value::Null => Value::Null,
        r => {
            let mut f = rejection_or_append(r);
            f["batch"] = r["batch"].clone();
            f["now"] = r[names.rejected_at].clone();
            f
        }
    };
    m.insert("first_rejection".into(), first);
    m.insert("passes".into(), passes);
    Value::Object(m)
}

fn logtime_produce(b: &Value) -> Value {
    let names = ProduceNames {
        appended: "appended_batches",
        rejected: "rejected_batches",
        rejected_at: "at",
    };
    produce(b, &names, logtime_passes(&b["retention"]))
}

fn kafka_produce(b: &Value) -> Value {
    let names = ProduceNames {
        appended: "appended",
        rejected: "rejected",
        rejected_at: "now",
    };
    // The oracle's one-batch entry has no `passes` (its README: produce, one batch).
    let passes = if b.get("batches").is_none() {
        json!([])
    } else {
        kafka_passes(&b["passes"])
    };
    produce(b, &names, passes)
}

const PASS: &[&str] = &["at", "deleted", "log_start_offset"];

fn logtime_passes(v: &Value) -> Value {
    // Absent when no pass deleted anything.
    Value::Array(
        v.as_array()
            .map(|ps| ps.iter().map(|p| pick(p, PASS)).collect())
            .unwrap_or_default(),
    )
}

fn kafka_passes(v: &Value) -> Value {
    logtime_passes(v)
}

fn logtime_retention(b: &Value) -> Value {
    let mut m = pick_as(
        b,
        &[
            ("at", "at"),
            ("deleted", "deleted"),
            ("log_start_offset", "log_start_offset"),
        ],
    );
    m.insert(
        "rolled".into(),
        match &b["rolled"] {
            Value::Null => json!([]),
            x => json!([x]),
        },
    );
    // Logtime also gives the segment the check rolled a verdict; the oracle lists the segments
    // that were there before the check.
    let verdicts = b["verdicts"]
        .as_array()
        .map(|vs| {
            vs.iter()
                .filter(|v| b["rolled"].is_null() || v["base_offset"] != b["rolled"])
                .map(|v| {
                    let kind = if v["verdict"]["kind"] == "deleted" {
                        "deleted"
                    } else {
                        "kept"
                    };
                    json!({"base_offset": v["base_offset"], "verdict": kind})
                })
                .collect()
        })
        .unwrap_or_default();
    m.insert("verdicts".into(), Value::Array(verdicts));
    Value::Object(m)
}

fn kafka_retention(b: &Value) -> Value {
    let mut m = pick_as(
        b,
        &[
            ("at", "at"),
            ("deleted", "deleted"),
            ("log_start_offset", "log_start_offset"),
            ("rolled", "rolled"),
        ],
    );
    let verdicts = b["verdicts"]
        .as_array()
        .map(|vs| {
            vs.iter()
                .map(|v| json!({"base_offset": v["base_offset"], "verdict": v["verdict"]}))
                .collect()
        })
        .unwrap_or_default();
    m.insert("verdicts".into(), Value::Array(verdicts));
    Value::Object(m)
}

fn sorted(mut names: Vec<String>) -> Value {
    names.sort();
    json!({ "applied": names })
}

fn logtime_config(b: &Value) -> Value {
    let names = b["changed"]
        .as_array()
        .map(|cs| {
            cs.iter()
                .filter_map(|c| c["name"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    sorted(names)
}

fn kafka_config(b: &Value) -> Value {
    let names = b["applied"]
        .as_object()
        .map(|m| m.keys().cloned().collect())
        .unwrap_or_default();
    sorted(names)
}

/// A partition state (`snapshot`, `final`) in the common form.
pub(super) fn state(s: &Value) -> Value {
    let mut m = pick_as(
        s,
        &[
            ("log_start_offset", "log_start_offset"),
            ("log_end_offset", "log_end_offset"),
            ("high_watermark", "high_watermark"),
        ],
    );
    let segments = s["segments"]
        .as_array()
        .map(|ss| {
            ss.iter()
                .map(|g| {
                    let o = pick_as(
                        g,
                        &[
                            ("base_offset", "base_offset"),
                            ("next_offset", "next_offset"),
                            ("size_bytes", "size_bytes"),
                            ("records", "records"),
                            ("largest_timestamp", "largest_timestamp"),
                            // Logtime's name, then the oracle's.
                            ("max_timestamp", "max_timestamp_so_far"),
                            ("max_timestamp_so_far", "max_timestamp_so_far"),
                            ("time_index", "time_index"),
                            ("offset_index", "offset_index"),
                        ],
                    );
                    Value::Object(o)
                })
                .collect()
        })
        .unwrap_or_default();
    m.insert("segments".into(), Value::Array(segments));
    Value::Object(m)
}
