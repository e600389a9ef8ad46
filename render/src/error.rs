//! Why a picture could not be made.

use std::fmt;

/// Everything that stops a moment from being drawn; each message is lowercase and names what was
/// wrong and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RenderError {
    /// The moment link could not be read (which parameter, and why).
    Link(String),
    /// The journal does not replay against the scenario (which entry, and why).
    Replay(String),
    /// The lookup could not be made: out of range, or refused by the broker (its message).
    Lookup(String),
    /// A panel name that pictures do not draw.
    Panel(String),
    /// The width is outside what a picture may be.
    Width(String),
}

impl fmt::Display for RenderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RenderError::Link(e) => write!(f, "moment link: {e}"),
            RenderError::Replay(e) => write!(f, "moment: {e}"),
            RenderError::Lookup(e) => write!(f, "lookup: {e}"),
            RenderError::Panel(e) => write!(f, "panels: {e}"),
            RenderError::Width(e) => write!(f, "width: {e}"),
        }
    }
}

impl std::error::Error for RenderError {}
