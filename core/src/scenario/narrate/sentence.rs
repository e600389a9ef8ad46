//! The narrator's sentence: text in spans, each with a style and perhaps a mention of what it
//! names, and the small word helpers (counts, offset ranges, lists) every narration uses.

use super::Panel;
use crate::human::date;
use logtime_model::units::{Offset, Timestamp};
use std::fmt;

/// What a span of a sentence names.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Mention {
    /// A segment, by its base offset.
    Segment(Offset),
    /// One offset (a record).
    Offset(Offset),
    /// The offsets from `first` to `last`, both included.
    Offsets {
        /// First offset.
        first: Offset,
        /// Last offset.
        last: Offset,
    },
    /// A config, by its Kafka name.
    Config(String),
    /// An instant.
    Time(Timestamp),
    /// A panel of the explorer (authored narration only).
    Panel(Panel),
    /// A page of Kafka's documentation, by its `https` URL (authored narration only).
    Link(String),
    /// A stream processor's time window, `[start, end)` (authored by `logtime-lesson`'s stream
    /// processor).
    Window {
        /// The first instant inside it.
        start: Timestamp,
        /// The first instant after it.
        end: Timestamp,
    },
}

/// How a span is set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Style {
    /// Running text.
    #[default]
    Plain,
    /// A name or value as typed (`retention.ms`).
    Code,
    /// Emphasis.
    Strong,
}

/// A run of text with one style and at most one mention.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Span {
    /// The text.
    pub text: String,
    /// How it is set.
    pub style: Style,
    /// What it names, if anything.
    pub mention: Option<Mention>,
}

/// Where a piece of narration comes from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Origin {
    /// Built by this module from the model's outcomes and events.
    #[default]
    Generated,
    /// Written by a person (a lesson or walkthrough's own narration).
    Authored,
}

/// A sentence for people: spans of text, some of which mention part of the partition.
///
/// Invariant: no span is empty, and two neighbouring plain spans without a mention are merged,
/// so equal texts with equal mentions compare equal.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sentence {
    spans: Vec<Span>,
}

impl Sentence {
    /// An empty sentence.
    pub fn new() -> Sentence {
        Sentence::default()
    }

    /// A sentence of plain text.
    pub fn plain(text: impl AsRef<str>) -> Sentence {
        let mut s = Sentence::new();
        s.text(text);
        s
    }

    /// The spans, in order.
    pub fn spans(&self) -> &[Span] {
        &self.spans
    }

    /// What the sentence mentions, in order.
    pub fn mentions(&self) -> impl Iterator<Item = &Mention> {
        self.spans.iter().filter_map(|s| s.mention.as_ref())
    }

    /// Whether it has no text.
    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    fn push(&mut self, text: &str, style: Style, mention: Option<Mention>) -> &mut Self {
        if text.is_empty() {
            return self;
        }
        if let Some(last) = self.spans.last_mut() {
            if mention.is_none() && last.mention.is_none() && last.style == style {
                last.text.push_str(text);
                return self;
            }
        }
        self.spans.push(Span {
            text: text.to_string(),
            style,
            mention,
        });
        self
    }

    /// Appends plain text.
    pub fn text(&mut self, text: impl AsRef<str>) -> &mut Self {
        self.push(text.as_ref(), Style::Plain, None)
    }

    /// Appends text set in a style.
    pub fn styled(&mut self, text: impl AsRef<str>, style: Style) -> &mut Self {
        self.push(text.as_ref(), style, None)
    }

    /// Appends text that mentions something.
    pub fn mention(&mut self, text: impl AsRef<str>, mention: Mention) -> &mut Self {
        self.push(text.as_ref(), Style::Plain, Some(mention))
    }

    /// Appends text set in a style that mentions something (authored narration: a bold link).
    pub fn styled_mention(
        &mut self,
        text: impl AsRef<str>,
        style: Style,
        mention: Mention,
    ) -> &mut Self {
        self.push(text.as_ref(), style, Some(mention))
    }

    /// Appends a segment's base offset, mentioning the segment.
    pub fn segment(&mut self, base: Offset) -> &mut Self {
        self.mention(base.to_string(), Mention::Segment(base))
    }

    /// Appends an offset, mentioning it.
    pub fn offset(&mut self, offset: Offset) -> &mut Self {
        self.mention(offset.to_string(), Mention::Offset(offset))
    }

    /// Appends `text`, mentioning the offsets from `first` to `last`.
    pub fn offsets(&mut self, text: impl AsRef<str>, first: Offset, last: Offset) -> &mut Self {
        self.mention(text, Mention::Offsets { first, last })
    }

    /// Appends a config's Kafka name, mentioning it.
    pub fn config(&mut self, name: &str) -> &mut Self {
        self.mention(name, Mention::Config(name.to_string()))
    }

    /// Appends an instant as a date for people (`12 Mar 2027 09:00`, UTC), mentioning it.
    pub fn time(&mut self, t: Timestamp) -> &mut Self {
        self.mention(date(t.0), Mention::Time(t))
    }

    /// Starts the sentence with a capital letter (for a list item or a line of its own).
    pub fn capitalize(&mut self) -> &mut Self {
        if let Some(c) = self.spans.first_mut().and_then(|s| s.text.get_mut(0..1)) {
            c.make_ascii_uppercase();
        }
        self
    }

    /// Appends another sentence.
    pub fn append(&mut self, other: Sentence) -> &mut Self {
        for s in other.spans {
            self.push(&s.text, s.style, s.mention);
        }
        self
    }

    /// The sentences one after the other, `separator` between them.
    pub fn join(parts: impl IntoIterator<Item = Sentence>, separator: &str) -> Sentence {
        let mut out = Sentence::new();
        for (i, p) in parts.into_iter().enumerate() {
            if i > 0 {
                out.text(separator);
            }
            out.append(p);
        }
        out
    }
}

/// Plain text through `write!`.
impl fmt::Write for Sentence {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.text(s);
        Ok(())
    }
}

impl fmt::Display for Sentence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for s in &self.spans {
            f.write_str(&s.text)?;
        }
        Ok(())
    }
}

/// `n` and its noun, singular for exactly one: `1 record`, `0 records`, `10000 batches`.
pub fn count(n: impl Into<i128>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

/// `offset 7` for one offset, `offsets 3 to 9` for a range.
pub fn offset_range(first: Offset, last: Offset) -> String {
    if first == last {
        format!("offset {first}")
    } else {
        format!("offsets {first} to {last}")
    }
}

/// `a`, `a and b`, `a, b and c`.
pub fn list(items: Vec<Sentence>) -> Sentence {
    let n = items.len();
    let mut out = Sentence::new();
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 {
            out.text(if i + 1 == n { " and " } else { ", " });
        }
        out.append(item);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fmt::Write;

    /// A count says its noun in the singular only for one; a range of one offset is that offset.
    #[test]
    fn counts_and_ranges_read_as_english() {
        assert_eq!(count(1u64, "record", "records"), "1 record");
        assert_eq!(count(0u64, "record", "records"), "0 records");
        assert_eq!(count(10_000u64, "batch", "batches"), "10000 batches");
        assert_eq!(count(-1i64, "record", "records"), "-1 records");
        assert_eq!(offset_range(Offset(7), Offset(7)), "offset 7");
        assert_eq!(offset_range(Offset(3), Offset(9)), "offsets 3 to 9");
    }

    #[test]
    fn sentences_merge_plain_text_and_keep_mentions() {
        let mut s = Sentence::plain("segment ");
        s.segment(Offset(20_000))
            .text(" is kept until ")
            .time(Timestamp(0));
        let _ = write!(s, " ({} more)", 2);
        assert_eq!(
            s.to_string(),
            "segment 20000 is kept until 1 Jan 1970 00:00 (2 more)"
        );
        assert_eq!(s.spans().len(), 5);
        assert_eq!(
            s.mentions().collect::<Vec<_>>(),
            vec![
                &Mention::Segment(Offset(20_000)),
                &Mention::Time(Timestamp(0))
            ]
        );
        let joined = Sentence::join([Sentence::plain("a"), s.clone()], "; ");
        assert!(joined.to_string().starts_with("a; segment 20000"));
        assert_eq!(joined.mentions().count(), 2);
        assert!(Sentence::plain("").is_empty());
        assert_eq!(Sentence::plain("step 1").capitalize().to_string(), "Step 1");
        assert_eq!(Sentence::plain("→ x").capitalize().to_string(), "→ x");
        let three = list(vec![
            Sentence::plain("1"),
            Sentence::plain("2"),
            Sentence::plain("3"),
        ]);
        assert_eq!(three.to_string(), "1, 2 and 3");
    }
}
