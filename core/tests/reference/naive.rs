//! The naive reference: plain vectors of batches per segment, lookups and retention by brute
//! force, index entries recounted from the batch list. It follows the same Kafka classes as the
//! model (`UnifiedLog`, `LogSegment`, `LogValidator`) in the plainest code that can be checked
//! by eye, and shares no code with the model but `validate` and the jitter's generator.

use super::T0;
use logtime_model::{validate, Config, Record, SplitMix64, Timestamp};

#[derive(Clone, Debug)]
pub(crate) struct NBatch {
    pub(crate) base: i64,
    pub(crate) size: i64,
    pub(crate) max: i64,
    pub(crate) ts: Vec<i64>,
    pub(crate) now: i64,
}

#[derive(Clone, Debug)]
pub(crate) struct NSeg {
    pub(crate) base: i64,
    pub(crate) batches: Vec<NBatch>,
    pub(crate) created: i64,
    pub(crate) jitter: i64,
    pub(crate) index_bytes: i64,
    /// `index.interval.bytes` when the segment was created (Kafka keeps it per segment).
    pub(crate) interval: i64,
    /// The final time-index entry written when the segment became inactive.
    pub(crate) final_entry: bool,
}

impl NSeg {
    pub(crate) fn size(&self) -> i64 {
        self.batches.iter().map(|b| b.size).sum()
    }
    pub(crate) fn next(&self) -> i64 {
        self.batches
            .last()
            .map_or(self.base, |b| b.base + b.ts.len() as i64)
    }
    pub(crate) fn max(&self) -> i64 {
        self.batches.iter().map(|b| b.max).fold(-1, i64::max)
    }
    pub(crate) fn largest(&self) -> i64 {
        let m = self.max();
        if m >= 0 {
            m
        } else {
            self.batches.last().map_or(self.created, |b| b.now)
        }
    }
    /// Index entries recounted from scratch: (offset entries, time entries).
    pub(crate) fn index_counts(&self) -> (usize, usize) {
        let (mut since, mut off, mut time) = (0i64, 0usize, 0usize);
        let (mut running, mut last_ts) = (-1i64, -1i64);
        for b in &self.batches {
            running = running.max(b.max);
            if since > self.interval {
                off += 1;
                if running > last_ts {
                    time += 1;
                    last_ts = running;
                }
                since = 0;
            }
            since += b.size;
        }
        if self.final_entry && self.max() > last_ts {
            time += 1;
        }
        (off, time)
    }
}

#[derive(Clone)]
pub(crate) struct Naive {
    pub(crate) cfg: Config,
    pub(crate) segs: Vec<NSeg>,
    pub(crate) lso: i64,
    pub(crate) hw: i64,
    pub(crate) clock: i64,
    pub(crate) next_check: i64,
    /// The log cleaner's next pass (it runs retention on compacted topics).
    pub(crate) next_clean: i64,
    pub(crate) rng: SplitMix64,
}

impl Naive {
    pub(crate) fn new(cfg: Config, seed: u64) -> Naive {
        let mut n = Naive {
            next_check: T0 + cfg.broker.log_retention_check_interval_ms,
            next_clean: T0 + cfg.broker.log_cleaner_backoff_ms.max(1),
            cfg,
            segs: vec![],
            lso: 0,
            hw: 0,
            clock: T0,
            rng: SplitMix64::new(seed),
        };
        let s = n.new_seg(0, T0);
        n.segs.push(s);
        n
    }
    pub(crate) fn new_seg(&mut self, base: i64, now: i64) -> NSeg {
        let t = &self.cfg.topic;
        let jitter = if t.segment_jitter_ms == 0 {
            0
        } else {
            let r = self.rng.next_i32();
            (if r == i32::MIN { 0 } else { r.abs() as i64 }) % t.segment_jitter_ms.min(t.segment_ms)
        };
        NSeg {
            base,
            batches: vec![],
            created: now,
            jitter,
            index_bytes: t.segment_index_bytes,
            interval: t.index_interval_bytes,
            final_entry: false,
        }
    }
    pub(crate) fn leo(&self) -> i64 {
        self.segs.last().unwrap().next()
    }
    pub(crate) fn roll(&mut self, now: i64) {
        let leo = self.leo();
        let s = self.new_seg(leo, now);
        let last = self.segs.last_mut().unwrap();
        last.final_entry = true;
        if last.batches.is_empty() {
            *last = s;
        } else {
            self.segs.push(s);
        }
    }
    /// Every instant of both schedules, in time order: the retention task's run retention on
    /// topics without `compact`, the cleaner's on topics with it.
    pub(crate) fn due(&mut self, now: i64) {
        loop {
            let compact = self.cfg.topic.cleanup_policy.compact;
            // The idle schedule's instants do nothing: skip them in one step.
            let (idle, period) = if compact {
                (
                    &mut self.next_check,
                    self.cfg.broker.log_retention_check_interval_ms,
                )
            } else {
                (
                    &mut self.next_clean,
                    self.cfg.broker.log_cleaner_backoff_ms.max(1),
                )
            };
            if *idle <= now {
                *idle += ((now - *idle) / period + 1) * period;
            }
            if self.next_check.min(self.next_clean) > now {
                break;
            }
            if self.next_check <= self.next_clean {
                let at = self.next_check;
                if !compact {
                    self.retention(at);
                }
                self.next_check += self.cfg.broker.log_retention_check_interval_ms;
            } else {
                let at = self.next_clean;
                if compact {
                    self.retention(at);
                }
                self.next_clean += self.cfg.broker.log_cleaner_backoff_ms.max(1);
            }
        }
    }
    /// Deletes the leading segments a walk accepts; returns how many.
    pub(crate) fn delete_walk(
        &mut self,
        now: i64,
        mut pred: impl FnMut(&NSeg, Option<&NSeg>) -> bool,
    ) -> usize {
        let mut n = 0;
        while n < self.segs.len() {
            let seg = &self.segs[n];
            let next = self.segs.get(n + 1);
            let upper = next.map_or(self.leo(), |s| s.base);
            let ok =
                self.hw >= upper && pred(seg, next) && !(next.is_none() && seg.batches.is_empty());
            if !ok {
                break;
            }
            n += 1;
        }
        if n > 0 {
            if n == self.segs.len() {
                self.roll(now);
            }
            self.segs.drain(..n);
            self.lso = self.lso.max(self.segs[0].base);
        }
        n
    }
    pub(crate) fn retention(&mut self, now: i64) -> usize {
        let t = self.cfg.topic.clone();
        let lso = self.lso;
        let mut n = self.delete_walk(now, |_, next| next.is_some_and(|s| s.base <= lso));
        if !t.cleanup_policy.delete {
            return n;
        }
        let total: i64 = self.segs.iter().map(NSeg::size).sum();
        if t.retention_bytes >= 0 && total >= t.retention_bytes {
            let mut diff = total - t.retention_bytes;
            n += self.delete_walk(now, |s, _| {
                let ok = diff - s.size() >= 0;
                if ok {
                    diff -= s.size();
                }
                ok
            });
        }
        if t.retention_ms >= 0 {
            n += self.delete_walk(now, |s, _| now.wrapping_sub(s.largest()) > t.retention_ms);
        }
        n
    }
    pub(crate) fn produce(&mut self, now: i64, records: &[Record]) -> Result<(), i16> {
        let v = validate(&self.cfg, "t-0", Timestamp(now), records).map_err(|e| e.error.code())?;
        self.due(now);
        if records.is_empty() {
            return Ok(());
        }
        let t = self.cfg.topic.clone();
        let base = self.leo();
        let last = base + records.len() as i64 - 1;
        let seg = self.segs.last().unwrap();
        let size = seg.size();
        let waited = match seg.batches.first() {
            Some(b) if b.max >= 0 => v.max_timestamp.0.wrapping_sub(b.max),
            _ => now.wrapping_sub(seg.created),
        };
        let (off_entries, time_entries) = seg.index_counts();
        let roll = size > t.segment_bytes - v.size.0
            || (size > 0 && waited > t.segment_ms - seg.jitter)
            || off_entries >= (seg.index_bytes / 8) as usize
            || time_entries + 1 >= (seg.index_bytes / 12) as usize
            || !(0..=i32::MAX as i64).contains(&(last - seg.base));
        if roll {
            self.roll(now);
        }
        let ts = match v.log_append_time {
            Some(t) => vec![t.0; records.len()],
            None => records.iter().map(|r| r.timestamp.0).collect(),
        };
        let b = NBatch {
            base,
            size: v.size.0,
            max: v.max_timestamp.0,
            ts,
            now,
        };
        self.segs.last_mut().unwrap().batches.push(b);
        self.hw = last + 1;
        Ok(())
    }
    /// Brute force: the first record, in the first segment whose largest timestamp >= t.
    pub(crate) fn find(&self, t: i64) -> (i64, i64) {
        let Some(seg) = self.segs.iter().find(|s| s.largest() >= t) else {
            return (-1, -1);
        };
        for b in &seg.batches {
            for (i, &ts) in b.ts.iter().enumerate() {
                let o = b.base + i as i64;
                if ts >= t && o >= self.lso {
                    return if o >= self.hw { (-1, -1) } else { (o, ts) };
                }
            }
        }
        (-1, -1)
    }
    pub(crate) fn max_timestamp(&self) -> (i64, i64) {
        let mut best: Option<&NSeg> = None;
        for s in &self.segs {
            if best.is_none_or(|b| s.max() > b.max()) {
                best = Some(s);
            }
        }
        let seg = best.unwrap();
        let m = seg.max();
        let Some(b) = seg.batches.iter().find(|b| b.max == m) else {
            return (-1, -1);
        };
        match b.ts.iter().position(|&t| t == m) {
            Some(i) if b.base + (i as i64) < self.hw => (b.base + i as i64, m),
            _ => (-1, -1),
        }
    }
}
