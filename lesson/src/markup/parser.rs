//! The markup parser: one pass over the characters with a stack of open nodes (the paragraph,
//! a `**`, a link's text), following the rules in the [module documentation](super).

use super::{Inline, LinkTo, Markup, MarkupError};
use crate::target::Target;

/// Where Kafka's documentation lives; links may go nowhere else.
const DOC_PREFIXES: &[&str] = &[
    "https://kafka.apache.org/",
    "https://cwiki.apache.org/confluence/",
    "https://github.com/apache/kafka/",
    "https://issues.apache.org/jira/browse/KAFKA-",
];

fn doc_url(url: &str) -> Result<String, String> {
    let url = &crate::link::normalise(url)?;
    let bad = url
        .chars()
        .find(|c| c.is_whitespace() || c.is_control() || "\"'<>\\`{}|^".contains(*c));
    if let Some(c) = bad {
        return Err(format!("link {url:?} contains {c:?}"));
    }
    if url == "https://github.com/apache/kafka" || DOC_PREFIXES.iter().any(|p| url.starts_with(p)) {
        Ok(url.to_string())
    } else {
        Err(format!(
            "links go to Kafka's documentation only (an https URL starting {}), not {url:?}",
            DOC_PREFIXES.join(", ")
        ))
    }
}

/// A node being built: the root of a paragraph, a `**` or a link's text.
#[derive(Debug)]
enum Open {
    Root,
    Strong,
    LinkText,
}

#[derive(Debug)]
struct Frame {
    open: Open,
    /// The character where it was opened.
    at: usize,
    nodes: Vec<Inline>,
}

impl Frame {
    fn text(&mut self, s: &str) {
        if s.is_empty() {
            return;
        }
        if let Some(Inline::Text(t)) = self.nodes.last_mut() {
            t.push_str(s);
        } else {
            self.nodes.push(Inline::Text(s.to_string()));
        }
    }

    fn extend(&mut self, nodes: Vec<Inline>) {
        for n in nodes {
            match n {
                Inline::Text(t) => self.text(&t),
                other => self.nodes.push(other),
            }
        }
    }
}

struct Parser {
    chars: Vec<char>,
    i: usize,
    stack: Vec<Frame>,
    paragraphs: Vec<Vec<Inline>>,
}

fn err(at: usize, reason: impl Into<String>) -> MarkupError {
    MarkupError {
        at,
        reason: reason.into(),
    }
}

impl Parser {
    fn top(&mut self) -> &mut Frame {
        self.stack
            .last_mut()
            .expect("the root frame is never popped")
    }

    /// Closes the paragraph: an open `**` is an error; an open `[` is text.
    fn end_paragraph(&mut self) -> Result<(), MarkupError> {
        while self.stack.len() > 1 {
            let f = self.stack.pop().expect("checked");
            match f.open {
                Open::Strong => {
                    return Err(err(
                        f.at,
                        "** is not closed before the paragraph ends (write \\*\\* for literal asterisks)",
                    ))
                }
                Open::LinkText => {
                    let parent = self.top();
                    parent.text("[");
                    parent.extend(f.nodes);
                }
                Open::Root => unreachable!("only the bottom frame is the root"),
            }
        }
        let root = self.top();
        let mut nodes = std::mem::take(&mut root.nodes);
        // Trim the paragraph's outer spaces.
        if let Some(Inline::Text(t)) = nodes.first_mut() {
            *t = t.trim_start().to_string();
        }
        if let Some(Inline::Text(t)) = nodes.last_mut() {
            *t = t.trim_end().to_string();
        }
        nodes.retain(|n| !matches!(n, Inline::Text(t) if t.is_empty()));
        if !nodes.is_empty() {
            self.paragraphs.push(nodes);
        }
        Ok(())
    }

    /// `` `code` `` starting at character `at`: the text up to the next backtick, as typed.
    fn code(&mut self, at: usize) -> Result<(), MarkupError> {
        let start = self.i + 1;
        let end = self.chars[start..]
            .iter()
            .position(|&c| c == '`')
            .map(|k| start + k)
            .ok_or_else(|| err(at, "` is not closed"))?;
        let code: String = self.chars[start..end].iter().collect();
        if code.contains("\n\n") || code.trim().is_empty() {
            return Err(err(
                at,
                if code.trim().is_empty() {
                    "empty `code`"
                } else {
                    "` is not closed before the paragraph ends"
                },
            ));
        }
        self.top().nodes.push(Inline::Code(code.replace('\n', " ")));
        self.i = end + 1;
        Ok(())
    }

    /// `**` at character `at`: closes the open bold, or opens one (never inside a link's text).
    fn bold(&mut self, at: usize) -> Result<(), MarkupError> {
        self.i += 2;
        if matches!(self.top().open, Open::Strong) {
            let f = self.stack.pop().expect("checked");
            if f.nodes.is_empty() {
                return Err(err(f.at, "empty **bold**"));
            }
            self.top().nodes.push(Inline::Strong(f.nodes));
        } else if matches!(self.top().open, Open::LinkText) {
            return Err(err(
                at,
                "** inside a link's text (put the link inside the bold instead)",
            ));
        } else {
            self.stack.push(Frame {
                open: Open::Strong,
                at,
                nodes: Vec::new(),
            });
        }
        Ok(())
    }

    /// `]` closing a link's text: with `(target)` after it, a link to Kafka's documentation or
    /// to a target in the explorer; without, the brackets are text.
    fn close_link(&mut self, next: Option<char>) -> Result<(), MarkupError> {
        let f = self.stack.pop().expect("checked");
        if next != Some('(') {
            // Not a link: the brackets are text.
            let parent = self.top();
            parent.text("[");
            parent.extend(f.nodes);
            parent.text("]");
            self.i += 1;
            return Ok(());
        }
        let start = self.i + 2;
        let end = self.chars[start..]
            .iter()
            .position(|&c| c == ')' || c == '\n')
            .map(|k| start + k)
            .filter(|&e| self.chars[e] == ')')
            .ok_or_else(|| err(self.i + 2, "( of a link is not closed by )"))?;
        let raw: String = self.chars[start..end].iter().collect();
        let raw = raw.trim();
        let to = if raw.contains("://") || raw.starts_with("http") {
            LinkTo::Url(doc_url(raw).map_err(|r| err(start + 1, r))?)
        } else if raw.starts_with("javascript:") || raw.starts_with("data:") {
            return Err(err(
                start + 1,
                format!(
                    "links go to Kafka's documentation or to a target in the explorer, not {raw:?}"
                ),
            ));
        } else {
            LinkTo::Target(Target::parse(raw).map_err(|r| err(start + 1, r))?)
        };
        let mut text = f.nodes;
        if let Some(Inline::Text(t)) = text.first_mut() {
            *t = t.trim_start().to_string();
        }
        if let Some(Inline::Text(t)) = text.last_mut() {
            *t = t.trim_end().to_string();
        }
        text.retain(|n| !matches!(n, Inline::Text(t) if t.is_empty()));
        if text.is_empty() {
            return Err(err(f.at, "a link needs text between [ and ]"));
        }
        self.top().nodes.push(Inline::Link { text, to });
        self.i = end + 1;
        Ok(())
    }

    fn run(mut self) -> Result<Markup, MarkupError> {
        while self.i < self.chars.len() {
            let at = self.i + 1;
            let c = self.chars[self.i];
            let next = self.chars.get(self.i + 1).copied();
            match c {
                '\\' if next.is_some_and(|n| n.is_ascii_punctuation()) => {
                    let n = next.expect("checked");
                    self.top().text(&n.to_string());
                    self.i += 2;
                }
                '`' => self.code(at)?,
                '*' if next == Some('*') => self.bold(at)?,
                '[' => {
                    if self.stack.iter().any(|f| matches!(f.open, Open::LinkText)) {
                        return Err(err(
                            at,
                            "a link's text cannot hold another [ (write \\[ for a literal bracket)",
                        ));
                    }
                    self.stack.push(Frame {
                        open: Open::LinkText,
                        at,
                        nodes: Vec::new(),
                    });
                    self.i += 1;
                }
                ']' if matches!(self.top().open, Open::LinkText) => self.close_link(next)?,
                '<' if next.is_some_and(|n| n.is_ascii_alphabetic() || "/!?".contains(n)) => {
                    return Err(err(
                        at,
                        "raw HTML is not allowed: use **bold**, `code` or [text](link) (write \\< for a literal <)",
                    ));
                }
                '\n' | '\r' => {
                    // A blank line ends the paragraph; a single line break is a space.
                    let mut k = self.i + 1;
                    let mut blank = false;
                    while k < self.chars.len() && self.chars[k].is_whitespace() {
                        if self.chars[k] == '\n' {
                            blank = true;
                        }
                        k += 1;
                    }
                    if blank {
                        self.end_paragraph()?;
                    } else {
                        self.top().text(" ");
                    }
                    self.i = k;
                }
                c => {
                    if c.is_control() && c != '\t' {
                        return Err(err(at, format!("control character {c:?}")));
                    }
                    self.top().text(&c.to_string());
                    self.i += 1;
                }
            }
        }
        self.end_paragraph()?;
        Ok(Markup {
            paragraphs: self.paragraphs,
        })
    }
}

/// Parses narration text (see [`Markup::parse`]).
pub(super) fn parse(text: &str) -> Result<Markup, MarkupError> {
    Parser {
        chars: text.chars().collect(),
        i: 0,
        stack: vec![Frame {
            open: Open::Root,
            at: 1,
            nodes: Vec::new(),
        }],
        paragraphs: Vec::new(),
    }
    .run()
}
