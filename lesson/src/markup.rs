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

use super::target::Target;
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

/// Where Kafka's documentation lives; links may go nowhere else.
const DOC_PREFIXES: &[&str] = &[
    "https://kafka.apache.org/",
    "https://cwiki.apache.org/confluence/",
    "https://github.com/apache/kafka/",
    "https://issues.apache.org/jira/browse/KAFKA-",
];

fn doc_url(url: &str) -> Result<String, String> {
    let url = &super::link::normalise(url)?;
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
                '`' => {
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
                }
                '*' if next == Some('*') => {
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
                }
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
                ']' if matches!(self.top().open, Open::LinkText) => {
                    let f = self.stack.pop().expect("checked");
                    if next != Some('(') {
                        // Not a link: the brackets are text.
                        let parent = self.top();
                        parent.text("[");
                        parent.extend(f.nodes);
                        parent.text("]");
                        self.i += 1;
                        continue;
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
                        return Err(err(start + 1, format!("links go to Kafka's documentation or to a target in the explorer, not {raw:?}")));
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
                }
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

impl Markup {
    /// Parses narration text.
    pub fn parse(text: &str) -> Result<Markup, MarkupError> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use logtime_core::scenario::narrate::Panel;
    use logtime_model::units::Offset;

    fn e(s: &str) -> String {
        Markup::parse(s).unwrap_err().to_string()
    }

    fn ok(t: &Target) -> Result<Mention, String> {
        Ok(match t {
            Target::Segment(b) | Target::SegmentOf(b) => Mention::Segment(*b),
            Target::Panel(p) => Mention::Panel(*p),
            _ => Mention::Config("x".into()),
        })
    }

    #[test]
    fn paragraphs_code_bold_and_links_make_a_tree() {
        let m = Markup::parse(
            "Segment **[20000](segment:20000)** holds a stamp\nfrom `2030`.\n\n  See [KIP-937](https://cwiki.apache.org/confluence/display/KAFKA/KIP-937) and **the [lookup](panel:lookup) panel**.  ",
        )
        .unwrap();
        assert_eq!(m.paragraphs().len(), 2);
        assert_eq!(
            m.paragraphs()[0],
            vec![
                Inline::Text("Segment ".into()),
                Inline::Strong(vec![Inline::Link {
                    text: vec![Inline::Text("20000".into())],
                    to: LinkTo::Target(Target::Segment(Offset(20000)))
                }]),
                Inline::Text(" holds a stamp from ".into()),
                Inline::Code("2030".into()),
                Inline::Text(".".into()),
            ]
        );
        assert_eq!(m.targets().len(), 2);
        assert_eq!(
            m.plain(),
            "Segment 20000 holds a stamp from 2030.\n\nSee KIP-937 and the lookup panel."
        );
        let s = m.sentences(&ok).unwrap();
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].to_string(), "Segment 20000 holds a stamp from 2030.");
        let spans = s[0].spans();
        assert_eq!(spans[1].style, Style::Strong);
        assert_eq!(spans[1].mention, Some(Mention::Segment(Offset(20000))));
        assert_eq!(spans[3].style, Style::Code);
        let links: Vec<&Mention> = s[1].mentions().collect();
        assert_eq!(
            links,
            vec![
                &Mention::Link("https://cwiki.apache.org/confluence/display/KAFKA/KIP-937".into()),
                &Mention::Panel(Panel::Lookup)
            ]
        );
    }

    #[test]
    fn brackets_without_a_target_and_escapes_are_text() {
        let m = Markup::parse(r"within [now - before, now + after] \*\* and \` and a < b").unwrap();
        assert_eq!(
            m.plain(),
            "within [now - before, now + after] ** and ` and a < b"
        );
        assert_eq!(Markup::parse("  \n\n ").unwrap(), Markup::default());
        assert!(Markup::parse("").unwrap().is_empty());
    }

    #[test]
    fn every_malformed_input_names_the_character_and_the_reason() {
        assert_eq!(
            e("a **bold"),
            "malformed markup at character 3: ** is not closed before the paragraph ends (write \\*\\* for literal asterisks)"
        );
        assert_eq!(
            e("a **bold\n\nnext**"),
            "malformed markup at character 3: ** is not closed before the paragraph ends (write \\*\\* for literal asterisks)"
        );
        assert_eq!(
            e("x `code"),
            "malformed markup at character 3: ` is not closed"
        );
        assert_eq!(e("``"), "malformed markup at character 1: empty `code`");
        assert_eq!(e("****"), "malformed markup at character 1: empty **bold**");
        assert_eq!(
            e("<b>bold</b>"),
            "malformed markup at character 1: raw HTML is not allowed: use **bold**, `code` or [text](link) (write \\< for a literal <)"
        );
        assert_eq!(
            e("[x](https://example.com/)"),
            "malformed markup at character 5: links go to Kafka's documentation only (an https URL starting https://kafka.apache.org/, https://cwiki.apache.org/confluence/, https://github.com/apache/kafka/, https://issues.apache.org/jira/browse/KAFKA-), not \"https://example.com/\""
        );
        assert!(e("[x](http://kafka.apache.org/)").contains("documentation only"));
        assert!(e("[x](javascript:alert(1))").contains("not \"javascript:alert(1\""));
        assert_eq!(
            e("[x](segment:abc)"),
            "malformed markup at character 5: expected an offset (an integer ≥ 0), got \"abc\""
        );
        assert_eq!(
            e("[x](segment:1"),
            "malformed markup at character 4: ( of a link is not closed by )"
        );
        assert_eq!(
            e("[](segment:1)"),
            "malformed markup at character 1: a link needs text between [ and ]"
        );
        assert_eq!(
            e("[a [b](segment:1)](segment:2)"),
            "malformed markup at character 4: a link's text cannot hold another [ (write \\[ for a literal bracket)"
        );
        assert_eq!(
            e("[a **b**](segment:1)"),
            "malformed markup at character 4: ** inside a link's text (put the link inside the bold instead)"
        );
        assert_eq!(
            e("[x](https://kafka.apache.org/a b)"),
            "malformed markup at character 5: link \"https://kafka.apache.org/a b\" contains ' '"
        );
    }

    #[test]
    fn a_target_that_does_not_resolve_names_itself() {
        let m = Markup::parse("see [it](segment:5)").unwrap();
        let e = m
            .sentences(&|_| Err("no segment with base offset 5".into()))
            .unwrap_err();
        assert_eq!(e, "segment:5: no segment with base offset 5");
    }
}

#[cfg(test)]
mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Any text parses or fails with an error inside it; what parses lowers to sentences
        /// whose text is the plain text, paragraph by paragraph.
        #[test]
        fn any_text_parses_or_names_a_character(text in "[a-z \\n*`\\[\\]()<>\\\\:.0-9segmnt-]{0,80}") {
            match Markup::parse(&text) {
                Ok(m) => {
                    let s = m.sentences(&|_| Ok(Mention::Config("x".into()))).unwrap();
                    let plain: Vec<String> = s.iter().map(|s| s.to_string()).collect();
                    prop_assert_eq!(plain.join("\n\n"), m.plain());
                    prop_assert!(m.paragraphs().iter().all(|p| !p.is_empty()));
                }
                Err(e) => prop_assert!(e.at >= 1 && e.at <= text.chars().count() + 1, "{e}"),
            }
        }
    }
}
