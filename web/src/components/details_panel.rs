//! Details of whatever the reader opened (a click or Enter on a record, a segment, a
//! time-index entry or a lookup trace line): exact times, where it sits, and why.

use logtime_core::human;
use logtime_core::scenario::narrate;
use logtime_model::{Offset, Partition, Timestamp};
use yew::prelude::*;

use super::sentence;
use crate::model::format;
use crate::state::{Inspect, LookupState, ReplayView, Shared};

/// The details panel's props.
#[derive(Properties, PartialEq, Clone)]
pub struct DetailsPanelProps {
    /// What is open.
    pub inspect: Inspect,
    /// The partition.
    pub replay: ReplayView,
    /// The latest lookup (its trace lines).
    pub lookup: Shared<LookupState>,
    /// Close.
    pub on_close: Callback<()>,
    /// No ages (a lesson's `age_marks` hidden).
    #[prop_or_default]
    pub neutral: bool,
}

/// A full instant: RFC 3339 UTC and epoch ms, and its age at `now` (`None`: a lesson hides
/// ages, which would say "in the future" of the segment a question asks for).
fn instant(label: &str, t: i64, now: Option<i64>) -> Html {
    if t == -1 {
        return html! { <div><dt>{ label.to_string() }</dt><dd>{ "none (−1, NO_TIMESTAMP)" }</dd></div> };
    }
    html! {
        <>
            <div><dt>{ label.to_string() }</dt><dd data-testid="detail-utc">{ human::rfc3339(t) }</dd></div>
            <div><dt>{ "epoch ms" }</dt><dd data-testid="detail-epoch"><code>{ t }</code></dd></div>
            if let Some(now) = now {
                <div><dt>{ "age" }</dt><dd>{ if t > now { format!("{} in the future", human::duration(t - now)) } else { human::age(now - t) } }</dd></div>
            }
        </>
    }
}

fn row(label: &str, value: Html) -> Html {
    html! { <div><dt>{ label.to_string() }</dt><dd>{ value }</dd></div> }
}

fn record(p: &Partition, o: Offset, now: Option<i64>) -> (String, Html) {
    let Some(seg) = p.segment_of(o) else {
        return (
            format!("Offset {o}"),
            html! { <p>{ "This offset is no longer in the log (below the log start offset, or deleted)." }</p> },
        );
    };
    let ts = seg.timestamp_at(o).unwrap_or(Timestamp(-1));
    // binary search: a segment can hold millions of batches
    let (mut lo, mut hi) = (0, seg.batch_count());
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if seg.batch(mid).last_offset < o {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    let batch = (lo < seg.batch_count())
        .then(|| seg.batch(lo))
        .filter(|b| b.base_offset <= o && o <= b.last_offset);
    let entries: Vec<(Timestamp, Offset)> = seg.time_index().entries().collect();
    let entry = entries.iter().rev().find(|(_, e)| *e <= o);
    let indexed = entries.iter().any(|(_, e)| *e == o);
    let active = p.segments().last().map(|s| s.base_offset()) == Some(seg.base_offset());
    let lso = p.log_start_offset();
    let rule = match &batch {
        Some(b) if b.log_append_time => "LogAppendTime: the broker stamped the batch with its clock when it appended it".to_string(),
        _ => "CreateTime: the producer's stamp, kept as sent (it passed message.timestamp.before/after.max.ms)".to_string(),
    };
    let placed = if active {
        format!(
            "appended to segment {}, the active segment",
            format::count(seg.base_offset().0)
        )
    } else {
        let why = seg
            .roll_reason()
            .map(|r| format!("; it closed when {}", narrate::roll_reason(&r)))
            .unwrap_or_default();
        format!("in segment {}{why}", format::count(seg.base_offset().0))
    };
    let body = html! {
        <dl class="lt-details-list">
            { instant("timestamp (UTC)", ts.0, now) }
            { row("offset", html!{ { format::count(o.0) } }) }
            if let Some(b) = &batch {
                { row("batch", html!{ { format!("offsets {}–{}, {} at byte {}, max timestamp {}", b.base_offset, b.last_offset, human::bytes(b.size.0), b.position.0, human::rfc3339(b.max_timestamp.0)) } }) }
                { row("size", html!{ { format!("{} per record on average ({} in its batch)", human::bytes(b.size.0 / (b.last_offset.0 - b.base_offset.0 + 1).max(1)), human::bytes(b.size.0)) } }) }
            }
            { row("time index", html!{ {
                match entry {
                    Some((t, e)) if indexed => format!("indexed: entry {} → {}", human::rfc3339(t.0), e),
                    Some((t, e)) => format!("covered by entry {} → {} (an entry is written every index.interval.bytes, and only for a new largest timestamp)", human::rfc3339(t.0), e),
                    None => "not in the time index (no entry at or before it in this segment)".to_string(),
                }
            } }) }
            { row("timestamp rule", html!{ { rule } }) }
            { row("placed", html!{ { placed } }) }
            if o < lso { { row("status", html!{ { "below the log start offset: deleted for readers" } }) } }
        </dl>
    };
    (format!("Record at offset {}", format::count(o.0)), body)
}

fn segment(p: &Partition, base: Offset, now: Option<i64>) -> (String, Html) {
    let Some(seg) = p.segments().iter().find(|s| s.base_offset() == base) else {
        return (
            format!("Segment {base}"),
            html! { <p>{ "This segment has been deleted." }</p> },
        );
    };
    let active = p.segments().last().map(|s| s.base_offset()) == Some(base);
    let body = html! {
        <dl class="lt-details-list">
            { instant("largest timestamp (UTC)", seg.largest_timestamp().0, now) }
            { row("offsets", html!{ { format!("{}–{} ({})", format::count(base.0), format::count(seg.next_offset().0 - 1), format::count_of(seg.record_count() as i64, "record", "records")) } }) }
            { row("size", html!{ { human::bytes(seg.size().0) } }) }
            { row("batches", html!{ { seg.batch_count() } }) }
            { row("time index", html!{ { format!("{} entries", seg.time_index().entries().count()) } }) }
            { row("largest stamp from", html!{ { if seg.largest_timestamp_is_record_time() { "a record's timestamp".to_string() } else { "the file's last-modified time (no record time)".to_string() } } }) }
            { row("state", html!{ {
                if active { "active: new batches land here".to_string() }
                else { seg.roll_reason().map(|r| format!("closed: {}", narrate::roll_reason(&r))).unwrap_or_else(|| "closed".into()) }
            } }) }
        </dl>
    };
    (format!("Segment {}", format::count(base.0)), body)
}

fn index_entry(p: &Partition, base: Offset, i: usize, now: Option<i64>) -> (String, Html) {
    let entry = p
        .segments()
        .iter()
        .find(|s| s.base_offset() == base)
        .and_then(|s| s.time_index().entries().nth(i));
    let Some((t, o)) = entry else {
        return (
            "Time-index entry".into(),
            html! { <p>{ "This entry is gone with its segment." }</p> },
        );
    };
    let body = html! {
        <dl class="lt-details-list">
            { instant("timestamp (UTC)", t.0, now) }
            { row("offset", html!{ { format::count(o.0) } }) }
            { row("segment", html!{ { format::count(base.0) } }) }
            { row("meaning", html!{ { "the segment's largest timestamp so far when the batch ending at this offset was appended: a lookup for a time at or before it starts its scan at or before this offset" } }) }
        </dl>
    };
    (
        format!(
            "Time-index entry {} of segment {}",
            i + 1,
            format::count(base.0)
        ),
        body,
    )
}

/// The details panel.
#[function_component(DetailsPanel)]
pub fn details_panel(p: &DetailsPanelProps) -> Html {
    let Some(r) = p.replay.runner() else {
        return html! {};
    };
    let now = (!p.neutral).then_some(r.now().0);
    let part = r.partition();
    let (title, body) = match p.inspect {
        Inspect::Record(o) => record(part, o, now),
        Inspect::Segment(b) => segment(part, b, now),
        Inspect::IndexEntry(b, i) => index_entry(part, b, i, now),
        Inspect::Trace(i) => match p
            .lookup
            .result
            .as_ref()
            .and_then(|l| l.trace.get(i).map(|s| (l, s)))
        {
            Some((l, s)) => (
                format!("Lookup step {}", i + 1),
                html! {
                    <dl class="lt-details-list">
                        { row("step", sentence(&narrate::trace_step(s, l.spec))) }
                        { row("lookup", html!{ { l.spec.to_string() } }) }
                    </dl>
                },
            ),
            None => (
                "Lookup step".into(),
                html! { <p>{ "This lookup is no longer shown." }</p> },
            ),
        },
    };
    let close = {
        let cb = p.on_close.clone();
        Callback::from(move |_: MouseEvent| cb.emit(()))
    };
    html! {
        <section role="group" class="lt-panel lt-details" aria-label="Details" data-testid="details">
            <div class="lt-panel-head">
                <h2>{ title }</h2>
                <button type="button" class="lt-btn lt-btn-small" onclick={close} aria-label="Close the details" data-testid="details-close">{ "✕" }</button>
            </div>
            { body }
        </section>
    }
}
