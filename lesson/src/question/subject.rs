//! What a question asks about beyond its kind, in words for its author: the config and the two
//! batches of a `choose` question, the action of an `error` question. The learner reads the
//! same things in the feedback once answered; the author needs them while writing, to see that
//! the batches taken from the Produce panel are the ones meant.

use super::{Ask, Question};
use crate::action::{Action, Batch};
use crate::goal::Probe;
use logtime_core::scenario::narrate::Sentence;
use logtime_model::units::{Offset, Timestamp};

impl Question {
    /// The question's subject at `now` (the clock at its step), or `None` for the kinds whose
    /// subject is the partition on screen (strike, lookup, pinning, late, closes).
    pub fn subject(&self, now: Timestamp) -> Option<Sentence> {
        let mut s = Sentence::new();
        match &self.kind {
            Ask::Choose {
                config,
                accept,
                reject,
            } => {
                s.config(config)
                    .text(" must accept ")
                    .append(probe(accept, now))
                    .text(" and reject ")
                    .append(probe(reject, now));
            }
            Ask::Error(Action::Produce(b)) => {
                s.text("the broker's answer to ").append(batch(b, now));
            }
            Ask::Error(Action::DeleteRecords(o)) if *o < 0 => {
                s.text("the broker's answer to DeleteRecords up to the high watermark");
            }
            Ask::Error(Action::DeleteRecords(o)) => {
                s.text("the broker's answer to DeleteRecords before offset ")
                    .offset(Offset(*o));
            }
            Ask::Error(a) => {
                s.text(format!("the broker's answer to a {} step", a.kind()));
            }
            _ => return None,
        }
        Some(s)
    }
}

/// A probe by its label, else as [`batch`] words it.
fn probe(p: &Probe, now: Timestamp) -> Sentence {
    match &p.label {
        Some(l) => Sentence::plain(l),
        None => batch(&p.batch, now),
    }
}

/// `a batch of 2 records stamped 4 Dec 2026 10:00:00 to 10:05:00`: the stamps the broker gets
/// (resolved at `now`, unit mistakes applied), `-1` for a record without one.
fn batch(b: &Batch, now: Timestamp) -> Sentence {
    let mut s = Sentence::plain(match b.records.len() {
        1 => "a batch of 1 record".to_string(),
        n => format!("a batch of {n} records"),
    });
    let records = match b.records(now) {
        Ok(r) => r,
        Err(reason) => {
            s.text(format!(" ({reason})"));
            return s;
        }
    };
    let stamp = |s: &mut Sentence, t: Timestamp| {
        if t.0 < 0 {
            s.text("-1");
        } else {
            s.time(t);
        }
    };
    if let (Some(first), Some(last)) = (records.first(), records.last()) {
        s.text(" stamped ");
        stamp(&mut s, first.timestamp);
        if last.timestamp != first.timestamp {
            s.text(" to ");
            stamp(&mut s, last.timestamp);
        }
    }
    s
}
