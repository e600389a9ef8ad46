//! The single-partition test vectors, each named after the Kafka test it restates (Kafka's
//! `storage/src/test/java/org/apache/kafka/storage/internals/log/*Test.java` and
//! `core/src/test/scala/unit/kafka/log/*Test.scala`), grouped by concept; the conformance
//! scenarios in `tests/conformance/` replay the same vectors through `logtime run`.
//! [`P`] is the one fixture: a partition and a clock, with invariants checked after every
//! operation.

mod index;
mod lookup;
mod retention;
mod roll;
mod validation;

use crate::batch::{batch_size, Record};
use crate::config::{Config, ConfigValue, KafkaVersion};
use crate::event::Event;
use crate::lookup::{find_offset_by_timestamp, OffsetSpec};
use crate::partition::{Command, Partition};
use crate::retention::{RetentionPass, Verdict};
use crate::segment::{RollReason, Segment};
use crate::units::{Bytes, Offset, Timestamp};
use crate::validation::validate;
use crate::Error;

const T0: i64 = 1_700_000_000_000;

/// Size of a one-record batch with a 100-byte value and a small timestamp delta.
fn s() -> i64 {
    batch_size(&[Record::at(Timestamp(T0))]).0
}

/// A partition under test and the broker clock the next operation runs at.
struct P {
    p: Partition,
    now: i64,
}

impl P {
    fn new(version: KafkaVersion, sets: &[(&str, i64)]) -> P {
        let mut c = Config::defaults(version);
        for (k, v) in sets {
            c.set(k, &ConfigValue::Number(*v)).unwrap();
        }
        P {
            p: Partition::new(c, "t-0", Timestamp(T0), 0),
            now: T0,
        }
    }
    fn v3(sets: &[(&str, i64)]) -> P {
        P::new(KafkaVersion::V3_6, sets)
    }
    fn apply(&mut self, c: Command) -> Result<Vec<Event>, Error> {
        let r = self.p.apply(Timestamp(self.now), c);
        self.p.check_invariants();
        r
    }
    fn produce(&mut self, ts: &[i64]) -> Vec<Event> {
        let records = ts.iter().map(|&t| Record::at(Timestamp(t))).collect();
        self.apply(Command::Produce { records }).unwrap()
    }
    fn produce_each(&mut self, ts: &[i64]) {
        for &t in ts {
            self.produce(&[t]);
        }
    }
    fn sleep(&mut self, ms: i64) {
        self.now += ms;
    }
    fn set(&mut self, name: &str, v: ConfigValue) {
        self.apply(Command::SetConfig {
            name: name.into(),
            value: v,
        })
        .unwrap();
    }
    fn retention(&mut self) -> usize {
        let ev = self.apply(Command::RunRetention).unwrap();
        ev.iter()
            .filter(|e| matches!(e, Event::SegmentDeleted { .. }))
            .count()
    }
    fn bases(&self) -> Vec<i64> {
        self.p
            .segments()
            .iter()
            .map(|s| s.base_offset().0)
            .collect()
    }
    fn find(&self, t: i64) -> (i64, i64) {
        let (o, ts) = self
            .p
            .lookup(OffsetSpec::Timestamp(Timestamp(t)))
            .unwrap()
            .pipe();
        (o, ts)
    }
    fn spec(&self, spec: OffsetSpec) -> (i64, i64) {
        self.p.lookup(spec).unwrap().pipe()
    }
}

trait Pipe {
    fn pipe(self) -> (i64, i64);
}
impl Pipe for crate::lookup::Lookup {
    fn pipe(self) -> (i64, i64) {
        (self.offset.0, self.timestamp.0)
    }
}

fn segment_with(base: i64, ts: &[i64], interval: i64) -> Segment {
    let c = Config::defaults(KafkaVersion::V3_6);
    let mut seg = Segment::new(Offset(base), Timestamp(T0), 10 * 1024 * 1024, interval, 0);
    for (i, &t) in ts.iter().enumerate() {
        let r = [Record::at(Timestamp(t))];
        let v = validate(&c, "t-0", Timestamp(T0), &r).unwrap();
        seg.append(Timestamp(T0), Offset(base + i as i64), &r, &v);
    }
    seg.check_invariants();
    seg
}

fn keyed(ts: i64) -> Record {
    Record::with_key(Timestamp(ts), Some(4), 100)
}
