//! The stream lane under the partition: the downstream stream processor a lesson declares
//! (`"stream"`), its windows and its watermark, advancing read by read as records arrive.
//! The lesson crate runs the processor ([`logtime_lesson::stream::run`]) and words every sentence; the layout is
//! `lane.rs` and the painting `draw_lane.rs`.

use std::cell::Cell;
use std::rc::Rc;

use logtime_core::human;
use logtime_core::scenario::narrate::{self, Sentence};
use logtime_lesson::stream::{self, Semantics, StreamConfig, StreamReport};
use logtime_model::Timestamp;
use yew::prelude::*;

use super::lane::{self as stream_lane, Lane, LaneWindow};
use crate::components::{sentence, use_canvas};
use crate::model::format;
use crate::state::{Replay, Shared};

/// Reads shown one by one at this pace (ms) when several arrive at once.
const READ_MS: u32 = 260;
/// More new reads than this at once are shown at once (a long replay, a rebuild).
const ANIMATE_AT_MOST: usize = 40;
/// Windows listed in words at most (the newest).
const LISTED: usize = 8;

/// The stream lane's props.
#[derive(Properties, PartialEq, Clone)]
pub struct StreamLaneProps {
    /// The replay (its partition and its `stream` section).
    pub replay: Shared<Replay>,
    /// What the processor did is hidden until the open question is answered.
    #[prop_or_default]
    pub hidden: bool,
    /// No read-by-read animation.
    #[prop_or_default]
    pub reduced_motion: bool,
    /// Dark colours.
    #[prop_or_default]
    pub dark: bool,
}

/// What the partition looks like to a consumer: when any of it changes the processor reruns.
type Key = (StreamConfig, i64, i64, i64, usize, i64, usize);

fn key(replay: &Replay, config: StreamConfig) -> Option<Key> {
    let r = replay.runner()?;
    let p = r.partition();
    Some((
        config,
        p.log_start_offset().0,
        p.high_watermark().0,
        p.log_end_offset().0,
        p.segments().len(),
        p.size().0,
        replay.done,
    ))
}

/// A window's bar label: `10:00–10:05 · 3 ✓ 5 ✗` (the day too when it is not the broker's).
fn bar_label(w: &LaneWindow, now: Timestamp) -> String {
    format!(
        "{} · {} ✓ {} ✗",
        stream_lane::short_label(w.window, now),
        w.counted,
        w.late
    )
}

/// The lane.
#[function_component(StreamLane)]
pub fn stream_lane(p: &StreamLaneProps) -> Html {
    let config = p.replay.stream;
    let k = config.and_then(|c| key(&p.replay, c));
    let report: Rc<Option<StreamReport>> = {
        let replay = p.replay.clone();
        use_memo(k, move |k| {
            let c = k.as_ref()?.0;
            let r = replay.runner()?;
            Some(stream::run(&c, r.partition()))
        })
    };
    let total = report.as_ref().as_ref().map_or(0, |r| r.reads.len());
    // The reads shown: catches up with `total` one read per tick (outside the reducer: a
    // timer handle is no state of the explorer).
    let shown = use_mut_ref(|| None::<usize>);
    let redraw = use_force_update();
    let instant = p.reduced_motion || p.hidden;
    {
        let (shown, redraw) = (shown.clone(), redraw.clone());
        use_effect_with((total, instant), move |&(total, instant)| {
            let from = shown.borrow().unwrap_or(total).min(total);
            let mut timer = None;
            if instant
                || from == total
                || total - from > ANIMATE_AT_MOST
                || !cfg!(target_arch = "wasm32")
            {
                if *shown.borrow() != Some(total) {
                    *shown.borrow_mut() = Some(total);
                    if !instant && from != total {
                        redraw.force_update();
                    }
                }
            } else {
                *shown.borrow_mut() = Some(from);
                let at = Rc::new(Cell::new(from));
                timer = Some(gloo_timers::callback::Interval::new(READ_MS, move || {
                    if at.get() < total {
                        at.set(at.get() + 1);
                        *shown.borrow_mut() = Some(at.get());
                        redraw.force_update();
                    }
                }));
            }
            move || drop(timer)
        });
    }
    // Without motion (or with the verdicts hidden) the lane is always at the partition's end.
    let cursor = if instant {
        total
    } else {
        shown.borrow().unwrap_or(total).min(total)
    };
    let now = p.replay.now();
    let canvas = {
        let (report, dark) = (report.clone(), p.dark);
        use_canvas(
            Box::new(move |c, (width, _)| {
                if let Some(r) = report.as_ref() {
                    let lane = Lane::at(r, cursor);
                    let scene = lane.scene(r.reads.len(), width, &|w| bar_label(w, now));
                    super::draw_lane::stream_lane(c, &scene, dark);
                }
            }),
            0,
        )
    };
    let (Some(config), Some(report)) = (config, report.as_ref()) else {
        return html! {};
    };
    let lane = Lane::at(report, cursor);
    let close_name = match config.semantics() {
        Semantics::KafkaStreams => "Close time",
        Semantics::Flink => "Watermark",
    };
    let date = |t: Option<Timestamp>| t.map_or_else(|| "—".to_string(), |t| human::date(t.0));
    let counted = lane
        .marks
        .iter()
        .filter(|m| {
            m.fate != stream_lane::LaneFate::Late && m.fate != stream_lane::LaneFate::Skipped
        })
        .count();
    let late = lane
        .marks
        .iter()
        .filter(|m| m.fate == stream_lane::LaneFate::Late)
        .count();
    let closed = lane.windows.iter().filter(|w| w.closed).count();
    let newest: Option<Sentence> = cursor
        .checked_sub(1)
        .and_then(|i| report.reads.get(i))
        .map(|r| stream::narrate::fate(r, report));
    let height = stream_lane::height(lane.rows);
    let listed = lane.windows.len().saturating_sub(LISTED);
    let summary = format!(
        "Stream processor lane: {} of {} records read, {} counted, {} dropped as late, {} ({} closed)",
        cursor,
        total,
        counted,
        late,
        narrate::count(lane.windows.len() as u64, "window", "windows"),
        closed
    );
    html! {
        <section role="group" class="lt-panel lt-lane" aria-label="Stream processor downstream" data-testid="stream-lane"
                 data-read={cursor.to_string()} data-total={total.to_string()}>
            <div class="lt-panel-head">
                <h2>{ "Downstream: stream processor" }</h2>
                <span class="lt-badge">{ config.semantics().label() }</span>
            </div>
            <p class="lt-lane-setting lt-small">{ sentence(&stream::narrate::setting(&config)) }</p>
            if p.hidden {
                <p class="lt-note" role="note" data-testid="lane-hidden">
                    { format!("The processor has read {} of {} records; what it did with them (windows, close time, late records) is hidden until you answer.", cursor, total) }
                </p>
            } else {
                <dl class="lt-stats">
                    <div><dt>{ "Records read" }</dt><dd data-testid="lane-read">{ format!("{} of {}", format::count(cursor as i64), format::count(total as i64)) }</dd></div>
                    <div><dt>{ "Stream time" }</dt><dd data-testid="lane-stream-time">{ date(lane.stream_time) }</dd></div>
                    <div><dt>{ close_name }</dt><dd data-testid="lane-watermark">{ date(lane.watermark) }</dd></div>
                    <div><dt>{ "Counted" }</dt><dd data-testid="lane-counted">{ format::count(counted as i64) }</dd></div>
                    <div><dt>{ "Dropped as late" }</dt><dd data-testid="lane-late">{ format::count(late as i64) }</dd></div>
                    <div><dt>{ "Windows closed" }</dt><dd data-testid="lane-closed">{ format!("{closed} of {}", lane.windows.len()) }</dd></div>
                </dl>
                <canvas ref={canvas} class="lt-lane-canvas" data-testid="lane-canvas" role="img" aria-label={summary}
                        style={format!("height: {}px", height as i64)} />
                <p class="lt-lane-newest lt-small" role="status" aria-live="polite" data-testid="lane-newest">
                    if let Some(s) = &newest { <span class="lt-muted">{ "Last read: " }</span>{ sentence(s) }{ "." } }
                    else { <span class="lt-muted">{ "Nothing read yet: the processor reads each record as it is appended." }</span> }
                </p>
                if !lane.windows.is_empty() {
                    <ol class="lt-lane-windows lt-small" aria-label="Windows" data-testid="lane-windows">
                        if listed > 0 { <li class="lt-muted">{ format!("{listed} earlier windows") }</li> }
                        { for lane.windows.iter().skip(listed).map(|w| html!{
                            <li class={classes!(w.closed.then_some("closed"), (w.late > 0).then_some("dropped"))} data-testid="lane-window">
                                <span class="lt-lane-key" aria-hidden="true">{ if w.closed { "▮" } else { "▯" } }</span>
                                { stream::narrate::window_label(w.window) }
                                { format!(": {} counted, {} late, {}", w.counted, w.late,
                                    match w.closed_by { Some(by) => format!("closed by record {by}"), None => "open".to_string() }) }
                            </li>
                        }) }
                    </ol>
                }
                <ul class="lt-legend" aria-label="Legend of the stream lane">
                    <li><span class="lt-swatch lt-lane-counted" aria-hidden="true">{ "✓" }</span>{ "counted in its window" }</li>
                    <li><span class="lt-swatch lt-lane-late" aria-hidden="true">{ "✗" }</span>{ "dropped as late" }</li>
                    <li><span class="lt-swatch lt-lane-bar" aria-hidden="true">{ "▮" }</span>{ "a window, from its first record to the read that closed it" }</li>
                </ul>
            }
        </section>
    }
}
