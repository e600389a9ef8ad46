//! The partition as the explorer shows it: a card for each segment (base offset, offsets,
//! records, size, largest timestamp, verdict badges, record tiles or density, time-index
//! entries), and a density strip of the whole log when it holds many records.

use crate::density;
use crate::format::{self, AgeClass};
use crate::marks::LookupMarks;
use crate::picture::PAD;
use crate::svg::{fit, wrap, Font, Svg};
use crate::theme::Palette;
use logtime_core::human;
use logtime_model::retention::{RetentionReport, Verdict};
use logtime_model::{Offset, Partition, Segment};

/// Segments drawn as cards at most; a longer log shows its first and last ones (and any the
/// lookup searched or that pin retention) with the density strip for the rest.
pub(crate) const MAX_CARDS: usize = 12;
/// A segment's records are tiles up to this many; more are density bars.
pub(crate) const MAX_TILES: usize = 24;
/// Time-index entries listed per card.
pub(crate) const MAX_ENTRIES: usize = 4;

/// One segment, read for drawing.
pub(crate) struct Card<'a> {
    /// The segment.
    pub(crate) seg: &'a Segment,
    /// The last segment.
    pub(crate) active: bool,
    /// Its retention verdict at the clock.
    pub(crate) verdict: Option<Verdict>,
}

/// The segments drawn as cards, oldest first.
pub(crate) fn cards<'a>(
    p: &'a Partition,
    preview: &RetentionReport,
    marks: &LookupMarks,
) -> Vec<Card<'a>> {
    let segs = p.segments();
    let n = segs.len();
    let verdict = |base: Offset| {
        preview
            .verdicts
            .iter()
            .find(|v| v.base_offset == base)
            .map(|v| v.verdict)
    };
    let keep = |i: usize| {
        let base = segs[i].base_offset();
        n <= MAX_CARDS
            || i < 4
            || i + 4 >= n
            || marks.chosen == Some(base)
            || matches!(
                verdict(base),
                Some(Verdict::NotOldEnough { future: true, .. })
            )
    };
    (0..n)
        .filter(|&i| keep(i))
        .take(MAX_CARDS + 4)
        .map(|i| Card {
            seg: &segs[i],
            active: i + 1 == n,
            verdict: verdict(segs[i].base_offset()),
        })
        .collect()
}

/// The badges of a card, with their colours: what the explorer's card says beside its name.
fn badges<'p>(
    c: &Card<'_>,
    marks: &LookupMarks,
    now: i64,
    pal: &'p Palette,
) -> Vec<(String, &'p str)> {
    let base = c.seg.base_offset();
    let mut out = Vec::new();
    if c.active {
        out.push(("▶ active".to_string(), pal.accent));
    }
    let pinned = matches!(c.verdict, Some(Verdict::NotOldEnough { future: true, .. }));
    if pinned {
        out.push(("⚓ pinned".to_string(), pal.pinned));
    }
    if let Some(Verdict::KeptBehind {
        blocker,
        expired: true,
    }) = c.verdict
    {
        out.push((format!("⇠ behind {}", format::count(blocker.0)), pal.pinned));
    }
    if c.seg.record_count() > 0 && c.seg.largest_timestamp().0 > now && !pinned {
        out.push(("▲ future".to_string(), pal.future));
    }
    if marks.chosen == Some(base) {
        out.push(("◎ searched".to_string(), pal.accent));
    } else if marks.is_passed(base) {
        out.push(("passed over".to_string(), pal.muted));
    }
    out
}

/// "offsets 0–5", "offsets 40,000–40,099 (open)", "offsets from 40,100 (empty)".
pub fn offset_range(base: i64, next: i64, active: bool) -> String {
    if next <= base {
        format!("offsets from {} (empty)", format::count(base))
    } else {
        let open = if active { " (open)" } else { "" };
        format!(
            "offsets {}–{}{open}",
            format::count(base),
            format::count(next - 1)
        )
    }
}

/// The text lines under a card's name: badges, offsets, size, largest timestamp.
fn meta_lines(c: &Card<'_>, now: i64, inner: f64) -> Vec<String> {
    let s = c.seg;
    let records = s.record_count() as i64;
    let mut lines = wrap(
        &format!(
            "{} · {} · {}",
            offset_range(s.base_offset().0, s.next_offset().0, c.active),
            format::count_of(records, "record", "records"),
            human::bytes(s.size().0)
        ),
        inner,
        11.0,
    );
    let largest = if records == 0 {
        "largest timestamp —".to_string()
    } else {
        format!(
            "largest timestamp {} ({}{})",
            human::date(s.largest_timestamp().0),
            format::relative(s.largest_timestamp().0 - now),
            if s.largest_timestamp_is_record_time() {
                ""
            } else {
                ", file time"
            }
        )
    };
    lines.extend(wrap(&largest, inner, 11.0));
    lines
}

/// Time-index entries per line: two when a card is wide enough for two stamps with dates.
fn ti_cols(inner: f64) -> usize {
    if inner >= 300.0 {
        2
    } else {
        1
    }
}

/// Tiles per row in a card `inner` px wide.
fn tiles_per_row(inner: f64) -> usize {
    ((inner + 4.0) / (TILE_W + 4.0)).floor().max(1.0) as usize
}

const TILE_W: f64 = 58.0;
const TILE_H: f64 = 34.0;
const LINE: f64 = 15.0;

/// The height of a card's body (tiles or density, and the time index) below its text.
fn body_height(c: &Card<'_>, inner: f64) -> f64 {
    let n = c.seg.record_count() as usize;
    let tiles = if n == 0 {
        0.0
    } else if n <= MAX_TILES {
        n.div_ceil(tiles_per_row(inner)) as f64 * (TILE_H + 4.0)
    } else {
        30.0
    };
    let entries = c.seg.time_index().len().min(MAX_ENTRIES);
    tiles + 6.0 + LINE * (1 + entries.div_ceil(ti_cols(inner))) as f64
}

/// Draws the cards in rows (and the density strip above them for a big log); returns the y
/// below.
pub(crate) fn draw_partition(
    s: &mut Svg,
    p: &Partition,
    list: &[Card<'_>],
    marks: &LookupMarks,
    (width, y0): (f64, f64),
    pal: &Palette,
) -> f64 {
    let mut y = y0;
    let records = p.log_end_offset().0 - p.log_start_offset().0;
    if records > density::TILE_LIMIT || p.segments().len() > list.len() {
        y = draw_strip(s, p, (width, y), pal);
    }
    let cols = (((width - PAD) / (220.0 + PAD)).floor() as usize).clamp(1, list.len().max(1));
    let card_w = (width - PAD) / cols as f64 - PAD;
    let now = p.clock().0;
    for row in list.chunks(cols) {
        let heights: Vec<f64> = row
            .iter()
            .map(|c| {
                let text = 2 + meta_lines(c, now, card_w - 16.0).len();
                let badges = if badges(c, marks, now, pal).is_empty() {
                    0
                } else {
                    1
                };
                18.0 + LINE * (text + badges) as f64 + body_height(c, card_w - 16.0)
            })
            .collect();
        let h = heights.iter().copied().fold(0.0, f64::max);
        for (i, c) in row.iter().enumerate() {
            let x = PAD + i as f64 * (card_w + PAD);
            draw_card(s, c, marks, p, (x, y, card_w, h), pal);
        }
        y += h + PAD;
    }
    if p.segments().len() > list.len() {
        let more = p.segments().len() - list.len();
        let f = Font {
            size: 12.0,
            fill: pal.muted,
            bold: false,
            mono: false,
        };
        let text = format!(
            "{} more segments are in the density strip above (the first, the last and the ones that matter are drawn as cards).",
            format::count(more as i64)
        );
        for l in wrap(&text, width - 2.0 * PAD, 12.0) {
            s.text(PAD, y + 4.0, f, &l);
            y += 16.0;
        }
        y += 8.0;
    }
    y
}

/// One segment's card in the box `(x, y, w, h)`.
fn draw_card(
    s: &mut Svg,
    c: &Card<'_>,
    marks: &LookupMarks,
    p: &Partition,
    (x, y, w, h): (f64, f64, f64, f64),
    pal: &Palette,
) {
    let base = c.seg.base_offset();
    let now = p.clock().0;
    let edge = if marks.chosen == Some(base) {
        pal.accent
    } else if matches!(c.verdict, Some(Verdict::NotOldEnough { future: true, .. })) {
        pal.pinned
    } else {
        pal.border
    };
    s.open("g", &[("data-segment", base.0.to_string())], false);
    s.rect(x, y, w, h, pal.surface, Some(edge));
    let inner = w - 16.0;
    let (tx, mut ty) = (x + 8.0, y + 18.0);
    let bold = Font {
        size: 13.0,
        fill: pal.fg,
        bold: true,
        mono: false,
    };
    s.text(tx, ty, bold, &format!("Segment {}", format::count(base.0)));
    let list = badges(c, marks, now, pal);
    if !list.is_empty() {
        ty += LINE;
        let mut bx = tx;
        for (text, colour) in list {
            let f = Font {
                size: 11.0,
                fill: colour,
                bold: true,
                mono: false,
            };
            s.text(bx, ty, f, &text);
            bx += crate::svg::text_width(&text, 11.0, false) + 8.0;
        }
    }
    let meta = Font {
        size: 11.0,
        fill: pal.muted,
        bold: false,
        mono: false,
    };
    for l in meta_lines(c, now, inner) {
        ty += LINE;
        s.text(tx, ty, meta, &l);
    }
    ty += 8.0;
    let n = c.seg.record_count() as usize;
    if n > 0 && n <= MAX_TILES {
        ty = draw_tiles(s, c, marks, p, (tx, ty, inner), pal);
    } else if n > 0 {
        ty = draw_bars(s, c, p, (tx, ty, inner), pal);
    }
    draw_time_index(s, c, marks, now, (tx, ty + 4.0, inner), pal);
    s.close("g");
}

/// The records as tiles: offset, time of day, age colour; the answer and the scanned records
/// outlined. Returns the y below.
fn draw_tiles(
    s: &mut Svg,
    c: &Card<'_>,
    marks: &LookupMarks,
    p: &Partition,
    (x, y, inner): (f64, f64, f64),
    pal: &Palette,
) -> f64 {
    let per = tiles_per_row(inner);
    let now = p.clock().0;
    let retention = p.config().topic.retention_ms;
    let base = c.seg.base_offset().0;
    let stamps = c.seg.record_timestamps();
    for (i, &ts) in stamps.iter().enumerate() {
        let o = Offset(base + i as i64);
        let (tx, ty) = (
            x + (i % per) as f64 * (TILE_W + 4.0),
            y + (i / per) as f64 * (TILE_H + 4.0),
        );
        let class = AgeClass::of(ts, now, retention);
        let answer = marks.answer == Some(o);
        let stroke = if answer {
            Some(pal.accent)
        } else if marks.is_scanned(o) {
            Some(pal.scan)
        } else {
            None
        };
        s.rect(tx, ty, TILE_W, TILE_H, pal.bg, stroke.or(Some(pal.border)));
        s.rect(tx, ty, 4.0, TILE_H, pal.age(class), None);
        let f = Font {
            size: 11.0,
            fill: pal.fg,
            bold: true,
            mono: true,
        };
        let mut label = o.0.to_string();
        if answer {
            label.push_str(" ✔");
        } else if marks.is_late(o, logtime_model::Timestamp(ts)) {
            label.push_str(" ↩");
        }
        s.text(tx + 8.0, ty + 14.0, f, &fit(&label, TILE_W - 10.0, 11.0));
        let (_, time) = format::tile_time(ts, now);
        let t = Font {
            size: 9.0,
            fill: pal.muted,
            bold: false,
            mono: true,
        };
        let time = format!("{}{}", class.icon(), time);
        s.text(tx + 8.0, ty + 28.0, t, &fit(&time, TILE_W - 10.0, 9.0));
    }
    y + stamps.len().div_ceil(per) as f64 * (TILE_H + 4.0)
}

/// A segment with many records as density bars; returns the y below.
fn draw_bars(
    s: &mut Svg,
    c: &Card<'_>,
    p: &Partition,
    (x, y, inner): (f64, f64, f64),
    pal: &Palette,
) -> f64 {
    let (a, b) = (c.seg.base_offset().0, c.seg.next_offset().0);
    let stamps = c.seg.record_timestamps();
    let ts_at = |o: i64| stamps.get((o - a) as usize).copied();
    let n = (inner / 3.0).floor() as usize;
    let bars = density::bars(a, b, n, p.clock().0, p.config().topic.retention_ms, &ts_at);
    let span = (b - a).max(1) as f64;
    for bar in &bars {
        let bx = x + (bar.first - a) as f64 / span * inner;
        let bw = ((bar.end - bar.first) as f64 / span * inner).max(1.0);
        let colour = bar.class.map_or(pal.border, |k| pal.age(k));
        s.rect(bx, y, bw, 26.0, colour, None);
    }
    y + 30.0
}

/// The first time-index entries, probed and found ones marked.
fn draw_time_index(
    s: &mut Svg,
    c: &Card<'_>,
    marks: &LookupMarks,
    now: i64,
    (x, y, inner): (f64, f64, f64),
    pal: &Palette,
) {
    let base = c.seg.base_offset();
    let ti = c.seg.time_index();
    let f = Font {
        size: 10.0,
        fill: pal.muted,
        bold: false,
        mono: false,
    };
    s.text(x, y + 10.0, f, &format!("time index ({})", ti.len()));
    for (i, (t, o)) in ti.entries().take(MAX_ENTRIES).enumerate() {
        let probed = marks.probed.contains(&(base, i as u32));
        let found = marks.chosen == Some(base) && marks.found_entry == Some((t, o));
        let fill = if found {
            pal.accent
        } else if probed {
            pal.scan
        } else {
            pal.fg
        };
        let e = Font {
            size: 10.0,
            fill,
            bold: found,
            mono: true,
        };
        let cols = ti_cols(inner);
        let (cx, cy) = (
            x + (i % cols) as f64 * inner / cols as f64,
            y + 10.0 + LINE * (1 + i / cols) as f64,
        );
        let text = format!("{} → {}", format::stamp(t.0, now), o);
        s.text(cx, cy, e, &fit(&text, inner / cols as f64 - 4.0, 10.0));
    }
}

/// The whole log as density bars with segment boundaries; returns the y below.
fn draw_strip(s: &mut Svg, p: &Partition, (width, y): (f64, f64), pal: &Palette) -> f64 {
    let inner = width - 2.0 * PAD;
    let (a, b) = (p.log_start_offset().0, p.log_end_offset().0);
    let ts_at = |o: i64| p.timestamp_at(Offset(o)).map(|t| t.0);
    let bars = density::bars(
        a,
        b,
        (inner / 3.0) as usize,
        p.clock().0,
        p.config().topic.retention_ms,
        &ts_at,
    );
    let span = (b - a).max(1) as f64;
    let f = Font {
        size: 11.0,
        fill: pal.muted,
        bold: false,
        mono: false,
    };
    s.text(
        PAD,
        y + 10.0,
        f,
        &format!(
            "the whole log: {} in {}",
            format::count_of(b - a, "offset", "offsets"),
            format::count_of(p.segments().len() as i64, "segment", "segments")
        ),
    );
    let top = y + 16.0;
    for bar in &bars {
        let bx = PAD + (bar.first - a) as f64 / span * inner;
        let bw = ((bar.end - bar.first) as f64 / span * inner).max(1.0);
        s.rect(
            bx,
            top,
            bw,
            28.0,
            bar.class.map_or(pal.border, |k| pal.age(k)),
            None,
        );
    }
    // A boundary every 6 px at most: denser, the strip would be a solid block of lines.
    let n = p.segments().len();
    let stride = ((n as f64 * 6.0 / inner).ceil() as usize).max(1);
    for seg in p.segments().iter().step_by(stride) {
        let bx = PAD + (seg.base_offset().0 - a).max(0) as f64 / span * inner;
        s.line((bx, top - 2.0), (bx, top + 30.0), pal.fg, false);
    }
    top + 28.0 + PAD
}
