//! Reading a partition: `UnifiedLog.fetchOffsetByTimestamp` (ListOffsets) over the log's
//! segments, and the snapshots of `UnifiedLog`'s offsets and `LogSegment`s that reports and the
//! UI draw (with the invariants the tests check after every operation).

use super::Partition;
use crate::lookup::{self, LogView, Lookup, LookupError, OffsetSpec};
use crate::units::{Bytes, Offset, Timestamp};
use serde::{Deserialize, Serialize};

/// A snapshot of a segment for reports and the UI.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SegmentState {
    /// Base offset.
    pub base_offset: Offset,
    /// End offset.
    pub next_offset: Offset,
    /// Size in bytes.
    pub size_bytes: Bytes,
    /// Record count.
    pub records: u64,
    /// Kafka's `largestTimestamp` (record max, or last-modified when no record has a stamp).
    pub largest_timestamp: Timestamp,
    /// The max record timestamp, `-1` if none.
    pub max_timestamp: Timestamp,
    /// Time of the last append (or creation).
    pub last_modified: Timestamp,
    /// `(timestamp, offset)` entries.
    pub time_index: Vec<(Timestamp, Offset)>,
    /// `(offset, position)` entries.
    pub offset_index: Vec<(Offset, Bytes)>,
}

/// [`Partition::state_serialized`]: [`PartitionState`]'s fields in its order, the segments
/// streamed.
struct StateView<'a>(&'a Partition);

impl Serialize for StateView<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        struct Segments<'a>(&'a Partition);
        impl Serialize for Segments<'_> {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.collect_seq(self.0.segment_states())
            }
        }
        let p = self.0;
        let mut st = serializer.serialize_struct("PartitionState", 4)?;
        st.serialize_field("log_start_offset", &p.log_start_offset)?;
        st.serialize_field("log_end_offset", &p.log_end_offset())?;
        st.serialize_field("high_watermark", &p.high_watermark)?;
        st.serialize_field("segments", &Segments(p))?;
        st.end()
    }
}

/// A snapshot of the whole partition.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartitionState {
    /// Log start offset.
    pub log_start_offset: Offset,
    /// Log end offset.
    pub log_end_offset: Offset,
    /// High watermark.
    pub high_watermark: Offset,
    /// Segments, oldest first; the last is active.
    pub segments: Vec<SegmentState>,
}

impl Partition {
    /// A consumer's ListOffsets (read uncommitted), with the trace of what the broker did.
    pub fn lookup(&self, spec: OffsetSpec) -> Result<Lookup, LookupError> {
        let mut trace = Vec::new();
        let (offset, timestamp) = lookup::lookup(&self.log_view(), spec, Some(&mut trace))?;
        Ok(Lookup {
            spec,
            offset,
            timestamp,
            trace,
        })
    }

    /// The same answer as [`Partition::lookup`] without the trace (the fast path).
    pub fn offset_for(&self, spec: OffsetSpec) -> Result<(Offset, Timestamp), LookupError> {
        lookup::lookup(&self.log_view(), spec, None)
    }

    fn log_view(&self) -> LogView<'_> {
        LogView {
            segments: &self.segments,
            log_start_offset: self.log_start_offset,
            high_watermark: self.high_watermark,
            version: self.config.version,
        }
    }

    /// A full snapshot (indexes included).
    pub fn state(&self) -> PartitionState {
        PartitionState {
            log_start_offset: self.log_start_offset,
            log_end_offset: self.log_end_offset(),
            high_watermark: self.high_watermark,
            segments: self.segment_states().collect(),
        }
    }

    /// Each segment's [`SegmentState`], oldest first, made one at a time.
    pub fn segment_states(&self) -> impl ExactSizeIterator<Item = SegmentState> + '_ {
        self.segments.iter().map(|s| SegmentState {
            base_offset: s.base_offset(),
            next_offset: s.next_offset(),
            size_bytes: s.size(),
            records: s.record_count(),
            largest_timestamp: s.largest_timestamp(),
            max_timestamp: s.max_timestamp_so_far(),
            last_modified: s.last_modified(),
            time_index: s.time_index().entries().collect(),
            offset_index: s.offset_index().entries().collect(),
        })
    }

    /// [`Partition::state`] as it serialises, without building it: a writer of a large
    /// partition's snapshot holds one segment's state at a time. The same JSON as
    /// `serde_json::to_string(&p.state())`.
    pub fn state_serialized(&self) -> impl Serialize + '_ {
        StateView(self)
    }

    /// Panics if an invariant does not hold (tests only).
    pub fn check_invariants(&self) {
        assert!(
            !self.segments.is_empty(),
            "a partition always has a segment"
        );
        for w in self.segments.windows(2) {
            assert_eq!(
                w[0].next_offset(),
                w[1].base_offset(),
                "segments must be contiguous"
            );
            assert!(w[0].size().0 > 0, "only the last segment may be empty");
        }
        for s in &self.segments {
            s.check_invariants();
        }
        assert_eq!(
            self.size,
            self.segments.iter().map(|s| s.size().0).sum::<i64>(),
            "the running size is the segments' sum"
        );
        assert_eq!(
            self.records,
            self.segments.iter().map(|s| s.record_count()).sum::<u64>(),
            "the running record count is the segments' sum"
        );
        let first = self.segments[0].base_offset();
        assert!(
            first <= self.log_start_offset,
            "first base {first} > log start {}",
            self.log_start_offset
        );
        assert!(self.log_start_offset <= self.high_watermark);
        assert!(self.high_watermark <= self.log_end_offset());
        let next = self.next_retention_check();
        assert!(next > self.clock || next.0 == i64::MAX);
        let bound = self.max_timestamp_bound();
        assert!(
            self.segments
                .iter()
                .all(|s| s.max_timestamp_so_far() <= bound),
            "no segment's max timestamp exceeds the bound"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::batch::Record;
    use crate::config::{Config, ConfigValue, KafkaVersion};

    /// The streamed snapshot is the built one, byte for byte, compact and pretty-printed.
    #[test]
    fn the_streamed_state_serialises_as_the_built_one() {
        let mut config = Config::defaults(KafkaVersion::V3_6);
        config
            .set("segment.bytes", &ConfigValue::Number(400))
            .expect("in range for 3.6");
        config
            .set("index.interval.bytes", &ConfigValue::Number(100))
            .expect("in range");
        let mut p = Partition::new(config, "t-0", Timestamp(1_000), 7);
        let empty = serde_json::to_string_pretty(&p.state()).unwrap();
        assert_eq!(
            serde_json::to_string_pretty(&p.state_serialized()).unwrap(),
            empty
        );
        for i in 0..40 {
            p.produce_unchecked(Timestamp(1_000 + i), &[Record::at(Timestamp(990 + i))])
                .unwrap();
        }
        assert!(p.segments().len() > 5);
        assert_eq!(
            serde_json::to_string(&p.state_serialized()).unwrap(),
            serde_json::to_string(&p.state()).unwrap()
        );
        assert_eq!(
            serde_json::to_string_pretty(&p.state_serialized()).unwrap(),
            serde_json::to_string_pretty(&p.state()).unwrap()
        );
    }
}
