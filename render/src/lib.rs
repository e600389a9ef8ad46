//! Pictures of a moment. A moment is a scenario and the journal of what was done to it (steps,
//! lookups, the reader's actions); [`picture`] draws its partition as the explorer shows it, as an
//! SVG string: segments with their base offsets, sizes, largest timestamps and verdict badges,
//! record tiles (or density bars when there are many), time-index entries, a lookup's scan marks
//! and answer, what pins retention, and optional panels.
//!
//! The explorer's view model lives here too ([`format`], [`density`], [`marks`], [`link`]), so
//! the live view in the browser and the picture read the numbers, mark the lookup and write the
//! moment link the same way. No I/O: the caller hands in the scenario text; the Kafka words come
//! from `logtime-core`'s narrator and describer.

#![forbid(unsafe_code)]

mod cards;
pub mod density;
mod error;
pub mod format;
pub mod lane;
mod lane_panel;
pub mod link;
pub mod marks;
mod moment;
mod panels;
mod picture;
pub mod svg;
mod theme;

pub use cards::offset_range;
pub use error::RenderError;
pub use moment::{rebuild, Rebuilt};
pub use picture::{picture, Moment, Options, PicturePanel, LOGTIME_NS, MAX_WIDTH, MIN_WIDTH};
pub use theme::{Palette, Theme};

#[cfg(test)]
mod tests {
    /// A built-in's file, read from `static/`.
    pub(crate) fn builtin(file: &str) -> String {
        let path = format!("{}/../static/{file}", env!("CARGO_MANIFEST_DIR"));
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
    }
}
