//! Generated traffic: a producer sending one batch every `every` ms (`KafkaProducer.send`, each
//! batch its own ProduceRequest), the batches' timestamps shifted step by step, sliced so that a
//! browser can yield between slices.

use super::step::{Ctx, Progress, TrafficRun};
use super::ROLL_WORK;
use crate::batch::Record;
use crate::partition::Command;
use crate::scenario::outcome::{ProduceOutcome, StepOutcome, Traffic, TrafficRejection};
use crate::scenario::spec::{apply_unit, overflow_reason};
use crate::scenario::{ProduceStep, ScenarioError, TimeSpec, UnitMistake};
use crate::units::{Offset, Timestamp};

impl Ctx<'_, '_> {
    /// Fills `self.buffer` with the records of batch `k` of `p`, sent at `now`.
    pub(super) fn records(
        &mut self,
        p: &ProduceStep,
        now: Timestamp,
        k: u64,
    ) -> Result<(), ScenarioError> {
        let shift = self.shift(p, k)?;
        let mut out = std::mem::take(&mut self.buffer);
        out.clear();
        for (j, r) in p.records.iter().enumerate() {
            match self.stamp(p, j, now, shift) {
                Ok(ts) => out.push(Record::with_key(ts, r.key_bytes, r.value_bytes)),
                Err(e) => {
                    self.buffer = out;
                    return Err(e);
                }
            }
        }
        self.buffer = out;
        Ok(())
    }

    /// What batch `k` of `p` adds to its records' timestamps.
    #[inline]
    pub(super) fn shift(&self, p: &ProduceStep, k: u64) -> Result<i64, ScenarioError> {
        mul(k as i64, p.timestamp_step_ms).ok_or_else(|| {
            self.err(
                "produce.timestamp_step",
                "batch × timestamp_step overflows a 64-bit long",
            )
        })
    }

    /// The timestamp of record `j` of `p` in the batch sent at `now`, `shift` added.
    #[inline]
    pub(super) fn stamp(
        &self,
        p: &ProduceStep,
        j: usize,
        now: Timestamp,
        shift: i64,
    ) -> Result<Timestamp, ScenarioError> {
        let r = &p.records[j];
        // Only the literal -1 is NO_TIMESTAMP: a relative time, or a shifted one, is a clock
        // reading even when it lands on -1, so the step and the unit mistake apply to it.
        if r.timestamp == TimeSpec::Absolute(-1) {
            return Ok(Timestamp::NONE);
        }
        // Once per generated batch: the error is built out of line, so that the browser's
        // compiled loop keeps this path small enough to inline.
        match r.timestamp.resolve(now.0) {
            None => Err(self.stamp_overflow(j, None)),
            Some(base) => match base.checked_add(shift).and_then(|t| apply_unit(t, r.unit)) {
                Some(t) => Ok(Timestamp(t)),
                None => Err(self.stamp_overflow(j, r.unit)),
            },
        }
    }

    /// The error of a record timestamp `j` that overflows (written in `unit`, if any).
    #[cold]
    #[inline(never)]
    pub(super) fn stamp_overflow(&self, j: usize, unit: Option<UnitMistake>) -> ScenarioError {
        self.err(
            &format!("produce.records[{j}].timestamp"),
            overflow_reason(unit),
        )
    }

    /// Generated traffic: batch `k` at `start + k × every`, counted, from where `resume` says
    /// (the start when `None`) until its work reaches `limit` or the step's batches were sent.
    pub(super) fn traffic(
        &mut self,
        p: &ProduceStep,
        resume: Option<TrafficRun>,
        limit: Option<u64>,
    ) -> Result<Progress, ScenarioError> {
        let mut run = match resume {
            Some(run) => run,
            None => {
                let start = self.partition.clock();
                if p.batches > 1 {
                    self.records(p, start, 0)?;
                    self.partition.expect_batches(p.batches, &self.buffer);
                }
                TrafficRun {
                    start,
                    next_batch: 0,
                    budget_checked: false,
                    traffic: Traffic {
                        batches: p.batches,
                        records_per_batch: p.records.len() as u64,
                        every_ms: p.every_ms,
                        appended_batches: 0,
                        rejected_batches: 0,
                        records_appended: 0,
                        first_offset: Offset(-1),
                        last_offset: Offset(-1),
                        first_rejection: None,
                        diagnosed_batches: 0,
                        first_diagnoses: Vec::new(),
                    },
                }
            }
        };
        let result = self.traffic_batches(p, &mut run, limit);
        if !matches!(result, Ok(false)) {
            // The step is over: no more batches are coming.
            self.partition.expect_batches(0, &[]);
        }
        Ok(match result? {
            true => Progress::Done(StepOutcome::Produce(ProduceOutcome::Traffic(run.traffic))),
            false => Progress::Partial(run),
        })
    }

    /// Sends the batches of `p` from `run.next_batch` on; `false` when it stopped at `limit`
    /// work ([`super::Runner::step_slice`]) with batches left.
    pub(super) fn traffic_batches(
        &mut self,
        p: &ProduceStep,
        run: &mut TrafficRun,
        limit: Option<u64>,
    ) -> Result<bool, ScenarioError> {
        // One-record batches take the partition's common path when they can (their size is
        // worked out once), once this step has checked its budget: a batch on that path rolls
        // no segment and runs no retention check, so the budget stays as it was checked.
        let common = match p.records.as_slice() {
            [r] => Some(self.partition.run_shape(&Record::with_key(
                Timestamp::NONE,
                r.key_bytes,
                r.value_bytes,
            ))),
            _ => None,
        };
        let per_batch = (p.records.len() as u64).max(1);
        let mut sent = 0u64;
        let rolled = self.partition.segments_rolled();
        let start = run.start;
        let t = &mut run.traffic;
        while run.next_batch < p.batches {
            if let Some(limit) = limit {
                let rolls = self.partition.segments_rolled() - rolled;
                let work = sent.saturating_add(roll_work(rolls));
                if sent > 0 && work >= limit {
                    return Ok(false);
                }
            }
            let k = run.next_batch;
            run.next_batch += 1;
            sent = sent.saturating_add(per_batch);
            let at = mul(k as i64, p.every_ms)
                .and_then(|d| start.0.checked_add(d))
                .map(Timestamp)
                .ok_or_else(|| {
                    self.err(
                        "produce.every",
                        "batches × every overflows the 64-bit clock",
                    )
                })?;
            if let (Some(shape), true) = (common, run.budget_checked) {
                let ts = self.stamp(p, 0, at, self.shift(p, k)?)?;
                let base = self.partition.log_end_offset();
                let appended = self.with_sink_unseen(at, |partition, sink| {
                    partition.append_common(shape, at, ts, sink)
                });
                if appended {
                    t.count_appended(base, base);
                    continue;
                }
            }
            self.records(p, at, k)?;
            let outcome = self
                .produce(at)
                .map_err(|e| self.err("produce", e.to_string()))?;
            self.count_outcome(t, k, at, outcome)?;
            self.within_budget("produce", self.listed(None))?;
            run.budget_checked = true;
        }
        Ok(true)
    }

    /// Counts generated batch `k`, sent at `at` through the general path, into `t`; a rejected
    /// batch still moves the clock to its time.
    fn count_outcome(
        &mut self,
        t: &mut Traffic,
        k: u64,
        at: Timestamp,
        outcome: ProduceOutcome,
    ) -> Result<(), ScenarioError> {
        match outcome {
            ProduceOutcome::Appended(a) => {
                t.count_appended(a.base_offset, a.last_offset);
                if !a.diagnoses.is_empty() {
                    if t.diagnosed_batches == 0 {
                        t.first_diagnoses = a.diagnoses;
                    }
                    t.diagnosed_batches += 1;
                }
            }
            ProduceOutcome::Rejected(error) => {
                t.rejected_batches += 1;
                if t.first_rejection.is_none() {
                    t.first_rejection = Some(TrafficRejection {
                        batch: k,
                        at,
                        error,
                    });
                }
                // The clock still moves to the batch's time (nothing is due: the checks ran).
                self.apply(at, Command::Tick)
                    .map_err(|e| self.err("produce", e.to_string()))?;
            }
            ProduceOutcome::Empty | ProduceOutcome::Traffic(_) => {}
        }
        Ok(())
    }
}

/// `rolls × ROLL_WORK`, saturating. Not [`u64::saturating_mul`]: wasm32 works that out with a
/// call to the 128-bit `__multi3`, and a sliced replay asks once per batch (4 % of a
/// ten-million-record rebuild in the browser).
#[inline]
fn roll_work(rolls: u64) -> u64 {
    if rolls > u64::MAX / ROLL_WORK {
        u64::MAX
    } else {
        rolls * ROLL_WORK
    }
}

/// `a × b`, `None` when it overflows: [`i64::checked_mul`] with a quick path for factors below
/// 2³¹ (batch numbers and step lengths in practice), whose product cannot overflow. wasm32 has
/// no 64-bit multiply that reports overflow, so `checked_mul` calls the 128-bit `__multi3`:
/// twice per generated batch, 1.8 % of a ten-million-record replay in the browser.
#[inline]
fn mul(a: i64, b: i64) -> Option<i64> {
    const SMALL: u64 = 1 << 31;
    if a.unsigned_abs() < SMALL && b.unsigned_abs() < SMALL {
        Some(a * b)
    } else {
        a.checked_mul(b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roll_work_is_saturating_mul() {
        let max = u64::MAX / ROLL_WORK;
        for rolls in [
            0,
            1,
            2,
            1_000_000,
            max - 1,
            max,
            max + 1,
            u64::MAX / 2,
            u64::MAX,
        ] {
            assert_eq!(roll_work(rolls), rolls.saturating_mul(ROLL_WORK), "{rolls}");
        }
    }

    #[test]
    fn mul_is_checked_mul() {
        let edges = [
            0,
            1,
            -1,
            2,
            (1 << 31) - 1,
            1 << 31,
            -(1 << 31),
            (1 << 32) + 7,
            3_037_000_499,
            3_037_000_500,
            i64::MAX,
            i64::MIN,
            i64::MIN + 1,
            i64::MAX / 2,
            86_400_000,
            1_000_000,
        ];
        for &a in &edges {
            for &b in &edges {
                assert_eq!(mul(a, b), a.checked_mul(b), "{a} × {b}");
                assert_eq!(
                    mul(-a.max(i64::MIN + 1), b),
                    (-a.max(i64::MIN + 1)).checked_mul(b)
                );
            }
        }
    }
}
