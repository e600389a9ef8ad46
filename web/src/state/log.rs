//! "What happened": the narration list and what the live region announces.

use logtime_core::scenario::narrate::Sentence;

/// Narration lines kept.
pub(crate) const LOG_LINES: usize = 40;

/// The narration, newest last, at most [`LOG_LINES`] lines.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Log {
    lines: Vec<Sentence>,
    /// Lines said so far, dropped ones included.
    said: u64,
}

impl Log {
    /// Adds a line, dropping the oldest beyond [`LOG_LINES`].
    pub fn say(&mut self, line: Sentence) {
        self.lines.push(line);
        self.said += 1;
        if self.lines.len() > LOG_LINES {
            let extra = self.lines.len() - LOG_LINES;
            self.lines.drain(..extra);
        }
    }

    /// The lines, oldest first.
    pub fn lines(&self) -> &[Sentence] {
        &self.lines
    }

    /// The lines, newest first, each with its number in the order said (a stable key, so a
    /// list shows a new line as one inserted element instead of rewriting every line).
    pub fn newest_first(&self) -> impl Iterator<Item = (u64, &Sentence)> {
        let said = self.said;
        self.lines
            .iter()
            .rev()
            .enumerate()
            .map(move |(i, l)| (said - 1 - i as u64, l))
    }

    /// What the live region says now: the newest line.
    pub fn announce(&self) -> String {
        self.lines
            .last()
            .map(ToString::to_string)
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_keep_their_number_as_older_ones_drop() {
        let mut log = Log::default();
        for i in 0..LOG_LINES + 3 {
            log.say(Sentence::plain(format!("line {i}")));
        }
        let shown: Vec<(u64, String)> = log
            .newest_first()
            .take(2)
            .map(|(n, l)| (n, l.to_string()))
            .collect();
        let last = (LOG_LINES + 2) as u64;
        assert_eq!(
            shown,
            vec![
                (last, format!("line {last}")),
                (last - 1, format!("line {}", last - 1))
            ]
        );
        assert_eq!(log.newest_first().last().map(|(n, _)| n), Some(3));
    }
}
