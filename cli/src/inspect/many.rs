//! A broker's log directory: every partition read on worker threads into one summary table,
//! worst first.

use super::read::{read_partition, Progress, Read, Source};
use super::text::{clock_line, table};
use super::{Fail, Options};
use logtime_core::human::{bytes, duration, rfc3339};
use logtime_core::import::{inspect, Summary};
use logtime_model::Timestamp;
use serde_json::json;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// One partition of a log directory: its summary, or why it could not be read.
type Row = Result<Summary, (String, String)>;

pub(super) fn run_many(
    opts: &Options,
    sources: Vec<Source>,
    now: Timestamp,
    clock_given: bool,
) -> Result<String, Fail> {
    let total: u64 = sources.iter().map(Source::log_bytes).sum();
    let progress = Progress::new(total);
    let next = AtomicUsize::new(0);
    let workers = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .min(sources.len())
        .max(1);
    let mut rows: Vec<(usize, Row)> = Vec::with_capacity(sources.len());
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                scope.spawn(|| {
                    let mut out = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(src) = sources.get(i) else { break };
                        let row = match read_partition(src, opts, now, &progress, false) {
                            Ok(mut read) => match read.pop() {
                                Some(Read::Partition(imp)) => {
                                    Ok(inspect(&imp, now, None).summary(&src.topic_partition))
                                }
                                _ => Err((src.topic_partition.clone(), "no .log file".into())),
                            },
                            Err(Fail(e)) => Err((src.topic_partition.clone(), e)),
                        };
                        progress.partitions.fetch_add(1, Ordering::Relaxed);
                        out.push((i, row));
                    }
                    out
                })
            })
            .collect();
        while handles.iter().any(|h| !h.is_finished()) {
            progress.draw(&format!(
                "{}/{} partitions",
                progress.partitions.load(Ordering::Relaxed),
                sources.len()
            ));
            std::thread::sleep(Duration::from_millis(100));
        }
        for h in handles {
            rows.extend(h.join().expect("inspect workers do not panic"));
        }
    });
    progress.clear();
    rows.sort_by_key(|(i, _)| *i);
    let mut ok: Vec<Summary> = Vec::new();
    let mut errors = Vec::new();
    for (_, r) in rows {
        match r {
            Ok(s) => ok.push(s),
            Err(e) => errors.push(e),
        }
    }
    // Worst first: the most bytes pinned, then the most a DeleteRecords would free, then the
    // oldest data.
    ok.sort_by(|a, b| {
        (
            b.pinned_bytes,
            b.would_free,
            a.oldest.unwrap_or(Timestamp(i64::MAX)),
            &a.topic_partition,
        )
            .cmp(&(
                a.pinned_bytes,
                a.would_free,
                b.oldest.unwrap_or(Timestamp(i64::MAX)),
                &b.topic_partition,
            ))
    });
    if opts.json {
        let v = json!({
            "now": now,
            "clock": if clock_given { "given" } else { "system" },
            "kafka": opts.config.version.key(),
            "retention_ms": opts.config.topic.retention_ms,
            "partitions": ok,
            "errors": errors.iter().map(|(t, e)| json!({"topic_partition": t, "error": e})).collect::<Vec<_>>(),
        });
        return Ok(serde_json::to_string_pretty(&v).expect("summaries serialise") + "\n");
    }
    let mut s = String::new();
    let pinned = ok.iter().filter(|x| x.pinned_by.is_some()).count();
    let _ =
        writeln!(
        s,
        "{} partition{}, {} with expired segments pinned behind a younger one (retention.ms {})",
        ok.len() + errors.len(),
        if ok.len() + errors.len() == 1 { "" } else { "s" },
        pinned,
        duration(opts.config.topic.retention_ms)
    );
    if let Some(line) = opts.broker_line() {
        let _ = writeln!(s, "{line}");
    }
    let _ = writeln!(s, "{}\n", clock_line(now, clock_given));
    let mut rows = vec![vec![
        "topic-partition".to_string(),
        "segments".into(),
        "size".into(),
        "oldest stamp".into(),
        "newest stamp".into(),
        "pinned by".into(),
        "pinned".into(),
        "DeleteRecords frees".into(),
        "retention deletes now".into(),
    ]];
    let when = |t: Option<Timestamp>| t.map_or("-".to_string(), |t| rfc3339(t.0));
    for x in &ok {
        rows.push(vec![
            x.topic_partition.clone(),
            x.segments.to_string(),
            bytes(x.size_bytes.0),
            when(x.oldest),
            when(x.newest),
            x.pinned_by.map_or("-".into(), |b| format!("segment {b}")),
            if x.pinned_by.is_some() {
                bytes(x.pinned_bytes.0)
            } else {
                "-".into()
            },
            if x.pinned_by.is_some() {
                bytes(x.would_free.0)
            } else {
                "-".into()
            },
            if x.deletable_now.0 > 0 {
                bytes(x.deletable_now.0)
            } else {
                "-".into()
            },
        ]);
    }
    s.push_str(&table(
        &rows,
        &[false, true, true, false, false, false, true, true, true],
    ));
    for (t, e) in &errors {
        let _ = writeln!(s, "{t}: not read: {e}");
    }
    Ok(s)
}
