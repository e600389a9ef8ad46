//! The speed machinery: what lets a replay of millions of batches run in the browser, kept apart
//! from the rules it speeds up. Nothing here decides what Kafka does; each fast path stores or
//! skips work so that the result is the one the rule's one-batch way gives, and a property test
//! holds the two equal.
//!
//! * [`batches`]: the compact store of a segment's batches and record timestamps (8 bytes a
//!   record, 4 a batch, widened only for batches of several records). It speeds up the segment
//!   rule (`LogSegment`, [`crate::segment`]) and every reader of it (lookup, retention, the
//!   state). Proved by `batches.rs`'s own tests and by `core/tests/reference.rs`
//!   (`model_matches_reference_*`), which checks every batch, stamp, index entry and lookup
//!   against a naive partition of plain vectors after random operations.
//! * [`run`] and [`stretch`]: runs of one-record batches of one shape
//!   ([`crate::Partition::produce_run`]: generated traffic), checked a block at a time and
//!   stored as slices while nothing can roll the segment. They speed up the produce path
//!   (`UnifiedLog.append`: validation, [`crate::validation`]; rolling and index entries,
//!   [`crate::segment`]). Proved by `run.rs`'s property test
//!   `stretches_change_what_single_batches_do` (a run ends exactly where the same batches one at
//!   a time end) and by `core/tests/reference.rs` (its `Run` operation against the naive model).
//! * [`sink`]: where events go, so that a replay that only counts them never builds them (a
//!   quiet retention check's per-segment verdicts above all). It speeds up reporting, not a rule:
//!   `core/tests/slices.rs` (`marks_without_events_are_what_the_events_mark`,
//!   `summaries_without_events_are_what_the_events_add_up_to`) proves a step run without events
//!   marks and counts what the same step's events say.
//!
//! The fast paths are methods of [`crate::Partition`] and [`crate::Segment`] and reach their
//! fields, which are private to this crate for that reason.

pub(crate) mod batches;
mod run;
pub(crate) mod sink;
pub(crate) mod stretch;
