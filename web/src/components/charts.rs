//! The two charts: record timestamps against offsets, and disk usage over simulated time.

use yew::prelude::*;

use crate::author::PickPanel;
use logtime_core::scenario::narrate::Panel;

use super::use_canvas;
use crate::draw;
use crate::model::chart::{nothing_to_plot, timestamp_points};
use crate::state::{Disk, LookupState, ReplayView, Shared};

/// The timestamp chart's props.
#[derive(Properties, PartialEq, Clone)]
pub struct TimestampChartProps {
    /// The replay (its records).
    pub replay: ReplayView,
    /// The latest lookup (its target and answer, once walked).
    pub lookup: Shared<LookupState>,
    /// Dark colours.
    #[prop_or_default]
    pub dark: bool,
    /// Every stamp a dot, none marked as ahead of the clock (a lesson's `age_marks` hidden).
    #[prop_or_default]
    pub neutral: bool,
}

/// The charts follow a playback a few times a second (the partition view shows every step).
const CHART_EVERY_MS: u32 = 250;

/// Timestamp against offset: out-of-order CreateTime stamps, future outliers as
/// triangles, the lookup target as a horizontal line and the answer as a vertical one.
#[function_component(TimestampChart)]
pub fn timestamp_chart(p: &TimestampChartProps) -> Html {
    let canvas = {
        let (replay, lookup, dark, neutral) =
            (p.replay.clone(), p.lookup.clone(), p.dark, p.neutral);
        use_canvas(
            Box::new(move |c, size| {
                let Some(r) = replay.runner() else {
                    return draw::chart_note(c, size, "No partition yet", dark);
                };
                let now = r.now();
                let points = timestamp_points(r.partition(), now);
                let (target, answer) = match &lookup.result {
                    Some(l) if lookup.finished() => (
                        match l.spec {
                            logtime_model::OffsetSpec::Timestamp(t) => Some(t),
                            _ => None,
                        },
                        (l.offset.0 >= 0).then_some(l.offset),
                    ),
                    _ => (None, None),
                };
                let stamps = draw::Stamps {
                    points: &points,
                    nothing: nothing_to_plot(r.partition()),
                    now,
                    target,
                    answer,
                    neutral,
                };
                draw::timestamp_chart(c, size, &stamps, dark);
            }),
            CHART_EVERY_MS,
        )
    };
    html! {
        <section role="group" class="lt-panel lt-chart" aria-label="Timestamp against offset" data-panel="chart">
            <h2><PickPanel panel={Panel::Chart}>{ "Timestamp against offset" }</PickPanel></h2>
            <canvas ref={canvas} class="lt-chart-canvas" data-testid="timestamp-chart" role="img"
                    aria-label={if p.neutral { "Record timestamps plotted against offsets; the horizontal line is the lookup's T and the vertical line its answer" }
                                else { "Record timestamps plotted against offsets; triangles are stamps in the future, the horizontal line is the lookup's T and the vertical line its answer" }} />
            <p class="lt-muted lt-chart-key" data-testid="chart-key">{ if p.neutral { "● stamp · ─ lookup T · │ answer" } else { "● stamp · ▲ future stamp · ─ lookup T · │ answer" } }</p>
        </section>
    }
}

/// The disk chart's props.
#[derive(Properties, PartialEq, Clone)]
pub struct DiskChartProps {
    /// Partition size over broker time.
    pub disk: Shared<Disk>,
    /// Dark colours.
    #[prop_or_default]
    pub dark: bool,
}

/// Disk usage over simulated time.
#[function_component(DiskChart)]
pub fn disk_chart(p: &DiskChartProps) -> Html {
    let canvas = {
        let (disk, dark) = (p.disk.clone(), p.dark);
        use_canvas(
            Box::new(move |c, size| draw::disk_chart(c, size, disk.samples(), dark)),
            CHART_EVERY_MS,
        )
    };
    let last = p
        .disk
        .last()
        .map(|(_, b)| logtime_core::human::bytes(b.0))
        .unwrap_or_default();
    html! {
        <section role="group" class="lt-panel lt-chart" aria-label="Disk usage" data-panel="disk">
            <h2><PickPanel panel={Panel::Disk}>{ "Disk usage over simulated time" }</PickPanel></h2>
            <canvas ref={canvas} class="lt-chart-canvas lt-chart-small" data-testid="disk-chart" role="img"
                    aria-label={format!("Partition size over broker time; now {last}")} />
        </section>
    }
}
