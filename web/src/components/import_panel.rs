//! The import panel: bring a real partition in (drop a partition folder or its segment files,
//! pick them, or paste `kafka-dump-log` output), watch it being read, and, once it is the
//! scenario loaded, the on-call answers about it at the broker clock (core's `inspect`): which
//! segment pins retention, when each would be deleted, and what DeleteRecords would free.

use logtime_core::human::{bytes, rfc3339};
use logtime_core::import::{inspect, words, Imported};
use logtime_core::scenario::save::save;
use logtime_model::{KafkaVersion, Timestamp};
use yew::prelude::*;

use crate::author::PickPanel;
use logtime_core::scenario::narrate::Panel;

use super::input_value;
use crate::glue::{self, Files};
use crate::model::format;
use crate::model::import::{parse_clock, row_cells, skipped, HEADS, NUMERIC};
use crate::state::{ImportState, ReplayView, Shared};

/// What the reader asks of the import.
pub enum ImportRequest {
    /// Read these files as a partition under the `rules` preset at broker time `now`.
    Files(Files, KafkaVersion, Timestamp),
    /// Read pasted `kafka-dump-log` text.
    Paste(String, KafkaVersion, Timestamp),
    /// Stop reading.
    Cancel,
}

/// The import panel's props.
#[derive(Properties, PartialEq, Clone)]
pub struct ImportPanelProps {
    /// The import's progress, failure and findings.
    pub state: Shared<ImportState>,
    /// The loaded scenario (inspected when it is a partition that starts from a log).
    pub replay: ReplayView,
    /// Import requests.
    pub on_import: Callback<ImportRequest>,
    /// DeleteRecords to this offset, then a retention check (the inspection's remedy).
    pub on_delete_records: Callback<i64>,
    /// Start a walkthrough from the imported partition (author mode; the standalone page).
    #[prop_or_default]
    pub on_walkthrough: Option<Callback<()>>,
}

fn machine_clock() -> i64 {
    #[cfg(target_arch = "wasm32")]
    return js_sys::Date::now() as i64;
    #[cfg(not(target_arch = "wasm32"))]
    0
}

/// Drop, pick or paste a partition; its progress; and the inspection of the imported partition.
#[function_component(ImportPanel)]
pub fn import_panel(p: &ImportPanelProps) -> Html {
    let clock_id = super::use_uid("lt-imp-clock");
    let rules_id = super::use_uid("lt-imp-rules");
    let paste_id = super::use_uid("lt-imp-paste");
    let clock = use_state(String::new);
    let rules = use_state(|| KafkaVersion::V4_0);
    let pasted = use_state(String::new);
    let over = use_state(|| false);
    let field_error = use_state(Option::<String>::default);
    // The settings as typed, checked when an import starts.
    let settings = {
        let clock = (*clock).clone();
        let rules = *rules;
        let field_error = field_error.clone();
        move || match parse_clock(&clock, machine_clock()) {
            Ok(now) => {
                field_error.set(None);
                Some((rules, now))
            }
            Err(e) => {
                field_error.set(Some(e));
                None
            }
        }
    };
    let send_files = {
        let on = p.on_import.clone();
        let settings = settings.clone();
        move |files: Files| {
            if files.is_empty() {
                return;
            }
            if let Some((rules, now)) = settings() {
                on.emit(ImportRequest::Files(files, rules, now));
            }
        }
    };
    let on_pick = {
        let send = send_files.clone();
        Callback::from(move |e: Event| {
            let Some(input) = e.target() else { return };
            let files = glue::files_of_input(&input);
            // The same files may be picked again after a change on disk.
            if let Some(i) = e.target_dyn_into::<web_sys::HtmlInputElement>() {
                i.set_value("");
            }
            send(files);
        })
    };
    let on_drop = {
        let send = send_files.clone();
        let over = over.clone();
        Callback::from(move |e: DragEvent| {
            over.set(false);
            let event: &wasm_bindgen::JsValue = e.as_ref();
            // The drop's entries are taken now, while the event runs; the walk ends later.
            let walk = glue::files_of_drop(event);
            let send = send.clone();
            wasm_bindgen_futures::spawn_local(async move { send(walk.await) });
        })
    };
    let on_dragover = {
        let over = over.clone();
        Callback::from(move |e: DragEvent| {
            e.prevent_default();
            over.set(true);
        })
    };
    let on_dragleave = {
        let over = over.clone();
        Callback::from(move |_: DragEvent| over.set(false))
    };
    let on_paste_input = {
        let pasted = pasted.clone();
        Callback::from(move |e: InputEvent| {
            if let Some(t) = e.target_dyn_into::<web_sys::HtmlTextAreaElement>() {
                pasted.set(t.value());
            }
        })
    };
    let on_paste = {
        let on = p.on_import.clone();
        let pasted = pasted.clone();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            if let Some((rules, now)) = settings() {
                on.emit(ImportRequest::Paste((*pasted).clone(), rules, now));
            }
        })
    };
    // Every keystroke, not the change at blur: files dropped or picked while the field still has
    // focus are read at the clock typed, not at this computer's.
    let on_clock = {
        let clock = clock.clone();
        Callback::from(move |e: InputEvent| clock.set(input_value(&e)))
    };
    let on_rules = {
        let rules = rules.clone();
        Callback::from(move |e: Event| {
            let v = input_value(&e);
            if let Some(k) = KafkaVersion::ALL.iter().find(|k| k.key() == v) {
                rules.set(*k);
            }
        })
    };
    let on_cancel = p.on_import.reform(|_: MouseEvent| ImportRequest::Cancel);
    let st = &p.state;
    let busy = st.busy();
    let progress = st.progress.as_ref().map(|(done, total, file)| {
        // Tenths of a percent by integer arithmetic (float formatting would add its tables to
        // the wasm).
        let tenths = if *total > 0 { (u128::from(*done) * 2000 / u128::from(*total)).div_ceil(2) } else { 0 };
        let pct = format!("{}.{}", tenths / 10, tenths % 10);
        html! {
            <div class="lt-import-progress" data-testid="import-progress">
                <progress max="100" value={pct} aria-label="Import progress" />
                <span class="lt-muted" role="status">
                    { format!("Reading {}: {} of {}", if file.is_empty() { "files" } else { file.as_str() }, bytes(*done as i64), bytes(*total as i64)) }
                </span>
                <button type="button" class="lt-btn lt-btn-small" onclick={on_cancel} data-testid="import-cancel">{ "Cancel" }</button>
            </div>
        }
    });
    html! {
        <section role="group" class="lt-panel lt-import" aria-label="Import a partition" data-testid="import-panel" data-panel="import">
            <h2><PickPanel panel={Panel::Import}>{ "Import a real partition" }</PickPanel></h2>
            <div class={classes!("lt-dropzone", over.then_some("over"))} ondrop={on_drop} ondragover={on_dragover} ondragleave={on_dragleave}
                 data-testid="import-drop">
                <p>{ "Drop a partition folder (such as clicks-0) or its segment files (.log, .index, .timeindex) here, or kafka-dump-log output; a scenario or lesson file (.json) is opened." }</p>
                <div class="lt-import-pick">
                    <label class="lt-btn lt-btn-small lt-btn-primary lt-file">
                        { "Choose files…" }
                        <input type="file" multiple=true onchange={on_pick.clone()} disabled={busy} data-testid="import-files" />
                    </label>
                    <label class="lt-btn lt-btn-small lt-file">
                        { "Choose a folder…" }
                        <input type="file" webkitdirectory=true onchange={on_pick} disabled={busy} data-testid="import-folder" />
                    </label>
                    <label class="lt-field-inline" for={clock_id.clone()}>{ "Broker clock" }</label>
                    <input id={clock_id} class="lt-import-clock" value={(*clock).clone()} oninput={on_clock} placeholder="now, or 2027-03-11T00:00:00Z"
                           aria-invalid={if field_error.is_some() {"true"} else {"false"}} data-testid="import-clock" />
                    <label class="lt-field-inline" for={rules_id.clone()}>{ "Rules" }</label>
                    <select id={rules_id} onchange={on_rules} data-testid="import-rules">
                        { for KafkaVersion::ALL.iter().map(|k| html!{
                            <option value={k.key()} selected={*k == *rules}>{ k.label() }</option>
                        }) }
                    </select>
                </div>
                <p class="lt-muted lt-private" data-testid="import-private">{ "Files are read here, in your browser: nothing is uploaded and nothing leaves this computer." }</p>
            </div>
            <details class="lt-paste">
                <summary>{ "Paste kafka-dump-log output, or a scenario or lesson file" }</summary>
                <form onsubmit={on_paste}>
                    <label class="lt-visually-hidden" for={paste_id.clone()}>{ "kafka-dump-log output, or a scenario or lesson file" }</label>
                    <textarea id={paste_id} rows="6" value={(*pasted).clone()} oninput={on_paste_input} data-testid="import-paste"
                              placeholder="Dumping /var/lib/kafka/clicks-0/00000000000001843200.log&#10;Starting offset: 1843200&#10;baseOffset: 1843200 lastOffset: …" />
                    <button type="submit" class="lt-btn lt-btn-small" disabled={busy} data-testid="import-paste-go">{ "Import the text" }</button>
                </form>
            </details>
            { progress.unwrap_or_default() }
            if let Some(e) = &*field_error { <p class="lt-field-error" role="alert">{ e.clone() }</p> }
            if let Some(e) = &st.error {
                <p class="lt-field-error" role="alert" data-testid="import-error"><strong>{ "Not imported: " }</strong>{ e.clone() }</p>
            }
            { findings(st) }
            <Inspection replay={p.replay.clone()} on_delete_records={p.on_delete_records.clone()} on_walkthrough={p.on_walkthrough.clone()} />
        </section>
    }
}

/// What the last import read and found.
fn findings(st: &ImportState) -> Html {
    let Some(d) = &st.done else {
        return html! {};
    };
    html! {
        <div class="lt-import-done" data-testid="import-done">
            <p>
                { format!("Read {} segment{} ({}).", d.segments, if d.segments == 1 { "" } else { "s" }, bytes(d.bytes as i64)) }
                if !d.skipped.is_empty() { { format!(" {}", skipped(&d.skipped)) } }
            </p>
            if let Some(c) = &d.configs {
                <p class="lt-import-configs" data-testid="import-configs">{ c.clone() }</p>
            }
            if !d.notes.is_empty() {
                <ul class="lt-import-notes" data-testid="import-notes">
                    { for d.notes.iter().map(|n| html!{ <li>{ n.clone() }</li> }) }
                </ul>
            }
        </div>
    }
}

#[derive(Properties, PartialEq, Clone)]
struct InspectionProps {
    replay: ReplayView,
    on_delete_records: Callback<i64>,
    on_walkthrough: Option<Callback<()>>,
}

/// The on-call answers about the loaded partition, at the broker clock, when the scenario starts
/// from a log (an import, or documentation showing real offsets).
#[function_component(Inspection)]
fn inspection(p: &InspectionProps) -> Html {
    let report = use_memo(p.replay.clone(), |replay| {
        let r = replay.runner()?;
        r.scenario().log.as_ref()?;
        let imported = Imported {
            partition: r.partition().clone(),
            segments: Vec::new(),
        };
        Some((
            inspect(&imported, r.now(), None),
            r.partition().config().version,
        ))
    });
    let Some((r, version)) = &*report else {
        return html! {};
    };
    // The WARN line only under the 4.1 preset: older brokers log nothing at this check.
    let warn = r
        .kafka_41_warning
        .as_ref()
        .filter(|_| *version == KafkaVersion::V4_1)
        .map(|w| words::kafka_41_warning(w));
    let download = {
        let replay = p.replay.clone();
        Callback::from(move |_: MouseEvent| {
            let name = replay
                .runner()
                .map(|r| r.partition().topic_partition().to_string())
                .unwrap_or_else(|| "partition".into());
            // Pretty, with RFC 3339 times and human durations: a file people can read and drop
            // here again. A source the saver refuses is offered as it was loaded.
            let text = save(replay.source()).unwrap_or_else(|_| replay.source().to_string());
            glue::download(&text, &format!("{name}.scenario.json"));
        })
    };
    let delete = r.delete_records.as_ref().filter(|d| d.refused.is_none()).map(|d| {
        let offset = d.offset.0;
        let onclick = p.on_delete_records.reform(move |_: MouseEvent| offset);
        let list: Vec<String> = d.deleted.iter().map(|x| x.base_offset.to_string()).collect();
        html! {
            <p class="lt-import-remedy" data-testid="inspect-delete-records">
                { format!("DeleteRecords to offset {} (the end of pinning segment {}) would let the next retention check delete segment{} {} ({}); the log start offset becomes {}. ",
                    offset, d.pinning_segment, if list.len() == 1 { "" } else { "s" }, list.join(", "), bytes(d.freed_bytes.0), d.log_start_offset) }
                <button type="button" class="lt-btn lt-btn-small" {onclick} data-testid="inspect-delete-go">{ format!("Delete records to {offset}, then check") }</button>
            </p>
        }
    });
    html! {
        <div class="lt-inspect" data-testid="inspect">
            <h3>{ format!("Retention at {} (retention.ms {}{})", rfc3339(r.now.0), r.retention_ms,
                if r.retention_ms >= 0 { format!(", {}", logtime_core::human::duration(r.retention_ms)) } else { ": no time limit".into() }) }</h3>
            <div class="lt-table-wrap" tabindex="0" role="region" aria-label="Segments and verdicts">
                <table class="lt-table" data-testid="inspect-table">
                    <thead><tr>{ for HEADS.iter().map(|h| html!{ <th scope="col">{ *h }</th> }) }</tr></thead>
                    <tbody>
                    { for r.rows.iter().map(|row| html!{
                        <tr data-testid={format!("inspect-row-{}", row.base_offset.0)}>
                            { for row_cells(row, r.now).into_iter().enumerate().map(|(i, c)| if i == 0 {
                                html!{ <th scope="row">{ c }</th> }
                            } else {
                                html!{ <td class={NUMERIC[i].then_some("num")}>{ c }</td> }
                            }) }
                        </tr>
                    }) }
                    </tbody>
                </table>
            </div>
            { for r.future.iter().map(|f| html!{
                <p class="lt-import-future" data-testid="inspect-future">
                    { format!("⚓ Segment {} is stamped {} ahead of the clock ({}); it pins {} expired segment{} ({}).",
                        f.segment, logtime_core::human::duration(f.ahead_ms), rfc3339(f.largest_timestamp.0),
                        f.pins.len(), if f.pins.len() == 1 { "" } else { "s" }, bytes(f.pinned_bytes.0)) }
                </p>
            }) }
            if let Some(w) = warn {
                <p class="lt-import-warn" data-testid="inspect-kafka-41"><code>{ w }</code></p>
            }
            if let Some(t) = r.oldest_record {
                <p class="lt-muted" data-testid="inspect-oldest">{ words::oldest_record(t, r.now) }</p>
            }
            { delete.unwrap_or_default() }
            <p class="lt-import-actions">
                <button type="button" class="lt-btn lt-btn-small" onclick={download} data-testid="inspect-download">{ "Download as a scenario file" }</button>
                if let Some(on) = &p.on_walkthrough {
                    <button type="button" class="lt-btn lt-btn-small lt-btn-primary" onclick={on.reform(|_: MouseEvent| ())} data-testid="inspect-walkthrough">
                        { "Start a walkthrough from this partition" }
                    </button>
                }
            </p>
            <p class="lt-muted">{ format!("{}. Move the clock, change retention.ms in the config panel, or look up a time: this table follows.", format::count_of(r.rows.iter().map(|x| x.records as i64).sum(), "record", "records")) }</p>
        </div>
    }
}
