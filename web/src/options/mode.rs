//! What the explorer is for (`mode`).

/// What the explorer is for.
///
/// A lesson file opens in its own kind's mode unless `mode` says otherwise; a plain scenario opens
/// in the explorer. Any scenario can be walked through (its narration is the narrator's), and a
/// lesson can be opened in the explorer (its partition, free to play with, questions left out).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Free exploration.
    Explorer,
    /// Narrated steps beside the partition, with pauses, highlights and tasks.
    Walkthrough,
    /// Questions one at a time, answered in the partition view, scored.
    Drill,
    /// A walkthrough for a room: larger text, pauses honoured.
    Presenter,
    /// Writing a lesson: the explorer plays freely (a lesson's questions left out) and what the
    /// author does is recorded as the draft's steps in the author pane (`crate::author`).
    Author,
}

/// Every mode name the option may take.
const MODES: &[(&str, Mode)] = &[
    ("explorer", Mode::Explorer),
    ("walkthrough", Mode::Walkthrough),
    ("drill", Mode::Drill),
    ("presenter", Mode::Presenter),
    ("author", Mode::Author),
];

impl Mode {
    pub(super) fn parse(v: &str) -> Result<Mode, String> {
        MODES
            .iter()
            .find(|(n, _)| *n == v)
            .map(|(_, m)| *m)
            .ok_or_else(|| {
                let names: Vec<&str> = MODES.iter().map(|(n, _)| *n).collect();
                format!("unknown mode (expected one of: {})", names.join(", "))
            })
    }

    /// The option's value for this mode.
    pub fn name(self) -> &'static str {
        MODES
            .iter()
            .find(|(_, m)| *m == self)
            .map_or("explorer", |(n, _)| n)
    }

    /// Whether the mode plays a lesson (narration pane, questions, score).
    pub fn is_lesson(self) -> bool {
        !matches!(self, Mode::Explorer | Mode::Author)
    }
}
