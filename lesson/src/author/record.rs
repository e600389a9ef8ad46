//! An explorer action, from the session journal, as steps of the file's grammar. Record stamps
//! are written relative to the clock the batch was sent at (`now-3d`), so a recorded replay
//! still means "three days old" wherever the step is moved; a clock move becomes an `advance`
//! by the difference from the clock at the step it is put after.

use super::error::AuthorError;
use crate::{Pick, Play};
use logtime_core::human::rfc3339;
use logtime_core::scenario::save::duration_text;
use logtime_core::scenario::{parse, Entry, Runner, STEP_KINDS};
use logtime_model::batch::Record;
use logtime_model::config::ConfigValue;
use logtime_model::lookup::OffsetSpec;
use logtime_model::partition::Command;
use logtime_model::units::Timestamp;
use serde_json::{json, Map, Value};

/// The broker clock after file steps `..k` of `doc` (scenario steps run, tasks solved by their
/// solutions), or why the draft does not replay that far. A draft whose lesson keys do not read
/// yet (narration being typed with a markup mistake) still has a clock: its scenario steps
/// alone give it, so recording goes on while the problem is shown at its step.
pub(crate) fn clock_after(doc: &Value, k: usize) -> Result<Timestamp, AuthorError> {
    let lesson = crate::parse(&doc.to_string()).and_then(|l| l.instantiate(Pick::Default));
    let e = match lesson.and_then(|c| Play::open_at(c, k)) {
        Ok(play) => return Ok(play.runner().now()),
        Err(e) => e,
    };
    scenario_clock(doc, k).ok_or_else(|| AuthorError::CannotRecord {
        reason: format!(
            "the steps before it do not replay ({}); fix that first",
            super::live::problem_of(&e)
        ),
    })
}

/// The clock after the scenario steps among file steps `..k`, read as a plain scenario (every
/// lesson key left out); `None` when that does not replay either.
fn scenario_clock(doc: &Value, k: usize) -> Option<Timestamp> {
    let mut plain = doc.as_object()?.clone();
    for key in ["lesson", "variants", "stream"] {
        plain.remove(key);
    }
    let steps: Vec<Value> = plain
        .get("steps")?
        .as_array()?
        .iter()
        .take(k)
        .filter_map(|s| {
            let kind = super::view::kind_of(s)?;
            STEP_KINDS
                .contains(&kind)
                .then(|| json!({ kind: s[kind].clone() }))
        })
        .collect();
    plain.insert("steps".into(), Value::Array(steps));
    let scenario = parse(&Value::Object(plain).to_string()).ok()?;
    let mut runner = Runner::new(scenario);
    while let Some(step) = runner.step(&mut |_| {}) {
        step.ok()?;
    }
    Some(runner.now())
}

/// A time relative to the clock: `now`, `now+2h`, `now-3d`. NO_TIMESTAMP stays `-1`.
pub(crate) fn relative(ts: Timestamp, now: Timestamp) -> Value {
    if ts.0 == -1 {
        return json!(-1);
    }
    let d = i128::from(ts.0) - i128::from(now.0);
    match i64::try_from(d) {
        Ok(0) => json!("now"),
        Ok(d) if d > 0 => json!(format!("now+{}", duration_text(d))),
        Ok(d) if d != i64::MIN => json!(format!("now-{}", duration_text(-d))),
        _ => json!(ts.0),
    }
}

fn record_json(r: &Record, at: Timestamp) -> Result<Value, AuthorError> {
    if !r.headers.is_empty() {
        return Err(AuthorError::CannotRecord {
            reason: "the file's records have no headers (a batch sent with headers cannot be written as a step); send it without headers".into(),
        });
    }
    let mut m = Map::new();
    m.insert("timestamp".into(), relative(r.timestamp, at));
    if r.key_bytes > 0 || r.empty_key {
        m.insert("key_bytes".into(), json!(r.key_bytes));
    }
    if r.value_bytes != 100 {
        m.insert("value_bytes".into(), json!(r.value_bytes));
    }
    Ok(Value::Object(m))
}

fn config_json(v: &ConfigValue) -> Value {
    match v {
        ConfigValue::Number(n) => json!(n),
        ConfigValue::Text(t) => json!(t),
    }
}

/// The action of a command, as one step (or task solution action) of the grammar.
pub(crate) fn command_step(at: Timestamp, command: &Command) -> Result<Value, AuthorError> {
    Ok(match command {
        Command::Tick => json!({ "at": rfc3339(at.0) }),
        Command::Produce { records } => {
            let rs: Result<Vec<Value>, AuthorError> =
                records.iter().map(|r| record_json(r, at)).collect();
            json!({"produce": {"records": rs?}})
        }
        Command::RunRetention => json!({"retention": {}}),
        Command::DeleteRecords { offset } => json!({"delete_records": {"offset": offset}}),
        Command::SetConfig { name, value } => {
            let mut m = Map::new();
            m.insert(name.clone(), config_json(value));
            json!({ "config": m })
        }
        Command::SetVersion { version } => json!({"version": version.key()}),
        Command::SetHighWatermark { offset } => {
            json!({"high_watermark": {"offset": offset.0}})
        }
    })
}

/// A lookup as a `lookup` step.
fn lookup_step(spec: &OffsetSpec) -> Result<Value, AuthorError> {
    let body = match spec {
        OffsetSpec::Earliest => json!({"spec": "earliest"}),
        OffsetSpec::Latest => json!({"spec": "latest"}),
        OffsetSpec::MaxTimestamp => json!({"spec": "max-timestamp"}),
        OffsetSpec::Timestamp(t) if t.0 >= 0 => json!({ "timestamp": rfc3339(t.0) }),
        OffsetSpec::Timestamp(t) => json!({ "timestamp": t.0 }),
        other => {
            return Err(AuthorError::CannotRecord {
                reason: format!("a lookup for {other} has no step in the file's grammar (earliest, latest, max-timestamp or a time)"),
            })
        }
    };
    Ok(json!({ "lookup": body }))
}

/// The steps that say `entry`, put after a point where the clock reads `clock`: an `advance`
/// first when the action came later. `Entry::Step` says nothing new (the step is in the file).
pub(crate) fn steps_for(entry: &Entry, clock: Timestamp) -> Result<Vec<Value>, AuthorError> {
    let (at, command) = match entry {
        Entry::Step => return Ok(Vec::new()),
        Entry::Lookup(spec) => return Ok(vec![lookup_step(spec)?]),
        Entry::Command { at, command } => (*at, command),
    };
    if at.0 < clock.0 {
        return Err(AuthorError::CannotRecord {
            reason: format!(
                "it was done at {}, before the clock at this point of the lesson ({}); record it later in the lesson",
                rfc3339(at.0),
                rfc3339(clock.0)
            ),
        });
    }
    let mut out = Vec::new();
    if at.0 > clock.0 {
        let d =
            at.0.checked_sub(clock.0)
                .ok_or_else(|| AuthorError::CannotRecord {
                    reason: format!(
                        "the clock would move from {} to {}, further than a duration can say",
                        clock.0, at.0
                    ),
                })?;
        out.push(json!({ "advance": duration_text(d) }));
    }
    if !matches!(command, Command::Tick) {
        out.push(command_step(at, command)?);
    }
    Ok(out)
}

/// A task's solution from recorded entries: each action in the step syntax a solution takes,
/// with clock moves as `advance`, starting from `clock`.
pub(crate) fn solution_for(entries: &[Entry], clock: Timestamp) -> Result<Value, AuthorError> {
    let mut out = Vec::new();
    let mut now = clock;
    for e in entries {
        match e {
            Entry::Step | Entry::Lookup(_) => {
                return Err(AuthorError::CannotRecord {
                    reason: "a task's solution holds actions only (a batch sent, a config or version change, DeleteRecords, a retention check, a clock move), not steps or lookups".into(),
                })
            }
            Entry::Command { at, .. } => {
                out.extend(steps_for(e, now)?);
                now = Timestamp(now.0.max(at.0));
            }
        }
    }
    if out.is_empty() {
        return Err(AuthorError::CannotRecord {
            reason: "a task needs a solution: do what solves it in the explorer first".into(),
        });
    }
    Ok(Value::Array(out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use logtime_model::config::KafkaVersion;
    use logtime_model::units::Offset;

    const T: Timestamp = Timestamp(1_804_842_000_000);

    fn one(entry: Entry) -> Value {
        let v = steps_for(&entry, T).unwrap();
        assert_eq!(v.len(), 1, "{v:?}");
        v[0].clone()
    }

    fn cmd(command: Command) -> Entry {
        Entry::Command { at: T, command }
    }

    #[test]
    fn each_action_becomes_its_step() {
        let records = vec![
            Record::at(Timestamp(T.0 - 3 * 86_400_000)),
            Record::with_key(Timestamp(T.0 + 90_000), Some(0), 600_000),
            Record::with_key(Timestamp(-1), Some(8), 100),
        ];
        assert_eq!(
            one(cmd(Command::Produce { records })),
            json!({"produce": {"records": [{"timestamp": "now-3d"},
                {"timestamp": "now+1m30s", "key_bytes": 0, "value_bytes": 600000},
                {"timestamp": -1, "key_bytes": 8}]}})
        );
        assert_eq!(one(cmd(Command::RunRetention)), json!({"retention": {}}));
        assert_eq!(
            one(cmd(Command::DeleteRecords { offset: 6 })),
            json!({"delete_records": {"offset": 6}})
        );
        assert_eq!(
            one(cmd(Command::SetConfig {
                name: "retention.ms".into(),
                value: ConfigValue::Number(86_400_000)
            })),
            json!({"config": {"retention.ms": 86400000}})
        );
        assert_eq!(
            one(cmd(Command::SetVersion {
                version: KafkaVersion::V4_0
            })),
            json!({"version": "4.0"})
        );
        assert_eq!(
            one(cmd(Command::SetHighWatermark { offset: Offset(3) })),
            json!({"high_watermark": {"offset": 3}})
        );
        assert_eq!(
            one(Entry::Lookup(OffsetSpec::MaxTimestamp)),
            json!({"lookup": {"spec": "max-timestamp"}})
        );
        assert_eq!(
            one(Entry::Lookup(OffsetSpec::Timestamp(T))),
            json!({"lookup": {"timestamp": "2027-03-12T09:00:00Z"}})
        );
    }

    #[test]
    fn a_later_action_moves_the_clock_first_and_a_clock_move_is_an_advance() {
        let later = Timestamp(T.0 + 300_000);
        let v = steps_for(
            &Entry::Command {
                at: later,
                command: Command::RunRetention,
            },
            T,
        )
        .unwrap();
        assert_eq!(v, vec![json!({"advance": "5m"}), json!({"retention": {}})]);
        let v = steps_for(
            &Entry::Command {
                at: later,
                command: Command::Tick,
            },
            T,
        )
        .unwrap();
        assert_eq!(v, vec![json!({"advance": "5m"})]);
        assert!(steps_for(&Entry::Step, T).unwrap().is_empty());
    }

    #[test]
    fn what_the_grammar_cannot_say_is_refused_in_words() {
        let e = steps_for(
            &Entry::Command {
                at: Timestamp(T.0 - 1000),
                command: Command::RunRetention,
            },
            T,
        )
        .unwrap_err();
        assert_eq!(e.to_string(), "this action cannot be recorded as a step: it was done at 2027-03-12T08:59:59Z, before the clock at this point of the lesson (2027-03-12T09:00:00Z); record it later in the lesson");
        let e = steps_for(&Entry::Lookup(OffsetSpec::LatestTiered), T).unwrap_err();
        assert!(
            e.to_string().contains("has no step in the file's grammar"),
            "{e}"
        );
    }
}
