//! The `lesson` object: kind, summary, level, minutes, post-mortem and scoring, as [`Meta`].

use super::item::{body, markup, points};
use super::{err, LESSON_KEYS, POSTMORTEM_KEYS, R};
use crate::score::Scoring;
use crate::{LessonKind, Level, Meta, Postmortem};
use logtime_core::scenario::ScenarioError;
use serde_json::Value;

pub(super) fn meta(v: Option<&Value>) -> R<(Meta, bool)> {
    let e = |f: &str, r: String| err(None, format!("lesson{f}"), r);
    let Some(v) = v else {
        return Ok((Meta::default(), false));
    };
    let m = body(v, LESSON_KEYS)
        .map_err(|(f, r)| e(&if f.is_empty() { f } else { format!(".{f}") }, r))?;
    let mut meta = Meta::default();
    if let Some(k) = m.get("kind") {
        meta.kind = match k.as_str() {
            Some("walkthrough") => LessonKind::Walkthrough,
            Some("drill") => LessonKind::Drill,
            _ => return Err(e(".kind", "expected \"walkthrough\" or \"drill\"".into())),
        };
    }
    if let Some(s) = m.get("summary") {
        meta.summary = Some(markup(s, true).map_err(|(_, r)| e(".summary", r))?);
    }
    if let Some(l) = m.get("level") {
        meta.level = Some(match l.as_str() {
            Some("intro") => Level::Intro,
            Some("intermediate") => Level::Intermediate,
            Some("advanced") => Level::Advanced,
            _ => {
                return Err(e(
                    ".level",
                    "expected \"intro\", \"intermediate\" or \"advanced\"".into(),
                ))
            }
        });
    }
    if let Some(n) = m.get("minutes") {
        meta.minutes = Some(
            n.as_u64()
                .filter(|n| (1..=600).contains(n))
                .ok_or_else(|| {
                    e(
                        ".minutes",
                        format!("expected an integer from 1 to 600, got {n}"),
                    )
                })? as u32,
        );
    }
    if let Some(n) = m.get("opens_at") {
        meta.opens_at = n
            .as_u64()
            .ok_or_else(|| e(".opens_at", format!("expected a step index, got {n}")))?
            as usize;
    }
    if let Some(p) = m.get("postmortem") {
        meta.postmortem = Some(postmortem(p)?);
    }
    if let Some(s) = m.get("scoring") {
        scoring(s, &mut meta.scoring)?;
    }
    Ok((meta, true))
}

/// Errors under the `lesson` object: `field` follows `lesson` (`.kind`, `.postmortem.why`).
fn lesson_err(field: &str, reason: String) -> ScenarioError {
    err(None, format!("lesson{field}"), reason)
}

/// `lesson.postmortem`: what happened, why, and the fix, each in markup.
fn postmortem(p: &Value) -> R<Postmortem> {
    let e = lesson_err;
    let Value::Object(o) = p else {
        return Err(e(
            ".postmortem",
            "expected {\"what_happened\", \"why\", \"fix\"}, each in markup".into(),
        ));
    };
    if let Some(k) = o.keys().find(|k| !POSTMORTEM_KEYS.contains(&k.as_str())) {
        return Err(e(
            &format!(".postmortem.{k}"),
            format!("unknown key (expected: {})", POSTMORTEM_KEYS.join(", ")),
        ));
    }
    let mut parts = Vec::with_capacity(3);
    for k in POSTMORTEM_KEYS {
        let text = o.get(*k).ok_or_else(|| {
            e(
                &format!(".postmortem.{k}"),
                "missing (a post-mortem says what happened, why, and the fix)".into(),
            )
        })?;
        parts.push(markup(text, true).map_err(|(_, r)| e(&format!(".postmortem.{k}"), r))?);
    }
    let mut parts = parts.into_iter();
    Ok(Postmortem {
        what_happened: parts.next().expect("three parts"),
        why: parts.next().expect("three parts"),
        fix: parts.next().expect("three parts"),
    })
}

/// `lesson.scoring`: the points of an item and what a hint and a wrong answer cost.
fn scoring(s: &Value, scoring: &mut Scoring) -> R<()> {
    let e = lesson_err;
    let Value::Object(o) = s else {
        return Err(e(
            ".scoring",
            "expected {\"points\", \"hint_cost\", \"wrong_cost\"}".into(),
        ));
    };
    for (k, x) in o {
        let n = points(x).map_err(|(_, r)| e(&format!(".scoring.{k}"), r))?;
        match k.as_str() {
            "points" => scoring.points = n,
            "hint_cost" => scoring.hint_cost = n,
            "wrong_cost" => scoring.wrong_cost = n,
            _ => {
                return Err(e(
                    &format!(".scoring.{k}"),
                    "unknown key (expected: points, hint_cost, wrong_cost)".into(),
                ))
            }
        }
    }
    Ok(())
}
