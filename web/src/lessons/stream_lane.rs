//! The stream lane under the partition: the downstream stream processor a lesson declares
//! (`"stream"`), its windows and its watermark, advancing read by read as records arrive.
//! The lesson crate runs the processor ([`logtime_lesson::stream::run`]) and words every sentence; the layout is
//! `lane.rs` and the painting `draw_lane.rs`.

use std::cell::Cell;
use std::rc::Rc;

use logtime_core::scenario::narrate::Sentence;
use logtime_lesson::stream::{self, lane as words, StreamConfig, StreamReport};
use yew::prelude::*;

use super::lane::{self as stream_lane, Lane};
use crate::components::{sentence, use_canvas};
use crate::state::ReplayView;

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
    pub replay: ReplayView,
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

fn key(replay: &ReplayView, config: StreamConfig) -> Option<Key> {
    let r = replay.runner()?;
    let p = r.partition();
    Some((
        config,
        p.log_start_offset().0,
        p.high_watermark().0,
        p.log_end_offset().0,
        p.segments().len(),
        p.size().0,
        replay.done(),
    ))
}

/// How many of the `total` reads the lane shows: it catches up with `total` one read per tick,
/// or at once when `instant` (reduced motion, verdicts hidden).
#[hook]
fn use_read_cursor(total: usize, instant: bool) -> usize {
    // The reads shown: catches up with `total` one read per tick (outside the reducer: a
    // timer handle is no state of the explorer).
    let shown = use_mut_ref(|| None::<usize>);
    let redraw = use_force_update();
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
    if instant {
        total
    } else {
        shown.borrow().unwrap_or(total).min(total)
    }
}

/// The page's test ids of the lesson crate's figures, in their order.
const FIGURE_IDS: [&str; 6] = [
    "lane-read",
    "lane-stream-time",
    "lane-watermark",
    "lane-counted",
    "lane-late",
    "lane-closed",
];

/// The lane.
#[function_component(StreamLane)]
pub fn stream_lane(p: &StreamLaneProps) -> Html {
    let config = p.replay.stream();
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
    let instant = p.reduced_motion || p.hidden;
    let cursor = use_read_cursor(total, instant);
    let now = p.replay.now();
    let canvas = {
        let (report, dark) = (report.clone(), p.dark);
        use_canvas(
            Box::new(move |c, (width, _)| {
                if let Some(r) = report.as_ref() {
                    let lane = Lane::at(r, cursor);
                    let scene =
                        lane.scene(r.reads.len(), width, &|w| stream_lane::bar_label(w, now));
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
    let tally = words::tally(report, cursor);
    let newest: Option<Sentence> = cursor
        .checked_sub(1)
        .and_then(|i| report.reads.get(i))
        .map(|r| stream::narrate::fate(r, report));
    let height = stream_lane::height(lane.rows);
    let listed = lane.windows.len().saturating_sub(LISTED);
    let summary = words::summary(&tally);
    let figures = words::figures(report, &tally);
    html! {
        <section role="group" class="lt-panel lt-lane" aria-label="Stream processor downstream" data-testid="stream-lane"
                 data-read={cursor.to_string()} data-total={total.to_string()}>
            <div class="lt-panel-head">
                <h2>{ words::HEADING }</h2>
                <span class="lt-badge">{ config.semantics().label() }</span>
            </div>
            <p class="lt-lane-setting lt-small">{ sentence(&stream::narrate::setting(&config)) }</p>
            if p.hidden {
                <p class="lt-note" role="note" data-testid="lane-hidden">
                    { format!("The processor has read {} of {} records; what it did with them (windows, close time, late records) is hidden until you answer.", cursor, total) }
                </p>
            } else {
                <dl class="lt-stats">
                    { for figures.iter().zip(FIGURE_IDS).map(|((k, v), id)| html! {
                        <div><dt>{ *k }</dt><dd data-testid={id}>{ v.clone() }</dd></div>
                    }) }
                </dl>
                <canvas ref={canvas} class="lt-lane-canvas" data-testid="lane-canvas" role="img" aria-label={summary}
                        style={format!("height: {}px", height as i64)} />
                <p class="lt-lane-newest lt-small" role="status" aria-live="polite" data-testid="lane-newest">
                    if let Some(s) = &newest { <span class="lt-muted">{ "Last read: " }</span>{ sentence(s) }{ "." } }
                    else { <span class="lt-muted">{ words::NOTHING_READ }</span> }
                </p>
                { windows_list(&lane, listed) }
                { legend() }
            }
        </section>
    }
}

/// The windows that received records, the last `LISTED` of them listed (closed ones marked,
/// those that dropped records flagged); nothing before any window.
fn windows_list(lane: &Lane, listed: usize) -> Html {
    if lane.windows.is_empty() {
        return html! {};
    }
    html! {
        <ol class="lt-lane-windows lt-small" aria-label="Windows" data-testid="lane-windows">
            if listed > 0 { <li class="lt-muted">{ words::earlier(listed) }</li> }
            { for lane.windows.iter().skip(listed).map(|w| html!{
                <li class={classes!(w.closed.then_some("closed"), (w.late > 0).then_some("dropped"))} data-testid="lane-window">
                    <span class="lt-lane-key" aria-hidden="true">{ if w.closed { "▮" } else { "▯" } }</span>
                    { words::window_line(w.window, w.counted, w.late, w.closed_by) }
                </li>
            }) }
        </ol>
    }
}

/// The key to the lane's marks.
fn legend() -> Html {
    html! {
        <ul class="lt-legend" aria-label="Legend of the stream lane">
            <li><span class="lt-swatch lt-lane-counted" aria-hidden="true">{ "✓" }</span>{ words::KEY[0] }</li>
            <li><span class="lt-swatch lt-lane-late" aria-hidden="true">{ "✗" }</span>{ words::KEY[1] }</li>
            <li><span class="lt-swatch lt-lane-bar" aria-hidden="true">{ "▮" }</span>{ words::KEY[2] }</li>
        </ul>
    }
}
