//! The narration markup: a small, safe subset of Markdown, parsed into a tree ([`Markup`]) and
//! lowered to the narrator's [`Sentence`]s, one per paragraph.
//!
//! * A blank line separates paragraphs; a single line break is a space.
//! * `` `code` `` sets a name or value as typed; `**bold**` emphasises (it may hold code and
//!   links).
//! * `[text](target)` links: `target` is either a page of Kafka's documentation (an `https` URL
//!   under `kafka.apache.org/`, `cwiki.apache.org/confluence/`, `github.com/apache/kafka` or
//!   `issues.apache.org/jira/browse/KAFKA-`) or what the text points at in the explorer, in the
//!   [`Target`] form (`segment:20000`, `offsets:24-28`, `config:retention.ms`, `panel:lookup`).
//!   A `[` that is not followed by `](` somewhere after its `]` is text (`[0, 10000]`).
//! * `\` before any ASCII punctuation makes it literal (`\*\*`, `` \` ``, `\[`).
//! * Raw HTML is refused: a `<` followed by a letter, `/`, `!` or `?` is an error, so nothing an
//!   author writes can become markup in a page. Every other character is text.
//!
//! Errors name the character (counted from 1) where the problem starts.

mod parser;
#[cfg(test)]
mod tests;

use crate::target::Target;
use logtime_core::scenario::narrate::{Mention, Sentence, Style};
use std::fmt;

/// One inline node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Inline {
    /// Text.
    Text(String),
    /// `` `code` ``.
    Code(String),
    /// `**bold**`: text, code and links.
    Strong(Vec<Inline>),
    /// `[text](target)`: its text is text and code.
    Link {
        /// The link's text.
        text: Vec<Inline>,
        /// Where it goes.
        to: LinkTo,
    },
}

/// Where a link goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkTo {
    /// A page of Kafka's documentation.
    Url(String),
    /// Something in the explorer.
    Target(Target),
}

/// Parsed narration: paragraphs of inline nodes.
///
/// Invariant: no paragraph is empty, no text node is empty, and two text nodes are never
/// neighbours.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Markup {
    paragraphs: Vec<Vec<Inline>>,
}

/// A markup error: where it starts (a character count from 1) and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MarkupError {
    /// The character, counted from 1, where the problem starts.
    pub at: usize,
    /// Lowercase reason.
    pub reason: String,
}

impl fmt::Display for MarkupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "malformed markup at character {}: {}",
            self.at, self.reason
        )
    }
}

impl Markup {
    /// Parses narration text.
    pub fn parse(text: &str) -> Result<Markup, MarkupError> {
        parser::parse(text)
    }

    /// The paragraphs.
    pub fn paragraphs(&self) -> &[Vec<Inline>] {
        &self.paragraphs
    }

    /// Whether there is no text at all.
    pub fn is_empty(&self) -> bool {
        self.paragraphs.is_empty()
    }

    /// Every explorer target a link points at, in reading order.
    pub fn targets(&self) -> Vec<&Target> {
        fn walk<'a>(nodes: &'a [Inline], out: &mut Vec<&'a Target>) {
            for n in nodes {
                match n {
                    Inline::Strong(inner) => walk(inner, out),
                    Inline::Link {
                        to: LinkTo::Target(t),
                        ..
                    } => out.push(t),
                    _ => {}
                }
            }
        }
        let mut out = Vec::new();
        for p in &self.paragraphs {
            walk(p, &mut out);
        }
        out
    }

    /// One [`Sentence`] per paragraph, each target resolved by `resolve` (normally
    /// [`Target::resolve`] against the partition at the step). Fails with the first target that
    /// does not resolve.
    pub fn sentences(
        &self,
        resolve: &dyn Fn(&Target) -> Result<Mention, String>,
    ) -> Result<Vec<Sentence>, String> {
        fn lower(
            nodes: &[Inline],
            style: Style,
            mention: Option<&Mention>,
            out: &mut Sentence,
            resolve: &dyn Fn(&Target) -> Result<Mention, String>,
        ) -> Result<(), String> {
            for n in nodes {
                match n {
                    Inline::Text(t) => match mention {
                        Some(m) => {
                            out.styled_mention(t, style, m.clone());
                        }
                        None => {
                            out.styled(t, style);
                        }
                    },
                    Inline::Code(c) => match mention {
                        Some(m) => {
                            out.styled_mention(c, Style::Code, m.clone());
                        }
                        None => {
                            out.styled(c, Style::Code);
                        }
                    },
                    Inline::Strong(inner) => lower(inner, Style::Strong, mention, out, resolve)?,
                    Inline::Link { text, to } => {
                        let m = match to {
                            LinkTo::Url(u) => Mention::Link(u.clone()),
                            LinkTo::Target(t) => resolve(t).map_err(|r| format!("{t}: {r}"))?,
                        };
                        lower(text, style, Some(&m), out, resolve)?;
                    }
                }
            }
            Ok(())
        }
        self.paragraphs
            .iter()
            .map(|p| {
                let mut s = Sentence::new();
                lower(p, Style::Plain, None, &mut s, resolve)?;
                Ok(s)
            })
            .collect()
    }

    /// The text without markup, paragraphs separated by a blank line (links keep only their
    /// text).
    pub fn plain(&self) -> String {
        fn walk(nodes: &[Inline], out: &mut String) {
            for n in nodes {
                match n {
                    Inline::Text(t) | Inline::Code(t) => out.push_str(t),
                    Inline::Strong(inner) | Inline::Link { text: inner, .. } => walk(inner, out),
                }
            }
        }
        let paras: Vec<String> = self
            .paragraphs
            .iter()
            .map(|p| {
                let mut s = String::new();
                walk(p, &mut s);
                s
            })
            .collect();
        paras.join("\n\n")
    }
}
