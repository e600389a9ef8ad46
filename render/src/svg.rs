//! A small SVG writer: elements with attributes, text always escaped. Scenario titles, link
//! parameters and narration reach the picture from untrusted files and links, so every piece of
//! text and every attribute value goes through [`escape`].

use std::fmt::Write;

/// `&`, `<`, `>`, `"` and `'` as entities; control characters (which XML 1.0 forbids) dropped.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\t' | '\n' | '\r' => out.push(' '),
            c if (c as u32) < 0x20 || c == '\u{fffe}' || c == '\u{ffff}' => {}
            c => out.push(c),
        }
    }
    out
}

/// A number as an attribute: whole numbers bare, others to one decimal, by integer arithmetic
/// (float formatting would add its tables to the web build's wasm).
pub fn num(v: f64) -> String {
    let t = if v.is_finite() {
        (v * 10.0).round() as i64
    } else {
        0
    };
    let sign = if t < 0 { "-" } else { "" };
    let a = t.unsigned_abs();
    if a % 10 == 0 {
        format!("{sign}{}", a / 10)
    } else {
        format!("{sign}{}.{}", a / 10, a % 10)
    }
}

/// The document being written.
#[derive(Default)]
pub struct Svg {
    out: String,
}

/// How a piece of text is set.
#[derive(Clone, Copy)]
pub struct Font<'a> {
    /// Size in px.
    pub size: f64,
    /// Fill colour.
    pub fill: &'a str,
    /// Bold.
    pub bold: bool,
    /// Monospace (offsets and stamps line up).
    pub mono: bool,
}

impl Svg {
    /// Raw markup (already escaped by the caller: only this module's own strings).
    pub fn raw(&mut self, s: &str) {
        self.out.push_str(s);
    }

    /// `<name a="v" …>` (or `/>` when `close`), every value escaped.
    pub fn open(&mut self, name: &str, attrs: &[(&str, String)], close: bool) {
        let _ = write!(self.out, "<{name}");
        for (k, v) in attrs {
            let _ = write!(self.out, " {k}=\"{}\"", escape(v));
        }
        self.out.push_str(if close { "/>" } else { ">" });
    }

    /// `</name>`.
    pub fn close(&mut self, name: &str) {
        let _ = write!(self.out, "</{name}>");
    }

    /// A rectangle.
    pub fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, fill: &str, stroke: Option<&str>) {
        let mut a = vec![
            ("x", num(x)),
            ("y", num(y)),
            ("width", num(w.max(0.0))),
            ("height", num(h.max(0.0))),
            ("rx", "3".to_string()),
            ("fill", fill.to_string()),
        ];
        if let Some(s) = stroke {
            a.push(("stroke", s.to_string()));
        }
        self.open("rect", &a, true);
    }

    /// A line.
    pub fn line(&mut self, (x1, y1): (f64, f64), (x2, y2): (f64, f64), stroke: &str, dash: bool) {
        let mut a = vec![
            ("x1", num(x1)),
            ("y1", num(y1)),
            ("x2", num(x2)),
            ("y2", num(y2)),
            ("stroke", stroke.to_string()),
        ];
        if dash {
            a.push(("stroke-dasharray", "4 3".to_string()));
        }
        self.open("line", &a, true);
    }

    /// One line of text at `(x, y)` (the baseline), escaped.
    pub fn text(&mut self, x: f64, y: f64, font: Font<'_>, text: &str) {
        let family = if font.mono {
            "DejaVu Sans Mono, Menlo, Consolas, monospace"
        } else {
            "DejaVu Sans, Helvetica, Arial, sans-serif"
        };
        let mut a = vec![
            ("x", num(x)),
            ("y", num(y)),
            ("font-family", family.to_string()),
            ("font-size", num(font.size)),
            ("fill", font.fill.to_string()),
        ];
        if font.bold {
            a.push(("font-weight", "bold".to_string()));
        }
        self.open("text", &a, false);
        self.out.push_str(&escape(text));
        self.close("text");
    }

    /// The document.
    pub fn finish(self) -> String {
        self.out
    }
}

/// How wide `text` is at `size` px, roughly (DejaVu Sans averages about 0.6 em a character), so
/// that text can be wrapped and cut without a font at hand.
pub fn text_width(text: &str, size: f64, mono: bool) -> f64 {
    let per = if mono { 0.61 } else { 0.6 };
    text.chars().count() as f64 * size * per
}

/// `text` cut into lines of at most `width` px at `size`, at spaces (a word longer than a line
/// is cut).
pub fn wrap(text: &str, width: f64, size: f64) -> Vec<String> {
    let max = ((width / (size * 0.6)).floor() as usize).max(8);
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let mut word = word.to_string();
        while word.chars().count() > max {
            let head: String = word.chars().take(max).collect();
            word = word.chars().skip(max).collect();
            if !line.is_empty() {
                lines.push(std::mem::take(&mut line));
            }
            lines.push(head);
        }
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > max {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// `text` cut to `width` px at `size`, with an ellipsis when cut.
pub fn fit(text: &str, width: f64, size: f64) -> String {
    let max = ((width / (size * 0.6)).floor() as usize).max(2);
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut s: String = text.chars().take(max - 1).collect();
    s.push('…');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped() {
        assert_eq!(
            escape("<a href=\"x\">&'\u{1}"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
        let mut s = Svg::default();
        let f = Font {
            size: 12.0,
            fill: "#000",
            bold: false,
            mono: false,
        };
        s.text(1.0, 2.5, f, "</text><script>");
        assert!(s.finish().contains("&lt;/text&gt;&lt;script&gt;"));
    }

    #[test]
    fn numbers_and_wrapping() {
        assert_eq!(num(3.0), "3");
        assert_eq!(num(-2.25), "-2.3");
        assert_eq!(num(f64::NAN), "0");
        let w = wrap("one two three four five six", 60.0, 10.0);
        assert_eq!(w, ["one two", "three four", "five six"]);
        assert_eq!(fit("abcdefghijkl", 60.0, 10.0), "abcdefghi…");
    }
}
