use yew::prelude::*;

use super::PanelProps;

/// Max points sampled for the timestamp chart.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
const POINTS: i64 = 1500;

/// Timestamp against offset (plotters): out-of-order CreateTime stamps, future outliers as
/// triangles, the lookup target as a horizontal line and the answer as a vertical one.
#[function_component(TimestampChart)]
pub fn timestamp_chart(p: &PanelProps) -> Html {
    let canvas = use_node_ref();
    {
        let canvas = canvas.clone();
        let state = p.state.clone();
        let dark = p.dark;
        use_effect(move || {
            #[cfg(target_arch = "wasm32")]
            {
                let Some(c) = canvas.cast::<web_sys::HtmlCanvasElement>() else {
                    return;
                };
                let Some(runner) = state.runner.as_ref() else {
                    return;
                };
                let r = runner.borrow();
                let part = r.partition();
                let (lo, hi) = (part.log_start_offset().0, part.log_end_offset().0);
                let n = (hi - lo).max(0);
                let stride = (n / POINTS).max(1);
                let mut pts = Vec::with_capacity((n / stride + 1) as usize);
                let segs = part.segments();
                let mut o = lo;
                let mut si = 0;
                while o < hi {
                    while si < segs.len() && segs[si].next_offset().0 <= o {
                        si += 1;
                    }
                    let Some(s) = segs.get(si) else { break };
                    if let Some(t) = s.record_timestamps().get((o - s.base_offset().0) as usize) {
                        if *t != -1 {
                            pts.push((o, *t));
                        }
                    }
                    o += stride;
                }
                // keep every future outlier even when sampling
                for s in segs
                    .iter()
                    .filter(|s| s.max_timestamp_so_far().0 > r.now().0)
                {
                    let base = s.base_offset().0;
                    for (i, t) in s.record_timestamps().iter().enumerate() {
                        if *t > r.now().0 && base + i as i64 >= lo {
                            pts.push((base + i as i64, *t));
                        }
                    }
                }
                let (target, answer) = match &state.lookup {
                    Some(l) if state.lookup_cursor >= l.trace.len() => (
                        match l.spec {
                            logtime_core::OffsetSpec::Timestamp(t) => Some(t.0),
                            _ => None,
                        },
                        (l.offset.0 >= 0).then_some(l.offset.0),
                    ),
                    _ => (None, None),
                };
                crate::app::draw::timestamp_chart(&c, &pts, r.now().0, target, answer, dark);
            }
            #[cfg(not(target_arch = "wasm32"))]
            let _ = (&canvas, &state, dark);
        });
    }
    html! {
        <section class="lt-panel lt-chart" aria-label="Timestamp against offset">
            <h2>{ "Timestamp against offset" }</h2>
            <canvas ref={canvas} class="lt-chart-canvas" data-testid="timestamp-chart" role="img"
                    aria-label="Record timestamps plotted against offsets; triangles are stamps in the future, the horizontal line is the lookup's T and the vertical line its answer" />
            <p class="lt-muted lt-chart-key">{ "● stamp · ▲ future stamp · ─ lookup T · │ answer" }</p>
        </section>
    }
}

/// Disk usage over simulated time (plotters).
#[function_component(DiskChart)]
pub fn disk_chart(p: &PanelProps) -> Html {
    let canvas = use_node_ref();
    {
        let canvas = canvas.clone();
        let state = p.state.clone();
        let dark = p.dark;
        use_effect(move || {
            #[cfg(target_arch = "wasm32")]
            if let Some(c) = canvas.cast::<web_sys::HtmlCanvasElement>() {
                crate::app::draw::disk_chart(&c, &state.disk, dark);
            }
            #[cfg(not(target_arch = "wasm32"))]
            let _ = (&canvas, &state, dark);
        });
    }
    let last = p
        .state
        .disk
        .last()
        .map(|(_, b)| logtime_core::human::bytes(*b))
        .unwrap_or_default();
    html! {
        <section class="lt-panel lt-chart" aria-label="Disk usage">
            <h2>{ "Disk usage over simulated time" }</h2>
            <canvas ref={canvas} class="lt-chart-canvas lt-chart-small" data-testid="disk-chart" role="img"
                    aria-label={format!("Partition size over broker time; now {last}")} />
        </section>
    }
}
