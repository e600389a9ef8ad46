//! Scenario files (documented in `docs/scenarios.md`): parsing and replay, from `&str` to a
//! report, with no I/O.
//!
//! A scenario fixes the Kafka version, the topic config, the broker clock at the start, a jitter
//! seed and a list of steps. [`parse`] turns JSON into a [`Scenario`] (every error names the step
//! index, the field and the reason); a [`Runner`] replays it step by step against a
//! [`logtime_model::Partition`], handing every event to a callback (the web explorer animates
//! them) and returning a typed [`StepReport`] per step, which [`narrate`] puts into words and,
//! with the `report` feature, serialises as the JSON report `logtime run` prints. [`time`] is the
//! one grammar of times (durations and byte sizes are `logtime_model::quantity`'s, re-exported
//! there).
//!
//! The scenario types, the [`Runner`] and the budgets are `logtime_model::scenario` (the
//! explorer's hot loop, built for speed, and the rules a replay needs at run time), re-exported
//! here as the one scenario API: a scenario is read, replayed and narrated through this module.
//! The parser, the grammar of times, the narration, the report and the session journal are this
//! crate's.

pub use logtime_model::scenario::*;

pub mod bites;
pub mod narrate;
mod parse;
pub use parse::strict;
#[cfg(feature = "report")]
mod report;
#[cfg(feature = "report")]
pub use report::Json;
pub mod save;
pub mod session;

pub mod time;

pub use parse::{check_size, kind_of, parse, parse_value, STEP_KINDS, TOP_LEVEL_KEYS};
pub use session::{Entry, Journal, JournalError, Replayed, Session, Source};
pub use time::{parse_bytes, parse_duration, parse_time};

#[cfg(test)]
mod runner_tests;
