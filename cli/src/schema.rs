//! JSON Schema for scenario and lesson files (`logtime schema [scenario|lesson]`, and
//! `static/schema/*.json` served with the page), so that editors complete keys and flag typos as
//! people type.
//!
//! The files are parsed by hand (`logtime_core::scenario::parse`, `logtime_lesson::parse`), to
//! name every error's step and field; the types here describe the same format for `schemars`
//! (derived, with serde's attributes: `deny_unknown_fields` is the parser's "unknown key"), and
//! what a derive cannot say is added from the parser's own tables: the version keys and their
//! aliases, the config names, and the annotations any lesson step may carry. The tests hold the
//! schema's keys to the parser's key lists in both directions, every shipped file to the schema,
//! and a file with a typo'd key to a failure.
//!
//! Native only: `schemars` (with `dyn-clone`, `ref-cast` and its derive macro) is a dependency of
//! this crate, never of the web build, whose wasm it does not change.

// The types are read by schemars' derive, never built.
#![allow(dead_code)]

use logtime_model::config::CONFIG_KEYS;
use logtime_model::KafkaVersion;
use schemars::{generate::SchemaSettings, JsonSchema};
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;

/// A time: ms since the epoch (`-1` is NO_TIMESTAMP), RFC 3339, `now`, `now+D` or `now-D`.
#[derive(JsonSchema)]
#[serde(untagged)]
enum Time {
    /// Milliseconds since the epoch.
    Ms(i64),
    /// `2027-03-12T09:00:00Z`, `now`, `now-3d`.
    Text(String),
}

/// A duration: ms, or `500ms`, `90s`, `5m`, `1h30m`, `7d`, `2w`, `3y`.
#[derive(JsonSchema)]
#[serde(untagged)]
enum Duration {
    /// Milliseconds.
    Ms(i64),
    /// A duration in words.
    Text(String),
}

/// A config value: a number, or text (`7d` for a `*.ms` config, `1MiB` for a `*.bytes` one).
#[derive(JsonSchema)]
#[serde(untagged)]
enum ConfigValue {
    /// A number.
    Number(i64),
    /// Text.
    Text(String),
}

/// Config names (Kafka's) to values.
type Configs = BTreeMap<String, ConfigValue>;

/// A version preset's key or alias.
#[derive(JsonSchema)]
struct Version(String);

/// An empty object.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
struct Empty {}

/// A producer's unit mistake: the time meant in ms, written in another unit.
#[derive(JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Unit {
    /// Seconds.
    S,
    /// Microseconds.
    Us,
    /// Nanoseconds.
    Ns,
}

/// One record of a batch.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
struct Record {
    /// The record's timestamp.
    timestamp: Time,
    /// Key size in bytes; absent or null is a null key (`finish` lets it be `null`).
    key_bytes: Option<u32>,
    /// Value size in bytes (default 100).
    #[schemars(range(max = 2147483647))]
    value_bytes: Option<u32>,
    /// A unit mistake applied to the timestamp.
    unit: Option<Unit>,
}

/// One batch, or generated traffic of `batches` batches.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
struct Produce {
    /// The batch's records.
    records: Vec<Record>,
    /// How many batches (generated traffic).
    #[schemars(range(min = 1))]
    batches: Option<u64>,
    /// Broker time between batches (with `batches`).
    every: Option<Duration>,
    /// Added to every timestamp of batch k, times k (with `batches`).
    timestamp_step: Option<Duration>,
}

/// A consumer's ListOffsets: by time, or by spec.
#[derive(JsonSchema)]
#[serde(untagged)]
enum Lookup {
    /// By timestamp (`-2` earliest, `-1` latest).
    Time {
        /// The time looked up.
        timestamp: Time,
    },
    /// By spec.
    Spec {
        /// `earliest`, `latest` or `max-timestamp`.
        spec: LookupSpec,
    },
}

/// A lookup spec.
#[derive(JsonSchema)]
#[serde(rename_all = "kebab-case")]
enum LookupSpec {
    /// The log start offset.
    Earliest,
    /// The log end offset.
    Latest,
    /// The record with the largest timestamp.
    MaxTimestamp,
}

/// An offset.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
struct AnOffset {
    /// The offset (`-1` for DeleteRecords is the high watermark).
    offset: i64,
}

/// A non-negative offset.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
struct HighWatermark {
    /// The offset.
    offset: u64,
}

/// One scenario step: an object with exactly one key, its kind.
#[derive(JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
enum Step {
    /// Produce one batch or generated traffic.
    Produce(Produce),
    /// Move the broker clock forward.
    Advance(Duration),
    /// Move the broker clock to this time (not before now).
    At(Time),
    /// One retention check now.
    Retention(Empty),
    /// A consumer's ListOffsets.
    Lookup(Lookup),
    /// DeleteRecords to an offset.
    DeleteRecords(AnOffset),
    /// Change configs now, in order.
    Config(Configs),
    /// Record the full partition state.
    Snapshot(Empty),
    /// Set the high watermark (a lagging follower).
    HighWatermark(HighWatermark),
    /// Switch the broker's version preset.
    Version(Version),
}

/// A scenario file (docs/scenarios.md).
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "Logtime scenario file")]
struct ScenarioFile {
    /// This schema, for editors.
    #[serde(rename = "$schema")]
    schema: Option<String>,
    /// A title.
    title: Option<String>,
    /// A description for people.
    description: Option<String>,
    /// The version preset.
    kafka: Option<Version>,
    /// Topic configs by their Kafka names.
    topic: Option<Configs>,
    /// Broker configs by their Kafka names.
    broker: Option<Configs>,
    /// The broker clock at the start: ms or RFC 3339.
    start: Time,
    /// The jitter seed.
    seed: Option<u64>,
    /// `topic-partition` in Kafka's messages (default clicks-0).
    topic_partition: Option<String>,
    /// The segments the partition holds at the start (an imported partition).
    log: Option<Map<String, Value>>,
    /// The steps.
    steps: Vec<Step>,
}

/// Walkthrough or drill.
#[derive(JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Kind {
    /// Narrated steps, pauses and tasks.
    Walkthrough,
    /// Questions and tasks, scored.
    Drill,
}

/// How demanding.
#[derive(JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Level {
    /// First contact.
    Intro,
    /// Knows the basics.
    Intermediate,
    /// Operates Kafka.
    Advanced,
}

/// What happened, why, and the fix.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
struct Postmortem {
    /// What happened, in order (markup).
    what_happened: String,
    /// Why (markup).
    why: String,
    /// The fix (markup).
    fix: String,
}

/// The `lesson` object.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
struct LessonMeta {
    /// Walkthrough or drill.
    kind: Option<Kind>,
    /// One sentence (markup).
    summary: Option<String>,
    /// How demanding.
    level: Option<Level>,
    /// How long, in minutes.
    minutes: Option<u32>,
    /// The step the lesson opens at.
    opens_at: Option<u64>,
    /// Scoring rules.
    scoring: Option<Map<String, Value>>,
    /// A post-mortem.
    postmortem: Option<Postmortem>,
}

/// A question: `ask` and one kind key (strike, lookup, pinning, choose, error, late, closes).
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
struct Question {
    /// A title.
    title: Option<String>,
    /// The question (markup).
    ask: String,
    /// Which records a retention check deletes.
    strike: Option<Value>,
    /// What a lookup answers.
    lookup: Option<Value>,
    /// Which segment pins retention.
    pinning: Option<Value>,
    /// A config value that accepts one batch and rejects another.
    choose: Option<Value>,
    /// The error code a batch gets.
    error: Option<Value>,
    /// Which records a stream processor drops as late.
    late: Option<Value>,
    /// When a window closes.
    closes: Option<Value>,
    /// This question's stream processor.
    stream: Option<Value>,
    /// The version preset the question asks about.
    kafka: Option<Version>,
    /// Hints (markup).
    hints: Option<Vec<String>>,
    /// Shown after the answer (markup).
    reveal: Option<String>,
    /// The author's words (markup) for classes of wrong answer this kind of question produces,
    /// keyed by class (docs/scenarios.md lists them).
    wrong: Option<Map<String, Value>>,
    /// The stated answer, checked against the model.
    expect: Option<Value>,
    /// Points.
    points: Option<Value>,
    /// What the learner does not see before answering.
    hide: Option<Value>,
}

/// A task: a goal the learner reaches in the explorer.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
struct Task {
    /// A title.
    title: Option<String>,
    /// What to do (markup).
    ask: String,
    /// The goal, of core's goal kinds.
    goal: Map<String, Value>,
    /// Hints (markup).
    hints: Option<Vec<String>>,
    /// Actions that reach the goal.
    solution: Vec<Value>,
    /// Shown once done (markup).
    reveal: Option<String>,
    /// Points.
    points: Option<Value>,
    /// What the learner does not see.
    hide: Option<Value>,
}

/// The steps a lesson adds.
#[derive(JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
enum LessonItem {
    /// Narration only (markup).
    Note(String),
    /// A question.
    Question(Box<Question>),
    /// A task.
    Task(Box<Task>),
}

/// What any lesson step may carry beside its kind.
#[derive(JsonSchema)]
struct Annotations {
    /// Narration (markup).
    narration: Option<String>,
    /// What the step points at: `segment:N`, `offset:N`, `config:NAME`, `panel:NAME`, ...
    show: Option<Vec<String>>,
    /// Whether to pause here.
    pause: Option<bool>,
}

/// The downstream stream processor.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
struct Stream {
    /// The window size.
    window: Option<Duration>,
    /// How long past the window end a window stays open.
    delay: Option<Value>,
    /// The processor's semantics.
    semantics: Option<Value>,
    /// The grace period.
    allowed_lateness: Option<Value>,
    /// Where the processor starts reading.
    from: Option<Value>,
}

/// A lesson file's own top-level keys.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
struct LessonKeys {
    /// The `lesson` object.
    lesson: Option<LessonMeta>,
    /// Ranges and choices a seed picks from.
    variants: Option<Map<String, Value>>,
    /// The downstream stream processor.
    stream: Option<Stream>,
}

fn generate<T: JsonSchema>() -> Value {
    let mut v = SchemaSettings::draft2020_12()
        .into_generator()
        .into_root_schema_for::<T>()
        .to_value();
    no_null(&mut v);
    v
}

/// schemars lets an `Option` field be `null`; the parser reads an absent key as the default and
/// refuses `null` (the one field where `null` means something, `key_bytes`, says so itself).
fn no_null(v: &mut Value) {
    match v {
        Value::Object(m) => {
            if let Some(Value::Array(types)) = m.get_mut("type") {
                types.retain(|t| t != "null");
                if let [one] = &types[..] {
                    let one = one.clone();
                    m.insert("type".into(), one);
                }
            }
            for key in ["anyOf", "oneOf"] {
                let Some(Value::Array(branches)) = m.get_mut(key) else {
                    continue;
                };
                let null = json!({"type": "null"});
                if branches.len() == 2 && branches.contains(&null) {
                    branches.retain(|b| *b != null);
                    if let Some(Value::Object(only)) = branches.pop() {
                        m.remove(key);
                        m.extend(only);
                    }
                }
            }
            m.values_mut().for_each(no_null);
        }
        Value::Array(a) => a.iter_mut().for_each(no_null),
        _ => {}
    }
}

/// The version keys and aliases the parser accepts.
fn versions() -> Value {
    let mut all: Vec<&str> = Vec::new();
    for v in KafkaVersion::ALL {
        all.push(v.key());
        all.extend(v.aliases());
    }
    json!(all)
}

/// Config names for a section: topic configs, broker configs, or both (a `config` step).
fn config_names(broker: Option<bool>) -> Value {
    let mut names: Vec<&str> = CONFIG_KEYS
        .iter()
        .filter(|k| broker.is_none_or(|b| k.broker == b))
        .map(|k| k.name)
        .collect();
    names.sort_unstable();
    names.dedup();
    json!(names)
}

/// Adds what the derive cannot know: the version keys and the config names.
fn finish(mut root: Value) -> Value {
    let defs = root["$defs"].as_object_mut().map(std::mem::take);
    let mut defs = defs.unwrap_or_default();
    if let Some(v) = defs.get_mut("Version") {
        *v = json!({"description": "A version preset's key or alias.", "type": "string", "enum": versions()});
    }
    for (section, broker) in [("topic", Some(false)), ("broker", Some(true))] {
        root["properties"][section]["propertyNames"] = json!({"enum": config_names(broker)});
    }
    if let Some(step) = defs.get_mut("Step") {
        for branch in step["oneOf"].as_array_mut().into_iter().flatten() {
            if branch["required"] == json!(["config"]) {
                branch["properties"]["config"]["propertyNames"] =
                    json!({"enum": config_names(None)});
            }
        }
    }
    root["$defs"] = Value::Object(defs);
    root["$defs"]["Record"]["properties"]["key_bytes"] = json!({
        "description": "Key size in bytes (0 is an empty key); absent or null is a null key.",
        "type": ["integer", "null"], "minimum": 0, "maximum": 2147483647
    });
    root
}

/// The JSON Schema of scenario files.
pub fn scenario() -> Value {
    finish(generate::<ScenarioFile>())
}

/// The JSON Schema of lesson files: a scenario file's keys, the lesson's own, and steps that are
/// scenario steps or notes, questions and tasks, each with narration, highlights and a pause.
pub fn lesson() -> Value {
    let mut root = scenario();
    let keys = generate::<LessonKeys>();
    let items = generate::<LessonItem>();
    let notes = generate::<Annotations>();
    root["title"] = json!("Logtime lesson file");
    let annotations = notes["properties"].as_object().cloned().unwrap_or_default();
    let mut branches: Vec<Value> = root["$defs"]["Step"]["oneOf"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    branches.extend(items["oneOf"].as_array().cloned().unwrap_or_default());
    for b in &mut branches {
        if let Some(props) = b["properties"].as_object_mut() {
            props.extend(annotations.clone());
        }
    }
    if let Some(defs) = root["$defs"].as_object_mut() {
        // The scenario's definitions stay: its `Version` lists the keys, the derive's does not.
        for part in [&keys, &items] {
            for (name, d) in part["$defs"].as_object().cloned().unwrap_or_default() {
                defs.entry(name).or_insert(d);
            }
        }
        defs.insert(
            "LessonStep".into(),
            json!({"description": "One lesson step: a scenario step or a note, question or task, with optional narration, show and pause.", "oneOf": branches}),
        );
    }
    if let Some(props) = root["properties"].as_object_mut() {
        props.extend(keys["properties"].as_object().cloned().unwrap_or_default());
    }
    root["properties"]["steps"]["items"] = json!({"$ref": "#/$defs/LessonStep"});
    placeholders(&mut root);
    root
}

/// A lesson's variants put values in where a string `"$name"` (or `"$name.field"`) stands, so in
/// a lesson file every number, boolean and word from a list may also be such a reference.
fn placeholders(schema: &mut Value) {
    let Value::Object(m) = schema else { return };
    for key in ["properties", "$defs"] {
        if let Some(Value::Object(children)) = m.get_mut(key) {
            children.values_mut().for_each(placeholders);
        }
    }
    for key in ["items", "additionalProperties"] {
        if let Some(child) = m.get_mut(key) {
            placeholders(child);
        }
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(Value::Array(branches)) = m.get_mut(key) {
            branches.iter_mut().for_each(placeholders);
        }
    }
    // A word from a list: `enum`, or (for documented variants) one `const` per branch.
    let words = matches!(m.get("oneOf"), Some(Value::Array(b)) if b.iter().all(|x| x.get("const").is_some()));
    let leaf = m.contains_key("enum")
        || words
        || matches!(m.get("type"), Some(Value::String(t)) if t == "integer" || t == "boolean");
    if leaf {
        let description = m.remove("description");
        let inner = Value::Object(std::mem::take(m));
        let reference = json!({"type": "string", "pattern": "^\\$[A-Za-z_]"});
        m.insert("anyOf".into(), json!([inner, reference]));
        if let Some(d) = description {
            m.insert("description".into(), d);
        }
    }
}

/// The schema named `which` (`scenario` or `lesson`), pretty-printed as served.
pub fn text(which: &str) -> Option<String> {
    let v = match which {
        "scenario" => scenario(),
        "lesson" => lesson(),
        _ => return None,
    };
    serde_json::to_string_pretty(&v).ok().map(|s| s + "\n")
}

#[cfg(test)]
mod tests;
