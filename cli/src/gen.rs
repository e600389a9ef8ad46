//! `logtime gen --seed S`: a random scenario, the same for the same seed, for differential
//! testing against Kafka's own storage code (`scripts/kafka-diff.sh`).
//!
//! The scenarios stay inside what both Logtime and the Kafka oracle accept (see
//! `../shared/kafka-oracle/README.md`, "Scenario subset"): `segment.jitter.ms` is 0 (Kafka draws
//! the jitter at random), no `max.message.bytes`, no `high_watermark` step, lookups by timestamp
//! never negative, durations never negative, config steps change topic configs only. Inside
//! that, the generator leans on boundaries: stamps exactly at the before/after limits and one
//! past them, configs derived from `Long.MAX`/`Long.MIN`, `index.interval.bytes` 0 and 1, tiny
//! `segment.bytes` and `segment.index.bytes`, null, empty and sized keys, every cleanup policy,
//! generated traffic, the clock moved to a stamp's exact retention expiry and one past it,
//! DeleteRecords at the log's bounds, and lookups before, at and after the stamps written.
//!
//! To aim at exact bounds the generator replays the scenario written so far in Logtime's model
//! (the partition's offsets, segments, largest timestamps, index entries and next retention
//! pass). That only chooses inputs; whether the model is right is what the comparison with
//! Kafka decides.

use logtime_core::scenario::{parse, Runner};
use logtime_model::{Partition, SplitMix64};
use serde_json::{json, Map, Value};

const LONG_MAX: i64 = i64::MAX;
const INT_MAX: i64 = i32::MAX as i64;
const DAY: i64 = 86_400_000;

/// A generated scenario as pretty JSON. The same seed always gives the same text.
pub fn scenario(seed: u64) -> String {
    let mut g = Gen::new(seed);
    let v = g.scenario(seed);
    serde_json::to_string_pretty(&v).expect("scenarios serialise") + "\n"
}

struct Gen {
    rng: SplitMix64,
    v3: bool,
    now: i64,
    /// The topic configs in force (explicit ones only; the rest are the preset's defaults).
    topic: Map<String, Value>,
    /// Every stamp written so far (resolved, before any unit mistake).
    stamps: Vec<i64>,
    /// An upper bound of the log end offset: every record sent, appended or not.
    sent: i64,
    /// The longest clock move of one step: the oracle runs every retention pass that may
    /// delete something one by one, so a move covers at most 20 000 periods of the faster
    /// schedule (an interval of 1 ms and a year's advance would take it hours).
    max_move: i64,
    /// Whether stamps may be `Long.MIN`/`Long.MAX` (not in generated traffic, whose
    /// `timestamp_step` would overflow them).
    extremes: bool,
}

impl Gen {
    fn new(seed: u64) -> Gen {
        Gen {
            // Mix the seed so that neighbouring seeds start far apart.
            rng: SplitMix64::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x6C6F_6774_696D_6521),
            v3: false,
            now: 0,
            topic: Map::new(),
            stamps: Vec::new(),
            sent: 0,
            extremes: true,
            max_move: i64::MAX,
        }
    }

    fn below(&mut self, n: u64) -> u64 {
        self.rng.next_u64() % n.max(1)
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len() as u64) as usize]
    }

    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as u64) as i64
    }

    fn scenario(&mut self, seed: u64) -> Value {
        self.v3 = self.chance(50);
        let any = self.rng.next_u64() as i64 & ((1 << 42) - 1);
        self.now = self.pick(&[0, 1000, 1_700_000_000_000, 1_804_842_000_000, any]);
        let mut top = Map::new();
        top.insert(
            "title".into(),
            json!(format!("generated scenario, seed {seed}")),
        );
        top.insert("kafka".into(), json!(if self.v3 { "3.6" } else { "4.0" }));
        top.insert("start".into(), json!(self.now));
        let n = self.below(7);
        for _ in 0..n {
            let (name, value) = self.topic_config();
            self.topic.insert(name.into(), value);
        }
        if self.chance(15) {
            self.topic.insert("segment.jitter.ms".into(), json!(0));
        }
        top.insert("topic".into(), Value::Object(self.topic.clone()));
        let mut broker = Map::new();
        if self.chance(60) {
            let v = self.pick(&[1, 1000, 15_000, 60_000, 300_000]);
            broker.insert("log.retention.check.interval.ms".into(), json!(v));
        }
        if self.chance(50) {
            let v = self.pick(&[0, 1, 1000, 5000, 15_000, 60_000]);
            broker.insert("log.cleaner.backoff.ms".into(), json!(v));
        }
        let interval = broker
            .get("log.retention.check.interval.ms")
            .and_then(Value::as_i64)
            .unwrap_or(300_000);
        let backoff = broker
            .get("log.cleaner.backoff.ms")
            .and_then(Value::as_i64)
            .unwrap_or(15_000)
            .max(1);
        self.max_move = interval.min(backoff).saturating_mul(20_000);
        if !broker.is_empty() {
            top.insert("broker".into(), Value::Object(broker));
        }
        let count = self.range(1, 40);
        top.insert("steps".into(), json!([]));
        let mut doc = Value::Object(top);
        for _ in 0..count {
            let state = replay(&doc);
            let steps = self.step(state.as_ref());
            doc["steps"]
                .as_array_mut()
                .expect("steps is an array")
                .extend(steps);
        }
        doc
    }

    /// One topic config with a value valid for the preset.
    fn topic_config(&mut self) -> (&'static str, Value) {
        let bound = [0, 1, 1000, 60_000, 3_600_000, DAY, LONG_MAX, LONG_MAX - 1];
        let mut names = vec![
            "message.timestamp.type",
            "message.timestamp.before.max.ms",
            "message.timestamp.after.max.ms",
            "retention.ms",
            "retention.ms",
            "retention.bytes",
            "segment.bytes",
            "segment.bytes",
            "segment.ms",
            "segment.index.bytes",
            "index.interval.bytes",
            "index.interval.bytes",
            "cleanup.policy",
            "cleanup.policy",
        ];
        if self.v3 {
            names.push("message.timestamp.difference.max.ms");
        }
        let name = self.pick(&names);
        let value = match name {
            "message.timestamp.type" => {
                json!(if self.chance(75) {
                    "CreateTime"
                } else {
                    "LogAppendTime"
                })
            }
            "retention.ms" => json!(self.pick(&[
                -1,
                0,
                1,
                1000,
                15_000,
                60_000,
                300_000,
                3_600_000,
                7 * DAY,
                LONG_MAX,
                LONG_MAX - 1
            ])),
            "retention.bytes" => {
                json!(self.pick(&[-1, -2, 0, 1, 170, 500, 1000, 5000, LONG_MAX, i64::MIN]))
            }
            "segment.bytes" if self.v3 => json!(self.pick(&[
                14,
                100,
                169,
                170,
                171,
                300,
                400,
                1000,
                1000,
                5000,
                1 << 20,
                INT_MAX
            ])),
            "segment.bytes" => json!(self.pick(&[1 << 20, (1 << 20) + 1, 1 << 30, INT_MAX])),
            "segment.ms" => json!(self.pick(&[1, 1000, 60_000, 3_600_000, 7 * DAY, LONG_MAX])),
            "segment.index.bytes" => {
                json!(self.pick(&[12, 13, 20, 24, 36, 100, 4096, 10 << 20, INT_MAX]))
            }
            "index.interval.bytes" => json!(self.pick(&[0, 1, 50, 170, 171, 4096, INT_MAX])),
            "cleanup.policy" => json!(self.pick(&[
                "delete",
                "delete",
                "compact",
                "compact,delete",
                "delete,compact"
            ])),
            _ => json!(self.pick(&bound)),
        };
        (name, value)
    }

    fn config_number(&self, name: &str, default: i64) -> i64 {
        self.topic
            .get(name)
            .and_then(Value::as_i64)
            .unwrap_or(default)
    }

    /// The before/after limits validation uses (3.x falls back to the difference).
    fn window(&self) -> (i64, i64) {
        let diff = self.config_number("message.timestamp.difference.max.ms", LONG_MAX);
        let before = self.config_number("message.timestamp.before.max.ms", LONG_MAX);
        let after = self.config_number(
            "message.timestamp.after.max.ms",
            if self.v3 { LONG_MAX } else { 3_600_000 },
        );
        let fallback = |x: i64| if self.v3 && x == LONG_MAX { diff } else { x };
        (fallback(before), fallback(after))
    }

    fn retention_ms(&self) -> i64 {
        self.config_number("retention.ms", 7 * DAY)
    }

    /// The next step or two, given the partition after the steps so far (`None` when the
    /// model refused them, which the comparison then reports).
    fn step(&mut self, p: Option<&Partition>) -> Vec<Value> {
        match self.below(100) {
            0..=29 => vec![self.produce()],
            30..=37 => vec![self.generated()],
            38..=49 => vec![self.advance()],
            50..=57 => {
                let at = self.at(p);
                if self.chance(50) {
                    vec![at, json!({"retention": {}})]
                } else {
                    vec![at]
                }
            }
            58..=61 => vec![json!({"retention": {}})],
            62..=75 => vec![self.lookup(p)],
            76..=82 => vec![self.delete_records(p)],
            83..=91 => vec![self.config()],
            _ => vec![json!({"snapshot": {}})],
        }
    }

    /// A stamp near `now`, often on a boundary of the acceptance window, as an absolute number.
    fn stamp(&mut self) -> i64 {
        let (before, after) = self.window();
        let now = self.now;
        let mut choices = vec![
            now,
            now,
            now,
            now - 1000,
            now - 5000,
            now + 1000,
            now - 1,
            now + 1,
            now - 60_000,
            now - 3_600_000,
            now + 3_600_000,
            now + 3_600_001,
            now - 8 * DAY,
            now + 365 * DAY,
            -1,
            -1,
            0,
            -5,
        ];
        if self.extremes {
            choices.extend([i64::MIN, LONG_MAX]);
        }
        if let Some(lo) = now.checked_sub(before) {
            choices.extend([lo, lo, lo.saturating_sub(1)]);
        }
        if let Some(hi) = now.checked_add(after) {
            choices.extend([hi, hi, hi.saturating_add(1)]);
        }
        if let Some(&s) = self.stamps.last() {
            choices.extend([s, s.saturating_add(1)]);
        }
        if !self.extremes {
            choices.retain(|t| t.unsigned_abs() < 1 << 62);
        }
        let ts = self.pick(&choices);
        if ts >= 0 {
            self.stamps.push(ts);
        }
        ts
    }

    fn record(&mut self, relative: bool) -> Value {
        let mut r = Map::new();
        if relative {
            // now±D with a unit mistake: small offsets, so that ns never overflows.
            let d = self.pick(&[0, 1, 999, 1000, 60_000]);
            let t = match self.below(3) {
                0 => "now".to_string(),
                1 => format!("now+{d}ms"),
                _ => format!("now-{d}ms"),
            };
            r.insert("timestamp".into(), json!(t));
            // Logtime refuses an explicit "ms" (it is no mistake): the unit is left out instead.
            let unit = self.pick(&["ms", "s", "us", "ns"]);
            if unit != "ms" {
                r.insert("unit".into(), json!(unit));
            }
        } else {
            let ts = self.stamp();
            r.insert("timestamp".into(), json!(ts));
        }
        match self.below(10) {
            0..=2 => {}
            3 => {
                r.insert("key_bytes".into(), Value::Null);
            }
            4..=6 => {
                r.insert("key_bytes".into(), json!(0));
            }
            _ => {
                let k = self.pick(&[1, 4, 8, 63, 64, 300]);
                r.insert("key_bytes".into(), json!(k));
            }
        }
        if self.chance(60) {
            let v = if self.chance(2) {
                1_100_000
            } else {
                self.pick(&[0, 1, 50, 63, 64, 100, 200, 500, 2000])
            };
            r.insert("value_bytes".into(), json!(v));
        }
        Value::Object(r)
    }

    fn records(&mut self, n: i64) -> Vec<Value> {
        let relative = self.chance(20);
        (0..n).map(|_| self.record(relative)).collect()
    }

    fn produce(&mut self) -> Value {
        let n = self.pick(&[1, 1, 1, 2, 3, 5]);
        self.sent += n;
        json!({"produce": {"records": self.records(n)}})
    }

    fn generated(&mut self) -> Value {
        let n = self.pick(&[1, 1, 2, 3]);
        let batches = self.range(1, 20);
        let every = self
            .pick(&[0, 1, 1000, 15_000, 60_000, 300_000])
            .min(self.max_move);
        let mut p = Map::new();
        self.extremes = false;
        p.insert("records".into(), Value::Array(self.records(n)));
        self.extremes = true;
        p.insert("batches".into(), json!(batches));
        if every > 0 || self.chance(50) {
            p.insert("every".into(), json!(every));
        }
        if self.chance(50) {
            let step = self.pick(&[0, 1, 1000, 60_000, DAY]);
            p.insert("timestamp_step".into(), json!(format!("{step}ms")));
        }
        self.sent += n * batches;
        self.now += every * (batches - 1);
        json!({ "produce": p })
    }

    fn advance(&mut self) -> Value {
        let d = self.pick(&[
            0,
            1,
            999,
            1000,
            14_999,
            15_000,
            15_001,
            60_000,
            299_999,
            300_000,
            300_001,
            3_600_000,
            DAY,
            7 * DAY,
            8 * DAY,
            365 * DAY,
        ]);
        let d = d.min(self.max_move);
        self.now += d;
        if self.chance(30) {
            json!({ "advance": format!("{d}ms") })
        } else {
            json!({ "advance": d })
        }
    }

    /// Moves the clock to an instant where retention is on the edge: a segment's exact expiry
    /// (`largest timestamp + retention.ms`, when it is not deleted yet) or one past it, the next
    /// scheduled pass or one before it; often a retention check follows.
    fn at(&mut self, p: Option<&Partition>) -> Value {
        let retention = self.retention_ms();
        let mut targets: Vec<i64> = Vec::new();
        if let Some(p) = p {
            if retention >= 0 {
                for s in p.segments() {
                    if let Some(t) = s.largest_timestamp().0.checked_add(retention) {
                        targets.extend([t, t.saturating_add(1)]);
                    }
                }
            }
            let next = p.next_retention_check().0;
            targets.extend([next, next - 1]);
        } else if let Some(&s) = self.stamps.last() {
            targets.extend(s.checked_add(retention));
        }
        let now = self.now;
        let horizon = self.max_move.min(400 * DAY);
        targets.retain(|&t| t >= now && t - now <= horizon);
        self.now = if targets.is_empty() {
            now + self.pick(&[0, 1, 60_000])
        } else {
            self.pick(&targets)
        };
        json!({ "at": self.now })
    }

    /// A lookup at, before or after a stamp the partition holds: every segment's largest
    /// timestamp and time-index entries, the stamps written, and the edges (0, now, Long.MAX).
    fn lookup(&mut self, p: Option<&Partition>) -> Value {
        if self.chance(30) {
            let spec = self.pick(&["earliest", "latest", "max-timestamp"]);
            return json!({"lookup": {"spec": spec}});
        }
        let mut stamps: Vec<i64> = self.stamps.iter().rev().take(4).copied().collect();
        if let Some(p) = p {
            for s in p.segments() {
                stamps.push(s.largest_timestamp().0);
                stamps.extend(s.time_index().entries().map(|(t, _)| t.0));
                stamps.extend(s.record_timestamps().iter().rev().take(3));
            }
        }
        let mut choices = vec![0, self.now, self.now + 3_600_000, LONG_MAX];
        for s in stamps.into_iter().filter(|&s| s >= 0) {
            choices.extend([s, s.saturating_add(1), (s - 1).max(0)]);
        }
        let t = self.pick(&choices);
        json!({"lookup": {"timestamp": t}})
    }

    /// DeleteRecords at the log's bounds: the log start offset, the high watermark and one
    /// past each, segment bases, and the special and invalid values.
    fn delete_records(&mut self, p: Option<&Partition>) -> Value {
        let mut choices = vec![-1, -1, -2, 0, 1, LONG_MAX, self.sent + 1];
        if let Some(p) = p {
            let (lso, hw) = (p.log_start_offset().0, p.high_watermark().0);
            choices.extend([lso, lso + 1, (lso - 1).max(0), hw, hw, hw - 1, hw + 1]);
            choices.extend(p.segments().iter().map(|s| s.base_offset().0));
        }
        let o = self.pick(&choices);
        json!({"delete_records": {"offset": o}})
    }

    fn config(&mut self) -> Value {
        let mut changes = Map::new();
        for _ in 0..self.range(1, 2) {
            let (name, value) = self.topic_config();
            self.topic.insert(name.into(), value.clone());
            changes.insert(name.into(), value);
        }
        json!({ "config": changes })
    }
}

/// The partition after replaying `doc` in Logtime's model, if the model accepts it.
fn replay(doc: &Value) -> Option<Partition> {
    let s = parse(&doc.to_string()).ok()?;
    let mut r = Runner::new(s);
    while let Some(step) = r.step(&mut |_| {}) {
        step.ok()?;
    }
    Some(r.partition().clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_scenario() {
        assert_eq!(scenario(7), scenario(7));
        assert_ne!(scenario(7), scenario(8));
    }

    /// Every generated scenario parses and replays in Logtime, and stays in the oracle's subset.
    #[test]
    fn generated_scenarios_replay() {
        for seed in 0..100 {
            let text = scenario(seed);
            let s = parse(&text).unwrap_or_else(|e| panic!("seed {seed}: {e}\n{text}"));
            logtime_core::scenario::run(&s).unwrap_or_else(|e| panic!("seed {seed}: {e}\n{text}"));
            let v: Value = serde_json::from_str(&text).unwrap();
            for step in v["steps"].as_array().unwrap() {
                assert!(step.get("high_watermark").is_none());
                if let Some(t) = step.pointer("/lookup/timestamp") {
                    assert!(t.as_i64().unwrap() >= 0, "seed {seed}: negative lookup");
                }
            }
        }
    }
}
