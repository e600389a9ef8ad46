//! Results a trainer can collect without a server. A learner's [`Results`] hold their optional
//! name, the lesson's name and [fingerprint](crate::Lesson::fingerprint), the variant's seed and
//! every move (answers, hints, reveals and actions in the explorer) with the time it was made,
//! which the web passes in: core never reads a clock. There is no score in them: [`rescore`]
//! replays the moves through the lesson engine, so an edited score cannot count, a move the
//! engine refuses is flagged, and results made for another version of the lesson are flagged.
//!
//! The text form is canonical JSON (keys sorted) with a `check` (CRC-32 of the rest), so an
//! edit that does not recompute it is caught on decode. The web packs it as its `z=` links are
//! packed (deflate-raw, base64url); the command line unpacks it with the same codec.

use crate::question::Answer;
use crate::Lesson;
use logtime_model::partition::Command;
use logtime_model::units::{Offset, Timestamp};
use serde_json::{json, Map, Value};
use std::fmt;

/// The version of the results format this build writes and reads.
pub const RESULTS_VERSION: u64 = 1;

/// One move of a learner's.
#[derive(Clone, Debug, PartialEq)]
pub enum Move {
    /// An action in the explorer at broker time `at`, made before file step `step` was reached.
    Act {
        /// The next file step when it was made.
        step: usize,
        /// Broker time.
        at: Timestamp,
        /// What was done.
        command: Command,
    },
    /// An answer to question `item` (its index among the lesson's items).
    Answer {
        /// The item.
        item: usize,
        /// The answer.
        answer: Answer,
    },
    /// A hint taken on `item`.
    Hint {
        /// The item.
        item: usize,
    },
    /// `item` revealed.
    Reveal {
        /// The item.
        item: usize,
    },
}

/// A move and when it was made, in ms since the learner opened the lesson.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// Milliseconds since the lesson was opened (the web's clock).
    pub ms: i64,
    /// The move.
    pub play: Move,
}

/// A learner's results.
#[derive(Clone, Debug, PartialEq)]
pub struct Results {
    /// The name the learner typed (may be empty).
    pub learner: String,
    /// The lesson's title.
    pub lesson: String,
    /// The lesson's fingerprint.
    pub fingerprint: String,
    /// The variant's seed (`None`: the default variant).
    pub seed: Option<u64>,
    /// Every move, in order.
    pub entries: Vec<Entry>,
}

/// Why a results text cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ResultsError {
    /// Not JSON.
    Json(String),
    /// Written by a format version this build does not read.
    Version(String),
    /// A field is missing or malformed.
    Field {
        /// Where, e.g. `moves[3].answer`.
        field: String,
        /// Why, in lowercase.
        reason: String,
    },
    /// The `check` does not match the content: the results were edited.
    Edited,
}

impl fmt::Display for ResultsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResultsError::Json(r) => write!(f, "results: not results json: {r}"),
            ResultsError::Version(v) => write!(
                f,
                "results: version {v} is not one this build reads (it reads {RESULTS_VERSION})"
            ),
            ResultsError::Field { field, reason } => write!(f, "results: {field}: {reason}"),
            ResultsError::Edited => f.write_str(
                "results: check: the content does not match its check: the results were edited",
            ),
        }
    }
}

impl std::error::Error for ResultsError {}

/// JSON text with every object's keys sorted: the form fingerprints and checks are taken of.
pub fn canonical(v: &Value) -> String {
    match v {
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            let body: Vec<String> = keys
                .into_iter()
                .map(|k| format!("{}:{}", Value::String(k.clone()), canonical(&m[k])))
                .collect();
            format!("{{{}}}", body.join(","))
        }
        Value::Array(a) => {
            let body: Vec<String> = a.iter().map(canonical).collect();
            format!("[{}]", body.join(","))
        }
        other => other.to_string(),
    }
}

fn crc(text: &str) -> String {
    const CRC: crc::Crc<u32> = crc::Crc::<u32>::new(&crc::CRC_32_ISO_HDLC);
    format!("{:08x}", CRC.checksum(text.as_bytes()))
}

fn answer_json(a: &Answer) -> Value {
    let pairs =
        |v: &[(Offset, Offset)]| -> Vec<[i64; 2]> { v.iter().map(|(a, b)| [a.0, b.0]).collect() };
    match a {
        Answer::Segments(v) => json!({"segments": v.iter().map(|o| o.0).collect::<Vec<_>>()}),
        Answer::Records(v) => json!({"records": pairs(v)}),
        Answer::Offset(o) => json!({"offset": o.0}),
        Answer::Segment(o) => json!({"segment": o.0}),
        Answer::Value(v) => json!({"value": v}),
        Answer::Values { min, max } => json!({"values": [min, max]}),
        Answer::ErrorCode(c) => json!({"error_code": c}),
    }
}

fn answer_of(v: &Value) -> Result<Answer, String> {
    let Some((k, x)) = v
        .as_object()
        .filter(|m| m.len() == 1)
        .and_then(|m| m.iter().next())
    else {
        return Err("expected one of {\"segments\": [...]}, {\"records\": [[a, b]]}, {\"offset\": n}, {\"segment\": n}, {\"value\": n}, {\"error_code\": n}".into());
    };
    let int = |x: &Value| {
        x.as_i64()
            .ok_or_else(|| format!("{k}: {x} is not a whole number"))
    };
    let list = |x: &Value| -> Result<Vec<Value>, String> {
        x.as_array()
            .cloned()
            .ok_or_else(|| format!("{k}: expected an array"))
    };
    Ok(match k.as_str() {
        "segments" => Answer::segments(
            list(x)?
                .iter()
                .map(|o| int(o).map(Offset))
                .collect::<Result<_, _>>()?,
        ),
        "records" => Answer::records(
            list(x)?
                .iter()
                .map(|p| match p.as_array().map(|a| a.as_slice()) {
                    Some([a, b]) => Ok((Offset(int(a)?), Offset(int(b)?))),
                    _ => Err(format!("{k}: {p} is not a [first, last] range")),
                })
                .collect::<Result<_, _>>()?,
        ),
        "offset" => Answer::Offset(Offset(int(x)?)),
        "segment" => Answer::Segment(Offset(int(x)?)),
        "value" => Answer::Value(int(x)?),
        "error_code" => Answer::ErrorCode(
            i16::try_from(int(x)?).map_err(|_| format!("{k}: {x} is not an error code"))?,
        ),
        other => return Err(format!("unknown answer kind {other:?}")),
    })
}

fn move_json(e: &Entry) -> Value {
    match &e.play {
        Move::Act { step, at, command } => {
            json!({"ms": e.ms, "act": {"step": step, "at": at.0, "command": command}})
        }
        Move::Answer { item, answer } => {
            json!({"ms": e.ms, "item": item, "answer": answer_json(answer)})
        }
        Move::Hint { item } => json!({"ms": e.ms, "item": item, "hint": true}),
        Move::Reveal { item } => json!({"ms": e.ms, "item": item, "reveal": true}),
    }
}

fn move_of(v: &Value) -> Result<Entry, (String, String)> {
    let field = |f: &str, r: String| (f.to_string(), r);
    let ms = v
        .get("ms")
        .and_then(Value::as_i64)
        .ok_or_else(|| field("ms", "missing: milliseconds since the lesson opened".into()))?;
    let item = || {
        v.get("item")
            .and_then(Value::as_u64)
            .and_then(|i| usize::try_from(i).ok())
            .ok_or_else(|| field("item", "missing: the question's index".into()))
    };
    let play = if let Some(a) = v.get("act") {
        let step = a
            .get("step")
            .and_then(Value::as_u64)
            .ok_or_else(|| field("act.step", "missing: a step index".into()))?;
        let at = a
            .get("at")
            .and_then(Value::as_i64)
            .ok_or_else(|| field("act.at", "missing: a broker time in ms".into()))?;
        let command = serde_json::from_value(a.get("command").cloned().unwrap_or(Value::Null))
            .map_err(|e| field("act.command", e.to_string()))?;
        Move::Act {
            step: step as usize,
            at: Timestamp(at),
            command,
        }
    } else if let Some(a) = v.get("answer") {
        Move::Answer {
            item: item()?,
            answer: answer_of(a).map_err(|r| field("answer", r))?,
        }
    } else if v.get("hint").is_some() {
        Move::Hint { item: item()? }
    } else if v.get("reveal").is_some() {
        Move::Reveal { item: item()? }
    } else {
        return Err(field(
            "",
            "expected one of: act, answer, hint, reveal".into(),
        ));
    };
    Ok(Entry { ms, play })
}

impl Results {
    /// The body without its check.
    fn body(&self) -> Value {
        json!({
            "v": RESULTS_VERSION,
            "learner": self.learner,
            "lesson": self.lesson,
            "fingerprint": self.fingerprint,
            "seed": self.seed,
            "moves": self.entries.iter().map(move_json).collect::<Vec<_>>(),
        })
    }

    /// The canonical JSON text, with its check.
    pub fn to_json(&self) -> String {
        let mut body = self.body();
        let check = crc(&canonical(&body));
        body["check"] = Value::String(check);
        canonical(&body)
    }

    /// Reads results text; every error names the field and the reason.
    pub fn from_json(text: &str) -> Result<Results, ResultsError> {
        let v: Value = serde_json::from_str(text).map_err(|e| ResultsError::Json(e.to_string()))?;
        let Value::Object(mut m) = v else {
            return Err(ResultsError::Json("expected an object".into()));
        };
        let bad = |field: &str, reason: &str| ResultsError::Field {
            field: field.into(),
            reason: reason.into(),
        };
        match m.get("v") {
            Some(x) if x.as_u64() == Some(RESULTS_VERSION) => {}
            Some(x) => return Err(ResultsError::Version(x.to_string())),
            None => return Err(bad("v", "missing: the format version")),
        }
        let check = match m.remove("check") {
            Some(Value::String(c)) => c,
            _ => return Err(bad("check", "missing: the results' check")),
        };
        let text_of = |m: &Map<String, Value>, k: &str| -> Result<String, ResultsError> {
            m.get(k)
                .and_then(Value::as_str)
                .map(str::to_string)
                .ok_or_else(|| bad(k, "missing: a string"))
        };
        if crc(&canonical(&Value::Object(m.clone()))) != check {
            return Err(ResultsError::Edited);
        }
        let seed = match m.get("seed") {
            None | Some(Value::Null) => None,
            Some(s) => Some(
                s.as_u64()
                    .ok_or_else(|| bad("seed", "expected a whole number"))?,
            ),
        };
        let moves = m
            .get("moves")
            .and_then(Value::as_array)
            .ok_or_else(|| bad("moves", "missing: an array"))?;
        let entries = moves
            .iter()
            .enumerate()
            .map(|(i, x)| {
                move_of(x).map_err(|(f, reason)| ResultsError::Field {
                    field: if f.is_empty() {
                        format!("moves[{i}]")
                    } else {
                        format!("moves[{i}].{f}")
                    },
                    reason,
                })
            })
            .collect::<Result<_, _>>()?;
        Ok(Results {
            learner: text_of(&m, "learner")?,
            lesson: text_of(&m, "lesson")?,
            fingerprint: text_of(&m, "fingerprint")?,
            seed,
            entries,
        })
    }
}

impl Lesson {
    /// The lesson's fingerprint: the first 16 hex digits of the SHA-256 of its canonical JSON.
    pub fn fingerprint(&self) -> &str {
        &self.fingerprint
    }
}

/// The fingerprint of a lesson file's JSON tree.
pub(crate) fn fingerprint_of(v: &Value) -> String {
    use sha2::{Digest, Sha256};
    let d = Sha256::digest(canonical(v).as_bytes());
    d.iter().take(8).map(|b| format!("{b:02x}")).collect()
}

/// The variant seed an assignment link gives a learner: derived from their name (trimmed, any
/// case) and the lesson's fingerprint, so the same name gets the same variant of the same lesson
/// and the class page can replay it.
pub fn seed_for(learner: &str, fingerprint: &str) -> u64 {
    use sha2::{Digest, Sha256};
    let key = format!("{fingerprint}:{}", learner.trim().to_lowercase());
    let d = Sha256::digest(key.as_bytes());
    let mut b = [0u8; 8];
    b.copy_from_slice(&d[..8]);
    // Seeds stay below 2^53 so that JavaScript numbers carry them exactly.
    u64::from_be_bytes(b) >> 11
}
