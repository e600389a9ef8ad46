//! The partition: segments left to right, records as tiles (or density bars on a canvas when
//! many are visible), the log start offset, each segment's largest timestamp and time index.

use logtime_core::human;
use logtime_core::scenario::narrate;
use logtime_model::{Offset, Segment, Timestamp, Verdict};
use yew::prelude::*;

use crate::author::PickPanel;
use logtime_core::scenario::narrate::Panel;

use super::density_canvas::DensityCanvas;
use super::sentence;
use crate::model::density::TILE_LIMIT;
use crate::model::format::{self, AgeClass};
use crate::model::marks::LookupMarks;

use crate::model::viewport::Viewport;
use crate::state::{Inspect, LookupState, Marks, ReplayView, RetentionState, Shared};

/// What a lesson marks in the partition view: the step's targets, the learner's picks, and
/// what a click picks.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LessonMarks {
    /// Segments outlined, by base offset.
    pub segments: Vec<Offset>,
    /// Offset ranges outlined.
    pub ranges: Vec<(Offset, Offset)>,
    /// The learner's picks for the open question.
    pub picked: Vec<Offset>,
    /// A click on a segment picks it.
    pub picks_segments: bool,
    /// A click on a record picks it.
    pub picks_records: bool,
    /// The "pinned" badges are hidden until the question is answered.
    pub hide_pinned: bool,
    /// Age colours, icons and words are neutral until the question is answered (core's
    /// `age_marks`): they would point at the future-stamped segment.
    pub hide_ages: bool,
}

impl LessonMarks {
    fn outlines(&self, o: Offset) -> bool {
        self.ranges.iter().any(|(a, b)| *a <= o && o <= *b)
    }
}

/// Enter or space on a focusable element acts as a click.
fn on_enter(cb: Callback<()>) -> Callback<KeyboardEvent> {
    Callback::from(move |e: KeyboardEvent| {
        if e.key() == "Enter" || e.key() == " " {
            e.prevent_default();
            e.stop_propagation();
            cb.emit(());
        }
    })
}

/// The partition view's props.
#[derive(Properties, PartialEq, Clone)]
pub struct PartitionViewProps {
    /// The replay (the partition).
    pub replay: ReplayView,
    /// The batch that landed and why segments rolled.
    pub marks: Shared<Marks>,
    /// The latest lookup and its walk.
    pub lookup: Shared<LookupState>,
    /// The latest retention check (pinned and chained segments).
    pub retention: Shared<RetentionState>,
    /// The window onto the offsets.
    pub viewport: Viewport,
    /// No landing animation.
    #[prop_or_default]
    pub reduced_motion: bool,
    /// Dark colours.
    #[prop_or_default]
    pub dark: bool,
    /// Zoom and pan.
    pub on_viewport: Callback<Viewport>,
    /// A lesson's highlights and picks.
    #[prop_or_default]
    pub lesson: Option<LessonMarks>,
    /// Open the details of a record, a segment or a time-index entry.
    #[prop_or_default]
    pub on_inspect: Callback<Inspect>,
    /// A lesson's pick (a segment's base offset or a record's offset).
    #[prop_or_default]
    pub on_pick: Callback<Offset>,
}

/// What a segment card shows of a segment's lookup and retention marks.
pub(super) fn lookup_marks(lookup: &LookupState) -> LookupMarks {
    lookup
        .result
        .as_ref()
        .map(|l| LookupMarks::new(l, lookup.cursor))
        .unwrap_or_default()
}

/// The partition: segments left to right, records as tiles (or density bars on a canvas when
/// many are visible), the log start offset, each segment's largest timestamp and time index.
#[function_component(PartitionView)]
pub fn partition_view(p: &PartitionViewProps) -> Html {
    let Some(r) = p.replay.runner() else {
        return html! { <section role="group" class="lt-panel lt-partition" data-testid="partition" aria-label="Partition"><p class="lt-muted">{ "No partition yet." }</p></section> };
    };
    let part = r.partition();
    let now = r.now();
    let cfg = part.config();
    let retention_ms = cfg.topic.retention_ms;
    // Said wherever the policy in force includes compact.
    let compaction = narrate::compaction_note(cfg);
    let segs = part.segments();
    let lso = part.log_start_offset().0;
    let leo = part.log_end_offset().0;
    let hw = part.high_watermark().0;
    let lo = segs.first().map(|s| s.base_offset().0).unwrap_or(0);
    let hi = leo.max(lo + 1);
    let vp = p.viewport.clamped(lo, hi);
    let (va, vb) = vp.visible();
    let (va, vb) = (va.max(lo), vb.min(leo));
    let visible_records = (vb - va).max(0);
    let verdict_of = |base: Offset| -> Option<Verdict> {
        p.retention
            .report
            .as_ref()?
            .verdicts
            .iter()
            .find(|v| v.base_offset == base)
            .map(|v| v.verdict)
    };
    let marks = lookup_marks(&p.lookup);
    let lm = p.lesson.clone().unwrap_or_default();
    let act = Act {
        inspect: p.on_inspect.clone(),
        pick: p.on_pick.clone(),
        picks_segments: lm.picks_segments,
        picks_records: lm.picks_records,
    };

    let zoom = |factor: f64| {
        let cb = p.on_viewport.clone();
        Callback::from(move |_: MouseEvent| cb.emit(vp.zoom(factor, 0.5, lo, hi)))
    };
    let pan = |fraction: f64| {
        let cb = p.on_viewport.clone();
        Callback::from(move |_: MouseEvent| cb.emit(vp.pan(fraction, lo, hi)))
    };
    let fit = {
        let cb = p.on_viewport.clone();
        Callback::from(move |_: MouseEvent| cb.emit(Viewport::fit(lo, hi)))
    };

    // segments at least partly visible (binary search: O(log n + visible))
    let first = segs
        .partition_point(|s| s.next_offset().0 <= va)
        .min(segs.len().saturating_sub(1));
    let last = segs
        .partition_point(|s| s.base_offset().0 < vb.max(va + 1))
        .max(first + 1)
        .min(segs.len());
    let visible_segs = &segs[first..last];
    let active_base = segs.last().map(|s| s.base_offset());
    // What a segment card shows of a segment; `partial` when only some of its records are in
    // view; `compact` for the chips under the density view (no time-index listing).
    let info = |s: &Segment, partial: bool, compact: bool| {
        let base = s.base_offset();
        SegmentInfo {
            base,
            next: s.next_offset(),
            records: s.record_count() as i64,
            size: s.size().0,
            largest: s.largest_timestamp(),
            record_time: s.largest_timestamp_is_record_time(),
            active: Some(base) == active_base,
            roll: s.roll_reason().as_ref().map(narrate::roll_reason),
            verdict: verdict_of(base),
            now,
            time_index: if compact {
                Vec::new()
            } else {
                s.time_index().entries().collect()
            },
            time_index_len: s.time_index().len(),
            compact,
            marks: &marks,
            partial,
            lesson: &lm,
            act: &act,
        }
    };

    let body = if visible_records <= TILE_LIMIT {
        html! {
            <div class="lt-segments" role="list">
                { for visible_segs.iter().map(|s| {
                    let base = s.base_offset().0;
                    let ts = s.record_timestamps();
                    let from = va.max(base);
                    let to = vb.min(s.next_offset().0);
                    let tiles: Html = (from..to).map(|o| {
                        let t = Timestamp(ts.get((o - base) as usize).copied().unwrap_or(-1));
                        let tile = Tile { offset: Offset(o), ts: t, now, retention_ms, lso: Offset(lso) };
                        tile.render(p.marks.landed, &marks, p.reduced_motion, &lm, &act)
                    }).collect();
                    segment_card(info(s, from > base || to < s.next_offset().0, false), tiles)
                }) }
            </div>
        }
    } else {
        let chips = visible_segs.len() <= 24;
        html! {
            <>
                <DensityCanvas replay={p.replay.clone()} lookup={p.lookup.clone()} retention={p.retention.clone()}
                               viewport={p.viewport} dark={p.dark} on_viewport={p.on_viewport.clone()} />
                <p class="lt-legend-line lt-muted">
                    { format!("{} records in view as density bars (bar height = records still in the log{}). Zoom in to {} or fewer to see single records.",
                        format::count(visible_records), if lm.hide_ages { "" } else { "; colour and the ▲ cap = age" }, TILE_LIMIT) }
                </p>
                if chips {
                    // Chips, keyed by base offset so that a window that moves while playing moves
                    // them instead of rewriting each one; without their time-index listing (in
                    // the segment's details), so that a frame lays out a few elements per chip.
                    <div class="lt-segments lt-segments-compact" role="list">
                        { for visible_segs.iter().map(|s| segment_card(info(s, false, true), html!{})) }
                    </div>
                } else {
                    <p class="lt-muted">{ format!("{} segments in view; zoom in to list them.", format::count(visible_segs.len() as i64)) }</p>
                }
            </>
        }
    };

    html! {
        <section role="group" class="lt-panel lt-partition" data-testid="partition" aria-label="Partition" data-panel="partition">
            <div class="lt-panel-head">
                <h2><PickPanel panel={Panel::Partition}>{ format!("Partition {}", part.topic_partition()) }</PickPanel></h2>
                <div class="lt-zoom" role="group" aria-label="Zoom and pan the partition">
                    <button type="button" class="lt-btn lt-btn-small" onclick={pan(-0.5)} aria-label="Pan to older offsets" title="Older">{ "◀" }</button>
                    <button type="button" class="lt-btn lt-btn-small" onclick={zoom(0.25)} aria-label="+ Zoom in" title="Zoom in" data-testid="zoom-in">{ "+" }</button>
                    <button type="button" class="lt-btn lt-btn-small" onclick={zoom(4.0)} aria-label="− Zoom out" title="Zoom out">{ "−" }</button>
                    <button type="button" class="lt-btn lt-btn-small" onclick={fit} aria-label="Fit the whole log" title="Fit the whole log">{ "Fit" }</button>
                    <button type="button" class="lt-btn lt-btn-small" onclick={pan(0.5)} aria-label="Pan to newer offsets" title="Newer">{ "▶" }</button>
                </div>
            </div>
            <dl class="lt-stats">
                <div><dt>{ "Log start offset" }</dt><dd data-testid="log-start">{ format::count(lso) }</dd></div>
                <div><dt>{ "Log end offset" }</dt><dd data-testid="log-end">{ format::count(leo) }</dd></div>
                <div><dt>{ "High watermark" }</dt><dd>{ format::count(hw) }</dd></div>
                <div><dt>{ "Segments" }</dt><dd data-testid="segment-count">{ format::count(segs.len() as i64) }</dd></div>
                <div><dt>{ "Size" }</dt><dd>{ human::bytes(p.replay.size().0) }</dd></div>
                <div><dt>{ "retention.ms" }</dt><dd>{ if retention_ms < 0 { "no limit".to_string() } else { human::duration(retention_ms) } }</dd></div>
                <div><dt>{ "In view" }</dt><dd>{ format!("{}–{}", format::count(va), format::count((vb - 1).max(va))) }</dd></div>
            </dl>
            if let Some(note) = &compaction {
                <p class="lt-note" role="note" data-testid="compaction-note">
                    <span class="lt-note-icon" aria-hidden="true">{ "⚠" }</span>
                    <span class="lt-note-text">{ sentence(note) }</span>
                </p>
            }
            { body }
            <Legend hide_ages={lm.hide_ages} />
        </section>
    }
}

#[derive(Properties, PartialEq)]
struct LegendProps {
    hide_ages: bool,
}

#[function_component(Legend)]
fn legend(p: &LegendProps) -> Html {
    if p.hide_ages {
        return html! {
            <p class="lt-legend lt-muted" data-testid="ages-hidden">{ "Age colours and future marks are hidden until the question is settled: read the stamps." }</p>
        };
    }
    let item = |c: AgeClass, label: &str| {
        html! {
            <li><span class={classes!("lt-swatch", format!("age-{}", c.css()))} aria-hidden="true">{ c.icon() }</span>{ label.to_string() }</li>
        }
    };
    html! {
        <ul class="lt-legend" aria-label="Legend">
            { item(AgeClass::Fresh, "younger than half of retention.ms") }
            { item(AgeClass::Ageing, "nearing retention.ms") }
            { item(AgeClass::Expired, "older than retention.ms") }
            { item(AgeClass::Future, "stamped in the future") }
            <li><span class="lt-swatch lt-swatch-late" aria-hidden="true">{ "↩" }</span>{ "after the lookup answer, stamped before T" }</li>
        </ul>
    }
}

/// What clicks in the partition do.
struct Act {
    inspect: Callback<Inspect>,
    pick: Callback<Offset>,
    picks_segments: bool,
    picks_records: bool,
}

impl Act {
    /// Opens the details of `what`; in a question that picks it, picks `o` too.
    fn click(&self, what: Inspect, o: Offset, picks: bool) -> Callback<()> {
        let (inspect, pick) = (self.inspect.clone(), self.pick.clone());
        Callback::from(move |()| {
            if picks {
                pick.emit(o);
            }
            inspect.emit(what);
        })
    }
}

/// One record as a tile: what it is and where it stands.
struct Tile {
    offset: Offset,
    ts: Timestamp,
    now: Timestamp,
    retention_ms: i64,
    lso: Offset,
}

impl Tile {
    fn render(
        &self,
        landed: Option<(Offset, Offset)>,
        marks: &LookupMarks,
        reduced_motion: bool,
        lesson: &LessonMarks,
        act: &Act,
    ) -> Html {
        let (o, t) = (self.offset, self.ts);
        let outlined = lesson.outlines(o);
        let picked = lesson.picks_records && lesson.picked.contains(&o);
        let class = AgeClass::of(t.0, self.now.0, self.retention_ms);
        let ages = !lesson.hide_ages;
        let below = o < self.lso;
        let landing = !reduced_motion && landed.is_some_and(|(a, b)| o >= a && o <= b);
        let scanned = marks.is_scanned(o);
        let answer = marks.answer == Some(o);
        let late = marks.is_late(o, t);
        let mut words = vec![
            format!("offset {o}"),
            format!("stamped {}", human::date(t.0)),
        ];
        if ages {
            words.push(class.words().to_string());
        }
        if below {
            words.push("below the log start offset (deleted)".into());
        }
        if answer {
            words.push("the lookup's answer".into());
        } else if scanned {
            words.push("read by the lookup scan".into());
        }
        if late {
            words.push("after the answer but stamped before T".into());
        }
        if picked {
            words.push("your pick".into());
        }
        if outlined {
            words.push("pointed at by the lesson".into());
        }
        let (day, time) = format::tile_time(t.0, self.now.0);
        let click = act.click(Inspect::Record(o), o, act.picks_records);
        let onclick = {
            let c = click.clone();
            Callback::from(move |_: MouseEvent| c.emit(()))
        };
        html! {
            <div role="listitem" tabindex="0" onclick={onclick} onkeydown={on_enter(click)}
                 class={classes!("lt-tile", if ages { format!("age-{}", class.css()) } else { "age-hidden".to_string() }, landing.then_some("landing"),
                        scanned.then_some("scanned"), answer.then_some("answer"), late.then_some("late"), below.then_some("below-start"),
                        outlined.then_some("lt-hl"), picked.then_some("picked"))}
                 data-testid={format!("record-{o}")} title={words.join(", ")} aria-label={words.join(", ")}>
                <span class="lt-tile-off">{ o.0 }</span>
                if let Some(day) = &day { <span class="lt-tile-day">{ day.clone() }</span> }
                <span class="lt-tile-ts">{ tile_time_html(&time) }</span>
                if ages {
                    <span class="lt-tile-rel">{ class.icon() }{ " " }{ if t.0 == -1 { String::new() } else { format::relative(t.0 - self.now.0) } }</span>
                }
                if answer { <span class="lt-tile-badge">{ "answer" }</span> }
                else if late { <span class="lt-tile-badge">{ "↩ < T" }</span> }
            </div>
        }
    }
}

/// What a segment card shows.
struct SegmentInfo<'a> {
    base: Offset,
    next: Offset,
    records: i64,
    size: i64,
    largest: Timestamp,
    record_time: bool,
    active: bool,
    roll: Option<narrate::Sentence>,
    verdict: Option<Verdict>,
    now: Timestamp,
    /// The time-index entries listed (none on a compact chip).
    time_index: Vec<(Timestamp, Offset)>,
    /// Entries in the time index.
    time_index_len: usize,
    /// A chip under the density view: no time-index listing.
    compact: bool,
    marks: &'a LookupMarks,
    partial: bool,
    lesson: &'a LessonMarks,
    act: &'a Act,
}

fn segment_card(s: SegmentInfo<'_>, tiles: Html) -> Html {
    // A "future" badge names the segment a pinning question asks for: hidden with the pinned ones.
    let future = s.largest > s.now && !s.lesson.hide_pinned && !s.lesson.hide_ages;
    let pinned = !s.lesson.hide_pinned
        && matches!(s.verdict, Some(Verdict::NotOldEnough { future: true, .. }));
    let outlined = s.lesson.segments.contains(&s.base);
    let picked = s.lesson.picks_segments && s.lesson.picked.contains(&s.base);
    let click = s
        .act
        .click(Inspect::Segment(s.base), s.base, s.act.picks_segments);
    let onclick = Callback::from(move |_: MouseEvent| click.emit(()));
    let chained = match s.verdict {
        Some(Verdict::KeptBehind {
            blocker,
            expired: true,
        }) if !s.lesson.hide_pinned => Some(blocker),
        _ => None,
    };
    let passed = s.marks.is_passed(s.base);
    let chosen = s.marks.chosen == Some(s.base);
    let shown_ti = s.time_index.len().min(12);
    html! {
        <div role="listitem" key={s.base.0} data-testid={format!("segment-{}", s.base)}
                 class={classes!("lt-seg", s.active.then_some("active"), pinned.then_some("pinned"), future.then_some("future"),
                        passed.then_some("passed"), chosen.then_some("chosen"), chained.map(|_| "chained"),
                        outlined.then_some("lt-hl"), picked.then_some("picked"))}
                 aria-label={format!("segment {}{}", s.base, if picked { ", your pick" } else { "" })}>
            <button type="button" class="lt-seg-head" {onclick} data-testid={format!("segment-head-{}", s.base)}
                    aria-pressed={s.act.picks_segments.then_some(if picked { "true" } else { "false" })}>
                <strong>{ format!("Segment {}", format::count(s.base.0)) }</strong>
                <span class="lt-visually-hidden">{ if s.act.picks_segments { ": pick it, show its details" } else { ": show its details" } }</span>
                if s.active { <span class="lt-badge lt-badge-active">{ "▶ active" }</span> }
                if pinned { <span class="lt-badge lt-badge-pinned">{ "⚓ pinned" }</span> }
                if let Some(b) = chained { <span class="lt-badge lt-badge-chained">{ format!("⇠ behind {}", format::count(b.0)) }</span> }
                if future && !pinned { <span class="lt-badge lt-badge-future">{ "▲ future" }</span> }
                if chosen { <span class="lt-badge lt-badge-lookup">{ "◎ searched" }</span> }
                else if passed { <span class="lt-badge">{ "passed over" }</span> }
                if picked { <span class="lt-badge lt-badge-picked">{ "✎ your pick" }</span> }
            </button>
            <p class="lt-seg-meta">
                { format!("{} · {} · {}", offset_range(s.base.0, s.next.0, s.active), format::count_of(s.records, "record", "records"), human::bytes(s.size)) }
            </p>
            <p class="lt-seg-meta">
                { "largest timestamp " }
                <strong>{ if s.records == 0 { "—".to_string() } else { human::date(s.largest.0) } }</strong>
                if s.records > 0 && !s.lesson.hide_ages {
                    { format!(" ({}{})", format::relative(s.largest.0 - s.now.0), if s.record_time { "" } else { ", file time" }) }
                } else if s.records > 0 && !s.record_time {
                    { " (file time)" }
                }
            </p>
            if let Some(r) = &s.roll { <p class="lt-seg-roll">{ "↪ " }{ sentence(r) }</p> }
            if s.partial { <p class="lt-seg-meta lt-muted">{ "(partly in view)" }</p> }
            <div class="lt-tiles" role="list">{ tiles }</div>
            if !s.compact {
            <div class="lt-ti" aria-label={format!("time index of segment {}: {} entries", s.base, s.time_index_len)}>
                <span class="lt-ti-label">{ format!("time index ({})", s.time_index_len) }</span>
                { for s.time_index.iter().enumerate().take(shown_ti).map(|(i, (t, o))| {
                    let probed = s.marks.probed.contains(&(s.base, i as u32));
                    let found = chosen && s.marks.found_entry == Some((*t, *o));
                    let inspect = s.act.inspect.clone();
                    let what = Inspect::IndexEntry(s.base, i);
                    let onclick = Callback::from(move |_: MouseEvent| inspect.emit(what));
                    html!{ <button type="button" class={classes!("lt-ti-entry", probed.then_some("probed"), found.then_some("found"))} {onclick}
                        data-testid={format!("ti-{}-{i}", s.base)}>
                        { format!("{} → {}", format::stamp(t.0, s.now.0), o) }</button> }
                }) }
                if s.time_index_len > shown_ti { <span class="lt-muted">{ format!("+{} more", s.time_index_len - shown_ti) }</span> }
            </div>
            }
        </div>
    }
}

// The card's offsets line is the picture's (`logtime render`): one wording.
use logtime_render::offset_range;

/// A tile's time with a line break allowed before its milliseconds: a narrow tile shows
/// `05:54:56` over `.400` rather than breaking inside the number.
fn tile_time_html(time: &str) -> Html {
    match time.split_once('.') {
        Some((hms, ms)) => html! { <>{ hms.to_string() }<wbr />{ format!(".{ms}") }</> },
        None => html! { { time.to_string() } },
    }
}
