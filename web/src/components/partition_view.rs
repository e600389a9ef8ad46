use logtime_core::{human, Lookup, Segment, TraceStep, Verdict};
use yew::prelude::*;

use super::PanelProps;
use crate::app::model::density::TILE_LIMIT;
use crate::app::model::format::{self, AgeClass};
use crate::app::model::viewport::Viewport;
use crate::app::state::Action;

/// What the lookup animation has shown so far, for highlighting records and index entries.
#[derive(Default, Clone, PartialEq)]
pub struct LookupMarks {
    pub passed: Vec<i64>,
    pub chosen: Option<i64>,
    pub probed: Vec<(i64, u32)>,
    pub found_entry: Option<(i64, i64)>,
    pub scanned: Vec<i64>,
    pub answer: Option<i64>,
    pub target: Option<i64>,
}

impl LookupMarks {
    pub fn from(l: &Lookup, cursor: usize) -> LookupMarks {
        let mut m = LookupMarks::default();
        if let logtime_core::OffsetSpec::Timestamp(t) = l.spec {
            m.target = Some(t.0);
        }
        for step in l.trace.iter().take(cursor) {
            match step {
                TraceStep::SegmentPassed { segment, .. } => {
                    m.passed.push(segment.0);
                }
                TraceStep::SegmentChosen { segment, .. }
                | TraceStep::MaxTimestampSegment { segment, .. } => m.chosen = Some(segment.0),
                TraceStep::TimeIndexSearch {
                    segment,
                    probes,
                    found_offset,
                    found_timestamp,
                } => {
                    for pr in probes {
                        m.probed.push((segment.0, pr.slot));
                    }
                    m.found_entry = Some((found_timestamp.0, found_offset.0));
                }
                TraceStep::RecordScanned { offset, .. } => {
                    m.scanned.push(offset.0);
                }
                _ => {}
            }
        }
        if cursor >= l.trace.len() && l.offset.0 >= 0 {
            m.answer = Some(l.offset.0);
        }
        m
    }
}

/// The partition: segments left to right, records as tiles (or density bars on a canvas when
/// many are visible), the log start offset, each segment's largest timestamp and time index.
#[function_component(PartitionView)]
pub fn partition_view(p: &PanelProps) -> Html {
    let st = &*p.state;
    let d = p.state.dispatcher();
    let Some(runner) = st.runner.clone() else {
        return html! { <section class="lt-panel lt-partition" data-testid="partition" aria-label="Partition"><p class="lt-muted">{ "No partition yet." }</p></section> };
    };
    let r = runner.borrow();
    let part = r.partition();
    let now = r.now().0;
    let cfg = part.config();
    let retention_ms = cfg.topic.retention_ms;
    let segs = part.segments();
    let lso = part.log_start_offset().0;
    let leo = part.log_end_offset().0;
    let hw = part.high_watermark().0;
    let lo = segs.first().map(|s| s.base_offset().0).unwrap_or(0);
    let hi = leo.max(lo + 1);
    let vp = st.viewport.clamped(lo, hi);
    let (va, vb) = vp.visible();
    let (va, vb) = (va.max(lo), vb.min(leo));
    let visible_records = (vb - va).max(0);
    let verdict_of = |base: i64| -> Option<Verdict> {
        st.retention
            .as_ref()?
            .verdicts
            .iter()
            .find(|v| v.base_offset.0 == base)
            .map(|v| v.verdict)
    };
    let marks = st
        .lookup
        .as_ref()
        .map(|l| LookupMarks::from(l, st.lookup_cursor))
        .unwrap_or_default();

    let zoom = |factor: f64| {
        let d = d.clone();
        Callback::from(move |_: MouseEvent| {
            d.dispatch(Action::SetViewport(vp.zoom(factor, 0.5, lo, hi)))
        })
    };
    let pan = |fraction: f64| {
        let d = d.clone();
        Callback::from(move |_: MouseEvent| {
            d.dispatch(Action::SetViewport(vp.pan(fraction, lo, hi)))
        })
    };
    let fit = {
        let d = d.clone();
        Callback::from(move |_: MouseEvent| d.dispatch(Action::SetViewport(Viewport::fit(lo, hi))))
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
    let active_base = segs.last().map(|s| s.base_offset().0);
    // What a segment card shows of a segment; `partial` when only some of its records are in view.
    let info = |s: &Segment, partial: bool| {
        let base = s.base_offset().0;
        SegmentInfo {
            base,
            next: s.next_offset().0,
            records: s.record_count() as i64,
            size: s.size().0,
            largest: s.largest_timestamp().0,
            record_time: s.largest_timestamp_is_record_time(),
            active: Some(base) == active_base,
            roll: st.roll_of(base).cloned(),
            verdict: verdict_of(base),
            now,
            time_index: s.time_index().entries().map(|(t, o)| (t.0, o.0)).collect(),
            marks: &marks,
            partial,
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
                        let t = ts.get((o - base) as usize).copied().unwrap_or(-1);
                        tile(o, t, now, retention_ms, lso, st.landed, &marks, p.reduced_motion)
                    }).collect();
                    segment_card(info(s, from > base || to < s.next_offset().0), tiles)
                }) }
            </div>
        }
    } else {
        let chips = visible_segs.len() <= 24;
        html! {
            <>
                <DensityCanvas state={p.state.clone()} reduced_motion={p.reduced_motion} dark={p.dark} />
                <p class="lt-legend-line lt-muted">
                    { format!("{} records in view as density bars (bar height = records still in the log; colour and the ▲ cap = age). Zoom in to {} or fewer to see single records.",
                        format::count(visible_records), TILE_LIMIT) }
                </p>
                if chips {
                    <div class="lt-segments lt-segments-compact" role="list">
                        { for visible_segs.iter().map(|s| segment_card(info(s, false), html!{})) }
                    </div>
                } else {
                    <p class="lt-muted">{ format!("{} segments in view; zoom in to list them.", format::count(visible_segs.len() as i64)) }</p>
                }
            </>
        }
    };

    html! {
        <section class="lt-panel lt-partition" data-testid="partition" aria-label="Partition">
            <div class="lt-panel-head">
                <h2>{ format!("Partition {}", part.topic_partition()) }</h2>
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
                <div><dt>{ "Size" }</dt><dd>{ human::bytes(part.size().0) }</dd></div>
                <div><dt>{ "retention.ms" }</dt><dd>{ if retention_ms < 0 { "no limit".to_string() } else { human::duration(retention_ms) } }</dd></div>
                <div><dt>{ "In view" }</dt><dd>{ format!("{}–{}", format::count(va), format::count((vb - 1).max(va))) }</dd></div>
            </dl>
            { body }
            <Legend />
        </section>
    }
}

#[function_component(Legend)]
fn legend() -> Html {
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

#[allow(clippy::too_many_arguments)]
fn tile(
    o: i64,
    t: i64,
    now: i64,
    retention_ms: i64,
    lso: i64,
    landed: Option<(i64, i64)>,
    marks: &LookupMarks,
    reduced_motion: bool,
) -> Html {
    let class = AgeClass::of(t, now, retention_ms);
    let below = o < lso;
    let landing = !reduced_motion && landed.is_some_and(|(a, b)| o >= a && o <= b);
    let scanned = marks.scanned.contains(&o);
    let answer = marks.answer == Some(o);
    let late = match (marks.answer, marks.target) {
        (Some(a), Some(tt)) => o > a && t < tt && t != -1,
        _ => false,
    };
    let mut words = vec![
        format!("offset {o}"),
        format!("stamped {}", human::date(t)),
        class.words().to_string(),
    ];
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
    html! {
        <div role="listitem"
             class={classes!("lt-tile", format!("age-{}", class.css()), landing.then_some("landing"),
                    scanned.then_some("scanned"), answer.then_some("answer"), late.then_some("late"), below.then_some("below-start"))}
             data-testid={format!("record-{o}")} title={words.join(", ")} aria-label={words.join(", ")}>
            <span class="lt-tile-off">{ o }</span>
            <span class="lt-tile-ts">{ format::stamp(t, now) }</span>
            <span class="lt-tile-rel">{ class.icon() }{ " " }{ if t == -1 { String::new() } else { format::relative(t - now) } }</span>
            if answer { <span class="lt-tile-badge">{ "answer" }</span> }
            else if late { <span class="lt-tile-badge">{ "↩ < T" }</span> }
        </div>
    }
}

struct SegmentInfo<'a> {
    base: i64,
    next: i64,
    records: i64,
    size: i64,
    largest: i64,
    record_time: bool,
    active: bool,
    roll: Option<String>,
    verdict: Option<Verdict>,
    now: i64,
    time_index: Vec<(i64, i64)>,
    marks: &'a LookupMarks,
    partial: bool,
}

fn segment_card(s: SegmentInfo<'_>, tiles: Html) -> Html {
    let future = s.largest > s.now;
    let pinned = matches!(s.verdict, Some(Verdict::NotOldEnough { future: true, .. }));
    let chained = match s.verdict {
        Some(Verdict::KeptBehind {
            blocker,
            expired: true,
        }) => Some(blocker.0),
        _ => None,
    };
    let passed = s.marks.passed.contains(&s.base);
    let chosen = s.marks.chosen == Some(s.base);
    let shown_ti = s.time_index.len().min(12);
    html! {
        <div role="listitem" data-testid={format!("segment-{}", s.base)}
                 class={classes!("lt-seg", s.active.then_some("active"), pinned.then_some("pinned"), future.then_some("future"),
                        passed.then_some("passed"), chosen.then_some("chosen"), chained.map(|_| "chained"))}
                 aria-label={format!("segment {}", s.base)}>
            <header class="lt-seg-head">
                <strong>{ format!("Segment {}", format::count(s.base)) }</strong>
                if s.active { <span class="lt-badge lt-badge-active">{ "▶ active" }</span> }
                if pinned { <span class="lt-badge lt-badge-pinned">{ "⚓ pinned" }</span> }
                if let Some(b) = chained { <span class="lt-badge lt-badge-chained">{ format!("⇠ behind {}", format::count(b)) }</span> }
                if future && !pinned { <span class="lt-badge lt-badge-future">{ "▲ future" }</span> }
                if chosen { <span class="lt-badge lt-badge-lookup">{ "◎ searched" }</span> }
                else if passed { <span class="lt-badge">{ "passed over" }</span> }
            </header>
            <p class="lt-seg-meta">
                { format!("{} · {} records · {}", offset_range(s.base, s.next, s.active), format::count(s.records), human::bytes(s.size)) }
            </p>
            <p class="lt-seg-meta">
                { "largest timestamp " }
                <strong>{ if s.records == 0 { "—".to_string() } else { human::date(s.largest) } }</strong>
                if s.records > 0 {
                    { format!(" ({}{})", format::relative(s.largest - s.now), if s.record_time { "" } else { ", file time" }) }
                }
            </p>
            if let Some(r) = &s.roll { <p class="lt-seg-roll">{ "↪ " }{ r.clone() }</p> }
            if s.partial { <p class="lt-seg-meta lt-muted">{ "(partly in view)" }</p> }
            <div class="lt-tiles" role="list">{ tiles }</div>
            <div class="lt-ti" aria-label={format!("time index of segment {}: {} entries", s.base, s.time_index.len())}>
                <span class="lt-ti-label">{ format!("time index ({})", s.time_index.len()) }</span>
                { for s.time_index.iter().enumerate().take(shown_ti).map(|(i, (t, o))| {
                    let probed = s.marks.probed.contains(&(s.base, i as u32));
                    let found = chosen && s.marks.found_entry == Some((*t, *o));
                    html!{ <span class={classes!("lt-ti-entry", probed.then_some("probed"), found.then_some("found"))}>
                        { format!("{} → {}", format::stamp(*t, s.now), o) }</span> }
                }) }
                if s.time_index.len() > shown_ti { <span class="lt-muted">{ format!("+{} more", s.time_index.len() - shown_ti) }</span> }
            </div>
        </div>
    }
}

/// The canvas density view for big partitions (drawing in `draw.rs`).
#[function_component(DensityCanvas)]
pub fn density_canvas(p: &PanelProps) -> Html {
    let canvas = use_node_ref();
    let d = p.state.dispatcher();
    {
        let canvas = canvas.clone();
        let state = p.state.clone();
        let dark = p.dark;
        use_effect(move || {
            #[cfg(target_arch = "wasm32")]
            draw_density(&canvas, &state, dark);
            #[cfg(not(target_arch = "wasm32"))]
            let _ = (&canvas, &state, dark);
        });
    }
    let onclick = {
        let state = p.state.clone();
        let canvas = canvas.clone();
        Callback::from(move |e: MouseEvent| {
            let Some(el) = canvas.cast::<web_sys::Element>() else {
                return;
            };
            let w = el.client_width().max(1) as f64;
            let anchor = e.offset_x() as f64 / w;
            if let Some(r) = state.runner.as_ref() {
                let r = r.borrow();
                let lo = r.partition().segments()[0].base_offset().0;
                let hi = r.partition().log_end_offset().0.max(lo + 1);
                let vp = state.viewport.clamped(lo, hi);
                d.dispatch(Action::SetViewport(vp.zoom(
                    if e.shift_key() { 4.0 } else { 0.25 },
                    anchor,
                    lo,
                    hi,
                )));
            }
        })
    };
    html! {
        <canvas ref={canvas} class="lt-density" data-testid="density" onclick={onclick}
                role="img" aria-label="Records as density bars; click to zoom in, shift-click to zoom out" />
    }
}

#[cfg(target_arch = "wasm32")]
fn draw_density(
    canvas: &NodeRef,
    state: &UseReducerHandle<crate::app::state::Explorer>,
    dark: bool,
) {
    use crate::app::model::scene::{build, SceneInput};
    let Some(c) = canvas.cast::<web_sys::HtmlCanvasElement>() else {
        return;
    };
    let Some(runner) = state.runner.as_ref() else {
        return;
    };
    let r = runner.borrow();
    let part = r.partition();
    let segs = part.segments();
    let bases: Vec<i64> = segs.iter().map(|s| s.base_offset().0).collect();
    let lo = bases.first().copied().unwrap_or(0);
    let leo = part.log_end_offset().0;
    let vp = state.viewport.clamped(lo, leo.max(lo + 1));
    let pinned: Vec<i64> = state
        .retention
        .as_ref()
        .map(|rep| {
            rep.verdicts
                .iter()
                .filter(|v| matches!(v.verdict, Verdict::NotOldEnough { future: true, .. }))
                .map(|v| v.base_offset.0)
                .collect()
        })
        .unwrap_or_default();
    let ts_at = |o: i64| -> Option<i64> {
        let i = bases.partition_point(|&b| b <= o).checked_sub(1)?;
        segs[i]
            .record_timestamps()
            .get((o - bases[i]) as usize)
            .copied()
    };
    let mut marks: Vec<(i64, &'static str)> = Vec::new();
    if let Some(l) = &state.lookup {
        let m = LookupMarks::from(l, state.lookup_cursor);
        if let Some(a) = m.answer {
            marks.push((a, "answer"));
        }
        for o in m.scanned.iter().rev().take(64) {
            marks.push((*o, "scan"));
        }
    }
    let scene = build(&SceneInput {
        viewport: vp,
        width: crate::app::draw::css_width(&c),
        height: c.client_height().max(1) as f64,
        now: r.now().0,
        retention_ms: part.config().topic.retention_ms,
        log_start: part.log_start_offset().0,
        log_end: leo,
        bases: &bases,
        pinned: &pinned,
        ts_at: &ts_at,
        marks: &marks,
    });
    crate::app::draw::partition(&c, &scene, dark);
}

/// "offsets 0–5", "offsets 40,000–40,099 (open)" for the active segment, "offsets from 40,100
/// (empty)" for an empty one.
fn offset_range(base: i64, next: i64, active: bool) -> String {
    if next <= base {
        format!("offsets from {} (empty)", format::count(base))
    } else if active {
        format!(
            "offsets {}–{} (open)",
            format::count(base),
            format::count(next - 1)
        )
    } else {
        format!(
            "offsets {}–{}",
            format::count(base),
            format::count(next - 1)
        )
    }
}
