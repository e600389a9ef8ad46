//! The narrator: every sentence Logtime says about what Kafka did, and why, for `logtime explain`
//! and the explorer's "What happened" list, panels and cards alike.
//!
//! A [`Sentence`] is text in [`Span`]s; a span may carry a [`Mention`] of what it names (a
//! segment, an offset or a range of them, a config, an instant), so a UI can link and highlight
//! it, and a [`Style`]. Generated narration is built here from typed step outcomes; authored
//! narration (a lesson's own words, in a small markup) is meant to parse into the same type, so
//! both can stand side by side.
//!
//! * [`step`]: what one step (or one command between steps) did, as clauses;
//! * [`produce`], [`retention`], [`lookup`]: the sentences for batches, rolls, verdicts and
//!   lookups that panels show on their own;
//! * [`describe`]: what a picture of a moment shows, in one paragraph;
//! * [`Panel`]: the explorer's panels, which authored narration may mention.
//!
//! Lessons (`logtime-lesson`) build their feedback and their stream processor's sentences on this
//! module; nothing here knows about lessons.

pub mod describe;
mod lookup;
mod panel;
mod produce;
mod retention;

pub use lookup::{lookup, lookup_target, trace_step};
pub use panel::Panel;
pub use produce::{broker_log, diagnosis, key, rejection, roll, roll_reason};
pub use retention::{
    compaction_note, future_timestamp_warnings, next_pass_label, pass_name, retention_story,
    scheduled_passes, verdict, verdict_brief,
};
mod explain;
mod sentence;

pub use explain::{end, heading, setting, step};
pub use sentence::{count, list, offset_range, Mention, Origin, Sentence, Span, Style};
