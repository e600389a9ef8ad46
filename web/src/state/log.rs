//! "What happened": the narration list and what the live region announces.

use logtime_core::scenario::narrate::Sentence;

/// Narration lines kept.
pub(crate) const LOG_LINES: usize = 40;

/// The narration, newest last, at most [`LOG_LINES`] lines.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Log {
    lines: Vec<Sentence>,
}

impl Log {
    /// Adds a line, dropping the oldest beyond [`LOG_LINES`].
    pub fn say(&mut self, line: Sentence) {
        self.lines.push(line);
        if self.lines.len() > LOG_LINES {
            let extra = self.lines.len() - LOG_LINES;
            self.lines.drain(..extra);
        }
    }

    /// The lines, oldest first.
    pub fn lines(&self) -> &[Sentence] {
        &self.lines
    }

    /// What the live region says now: the newest line.
    pub fn announce(&self) -> String {
        self.lines
            .last()
            .map(ToString::to_string)
            .unwrap_or_default()
    }
}
