//! # logtime-core
//!
//! Scenario files and the narrator, above the Kafka partition model of `logtime-model`: the
//! scenario file format and its parser ([`scenario::parse`]), the session journal that records
//! and replays a reader's own steps ([`scenario::session`]), the JSON report of a replay
//! (`report` feature), the narrator that puts every step into words ([`scenario::narrate`]), and
//! the import of real segment files, indexes and dumps into a scenario ([`import`]). No I/O:
//! everything goes from `&str` or bytes to values.
//!
//! The rules themselves (validation, segments, indexes, lookup, retention, DeleteRecords, the
//! presets) and the scenario runner are `logtime-model`, which the browser build optimises for
//! speed while this crate is optimised for size (see `[profile.wasm-release]` in the workspace's
//! `Cargo.toml`). Lessons (walkthroughs, drills and the stream processor their questions read)
//! are `logtime-lesson`, built on this crate.

// `unsafe_code` is forbidden and `missing_docs` warned for every crate by `[workspace.lints]`.
//
// The model's types are named from `logtime_model`, the crate that owns them; nothing of it is
// re-exported here except `scenario`'s (see its module docs) and `human::rfc3339`.

pub mod human;
pub mod import;
pub mod scenario;
