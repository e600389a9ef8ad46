//! One partition on one broker (a single replica, so the high watermark follows the log end
//! offset after each append): the sans-I/O state machine everything else drives.
//!
//! ```
//! use logtime_model::{Partition, Command, Config, KafkaVersion, Record, Timestamp, OffsetSpec};
//! let start = Timestamp(1_700_000_000_000);
//! let mut p = Partition::new(Config::defaults(KafkaVersion::V4_0), "clicks-0", start, 0);
//! p.apply(start, Command::Produce { records: vec![Record::at(start)] }).unwrap();
//! let found = p.lookup(OffsetSpec::Timestamp(start)).unwrap();
//! assert_eq!(found.offset.0, 0);
//! ```
//!
//! Invariants (checked by [`Partition::check_invariants`] after every operation in tests):
//! * there is always at least one segment; segments are contiguous in offsets;
//! * `first segment base <= log_start_offset <= high_watermark <= log_end_offset`;
//! * the clock never goes backwards, and the next retention pass is after the clock.
//!
//! Retention runs on two schedules, as on a broker. `LogManager.cleanupLogs`, the retention task
//! (every `log.retention.check.interval.ms`, here at `start + k × interval`), skips logs whose
//! `cleanup.policy` includes `compact`; those get `deleteOldSegments` from the log cleaner
//! instead: `CleanerThread.doWork` runs `cleanFilthiestLog`, which ends with `deleteOldSegments`
//! on every compacted log of `LogCleanerManager.deletableLogs`, and pauses
//! `log.cleaner.backoff.ms` when it compacted nothing. Compaction is not modelled, so the cleaner
//! never has work and its passes fall at `start + k × backoff`. Each schedule runs only while
//! the policy in force is its own; the other one's instants pass without a check.

use crate::batch::Record;
use crate::config::{Config, ConfigValue, KafkaVersion};
use crate::error::{DeleteRecordsError, Error};
use crate::event::{Appended, Event, LogStartReason, Roll};
use crate::fast::sink::{Discard, Sink};
use crate::lookup::{self, LogView, Lookup, LookupError, OffsetSpec};
use crate::retention::{self, Inputs, RetentionReport, Step};
use crate::rng::SplitMix64;
use crate::segment::{RollReason, Segment};
use crate::units::{Bytes, Offset, Timestamp};
use crate::validation::{self, ErrorCode, Limits, ProduceError, Validated};
use serde::{Deserialize, Serialize};

/// Something to do to the partition at an instant.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "command", rename_all = "snake_case")]
pub enum Command {
    /// Only move the clock (running the retention checks due on the way).
    Tick,
    /// A producer sends one batch.
    Produce {
        /// The batch's records.
        records: Vec<Record>,
    },
    /// Run one retention check now, besides the scheduled ones.
    RunRetention,
    /// DeleteRecords up to `offset` (`-1` = the high watermark).
    DeleteRecords {
        /// The new log start offset asked for.
        offset: i64,
    },
    /// Change a topic or broker config by its Kafka name.
    SetConfig {
        /// Kafka name.
        name: String,
        /// New value.
        value: ConfigValue,
    },
    /// Switch the version preset.
    SetVersion {
        /// The preset.
        version: KafkaVersion,
    },
    /// Set the high watermark (a follower lagging behind); the next append moves it back to the
    /// log end offset.
    SetHighWatermark {
        /// The new high watermark.
        offset: Offset,
    },
}

/// A partition.
#[derive(Clone, Debug)]
pub struct Partition {
    pub(crate) config: Config,
    topic_partition: String,
    /// Boxed, so that the list's growth and the retention's removal from its front move a
    /// pointer per segment, not the segment itself: with a million one-record segments, each
    /// doubling of a list of whole segments copied hundreds of megabytes in one go (a task of
    /// half a second in the browser).
    #[allow(clippy::vec_box)]
    pub(crate) segments: Vec<Box<Segment>>,
    /// The sum of the segments' sizes, kept as they grow, roll and are deleted so that
    /// [`Partition::size`] does not walk a million one-record segments.
    pub(crate) size: i64,
    /// The sum of the segments' record counts, kept like `size`.
    pub(crate) records: u64,
    pub(crate) log_start_offset: Offset,
    pub(crate) high_watermark: Offset,
    pub(crate) clock: Timestamp,
    start: Timestamp,
    /// The retention task's next run (topics without `compact`).
    pub(crate) next_retention_check: Timestamp,
    /// The log cleaner's next retention pass (topics with `compact`).
    pub(crate) next_cleaner_pass: Timestamp,
    pub(crate) rng: SplitMix64,
    /// What validation reads of `config`, worked out when it changes.
    pub(crate) limits: Limits,
    /// Segments rolled since the partition was made (an empty one replaced counts not).
    pub(crate) rolled: u64,
    /// The largest `max_timestamp_so_far` of the segments that are no longer active, deleted
    /// ones included, for [`Partition::max_timestamp_bound`].
    closed_max_timestamp: Timestamp,
    /// Batches a caller said are coming ([`Partition::expect_batches`]), for which each new
    /// active segment reserves room.
    pub(crate) expected: Option<Expected>,
}

/// A run of one-record batches of one shape, worked out once ([`Partition::run_shape`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct RunShape {
    /// The batch's size (one record: its stamp does not change it).
    pub(crate) size: Bytes,
    /// Whether the config lets such a batch be accepted without a word at all.
    pub(crate) common: bool,
    /// The limits it was worked out against.
    #[cfg(debug_assertions)]
    pub(crate) limits: Limits,
}

/// Batches announced by [`Partition::expect_batches`] and not yet appended.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Expected {
    pub(crate) batches: u64,
    records_per_batch: usize,
    batch_bytes: i64,
}

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
    /// A new empty partition for `topic_partition` (e.g. `"clicks-0"`), created at `start`, with
    /// `seed` for segment jitter. The retention task first runs at
    /// `start + log.retention.check.interval.ms`, the log cleaner's first pass (compacted topics)
    /// is at `start + log.cleaner.backoff.ms`.
    pub fn new(config: Config, topic_partition: &str, start: Timestamp, seed: u64) -> Partition {
        let mut rng = SplitMix64::new(seed);
        let jitter = Self::draw_jitter(&config, &mut rng);
        let t = &config.topic;
        let seg = Segment::new(
            Offset(0),
            start,
            t.segment_index_bytes,
            t.index_interval_bytes,
            jitter,
        );
        Partition {
            next_retention_check: config.first_retention_check(start),
            next_cleaner_pass: config.first_cleaner_pass(start),
            limits: Limits::of(&config),
            rolled: 0,
            closed_max_timestamp: Timestamp::NONE,
            config,
            topic_partition: topic_partition.to_string(),
            segments: vec![Box::new(seg)],
            size: 0,
            records: 0,
            log_start_offset: Offset(0),
            high_watermark: Offset(0),
            clock: start,
            start,
            rng,
            expected: None,
        }
    }

    /// A partition whose log already holds `segments` (oldest first, contiguous, only the last
    /// may be empty), with the given log start offset, as at broker time `now`: imported from a
    /// broker's files or seeded by a scenario. `crate::seed` checks the parts first so
    /// that [`Partition::check_invariants`] holds. The high watermark is the log end offset, the
    /// retention task first runs at `now + log.retention.check.interval.ms` and the log
    /// cleaner's first pass is at `now + log.cleaner.backoff.ms`.
    #[allow(clippy::vec_box)] // boxed as `Partition::segments` holds them
    pub(crate) fn from_parts(
        config: Config,
        topic_partition: &str,
        now: Timestamp,
        seed: u64,
        segments: Vec<Box<Segment>>,
        log_start_offset: Offset,
    ) -> Partition {
        let rng = SplitMix64::new(seed);
        let high_watermark = segments.last().map_or(Offset(0), |s| s.next_offset());
        let size = segments.iter().map(|s| s.size().0).sum();
        let records = segments.iter().map(|s| s.record_count()).sum();
        let closed_max_timestamp = segments
            .iter()
            .rev()
            .skip(1)
            .map(|s| s.max_timestamp_so_far())
            .max()
            .unwrap_or(Timestamp::NONE);
        Partition {
            next_retention_check: config.first_retention_check(now),
            next_cleaner_pass: config.first_cleaner_pass(now),
            limits: Limits::of(&config),
            rolled: 0,
            closed_max_timestamp,
            config,
            topic_partition: topic_partition.to_string(),
            segments,
            size,
            records,
            log_start_offset,
            high_watermark,
            clock: now,
            start: now,
            rng,
            expected: None,
        }
    }

    /// `LogConfig.randomSegmentJitter`: `abs(nextInt) % min(jitter, segment.ms)`, 0 if no jitter.
    fn draw_jitter(config: &Config, rng: &mut SplitMix64) -> i64 {
        let t = &config.topic;
        if t.segment_jitter_ms == 0 {
            return 0;
        }
        let n = rng.next_i32();
        let abs = if n == i32::MIN { 0 } else { n.abs() as i64 };
        abs % t.segment_jitter_ms.min(t.segment_ms)
    }

    /// The config in force.
    pub fn config(&self) -> &Config {
        &self.config
    }
    /// `topic-partition`, as Kafka prints it.
    pub fn topic_partition(&self) -> &str {
        &self.topic_partition
    }
    /// Segments, oldest first; the last one is active.
    pub fn segments(&self) -> &[Box<Segment>] {
        &self.segments
    }
    /// The active segment.
    pub fn active_segment(&self) -> &Segment {
        self.segments
            .last()
            .expect("a partition always has a segment")
    }
    /// Log start offset.
    pub fn log_start_offset(&self) -> Offset {
        self.log_start_offset
    }
    /// Log end offset.
    pub fn log_end_offset(&self) -> Offset {
        self.active_segment().next_offset()
    }
    /// High watermark.
    pub fn high_watermark(&self) -> Offset {
        self.high_watermark
    }
    /// The last instant the partition saw.
    pub fn clock(&self) -> Timestamp {
        self.clock
    }
    /// The instant the partition was created.
    pub fn start(&self) -> Timestamp {
        self.start
    }
    /// When the next scheduled retention pass runs: the retention task's next run, or, when the
    /// topic's `cleanup.policy` includes `compact`, the log cleaner's next pass.
    pub fn next_retention_check(&self) -> Timestamp {
        if self.config.retention_by_cleaner() {
            self.next_cleaner_pass
        } else {
            self.next_retention_check
        }
    }
    /// Total size of all segments.
    pub fn size(&self) -> Bytes {
        Bytes(self.size)
    }
    /// The index of the first segment that ends after `offset` (a binary search): the segment
    /// holding it, or the next one.
    fn segment_index(&self, offset: Offset) -> usize {
        self.segments.partition_point(|s| s.next_offset() <= offset)
    }
    /// The segment holding `offset`, if any.
    pub fn segment_of(&self, offset: Offset) -> Option<&Segment> {
        let s = self.segments.get(self.segment_index(offset))?;
        (s.base_offset() <= offset).then_some(s)
    }
    /// The segments from the one holding `offset` (or the first after it) to the active one.
    pub fn segments_from(&self, offset: Offset) -> &[Box<Segment>] {
        &self.segments[self.segment_index(offset)..]
    }
    /// The timestamp a reader sees at `offset`, if a record is stored there (including one below
    /// the log start offset whose segment is not deleted yet).
    pub fn timestamp_at(&self, offset: Offset) -> Option<Timestamp> {
        self.segment_of(offset)?.timestamp_at(offset)
    }
    /// A timestamp that no segment's `max_timestamp_so_far` exceeds: the largest of them all
    /// since the partition was made, deleted segments' included (so it never goes down), and
    /// [`Timestamp::NONE`] before the first record. O(1): whether any segment is stamped after
    /// an instant, without a walk over a million of them.
    pub fn max_timestamp_bound(&self) -> Timestamp {
        self.closed_max_timestamp
            .max(self.active_segment().max_timestamp_so_far())
    }
    /// Segments rolled since the partition was made or imported (an empty segment replaced at
    /// the same base does not count).
    pub fn segments_rolled(&self) -> u64 {
        self.rolled
    }
    /// Heap bytes the model holds for this partition: the segment list and every segment's
    /// batches, timestamps and indexes, room reserved for growth included (the figure behind
    /// the benchmark's `bytes_per_record`).
    pub fn heap_bytes(&self) -> usize {
        self.segments.capacity() * size_of::<Box<Segment>>()
            + self.segments.len() * size_of::<Segment>()
            + self.segments.iter().map(|s| s.heap_bytes()).sum::<usize>()
    }
    /// Total record count, including records below the log start offset not yet deleted.
    pub fn record_count(&self) -> u64 {
        self.records
    }

    fn validate(&self, now: Timestamp, records: &[Record]) -> Result<Validated, ProduceError> {
        validation::validate_with(
            &self.limits,
            &self.config,
            &self.topic_partition,
            now,
            records,
        )
    }

    fn set_config_in_force(&mut self, config: Config) {
        self.limits = Limits::of(&config);
        self.config = config;
    }

    /// Says that `batches` batches like `sample` are about to be produced (generated traffic),
    /// so that the active segment, and each one rolled while they arrive, reserves room for as
    /// many of them as `segment.bytes` lets it hold instead of growing by doubling. A hint:
    /// appending more, fewer or other batches is still exact.
    pub fn expect_batches(&mut self, batches: u64, sample: &[Record]) {
        if sample.is_empty() || batches == 0 {
            self.expected = None;
            return;
        }
        self.expected = Some(Expected {
            batches,
            records_per_batch: sample.len(),
            batch_bytes: crate::batch::batch_size(sample).0.max(1),
        });
        self.reserve_expected();
    }

    /// Reserves, in the active segment, room for the expected batches it can hold.
    fn reserve_expected(&mut self) {
        let Some(e) = self.expected else { return };
        let room = (self.config.topic.segment_bytes - self.active_segment().size().0).max(0);
        let fit = (room / e.batch_bytes).max(1) as u64;
        let n = e.batches.min(fit) as usize;
        self.segments
            .last_mut()
            .expect("a partition always has a segment")
            .reserve(n, e.records_per_batch, e.batch_bytes);
    }

    /// Applies a command at broker time `now`. Retention checks due at or before `now` run first,
    /// each at its own due instant, then the command. On error nothing changes (the clock
    /// included), so a caller that wants the due checks' events regardless sends
    /// [`Command::Tick`] first.
    pub fn apply(&mut self, now: Timestamp, command: Command) -> Result<Vec<Event>, Error> {
        let mut events = Vec::new();
        self.apply_with(now, command, &mut events)?;
        Ok(events)
    }

    /// A command at `now` before the partition's clock is refused: the clock only moves
    /// forwards, and nothing changes.
    fn check_clock(&self, now: Timestamp) -> Result<(), Error> {
        if now < self.clock {
            return Err(Error::ClockWentBackwards {
                now,
                clock: self.clock,
            });
        }
        Ok(())
    }

    /// [`Partition::apply`], handing each event to `events` as it happens (a sink that only
    /// counts builds no list, and one that discards builds no event).
    pub(crate) fn apply_with(
        &mut self,
        now: Timestamp,
        command: Command,
        events: &mut impl Sink,
    ) -> Result<(), Error> {
        self.check_clock(now)?;
        match command {
            Command::Tick => self.run_due_checks(now, events),
            Command::Produce { records } => return self.produce_with(now, &records, events),
            Command::RunRetention => {
                self.run_due_checks(now, events);
                self.retention_check(now, false, events);
            }
            Command::DeleteRecords { offset } => {
                let target = self.check_delete_records(offset)?;
                self.run_due_checks(now, events);
                let from = self.log_start_offset;
                if target > from {
                    self.log_start_offset = target;
                    events.emit(|| Event::LogStartOffsetIncremented {
                        from,
                        to: target,
                        reason: LogStartReason::ClientRecordDeletion,
                    });
                }
                events.emit(|| Event::RecordsDeleted {
                    requested: target,
                    low_watermark: self.log_start_offset,
                });
            }
            Command::SetConfig { name, value } => {
                let mut next = self.config.clone();
                next.set(&name, &value)?;
                self.run_due_checks(now, events);
                let old = self
                    .config
                    .get(&name)
                    .expect("a config that could be set can be read");
                let new = next
                    .get(&name)
                    .expect("a config that could be set can be read");
                self.set_config_in_force(next);
                // A policy change hands retention to the other schedule, whose instants up to
                // now ran no pass on this log.
                self.skip_idle_schedule(now);
                events.emit(|| Event::ConfigChanged { name, old, new });
            }
            Command::SetVersion { version } => {
                self.run_due_checks(now, events);
                let from = self.config.version;
                let (next, reset) = self.config.with_version(version);
                self.set_config_in_force(next);
                events.emit(|| Event::VersionChanged {
                    from,
                    to: version,
                    reset,
                });
            }
            Command::SetHighWatermark { offset } => {
                // Due checks may raise the log start offset, up to the current high watermark.
                let mut probe = None;
                if now >= self.next_retention_check() {
                    let mut c = self.clone();
                    c.run_due_checks(now, &mut Discard);
                    probe = Some(c.log_start_offset);
                }
                let min = probe.unwrap_or(self.log_start_offset);
                let max = self.log_end_offset();
                if offset < min || offset > max {
                    return Err(Error::HighWatermarkOutOfRange {
                        requested: offset,
                        min,
                        max,
                    });
                }
                self.run_due_checks(now, events);
                self.move_high_watermark(offset, events);
            }
        }
        self.clock = now;
        Ok(())
    }

    /// [`Command::Produce`] of a borrowed batch, handing each event to `events`.
    pub(crate) fn produce_with(
        &mut self,
        now: Timestamp,
        records: &[Record],
        events: &mut impl Sink,
    ) -> Result<(), Error> {
        self.check_clock(now)?;
        // A one-record batch inside the windows takes validation's quick path there.
        let v = self.validate(now, records).map_err(Error::Produce)?;
        self.run_due_checks(now, events);
        self.append_validated(now, records, v, events);
        self.clock = now;
        Ok(())
    }

    /// Appends a batch validated by the caller: the hot path behind [`Command::Produce`]. Returns
    /// the base offset. Exposed for benchmarks; `now` must not be before the clock, and due
    /// retention checks are the caller's business.
    pub fn produce_unchecked(
        &mut self,
        now: Timestamp,
        records: &[Record],
    ) -> Result<Offset, Box<ProduceError>> {
        let v = self.validate(now, records).map_err(Box::new)?;
        let base = self.log_end_offset();
        self.append_validated(now, records, v, &mut Discard);
        self.clock = self.clock.max(now);
        Ok(base)
    }

    fn check_delete_records(&self, offset: i64) -> Result<Offset, Error> {
        let tp = &self.topic_partition;
        if !self.config.topic.cleanup_policy.delete {
            return Err(Error::DeleteRecords(DeleteRecordsError {
                error: ErrorCode::PolicyViolation,
                error_message: format!(
                    "Records of partition {tp} can not be deleted due to the configured policy"
                ),
            }));
        }
        let target = if offset == -1 {
            self.high_watermark.0
        } else {
            offset
        };
        if target < 0 {
            return Err(Error::DeleteRecords(DeleteRecordsError {
                error: ErrorCode::OffsetOutOfRange,
                error_message: format!("The offset {target} for partition {tp} is not valid"),
            }));
        }
        if target > self.high_watermark.0 {
            return Err(Error::DeleteRecords(DeleteRecordsError {
                error: ErrorCode::OffsetOutOfRange,
                error_message: format!(
                    "Cannot increment the log start offset to {target} of partition {tp} since it is larger than the high watermark {}",
                    self.high_watermark
                ),
            }));
        }
        Ok(Offset(target))
    }

    fn move_high_watermark(&mut self, to: Offset, events: &mut impl Sink) {
        let from = self.high_watermark;
        if from != to {
            self.high_watermark = to;
            events.emit(|| Event::HighWatermarkMoved { from, to });
        }
    }

    fn append_validated(
        &mut self,
        now: Timestamp,
        records: &[Record],
        v: Validated,
        events: &mut impl Sink,
    ) {
        if records.is_empty() {
            events.emit(|| Event::EmptyBatchIgnored);
            return;
        }
        let base = self.log_end_offset();
        let last = base.plus(records.len() as i64 - 1);
        let t = &self.config.topic;
        let (segment_bytes, segment_ms) = (t.segment_bytes, t.segment_ms);
        if let Some(reason) = self.active_segment().should_roll(
            now,
            v.max_timestamp,
            v.size,
            last,
            segment_bytes,
            segment_ms,
        ) {
            self.roll(now, base, reason, events);
        }
        let seg = self
            .segments
            .last_mut()
            .expect("a partition always has a segment");
        let position = seg.size();
        let update = seg.append(now, base, records, &v);
        self.appended(base, last, position, update, v, events);
    }

    /// The common one-record batch of a run ([`Partition::produce_run`]): when nothing is due,
    /// the clock does not go backwards, the stamp `ts` is accepted at `now` without a
    /// diagnosis and the active segment does not roll, appends it (what
    /// [`Partition::produce_with`] would do, with the same events) and returns `true`;
    /// otherwise changes nothing and returns `false`, and the caller sends the batch through
    /// [`Partition::produce_with`], which says what happens to it.
    #[inline]
    pub(crate) fn append_common(
        &mut self,
        run: RunShape,
        now: Timestamp,
        ts: Timestamp,
        events: &mut impl Sink,
    ) -> bool {
        #[cfg(debug_assertions)]
        assert_eq!(self.limits, run.limits, "the config changed during a run");
        if !run.common
            || now < self.clock
            || now >= self.next_retention_check()
            || !self.limits.stamp_common(now, ts)
        {
            return false;
        }
        let v = Validated {
            size: run.size,
            max_timestamp: ts.max(Timestamp::NONE),
            log_append_time: None,
            diagnoses: Vec::new(),
        };
        let t = &self.config.topic;
        let (segment_bytes, segment_ms) = (t.segment_bytes, t.segment_ms);
        let seg = self
            .segments
            .last_mut()
            .expect("a partition always has a segment");
        let base = seg.next_offset();
        if seg
            .should_roll(
                now,
                v.max_timestamp,
                v.size,
                base,
                segment_bytes,
                segment_ms,
            )
            .is_some()
        {
            return false;
        }
        let position = seg.size();
        let update = seg.append_one(now, base, ts, &v);
        self.appended(base, base, position, update, v, events);
        self.clock = now;
        true
    }

    /// What one run of one-record batches shaped like `shape` (its timestamp aside) works out
    /// once: the batch's size, and whether the config in force lets such a batch take the common
    /// path at all. Valid while the config does not change.
    pub(crate) fn run_shape(&self, shape: &Record) -> RunShape {
        let size = crate::batch::single_record_batch_size(shape);
        RunShape {
            size,
            common: self.limits.takes_common(size, shape.has_key()),
            #[cfg(debug_assertions)]
            limits: self.limits,
        }
    }

    /// What follows a batch's store in the active segment (at `base..=last`, `position`): the
    /// expected batches, the events, the high watermark.
    // Always inlined (into both append paths), as `Segment::append_one` is.
    #[inline(always)]
    fn appended(
        &mut self,
        base: Offset,
        last: Offset,
        position: Bytes,
        update: crate::segment::IndexUpdate,
        v: Validated,
        events: &mut impl Sink,
    ) {
        let segment = self.active_segment().base_offset();
        self.size += v.size.0;
        self.records += (last.0 - base.0 + 1) as u64;
        if let Some(e) = &mut self.expected {
            e.batches -= 1;
            if e.batches == 0 {
                self.expected = None;
            }
        }
        events.emit(|| {
            Event::BatchAppended(Appended {
                segment,
                base_offset: base,
                last_offset: last,
                position,
                size: v.size,
                max_timestamp: v.max_timestamp,
                log_append_time: v.log_append_time,
                diagnoses: v.diagnoses,
            })
        });
        if let Some((offset, position)) = update.offset_entry {
            events.emit(|| Event::OffsetIndexEntry {
                segment,
                offset,
                position,
            });
        }
        if let Some((timestamp, offset)) = update.time_entry {
            events.emit(|| Event::TimeIndexEntry {
                segment,
                timestamp,
                offset,
                at_roll: false,
            });
        }
        self.move_high_watermark(last.plus(1), events);
    }

    /// `LocalLog.roll`: the old active segment gets its final time-index entry, and a new segment
    /// opens at `max(expected, log end offset)`, replacing the old one if it is empty at that base.
    fn roll(
        &mut self,
        now: Timestamp,
        expected: Offset,
        reason: RollReason,
        events: &mut impl Sink,
    ) -> Offset {
        let new_base = expected.max(self.log_end_offset());
        let jitter = Self::draw_jitter(&self.config, &mut self.rng);
        let old = self
            .segments
            .last_mut()
            .expect("a partition always has a segment");
        let old_base = old.base_offset();
        let replaced_empty = old_base == new_base && old.size().0 == 0;
        self.closed_max_timestamp = self.closed_max_timestamp.max(old.max_timestamp_so_far());
        if let Some((timestamp, offset)) = old.on_become_inactive(reason) {
            events.emit(|| Event::TimeIndexEntry {
                segment: old_base,
                timestamp,
                offset,
                at_roll: true,
            });
        }
        let t = &self.config.topic;
        let seg = Box::new(Segment::new(
            new_base,
            now,
            t.segment_index_bytes,
            t.index_interval_bytes,
            jitter,
        ));
        if replaced_empty {
            *self.segments.last_mut().expect("checked above") = seg;
        } else {
            self.segments.push(seg);
            self.rolled += 1;
        }
        self.reserve_expected();
        events.emit(|| {
            Event::SegmentRolled(Roll {
                old_base,
                new_base,
                reason,
                replaced_empty,
                roll_jitter_ms: jitter,
            })
        });
        new_base
    }

    /// Moves the schedule that does not run retention on this topic (the retention task for a
    /// compacted topic, the cleaner for the others) to its first instant after `now`.
    fn skip_idle_schedule(&mut self, now: Timestamp) {
        fn past(next: Timestamp, period: i64, now: Timestamp) -> Timestamp {
            if next > now {
                return next;
            }
            let k = (now.0 as i128 - next.0 as i128) / period as i128 + 1;
            Timestamp((next.0 as i128 + k * period as i128).min(i64::MAX as i128) as i64)
        }
        if self.config.retention_by_cleaner() {
            let period = self.config.broker.log_retention_check_interval_ms.max(1);
            self.next_retention_check = past(self.next_retention_check, period, now);
        } else {
            let period = self.config.cleaner_backoff_ms();
            self.next_cleaner_pass = past(self.next_cleaner_pass, period, now);
        }
    }

    /// Runs every retention pass due at or before `now` on the schedule in force (the retention
    /// task, or the log cleaner for a compacted topic), each at its own instant.
    ///
    /// A check that deletes nothing changes nothing, so the checks after it are idle too until
    /// the first remaining segment becomes old enough (or forever, when the walk is stopped by
    /// the high watermark, the empty active segment or a disabled limit). Those idle checks are
    /// skipped and counted in the next report's `idle_checks_before`; the last due check always
    /// runs so the latest verdicts are reported. This keeps a clock jump of centuries cheap.
    fn run_due_checks(&mut self, now: Timestamp, events: &mut impl Sink) {
        self.skip_idle_schedule(now);
        let by_cleaner = self.config.retention_by_cleaner();
        let interval = if by_cleaner {
            self.config.cleaner_backoff_ms()
        } else {
            self.config.broker.log_retention_check_interval_ms.max(1)
        };
        let mut next = self.next_retention_check();
        let mut idle: u64 = 0;
        while next <= now {
            let at = next;
            let plan = retention::plan(&self.config, &self.segments, self.inputs(at));
            // How many more checks are due after this one, at or before `now`.
            let last_due =
                ((now.0 as i128 - at.0 as i128) / interval as i128).min(i64::MAX as i128) as i64;
            if plan.deletes_nothing() && last_due > 0 {
                // Idle: jump to the first due instant at or after the blocker's eligibility,
                // but no further than the last check due at or before `now`.
                let k = match plan.wake() {
                    Some(w) if w > at => ((w.0 as i128 - at.0 as i128 + interval as i128 - 1)
                        / interval as i128)
                        .min(last_due as i128) as i64,
                    Some(_) => 1,
                    None => last_due,
                }
                .max(1);
                idle += k as u64;
                next = Timestamp((at.0 as i128 + k as i128 * interval as i128) as i64);
                continue;
            }
            if plan.is_quiet() {
                // Nothing to execute; the report (every segment's verdict) is made only for a
                // sink that keeps it.
                events.quiet_check(|| {
                    let (_, mut report) = plan.finish(true);
                    report.idle_checks_before = idle;
                    report
                });
            } else {
                let (steps, report) = plan.finish(true);
                self.execute_retention(at, steps, report, idle, events);
            }
            idle = 0;
            match at.0.checked_add(interval) {
                Some(n) => next = Timestamp(n),
                None => {
                    next = Timestamp(i64::MAX);
                    break;
                }
            }
        }
        if by_cleaner {
            self.next_cleaner_pass = next;
        } else {
            self.next_retention_check = next;
        }
    }

    fn inputs(&self, now: Timestamp) -> Inputs {
        Inputs {
            now,
            log_start_offset: self.log_start_offset,
            high_watermark: self.high_watermark,
            log_end_offset: self.log_end_offset(),
            size: self.size,
        }
    }

    /// What a retention check at `now` would do, without doing it.
    pub fn preview_retention(&self, now: Timestamp) -> RetentionReport {
        retention::plan(&self.config, &self.segments, self.inputs(now))
            .finish(false)
            .1
    }

    fn retention_check(&mut self, at: Timestamp, scheduled: bool, events: &mut impl Sink) {
        let (steps, report) =
            retention::plan(&self.config, &self.segments, self.inputs(at)).finish(scheduled);
        self.execute_retention(at, steps, report, 0, events);
    }

    fn execute_retention(
        &mut self,
        at: Timestamp,
        steps: Vec<Step>,
        mut report: RetentionReport,
        idle: u64,
        events: &mut impl Sink,
    ) {
        report.idle_checks_before = idle;
        for &base in &report.future_timestamp_segments {
            let largest = self
                .segments
                .binary_search_by_key(&base, |s| s.base_offset())
                .ok()
                .map(|i| self.segments[i].largest_timestamp());
            events.emit(|| Event::FutureTimestampWarning {
                segment: base,
                largest_timestamp: largest.unwrap_or(Timestamp::NONE),
            });
        }
        let mut deleted = report.deleted.iter();
        for step in steps {
            match step {
                Step::Roll => {
                    let leo = self.log_end_offset();
                    self.roll(at, leo, RollReason::RetentionDeletesAll, events);
                }
                Step::Delete { n, pass: _ } => {
                    for seg in &self.segments[..n] {
                        self.size -= seg.size().0;
                        self.records -= seg.record_count();
                    }
                    let size_after = self.size;
                    for seg in self.segments.drain(..n) {
                        let d = deleted.next().expect("the plan lists every deletion");
                        let reason = retention::deletion_reason(
                            &self.config,
                            d,
                            seg.largest_timestamp(),
                            seg.largest_timestamp_is_record_time(),
                            self.log_start_offset,
                            size_after,
                        );
                        events.emit(|| Event::SegmentDeleted {
                            base_offset: d.base_offset,
                            pass: d.pass,
                            reason,
                        });
                    }
                    let first = self.segments[0].base_offset();
                    if first > self.log_start_offset {
                        let from = self.log_start_offset;
                        self.log_start_offset = first;
                        events.emit(|| Event::LogStartOffsetIncremented {
                            from,
                            to: first,
                            reason: LogStartReason::SegmentDeletion,
                        });
                    }
                }
            }
        }
        debug_assert_eq!(report.log_start_offset, self.log_start_offset);
        events.emit(|| Event::RetentionChecked(report));
    }

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
