//! The retention panel: the walk from the oldest segment with every verdict, and the remedies.

use logtime_core::human;
use logtime_core::scenario::narrate;
use logtime_core::scenario::parse_duration;
use logtime_model::{RetentionReport, SegmentVerdict, Verdict};
use yew::prelude::*;

use crate::author::PickPanel;
use logtime_core::scenario::narrate::Panel;

use super::{input_value, label, sentence};
use crate::model::format;
use crate::state::{CommandAction, ReplayView, RetentionState, Shared};
use logtime_core::import::recommended_delete_records;

/// The retention panel's props.
#[derive(Properties, PartialEq, Clone)]
pub struct RetentionPanelProps {
    /// The replay (the configs in force, the segments, the next scheduled pass).
    pub replay: ReplayView,
    /// The latest check and its walk.
    pub state: Shared<RetentionState>,
    /// Show every verdict at once.
    #[prop_or_default]
    pub reduced_motion: bool,
    /// A check now, a remedy, DeleteRecords: the reader's commands this panel offers.
    pub on_command: Callback<CommandAction>,
    /// Show the remedies (a lesson hides them until its question is answered).
    #[prop_or(true)]
    pub remedies: bool,
    /// In an embed the remedies start folded (a compact explorer shows the verdicts first).
    #[prop_or_default]
    pub compact: bool,
}

/// A verdict's icon (never colour alone) and class.
pub fn verdict_class(v: &SegmentVerdict) -> (&'static str, &'static str) {
    match v.verdict {
        Verdict::Deleted { .. } => ("✕", "deleted"),
        Verdict::NotOldEnough { future: true, .. } => ("⚓", "pinned"),
        Verdict::KeptBehind { expired: true, .. } => ("⇠", "chained"),
        _ => ("●", "kept"),
    }
}

/// The retention walk from the oldest segment, its verdicts, disk growth and the remedies.
#[function_component(RetentionPanel)]
pub fn retention_panel(p: &RetentionPanelProps) -> Html {
    let del_id = super::use_uid("lt-del");
    let ret_id = super::use_uid("lt-ret");
    let delete_to = use_state(Option::<String>::default);
    let raise_to = super::use_text("7d");
    let Some(r) = p.replay.runner() else {
        return html! {};
    };
    let (retention_ms, after_ms, next_check, next_label, default_delete) = {
        let part = r.partition();
        let cfg = part.config();
        // DeleteRecords default: the segment after the first pinned one (seed 001: 30000)
        let pinned = p.state.report.as_ref().and_then(|rep| {
            rep.verdicts
                .iter()
                .find(|v| matches!(v.verdict, Verdict::NotOldEnough { future: true, .. }))
                .map(|v| v.base_offset.0)
        });
        // The one offset recommended everywhere (the import panel and `logtime inspect` too):
        // it frees the segment that keeps expired ones on disk and deletes no current record.
        // Worked out only once a check showed a pinned segment (a retention preview is not
        // free on a large partition).
        let recommended = pinned
            .and_then(|_| recommended_delete_records(part, part.clock()))
            .map(|d| d.offset.0);
        (
            cfg.topic.retention_ms,
            cfg.effective_after_max_ms(),
            part.next_retention_check().0,
            // The retention task's next check, or the log cleaner's next pass (compact).
            narrate::next_pass_label(cfg),
            recommended,
        )
    };
    drop(r);
    // With the remedies hidden (a lesson asks for the fix), nothing is pre-filled.
    let delete_value = (*delete_to)
        .clone()
        .unwrap_or_else(|| match default_delete {
            Some(o) if p.remedies => o.to_string(),
            _ => String::new(),
        });
    let on_check = {
        let cb = p.on_command.clone();
        Callback::from(move |_: MouseEvent| cb.emit(CommandAction::RunRetention))
    };
    let on_lower = {
        let cb = p.on_command.clone();
        Callback::from(move |_: MouseEvent| {
            cb.emit(CommandAction::Remedy {
                name: "message.timestamp.after.max.ms".into(),
                value: 3_600_000,
            })
        })
    };
    let on_delete = {
        let cb = p.on_command.clone();
        let v = delete_value.clone();
        let then_check = p.remedies;
        Callback::from(move |_: MouseEvent| {
            if let Ok(o) = v.trim().parse::<i64>() {
                cb.emit(CommandAction::DeleteRecords {
                    offset: o,
                    then_check,
                })
            }
        })
    };
    let on_raise = {
        let cb = p.on_command.clone();
        let v = (*raise_to).clone();
        Callback::from(move |_: MouseEvent| {
            if let Ok(ms) = parse_duration(&v) {
                cb.emit(CommandAction::Remedy {
                    name: "retention.ms".into(),
                    value: ms,
                })
            }
        })
    };
    let walk = p
        .state
        .report
        .as_ref()
        .map(|rep| walk_view(rep, p.state.cursor, p.reduced_motion, retention_ms));
    html! {
        <section role="group" class="lt-panel lt-retention" aria-label="Retention" data-panel="retention">
            <div class="lt-panel-head">
                <h2><PickPanel panel={Panel::Retention}>{ "Retention" }</PickPanel></h2>
                <button type="button" class="lt-btn" onclick={on_check} data-testid="run-retention">{ "Run retention check now" }</button>
            </div>
            <p class="lt-muted" data-testid="retention-settings">
                { format!("retention.ms = {} · message.timestamp.after.max.ms = {} · {} {}",
                    if retention_ms < 0 { "-1 (no limit)".to_string() } else { human::duration(retention_ms) },
                    human::duration(after_ms),
                    next_label,
                    if next_check == i64::MAX { "never".to_string() } else { human::date(next_check) }) }
            </p>
            { walk.unwrap_or_else(|| html!{ <p class="lt-muted">{ "No retention check has run yet in this scenario." }</p> }) }
            if p.remedies {
            <details class="lt-remedies" open={!p.compact}>
                <summary>{ "Remedies" }</summary>
                <div class="lt-remedy">
                    <button type="button" class="lt-btn" onclick={on_lower} data-testid="remedy-after">{ "Lower message.timestamp.after.max.ms to 1 h" }</button>
                    <span class="lt-muted">{ "refuses new far-future stamps; does not unpin what is already stored" }</span>
                </div>
                <div class="lt-remedy">
                    { label(&del_id, "DeleteRecords to offset") }
                    <input id={del_id} class="lt-narrow" value={delete_value} data-testid="delete-offset"
                           onchange={{ let h = delete_to.clone(); Callback::from(move |e: Event| h.set(Some(input_value(&e)))) }} />
                    <button type="button" class="lt-btn" onclick={on_delete} data-testid="remedy-delete">{ "Delete records, then check" }</button>
                </div>
                <div class="lt-remedy">
                    { label(&ret_id, "Raise retention.ms to") }
                    <input id={ret_id} class="lt-narrow" value={(*raise_to).clone()}
                           onchange={{ let h = raise_to.clone(); Callback::from(move |e: Event| h.set(input_value(&e))) }} />
                    <button type="button" class="lt-btn" onclick={on_raise} data-testid="remedy-retention">{ "Raise, then check" }</button>
                </div>
                if let Some(e) = &p.state.command_error { <p class="lt-field-error" role="alert">{ e.clone() }</p> }
            </details>
            } else {
                <div class="lt-remedy">
                    { label(&del_id, "DeleteRecords to offset") }
                    <input id={del_id} class="lt-narrow" value={delete_value} data-testid="delete-offset" inputmode="numeric"
                           onchange={{ let h = delete_to.clone(); Callback::from(move |e: Event| h.set(Some(input_value(&e)))) }} />
                    <button type="button" class="lt-btn" onclick={on_delete} data-testid="delete-records">{ "Delete records" }</button>
                </div>
                if let Some(e) = &p.state.command_error { <p class="lt-field-error" role="alert">{ e.clone() }</p> }
            }
        </section>
    }
}

fn walk_view(rep: &RetentionReport, cursor: usize, reduced: bool, retention_ms: i64) -> Html {
    let shown = if reduced {
        rep.verdicts.len()
    } else {
        cursor.min(rep.verdicts.len())
    };
    html! {
        <div class="lt-walk">
            <p>
                <strong>{ format!("Check at {}", human::date(rep.at.0)) }</strong>
                { format!(" ({}) · walking from the oldest segment · {} deleted · log start offset {}",
                    if rep.scheduled { "scheduled" } else { "on request" }, rep.deleted.len(), rep.log_start_offset.0) }
            </p>
            <ol class="lt-verdicts">
                { for rep.verdicts.iter().enumerate().map(|(i, v)| {
                    let (icon, kind) = verdict_class(v);
                    let age = rep.at.0.saturating_sub(v.largest_timestamp.0);
                    let pct = if retention_ms > 0 { crate::model::clamp(age as f64 / retention_ms as f64 * 100.0, 0.0, 100.0) } else { 0.0 };
                    let pending = i >= shown;
                    let current = i + 1 == shown && shown < rep.verdicts.len();
                    html!{
                        <li class={classes!("lt-verdict", format!("v-{kind}"), pending.then_some("pending"), current.then_some("current"))}
                            data-testid={format!("verdict-{}", v.base_offset.0)} aria-hidden={if pending {"true"} else {"false"}}>
                            <span class="lt-verdict-seg">{ format!("Segment {}", format::count(v.base_offset.0)) }</span>
                            <span class="lt-verdict-largest">{ format!("largest {} · {}", human::date(v.largest_timestamp.0), human::age(age)) }</span>
                            <span class="lt-agebar" aria-hidden="true"><span style={format!("width:{}", format::css_pct(pct))}></span></span>
                            <span class="lt-verdict-text">{ icon }{ " " }{ sentence(&narrate::verdict_brief(v)) }</span>
                        </li>
                    }
                }) }
            </ol>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use logtime_model::{Offset, RetentionPass, Timestamp};

    #[test]
    fn classes_and_icons_carry_the_verdict() {
        let v = SegmentVerdict {
            base_offset: Offset(20000),
            largest_timestamp: Timestamp(0),
            record_time: true,
            verdict: Verdict::NotOldEnough {
                age_ms: -1,
                eligible_at: Timestamp(1),
                future: true,
            },
        };
        assert_eq!(verdict_class(&v), ("⚓", "pinned"));
        let chained = SegmentVerdict {
            verdict: Verdict::KeptBehind {
                blocker: Offset(20000),
                expired: true,
            },
            ..v
        };
        assert_eq!(verdict_class(&chained), ("⇠", "chained"));
        let del = SegmentVerdict {
            verdict: Verdict::Deleted {
                pass: RetentionPass::Time,
            },
            ..v
        };
        assert_eq!(verdict_class(&del).1, "deleted");
    }
}
