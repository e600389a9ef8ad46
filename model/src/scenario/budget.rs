//! What one scenario may ask of a replay, checked before anything runs.
//!
//! A scenario file is small, but the work it describes is not bounded by its size: one `produce`
//! step can write ten million records, a `segment.bytes` of a few hundred turns them into as
//! many segments, and every `lookup` and `snapshot` step writes out a walk over the partition.
//! So the parser adds up what each step asks for and refuses a scenario over budget with an
//! error that names the step, the limit and how the figure was reached; a replay of a scenario
//! that parsed then needs memory in proportion to its partition plus one step.
//!
//! The figures are estimates that never overshoot what a replay that accepts every batch does:
//! segments are counted by `segment.bytes` alone (each batch at its smallest size, packed as the
//! broker packs them; time rolls and retention only add segments), and the segments a lookup or
//! a snapshot walks are every segment rolled so far (retention may have deleted some). What the
//! parser cannot foresee, segments rolled by time and the verdicts listed by the retention
//! checks (scheduled ones and `retention` steps, over the whole replay), the replay checks as it
//! goes ([`check_segments`], [`check_replay_verdicts`], [`check_retention_listing`]) and stops
//! with the same kind of error.

use crate::batch::{batch_size, Record};
use crate::units::Timestamp;

/// The most records one scenario may hold: those its `log` starts with plus those its steps
/// write (ten times the one-million-record partition the explorer is measured on).
pub const MAX_RECORDS: u64 = 10_000_000;

/// The most segments one scenario may roll (each is a few hundred bytes of bookkeeping, and the
/// explorer draws each one).
pub const MAX_SEGMENTS: u64 = 1_000_000;

/// The most segments all the lookups of a scenario may walk in all (a lookup's trace names each
/// segment it passes over).
pub const MAX_LOOKUP_WALK: u64 = 10_000_000;

/// The most segments and index entries all the snapshots of a scenario may list in all (a
/// snapshot lists the whole partition).
pub const MAX_SNAPSHOT_VOLUME: u64 = 10_000_000;

/// The most segment verdicts the retention checks of a whole replay may list in its reports
/// (each check that deletes something lists every segment's verdict, and so does every
/// `retention` step; a long `advance` or a long run of generated traffic over many small
/// segments makes many such checks). About 60 bytes each in memory, about a hundred in the JSON
/// report: counted over the replay, not per step, so that a thousand steps each under a per-step
/// limit cannot write hundreds of gigabytes of report between them.
pub const MAX_REPLAY_VERDICTS: u64 = 5_000_000;

/// The most segment verdicts all the `retention` steps of a scenario may list in all (each
/// lists every segment; its report holds a few KB a verdict on the way to the JSON report, so
/// one step over a million one-record segments took 3.5 GB).
pub const MAX_RETENTION_LISTING: u64 = 200_000;

/// The largest scenario file the command line and the explorer read (16 MiB): a file past it is
/// refused before it is parsed. Parsed JSON takes up to some tens of times its text (an object
/// of one key is a tree node of several hundred bytes), so this bounds the parse too.
pub const MAX_SCENARIO_BYTES: u64 = 16 << 20;

/// What the steps parsed so far ask for.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// Records written (seeded ones included).
    records: u128,
    /// Segments rolled (at least).
    rolled: u128,
    /// Bytes in the active segment (at most, as far as size rolls go).
    active_bytes: i64,
    /// Offset-index entries written (about).
    index_entries: u128,
    /// Segments walked by lookups.
    lookup_walk: u128,
    /// Segments and index entries listed by snapshots.
    snapshot_volume: u128,
    /// Segment verdicts listed by retention steps.
    retention_listing: u128,
}

/// A budget error's field and reason.
pub type Over = (&'static str, String);

impl Tally {
    /// A log that already holds `records` records in `segments` segments, the last one
    /// `active_bytes` long, with `index_entries` offset-index entries.
    pub fn seeded(
        &mut self,
        records: u128,
        segments: u128,
        active_bytes: i64,
        index_entries: u128,
    ) -> Result<(), Over> {
        self.records += records;
        self.rolled += segments.saturating_sub(1);
        self.active_bytes = active_bytes;
        self.index_entries += index_entries;
        if self.records > MAX_RECORDS as u128 {
            return Err((
                "log",
                format!(
                    "the log holds {records} records; a scenario may hold at most {MAX_RECORDS}"
                ),
            ));
        }
        self.check_segments("log")
    }

    /// A produce step of `batches` batches of `records`, under `segment.bytes`,
    /// `max.message.bytes` and `index.interval.bytes`.
    pub fn produce(
        &mut self,
        batches: u64,
        records: &[(Option<u32>, u32)],
        segment_bytes: i64,
        max_message_bytes: i64,
        index_interval_bytes: i64,
    ) -> Result<(), Over> {
        let written = (batches as u128) * (records.len().max(1) as u128);
        self.records += written;
        if self.records > MAX_RECORDS as u128 {
            return Err((
                "produce.batches",
                format!(
                    "the scenario writes {} records by this step; a scenario may write at most {MAX_RECORDS}",
                    self.records
                ),
            ));
        }
        if records.is_empty() {
            return Ok(());
        }
        // The smallest size the batch can have: equal stamps make one-byte deltas.
        let sample: Vec<Record> = records
            .iter()
            .map(|&(key, value)| Record::with_key(Timestamp(0), key, value))
            .collect();
        let b = batch_size(&sample).0;
        if b > segment_bytes || b > max_message_bytes {
            // The broker refuses every one of them.
            return Ok(());
        }
        let before = self.rolled;
        let (rolls, active) = pack(self.active_bytes, segment_bytes, b, batches);
        self.rolled += rolls;
        self.active_bytes = active;
        // An offset-index entry about every `index.interval.bytes` written.
        let per_entry = (index_interval_bytes.max(0) / b + 1) as u128;
        self.index_entries += batches as u128 / per_entry;
        if self.rolled > MAX_SEGMENTS as u128 {
            return Err((
                "produce.batches",
                format!(
                    "with segment.bytes {segment_bytes}, {batches} batches of at least {b} bytes roll at least {} segments, {} by this step; a scenario may roll at most {MAX_SEGMENTS}",
                    self.rolled - before,
                    self.rolled
                ),
            ));
        }
        Ok(())
    }

    /// A lookup step.
    pub fn lookup(&mut self) -> Result<(), Over> {
        self.lookup_walk += 1 + self.rolled;
        if self.lookup_walk > MAX_LOOKUP_WALK as u128 {
            return Err((
                "lookup",
                format!(
                    "the lookups by this step may walk {} segments in all (each lookup passes over up to the {} segments rolled so far); a scenario's lookups may walk at most {MAX_LOOKUP_WALK}",
                    self.lookup_walk,
                    1 + self.rolled
                ),
            ));
        }
        Ok(())
    }

    /// A retention step: it lists a verdict for every segment rolled so far.
    pub fn retention(&mut self) -> Result<(), Over> {
        self.retention_listing += 1 + self.rolled;
        if self.retention_listing > MAX_RETENTION_LISTING as u128 {
            return Err((
                "retention",
                format!(
                    "the retention steps by this step list at least {} segment verdicts in all (this one {}: one for every segment rolled so far); a scenario's retention steps may list at most {MAX_RETENTION_LISTING} (fewer, larger segments or fewer retention steps)",
                    self.retention_listing,
                    1 + self.rolled
                ),
            ));
        }
        Ok(())
    }

    /// A snapshot step.
    pub fn snapshot(&mut self) -> Result<(), Over> {
        let listed = 1 + self.rolled + 2 * self.index_entries;
        self.snapshot_volume += listed;
        if self.snapshot_volume > MAX_SNAPSHOT_VOLUME as u128 {
            return Err((
                "snapshot",
                format!(
                    "the snapshots by this step list about {} segments and index entries in all (this one up to {listed}: every segment rolled so far and its indexes); a scenario's snapshots may list at most {MAX_SNAPSHOT_VOLUME}",
                    self.snapshot_volume
                ),
            ));
        }
        Ok(())
    }

    fn check_segments(&self, field: &'static str) -> Result<(), Over> {
        if self.rolled > MAX_SEGMENTS as u128 {
            return Err((
                field,
                format!(
                    "the log holds {} segments; a scenario may roll at most {MAX_SEGMENTS}",
                    self.rolled + 1
                ),
            ));
        }
        Ok(())
    }
}

/// Size rolls of `n` batches of `b` bytes appended to an active segment of `c` bytes under
/// `segment.bytes` `s` (roll before a batch when `c > s - b`, as `LogSegment.shouldRoll`), and
/// the active segment's size after them. `b <= s`.
fn pack(c: i64, s: i64, b: i64, n: u64) -> (u128, i64) {
    let n = n as u128;
    let per_segment = (s / b).max(1) as u128;
    let fits_now = if c > s - b { 0 } else { ((s - c) / b) as u128 };
    if n <= fits_now {
        return (0, c + n as i64 * b);
    }
    let rest = n - fits_now;
    let rolls = rest.div_ceil(per_segment);
    let last = (rest - 1) % per_segment + 1;
    (rolls, last as i64 * b)
}

/// The replay's check of what the parser could not foresee: `rolled` segments rolled so far.
pub(crate) fn check_segments(rolled: u64) -> Result<(), String> {
    if rolled > MAX_SEGMENTS {
        return Err(format!(
            "the replay has rolled {rolled} segments; a scenario may roll at most {MAX_SEGMENTS}"
        ));
    }
    Ok(())
}

/// The replay's check of the verdicts the `retention` steps so far list in all, `before` by the
/// earlier ones and `this` by this one (time rolls, which the parser cannot count, may have
/// made more segments than it foresaw).
pub(crate) fn check_retention_listing(before: u64, this: u64) -> Result<(), String> {
    let listed = before.saturating_add(this);
    if listed > MAX_RETENTION_LISTING {
        return Err(format!(
            "the retention steps by this one list {listed} segment verdicts in all (this one {this}); a scenario's retention steps may list at most {MAX_RETENTION_LISTING} (fewer, larger segments or fewer retention steps)"
        ));
    }
    Ok(())
}

/// The replay's check of the verdicts its retention checks list in all by now.
pub(crate) fn check_replay_verdicts(listed: u64) -> Result<(), String> {
    if listed > MAX_REPLAY_VERDICTS {
        return Err(format!(
            "the retention checks that deleted segments and the retention steps list {listed} segment verdicts by now (every segment at each check); a replay may list at most {MAX_REPLAY_VERDICTS} in all (fewer, larger segments, a shorter replay or a longer retention.check.interval.ms)"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_replay_may_list_five_million_verdicts() {
        assert!(check_replay_verdicts(MAX_REPLAY_VERDICTS).is_ok());
        assert_eq!(
            check_replay_verdicts(MAX_REPLAY_VERDICTS + 1).unwrap_err(),
            "the retention checks that deleted segments and the retention steps list 5000001 segment verdicts by now (every segment at each check); a replay may list at most 5000000 in all (fewer, larger segments, a shorter replay or a longer retention.check.interval.ms)"
        );
    }

    #[test]
    fn retention_steps_are_counted_together() {
        assert!(check_retention_listing(100_000, 100_000).is_ok());
        assert_eq!(
            check_retention_listing(150_000, 60_000).unwrap_err(),
            "the retention steps by this one list 210000 segment verdicts in all (this one 60000); a scenario's retention steps may list at most 200000 (fewer, larger segments or fewer retention steps)"
        );
    }

    #[test]
    fn packing_follows_should_roll() {
        // 170-byte batches, segment.bytes 170: one batch a segment.
        assert_eq!(pack(0, 170, 170, 1), (0, 170));
        assert_eq!(pack(0, 170, 170, 10), (9, 170));
        assert_eq!(pack(170, 170, 170, 10), (10, 170));
        // Three fit in 510.
        assert_eq!(pack(0, 510, 170, 3), (0, 510));
        assert_eq!(pack(0, 510, 170, 4), (1, 170));
        assert_eq!(pack(340, 510, 170, 4), (1, 510));
        assert_eq!(pack(340, 510, 170, 5), (2, 170));
    }

    #[test]
    fn one_record_segments_are_over_budget() {
        let mut t = Tally::default();
        let one = [(None, 100)];
        let b = batch_size(&[Record::at(Timestamp(0))]).0;
        assert!(t.produce(1_000_000, &one, b, 1 << 20, 4096).is_ok());
        let (field, reason) = t.produce(10, &one, b, 1 << 20, 4096).unwrap_err();
        assert_eq!(field, "produce.batches");
        assert_eq!(
            reason,
            "with segment.bytes 170, 10 batches of at least 170 bytes roll at least 10 segments, 1000009 by this step; a scenario may roll at most 1000000"
        );
    }
}
