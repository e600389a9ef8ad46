//! The one way the command prints text that came from its input.
//!
//! Titles, descriptions, labels, file, partition and folder names and the names echoed in errors
//! are the input's own text: a control character in them (an ESC starting a terminal sequence,
//! a carriage return rewriting the line, a C1 CSI) would act on the reader's terminal instead of
//! being shown. Everything `check`, `explain` and `inspect` print passes through [`escape`] or
//! [`escape_lines`], which show such a character as `\u{1b}`; text without one is unchanged.

use std::borrow::Cow;
use std::fmt::Write;

/// `s` with every control character (C0, DEL, C1, newlines included) shown as `\u{..}`:
/// for one line of output.
pub fn escape(s: &str) -> Cow<'_, str> {
    escape_but(s, |_| false)
}

/// `s` with every control character but the newline shown as `\u{..}`: for output of many
/// lines the command lays out itself.
pub fn escape_lines(s: &str) -> Cow<'_, str> {
    escape_but(s, |c| c == '\n')
}

/// Whether a character acts on a terminal (or reorders what it shows) rather than being shown.
fn unsafe_char(c: char) -> bool {
    c.is_control()
        // Bidirectional overrides and isolates reorder the rest of the line.
        || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

fn escape_but(s: &str, keep: impl Fn(char) -> bool) -> Cow<'_, str> {
    if !s.chars().any(|c| unsafe_char(c) && !keep(c)) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if unsafe_char(c) && !keep(c) {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_are_shown_not_obeyed() {
        assert_eq!(escape("plain – text"), "plain – text");
        assert!(matches!(escape("plain"), Cow::Borrowed(_)));
        assert_eq!(escape("a\x1b[2Jb"), "a\\u{1b}[2Jb");
        assert_eq!(
            escape("a\rb\nc\u{9b}d\u{7f}"),
            "a\\u{d}b\\u{a}c\\u{9b}d\\u{7f}"
        );
        assert_eq!(escape("x\u{202e}y"), "x\\u{202e}y");
        assert_eq!(escape_lines("one\ntwo\x07\n"), "one\ntwo\\u{7}\n");
    }
}
