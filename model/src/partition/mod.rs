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

mod append;
mod cleanup;
mod read;

pub use read::{PartitionState, SegmentState};

use crate::batch::Record;
use crate::config::{Config, ConfigValue, KafkaVersion};
use crate::error::Error;
use crate::event::{Event, LogStartReason};
use crate::fast::sink::{Discard, Sink};
use crate::rng::SplitMix64;
use crate::segment::Segment;
use crate::units::{Bytes, Offset, Timestamp};
use crate::validation::{self, Limits, ProduceError, Validated};
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
            Command::SetConfig { name, value } => self.set_config(now, name, value, events)?,
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
            Command::SetHighWatermark { offset } => self.set_high_watermark(now, offset, events)?,
        }
        self.clock = now;
        Ok(())
    }

    /// [`Command::SetConfig`]: the value checked first (a refused one changes nothing), the due
    /// checks run under the old config, then the new one in force.
    fn set_config(
        &mut self,
        now: Timestamp,
        name: String,
        value: ConfigValue,
        events: &mut impl Sink,
    ) -> Result<(), Error> {
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
        Ok(())
    }

    /// [`Command::SetHighWatermark`]: refused outside `[log start offset, log end offset]`, the
    /// log start offset being the one after the due checks.
    fn set_high_watermark(
        &mut self,
        now: Timestamp,
        offset: Offset,
        events: &mut impl Sink,
    ) -> Result<(), Error> {
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
        Ok(())
    }
}
