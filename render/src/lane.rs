//! The stream lane under the partition: what a lesson's downstream stream processor
//! (`logtime_lesson::stream`) has done after its first `cursor` reads, laid out on the partition's
//! offset axis so it can be animated as records are read. Every fate, closing and watermark comes
//! from the lesson crate's [`StreamReport`]; this module only decides what is visible at the
//! cursor and which row each window's bar takes. The explorer's lane canvas and the picture's
//! lane panel both lay out through it.
//!
//! A window is drawn as a bar from the first record read for it to the record whose read closed
//! it (or to the cursor while it is open); bars whose offset spans overlap (out-of-order stamps)
//! stack in rows, first fit.

use logtime_lesson::stream::{Fate, StreamReport, Window};
use logtime_model::{Offset, Timestamp};

/// How a record is marked in the lane.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LaneFate {
    /// Counted in its window.
    Counted,
    /// Counted after its window fired (Flink's allowed lateness).
    LateAccepted,
    /// Dropped: its window had closed.
    Late,
    /// Not processed (a negative stamp, or no window).
    Skipped,
}

/// One record read, as the lane marks it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaneMark {
    /// Its offset.
    pub offset: Offset,
    /// What the processor did with it.
    pub fate: LaneFate,
    /// Its window, when it has one.
    pub window: Option<Window>,
    /// For a late record, the record whose read closed its window.
    pub closed_by: Option<Offset>,
}

/// One window's bar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaneWindow {
    /// The window.
    pub window: Window,
    /// The first record read for it: where its bar starts.
    pub first: Offset,
    /// Where its bar ends: the record whose read closed it, or the last record read (the cursor)
    /// while it is open.
    pub last: Offset,
    /// Whether it has closed by the cursor.
    pub closed: bool,
    /// The record whose read closed it, once it has (a window that only ever received late
    /// records closed before its first record arrived).
    pub closed_by: Option<Offset>,
    /// Records counted in it by the cursor.
    pub counted: u64,
    /// Records dropped for it by the cursor.
    pub late: u64,
    /// The row its bar takes (0 at the top).
    pub row: usize,
}

/// The lane after the first `cursor` reads.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Lane {
    /// Every record read so far, in offset order.
    pub marks: Vec<LaneMark>,
    /// Every window that received a record so far, oldest first.
    pub windows: Vec<LaneWindow>,
    /// Rows the bars need.
    pub rows: usize,
    /// Stream time after the last read shown.
    pub stream_time: Option<Timestamp>,
    /// The watermark (Kafka Streams' close time, or Flink's watermark) after it.
    pub watermark: Option<Timestamp>,
}

impl Lane {
    /// The lane of `report` after its first `cursor` reads (all of them when `cursor` is larger).
    pub fn at(report: &StreamReport, cursor: usize) -> Lane {
        let reads = &report.reads[..cursor.min(report.reads.len())];
        let mut lane = Lane::default();
        // window start -> index in `lane.windows` (O(log w) per read, not O(w))
        let mut index = std::collections::BTreeMap::new();
        for r in reads {
            let (fate, closed_by) = match r.fate {
                Fate::OnTime => (LaneFate::Counted, None),
                Fate::LateAccepted => (LaneFate::LateAccepted, None),
                Fate::Late { closed_by } => (LaneFate::Late, Some(closed_by)),
                Fate::Skipped(_) => (LaneFate::Skipped, None),
            };
            lane.marks.push(LaneMark {
                offset: r.offset,
                fate,
                window: r.window,
                closed_by,
            });
            let Some(w) = r.window else { continue };
            let i = match index.get(&w.start.0) {
                Some(&i) => i,
                None => {
                    index.insert(w.start.0, lane.windows.len());
                    lane.windows.push(LaneWindow {
                        window: w,
                        first: r.offset,
                        last: r.offset,
                        closed: false,
                        closed_by: None,
                        counted: 0,
                        late: 0,
                        row: 0,
                    });
                    lane.windows.len() - 1
                }
            };
            let lw = &mut lane.windows[i];
            if fate == LaneFate::Late {
                lw.late += 1;
            } else {
                lw.counted += 1;
            }
        }
        if let Some(last) = reads.last() {
            lane.stream_time = last.after.stream_time;
            lane.watermark = last.after.watermark;
        }
        // A window closed by the cursor ends where its closing read is; an open one reaches the
        // cursor.
        let cursor_offset = reads.last().map(|l| l.offset);
        for lw in &mut lane.windows {
            lw.last = cursor_offset.unwrap_or(lw.first);
            if let Some(c) = report.closing_of(lw.window) {
                if cursor_offset.is_some_and(|l| c.by <= l) {
                    lw.closed = true;
                    lw.closed_by = Some(c.by);
                    lw.last = c.by.max(lw.first);
                }
            }
        }
        let order = stable_order(lane.windows.iter().map(|w| (w.window.start.0, 0)));
        lane.windows = reorder(std::mem::take(&mut lane.windows), &order);
        lane.rows = pack(&mut lane.windows);
        lane
    }
}

/// Rows of window bars drawn at most; the rest are counted in [`LaneScene::hidden_windows`].
pub const MAX_ROWS: usize = 6;
/// Height of the strip of reads, px.
pub const READS_H: f64 = 18.0;
/// Height of a row of window bars, px.
pub const ROW_H: f64 = 22.0;
/// Fewest slots on the axis, so a handful of reads does not stretch across the lane.
pub const MIN_SLOTS: usize = 12;
const PAD: f64 = 4.0;

/// One column of the strip of reads: a read, or several merged when they are narrower than
/// 3 px (the worst fate shows: a dropped record is never hidden by counted ones).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cell {
    /// Left edge, px.
    pub x: f64,
    /// Width, px.
    pub w: f64,
    /// The fate shown.
    pub fate: LaneFate,
    /// It holds the newest read (drawn emphasised while the lane animates).
    pub newest: bool,
}

/// One window's bar in pixels.
#[derive(Clone, Debug, PartialEq)]
pub struct Bar {
    /// Left edge, px.
    pub x: f64,
    /// Width, px.
    pub w: f64,
    /// Top, px.
    pub y: f64,
    /// Closed (a solid end cap) or still open (an open end at the cursor).
    pub closed: bool,
    /// It dropped records as late.
    pub dropped: bool,
    /// The text that fits in it (may be empty).
    pub label: String,
}

/// What the lane's canvas shows, in CSS pixels.
#[derive(Clone, Debug, PartialEq)]
pub struct LaneScene {
    /// Canvas width.
    pub width: f64,
    /// Canvas height (grows with the rows of bars).
    pub height: f64,
    /// The strip of reads.
    pub cells: Vec<Cell>,
    /// Window bars.
    pub bars: Vec<Bar>,
    /// Right edge of the last read (the consumer's position), when something was read.
    pub cursor_x: Option<f64>,
    /// Windows not drawn (past [`MAX_ROWS`] rows).
    pub hidden_windows: usize,
}

/// The canvas height for a lane of `rows` rows of bars.
pub fn height(rows: usize) -> f64 {
    PAD + READS_H + PAD + rows.clamp(1, MAX_ROWS) as f64 * ROW_H + PAD
}

fn severity(f: LaneFate) -> u8 {
    match f {
        LaneFate::Skipped => 0,
        LaneFate::Counted => 1,
        LaneFate::LateAccepted => 2,
        LaneFate::Late => 3,
    }
}

impl Lane {
    /// Lays the lane out `width` px wide on an axis of `total` reads (the whole run, so that
    /// the axis stays put while the cursor advances). `label` names a window for its bar.
    pub fn scene(
        &self,
        total: usize,
        width: f64,
        label: &dyn Fn(&LaneWindow) -> String,
    ) -> LaneScene {
        let slots = total.max(self.marks.len()).max(MIN_SLOTS);
        let slot = width / slots as f64;
        let index_of = |o: Offset| self.marks.partition_point(|m| m.offset < o);
        let mut cells: Vec<Cell> = Vec::new();
        // merge reads into columns at least 3 px wide
        let per = ((3.0 / slot).ceil() as usize).max(1);
        let mut last_col = usize::MAX;
        for (i, m) in self.marks.iter().enumerate() {
            let newest = i + 1 == self.marks.len();
            match cells.last_mut() {
                Some(c) if i / per == last_col => {
                    if severity(m.fate) > severity(c.fate) {
                        c.fate = m.fate;
                    }
                    c.w = (i + 1) as f64 * slot - c.x;
                    c.newest |= newest;
                }
                _ => {
                    last_col = i / per;
                    cells.push(Cell {
                        x: i as f64 * slot,
                        w: slot,
                        fate: m.fate,
                        newest,
                    });
                }
            }
        }
        let top = PAD + READS_H + PAD;
        let mut bars = Vec::new();
        let mut hidden_windows = 0;
        for w in &self.windows {
            if w.row >= MAX_ROWS {
                hidden_windows += 1;
                continue;
            }
            let (a, b) = (index_of(w.first), index_of(w.last));
            let x = a as f64 * slot;
            let bw = ((b + 1).saturating_sub(a)) as f64 * slot;
            let full = label(w);
            let counts = format!("{} ✓ {} ✗", w.counted, w.late);
            // about 6.5 px a character at the lane's 11 px font
            let fits = |t: &str| t.chars().count() as f64 * 6.5 + 8.0 <= bw;
            let text = if fits(&full) {
                full
            } else if fits(&counts) {
                counts
            } else {
                String::new()
            };
            bars.push(Bar {
                x,
                w: bw,
                y: top + w.row as f64 * ROW_H,
                closed: w.closed,
                dropped: w.late > 0,
                label: text,
            });
        }
        LaneScene {
            width,
            height: height(self.rows),
            cells,
            bars,
            cursor_x: (!self.marks.is_empty()).then_some(self.marks.len() as f64 * slot),
            hidden_windows,
        }
    }
}

/// A window's bar label: `10:00–10:05 · 3 ✓ 5 ✗` (the day too when it is not the broker's,
/// `now`).
pub fn bar_label(w: &LaneWindow, now: Timestamp) -> String {
    format!(
        "{} · {} ✓ {} ✗",
        short_label(w.window, now),
        w.counted,
        w.late
    )
}

/// A window for its bar: `10:00–10:05`, with the start's day (`11 Mar 10:00–10:05`) when it is
/// not the broker's day, and both dates when it is longer than a day.
pub fn short_label(w: Window, now: Timestamp) -> String {
    const DAY: i64 = 86_400_000;
    let hm = |t: i64| {
        let s = logtime_core::human::time_of_day(t);
        s.strip_suffix(":00").map(str::to_string).unwrap_or(s)
    };
    if w.end.0.saturating_sub(w.start.0) > DAY {
        return format!(
            "{} – {}",
            logtime_core::human::date(w.start.0),
            logtime_core::human::date(w.end.0)
        );
    }
    let span = format!("{}–{}", hm(w.start.0), hm(w.end.0));
    if w.start.0.div_euclid(DAY) == now.0.div_euclid(DAY) {
        span
    } else {
        let date = logtime_core::human::date(w.start.0);
        let day: Vec<&str> = date.split(' ').take(3).collect();
        format!("{} {span}", day.join(" "))
    }
}

/// The indices of `keys` from the smallest key, equal keys in their first order (the index breaks
/// ties, so the unstable sort gives the stable order; the explorer orders its lists with the same
/// sort, so the wasm keeps one copy of it).
fn stable_order(keys: impl Iterator<Item = (i64, i64)>) -> Vec<usize> {
    let mut k: Vec<(i64, i64, usize)> = keys.enumerate().map(|(i, (a, b))| (a, b, i)).collect();
    k.sort_unstable();
    k.into_iter().map(|(_, _, i)| i).collect()
}

/// `v` reordered by `order` (a permutation of its indices).
fn reorder<T>(v: Vec<T>, order: &[usize]) -> Vec<T> {
    let mut slots: Vec<Option<T>> = v.into_iter().map(Some).collect();
    order
        .iter()
        .filter_map(|&i| slots.get_mut(i)?.take())
        .collect()
}

/// Gives each bar the first row whose bars all end before it starts; returns the rows used.
fn pack(windows: &mut [LaneWindow]) -> usize {
    let order = stable_order(windows.iter().map(|w| (w.first.0, w.window.start.0)));
    let mut row_ends: Vec<Offset> = Vec::new();
    for i in order {
        let w = &mut windows[i];
        match row_ends.iter().position(|end| *end < w.first) {
            Some(r) => {
                w.row = r;
                row_ends[r] = w.last;
            }
            None => {
                w.row = row_ends.len();
                row_ends.push(w.last);
            }
        }
    }
    row_ends.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use logtime_lesson::stream::{run, StreamConfig};
    use logtime_model::{Command, Config, KafkaVersion, Partition, Record};

    const TEN: i64 = 1_804_845_600_000; // 2027-03-12T10:00:00Z
    const MIN: i64 = 60_000;

    /// Seed 000: 10:00, 09:59:55, a day ago, 10:01, a nanosecond stamp, 10:01:20.
    fn report() -> StreamReport {
        let mut p = Partition::new(
            Config::defaults(KafkaVersion::V3_6),
            "payments-0",
            Timestamp(TEN),
            0,
        );
        for ts in [
            TEN,
            TEN - 5_000,
            TEN - 86_400_000,
            TEN + MIN,
            (TEN + 70_000) * 1_000_000,
            TEN + 80_000,
        ] {
            p.apply(
                Timestamp(TEN + 90_000),
                Command::Produce {
                    records: vec![Record::with_key(Timestamp(ts), None, 100)],
                },
            )
            .unwrap();
        }
        run(&StreamConfig::new(5 * MIN, MIN).unwrap(), &p)
    }

    #[test]
    fn the_lane_grows_read_by_read() {
        let r = report();
        assert_eq!(Lane::at(&r, 0), Lane::default());
        let two = Lane::at(&r, 2);
        assert_eq!(two.marks.len(), 2);
        assert_eq!(
            two.windows
                .iter()
                .map(|w| (w.first, w.row))
                .collect::<Vec<_>>(),
            vec![(Offset(1), 1), (Offset(0), 0)],
            "09:55 opens while 10:00 is open: a second row"
        );
        assert_eq!(two.rows, 2);
        assert_eq!(two.watermark, Some(Timestamp(TEN - MIN)));
        // After record 3 (10:01) the 09:55 window has closed at 3.
        let four = Lane::at(&r, 4);
        let w955 = four.windows[1];
        assert_eq!((w955.closed, w955.last, w955.counted), (true, Offset(3), 1));
        assert_eq!(w955.closed_by, Some(Offset(3)));
        // yesterday's window closed at the first read, before its only (late) record came
        let yesterday = four.windows[0];
        assert_eq!(
            (yesterday.first, yesterday.closed_by),
            (Offset(2), Some(Offset(0)))
        );
        assert_eq!(four.marks[2].fate, LaneFate::Late);
        assert_eq!(four.marks[2].closed_by, Some(Offset(0)));
    }

    #[test]
    fn a_stamp_far_ahead_closes_the_open_window_at_its_read() {
        let r = report();
        let all = Lane::at(&r, 99);
        assert_eq!(all.marks.len(), 6);
        let ten = all
            .windows
            .iter()
            .find(|w| w.window.start == Timestamp(TEN))
            .unwrap();
        assert_eq!(
            (ten.closed, ten.first, ten.last),
            (true, Offset(0), Offset(4))
        );
        assert_eq!((ten.counted, ten.late), (2, 1));
        assert_eq!(all.marks[5].fate, LaneFate::Late);
        assert_eq!(all.marks[5].closed_by, Some(Offset(4)));
        assert_eq!(all.stream_time, Some(Timestamp((TEN + 70_000) * 1_000_000)));
        // Before record 4 is read the 10:00 window is still open and ends at the cursor.
        let four = Lane::at(&r, 4);
        let ten = four
            .windows
            .iter()
            .find(|w| w.window.start == Timestamp(TEN))
            .unwrap();
        assert_eq!((ten.closed, ten.last), (false, Offset(3)));
    }

    #[test]
    fn the_scene_keeps_its_axis_while_the_cursor_moves() {
        let r = report();
        let label = |w: &LaneWindow| format!("{}", w.window.start.0);
        let early = Lane::at(&r, 2).scene(6, 240.0, &label);
        let late = Lane::at(&r, 6).scene(6, 240.0, &label);
        // at least MIN_SLOTS slots: 20 px each
        assert_eq!(early.cells[1].x, 20.0);
        assert_eq!(late.cells[1].x, 20.0);
        assert_eq!(early.cursor_x, Some(40.0));
        assert_eq!(late.cursor_x, Some(120.0));
        assert!(late.cells[5].newest && !late.cells[4].newest);
        assert_eq!(late.cells[2].fate, LaneFate::Late);
        // 10:00's bar runs from record 0 to record 4, which closed it, and dropped record 5
        let ten = late
            .bars
            .iter()
            .find(|b| b.label.starts_with(&TEN.to_string()) || b.x == 0.0)
            .unwrap();
        assert_eq!(
            (ten.x, ten.w, ten.closed, ten.dropped),
            (0.0, 100.0, true, true)
        );
        assert_eq!(late.height, height(late_rows(&r)));
        assert_eq!(late.hidden_windows, 0);
    }

    fn late_rows(r: &StreamReport) -> usize {
        Lane::at(r, usize::MAX).rows
    }

    #[test]
    fn many_reads_merge_into_columns_showing_the_worst_fate() {
        let r = report();
        let lane = Lane::at(&r, 6);
        // 6 reads on 1000 slots of 0.3 px: columns of 10 reads, so one column
        let s = lane.scene(1000, 300.0, &|_| String::new());
        assert_eq!(s.cells.len(), 1);
        assert_eq!(s.cells[0].fate, LaneFate::Late);
        assert!(s.cells[0].newest);
        assert!((s.cells[0].w - 1.8).abs() < 1e-9);
        // labels that do not fit are shortened, then dropped
        let narrow = lane.scene(6, 120.0, &|_| "a very long window label".into());
        assert!(narrow
            .bars
            .iter()
            .all(|b| b.label.is_empty() || b.label.contains('✓')));
    }

    #[test]
    fn short_labels_name_the_day_only_when_it_is_not_today() {
        let w = |s: i64, e: i64| Window {
            start: Timestamp(s),
            end: Timestamp(e),
        };
        let now = Timestamp(TEN + 90_000);
        assert_eq!(short_label(w(TEN, TEN + 5 * MIN), now), "10:00–10:05");
        assert_eq!(
            short_label(w(TEN - 86_400_000, TEN - 86_400_000 + 5 * MIN), now),
            "11 Mar 2027 10:00–10:05"
        );
        assert_eq!(
            short_label(w(TEN, TEN + 2 * 86_400_000), now),
            "12 Mar 2027 10:00 – 14 Mar 2027 10:00"
        );
    }
}
